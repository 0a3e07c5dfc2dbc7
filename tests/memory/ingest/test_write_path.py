"""The write path of `add`: decided with no lock held, replayed under the lock, merges archived.

A matcher (model load, embedding, LLM judge) runs before the knowledge file's lock is taken;
under the lock the decision is replayed on the file as it is then, and made again outside
the lock only when the file changed in a way that matters. A merge keeps the wording it does
not keep in ARCHIVE.md.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher
from fireworks_skill_memory.memory.errors import LockTimeout
from fireworks_skill_memory.memory.ingest import MAX_DECISIONS, add_lesson
from fireworks_skill_memory.memory.store.archive import archive_path, read_archive
from fireworks_skill_memory.memory.store.files import locked
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Match, Store, exact_matcher
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import CliInvoker, FakeEmbedder

SKILL = "demo"
LINT = "Run the linter before committing code"
LINT_AGAIN = "Always run the linter before committing any code changes"


class ScriptedMatcher:
    """A matcher whose verdicts (and side effects, as if another process wrote) are scripted."""

    def __init__(self, *steps: object) -> None:
        self.steps = list(steps)
        self.calls: list[list[str]] = []

    def __call__(self, existing: Sequence[Lesson], candidate: Lesson) -> Match:
        self.calls.append([lesson.text for lesson in existing])
        step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        assert callable(step)
        match = step(existing, candidate)
        assert isinstance(match, Match)
        return match


def _by_text(existing: Sequence[Lesson], text: str) -> str:
    return next(lesson.id for lesson in existing if lesson.text == text)


# ---- replay under the lock -------------------------------------------------------------------


def test_unchanged_file_applies_the_decision_once(store: Store) -> None:
    add_lesson(store, SKILL, "Pin the base image digest")
    matcher = ScriptedMatcher(lambda existing, candidate: Match(None, "below-band", 0.1))
    outcome = add_lesson(store, SKILL, "Cache the pip wheels between CI runs", matcher=matcher)
    assert outcome.action == "added" and outcome.reason == "below-band"
    assert len(matcher.calls) == 1
    assert [lesson.text for lesson in store.lessons(SKILL)] == [
        "Pin the base image digest",
        "Cache the pip wheels between CI runs",
    ]


def test_new_lessons_that_appeared_are_decided_again(store: Store, settings: Settings) -> None:
    other = Store(settings)  # another process, writing while this one decides

    def first(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        add_lesson(other, SKILL, "Cache pip wheels in CI")
        return Match(None, "below-band", 0.2)

    def second(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        return Match(_by_text(existing, "Cache pip wheels in CI"), "test-merge", 0.9)

    matcher = ScriptedMatcher(first, second)
    outcome = add_lesson(store, SKILL, "Cache the pip wheels between CI runs", matcher=matcher)
    assert matcher.calls == [[], ["Cache pip wheels in CI"]]
    assert outcome.action == "merged" and outcome.reason == "test-merge"
    (lesson,) = store.lessons(SKILL)
    assert lesson.hits == 2


def test_a_vanished_merge_target_is_decided_again(store: Store, settings: Settings) -> None:
    target = add_lesson(store, SKILL, "Cache pip wheels in CI").lesson
    add_lesson(store, SKILL, "Pin the base image digest")
    other = Store(settings)

    def first(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        other.remove(SKILL, [target.id])
        return Match(target.id, "test-merge", 0.9)

    matcher = ScriptedMatcher(first, lambda existing, candidate: Match(None, "below-band", 0.3))
    outcome = add_lesson(store, SKILL, "Cache the pip wheels between CI runs", matcher=matcher)
    assert len(matcher.calls) == 2
    assert outcome.action == "added"
    assert [lesson.text for lesson in store.lessons(SKILL)] == [
        "Pin the base image digest",
        "Cache the pip wheels between CI runs",
    ]


def test_a_merge_holds_while_its_target_exists(store: Store, settings: Settings) -> None:
    target = add_lesson(store, SKILL, "Cache pip wheels in CI").lesson
    other = Store(settings)

    def merge(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        add_lesson(other, SKILL, "Pin the base image digest")  # unrelated, appeared meanwhile
        return Match(target.id, "test-merge", 0.9)

    matcher = ScriptedMatcher(merge)
    outcome = add_lesson(store, SKILL, "Cache the pip wheels between CI runs", matcher=matcher)
    assert len(matcher.calls) == 1
    assert outcome.action == "merged" and outcome.merged_from == target


def test_an_exact_twin_that_appeared_is_merged_without_deciding_again(
    store: Store, settings: Settings
) -> None:
    other = Store(settings)

    def new(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        add_lesson(other, SKILL, "cache the pip wheels between CI runs.")
        return Match(None, "below-band", 0.0)

    matcher = ScriptedMatcher(new)
    outcome = add_lesson(store, SKILL, "Cache the pip wheels between CI runs", matcher=matcher)
    assert len(matcher.calls) == 1
    assert outcome.action == "merged" and outcome.reason == "exact"
    (lesson,) = store.lessons(SKILL)
    assert lesson.hits == 2


def test_a_file_that_keeps_changing_still_gets_the_lesson(store: Store, settings: Settings) -> None:
    other = Store(settings)
    written = iter(range(100))

    def busy(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        add_lesson(other, SKILL, f"Unrelated lesson number {next(written)}")
        return Match(None, "below-band", 0.1)

    matcher = ScriptedMatcher(busy)
    outcome = add_lesson(store, SKILL, "Cache the pip wheels between CI runs", matcher=matcher)
    assert len(matcher.calls) == MAX_DECISIONS
    assert outcome.action == "added"
    texts = [lesson.text for lesson in store.lessons(SKILL)]
    assert texts[-1] == "Cache the pip wheels between CI runs"
    assert len(texts) == MAX_DECISIONS + 1


def test_the_last_resort_still_merges_an_exact_twin(store: Store, settings: Settings) -> None:
    other = Store(settings)
    count = iter(range(100))

    def busy(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        number = next(count)
        if number == MAX_DECISIONS - 1:
            add_lesson(other, SKILL, candidate.text)
        else:
            add_lesson(other, SKILL, f"Unrelated lesson number {number}")
        return Match(None, "below-band", 0.1)

    outcome = add_lesson(store, SKILL, "Cache the pip wheels", matcher=ScriptedMatcher(busy))
    assert outcome.action == "merged" and outcome.reason == "exact"
    assert [lesson.text for lesson in store.lessons(SKILL)].count("Cache the pip wheels") == 1


def test_matcher_none_always_adds(store: Store) -> None:
    add_lesson(store, SKILL, "same text")
    assert add_lesson(store, SKILL, "same text", matcher=None).action == "added"
    assert len(store.lessons(SKILL)) == 2


# ---- no lock while deciding ------------------------------------------------------------------


class BlockingEmbedder(EmbeddingModel):
    """Blocks inside embed_batch until the test has probed the knowledge file's lock."""

    model_id = "fake/blocking"

    def __init__(self) -> None:
        self.inner = FakeEmbedder()
        self.embedding = threading.Event()
        self.probed = threading.Event()

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.embedding.set()
        assert self.probed.wait(20), "the test never probed the lock"
        return self.inner.embed_batch(texts)


def test_no_lock_is_held_while_text_is_embedded(store: Store) -> None:
    add_lesson(store, SKILL, "Pin the base image digest")
    embedder = BlockingEmbedder()
    outcomes = []
    adder = threading.Thread(
        target=lambda: outcomes.append(
            add_lesson(store, SKILL, LINT, matcher=SemanticMatcher(embedder))
        )
    )
    adder.start()
    assert embedder.embedding.wait(20)
    probed = []
    with locked(store.knowledge_path(SKILL), timeout=2.0):  # LockTimeout if add held it
        probed.append(adder.is_alive())
    embedder.probed.set()
    adder.join(30)
    assert not adder.is_alive()
    assert probed == [True]
    assert [outcome.action for outcome in outcomes] == ["added"]
    assert [lesson.text for lesson in store.lessons(SKILL)] == ["Pin the base image digest", LINT]


def test_a_write_during_embedding_is_seen_by_the_replay(store: Store) -> None:
    add_lesson(store, SKILL, "Pin the base image digest")
    embedder = BlockingEmbedder()
    outcomes = []
    adder = threading.Thread(
        target=lambda: outcomes.append(
            add_lesson(store, SKILL, LINT_AGAIN, matcher=SemanticMatcher(embedder))
        )
    )
    adder.start()
    assert embedder.embedding.wait(20)
    add_lesson(Store(store.settings), SKILL, LINT)  # takes the lock itself: proves it is free
    embedder.probed.set()
    adder.join(30)
    assert [(o.action, o.lesson.text) for o in outcomes] == [("merged", LINT)]
    assert [lesson.text for lesson in store.lessons(SKILL)] == ["Pin the base image digest", LINT]


def test_no_lock_is_held_while_the_judge_is_asked(store: Store) -> None:
    add_lesson(store, SKILL, "Pin the base image digest")
    path = store.knowledge_path(SKILL)

    def judge_like(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        with locked(path, timeout=1.0):  # LockTimeout if add held it
            return Match(None, "judge:different", 0.6)

    outcome = add_lesson(store, SKILL, LINT, matcher=judge_like)
    assert outcome.action == "added" and outcome.reason == "judge:different"


class NoModel(EmbeddingModel):
    """An embedder that must never be used."""

    model_id = "fake/none"

    @property
    def dimension(self) -> int:
        raise AssertionError("the model was loaded")

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        raise AssertionError("the model was loaded")


def test_an_empty_skill_or_an_exact_repeat_loads_no_model(store: Store) -> None:
    matcher = SemanticMatcher(NoModel())
    assert add_lesson(store, SKILL, LINT, matcher=matcher).action == "added"
    again = add_lesson(store, SKILL, LINT.upper(), matcher=matcher)
    assert again.action == "merged" and again.reason == "exact"


def test_the_judge_is_asked_once_per_pair(store: Store) -> None:
    asked: list[tuple[str, str]] = []

    def judge(existing: str, candidate: str) -> bool | None:
        asked.append((existing, candidate))
        return False

    matcher = SemanticMatcher(FakeEmbedder(), judge)
    pair = ("deploy the web app to staging first", "deploy the web app to staging daily")
    for _ in range(2):
        matcher._ask_judge(judge, *pair)
    assert asked == [pair]


# ---- a lock that cannot be had ---------------------------------------------------------------


def test_a_busy_file_names_the_remedy_and_a_retry_succeeds(
    cli: CliInvoker, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("fireworks_skill_memory.memory.store.files.LOCK_TIMEOUT_SECONDS", 0.3)
    add_lesson(store, SKILL, "Pin the base image digest")
    with locked(store.knowledge_path(SKILL)):
        busy = cli("add", "--skill", SKILL, LINT)
    assert busy.exit_code == 1
    assert "busy" in busy.output and "run the same command again" in busy.output
    assert "nothing was written" in busy.output
    assert [lesson.text for lesson in store.lessons(SKILL)] == ["Pin the base image digest"]
    again = cli("add", "--skill", SKILL, LINT)
    assert again.exit_code == 0, again.output
    assert [lesson.text for lesson in store.lessons(SKILL)] == ["Pin the base image digest", LINT]


def test_lock_timeout_message(tmp_path: Path) -> None:
    path = str(tmp_path / "KNOWLEDGE.md")
    with locked(path), pytest.raises(LockTimeout) as caught, locked(path, timeout=0.05):
        pass
    assert str(caught.value) == (
        f"{path} is busy: another process held its lock for 0.05 s, so nothing was written "
        "to it; run the same command again"
    )


# ---- merges keep the wording they fold in ----------------------------------------------------


def test_a_merge_archives_the_new_wording_it_does_not_keep(
    store: Store, settings: Settings
) -> None:
    kept = add_lesson(store, SKILL, LINT, "CI").lesson
    outcome = add_lesson(store, SKILL, LINT_AGAIN, "Lint", matcher=SemanticMatcher(FakeEmbedder()))
    assert outcome.action == "merged"
    assert outcome.lesson.text == LINT
    assert outcome.merged_wording == LINT_AGAIN
    assert outcome.archived_to == archive_path(settings, SKILL)
    assert Path(outcome.archived_to).parent == Path(store.knowledge_path(SKILL)).parent
    (archived,) = read_archive(settings, SKILL)
    assert archived.lesson.text == LINT_AGAIN and archived.lesson.tag == "Lint"
    assert archived.reason == f"merged into {kept.id}"
    assert archived.date == store.now().strftime("%Y-%m-%d")
    assert LINT_AGAIN not in Path(store.knowledge_path(SKILL)).read_text()
    assert outcome.as_json()["merged_wording"] == LINT_AGAIN


def test_a_merge_that_rewords_archives_the_old_wording(store: Store, settings: Settings) -> None:
    old = add_lesson(store, SKILL, "Lint first", "CI", matcher=None).lesson

    def reword(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        return Match(old.id, "test-merge", 0.9, candidate.text)

    outcome = add_lesson(store, SKILL, LINT, matcher=reword)
    assert outcome.lesson.text == LINT and outcome.merged_wording == "Lint first"
    (archived,) = read_archive(settings, SKILL)
    assert archived.lesson == old
    assert archived.reason == f"merged into {outcome.lesson.id}"
    assert [lesson.text for lesson in store.lessons(SKILL)] == [LINT]


def test_a_second_archived_merge_is_appended(store: Store, settings: Settings) -> None:
    add_lesson(store, SKILL, LINT)
    matcher = SemanticMatcher(FakeEmbedder())
    add_lesson(store, SKILL, LINT_AGAIN, matcher=matcher)
    add_lesson(store, SKILL, "Run the linter before committing the code", matcher=matcher)
    assert [item.lesson.text for item in read_archive(settings, SKILL)] == [
        LINT_AGAIN,
        "Run the linter before committing the code",
    ]
    text = Path(archive_path(settings, SKILL)).read_text()
    assert text.count("# demo — archive") == 1


def test_an_exact_repeat_archives_nothing(store: Store, settings: Settings) -> None:
    add_lesson(store, SKILL, LINT)
    outcome = add_lesson(store, SKILL, LINT.lower() + ".", matcher=SemanticMatcher(FakeEmbedder()))
    assert outcome.action == "merged" and outcome.merged_wording is None
    assert outcome.archived_to is None
    assert not Path(archive_path(settings, SKILL)).exists()


def test_a_dry_run_merge_reports_the_wording_and_writes_nothing(
    store: Store, settings: Settings
) -> None:
    add_lesson(store, SKILL, LINT)
    before = Path(store.knowledge_path(SKILL)).read_text()
    outcome = add_lesson(
        store, SKILL, LINT_AGAIN, matcher=SemanticMatcher(FakeEmbedder()), dry_run=True
    )
    assert outcome.action == "merged" and outcome.merged_wording == LINT_AGAIN
    assert outcome.archived_to is None
    assert Path(store.knowledge_path(SKILL)).read_text() == before
    assert not Path(archive_path(settings, SKILL)).exists()


def test_a_global_merge_archives_to_global_archive(store: Store, settings: Settings) -> None:
    add_lesson(store, None, LINT)
    outcome = add_lesson(store, None, LINT_AGAIN, matcher=SemanticMatcher(FakeEmbedder()))
    assert outcome.archived_to == str(Path(settings.global_file).parent / "ARCHIVE.md")
    (archived,) = read_archive(settings, None)
    assert archived.lesson.text == LINT_AGAIN and archived.lesson.skill is None
    assert Path(outcome.archived_to).read_text().startswith("# Global principles — archive")


def test_the_archived_line_restores_as_it_was(store: Store, settings: Settings) -> None:
    add_lesson(store, SKILL, LINT)
    add_lesson(store, SKILL, LINT_AGAIN, "Lint", matcher=SemanticMatcher(FakeEmbedder()))
    lines = Path(archive_path(settings, SKILL)).read_text().splitlines()
    entry = next(line for line in lines if line.startswith("- "))
    assert entry == f"- [{store.month()}] [Lint] {LINT_AGAIN}  [HIT:1]"


def test_add_prints_both_texts_of_a_merge(cli: CliInvoker, settings: Settings) -> None:
    cli("add", "--skill", SKILL, LINT)
    out = cli("add", "--skill", SKILL, LINT_AGAIN).output
    assert out.startswith("merged into ")
    assert f"kept:      {LINT}" in out
    assert f"folded in: {LINT_AGAIN}" in out
    assert archive_path(settings, SKILL) in out
    data = json.loads(
        cli("add", "--skill", SKILL, "--json", "Run linter before committing code").output
    )
    assert data["action"] == "merged"
    assert data["lesson"]["text"] == LINT
    assert data["merged_wording"] == "Run linter before committing code"
    assert data["archived_to"] == archive_path(settings, SKILL)


def test_exact_matcher_merges_archive_nothing(store: Store, settings: Settings) -> None:
    add_lesson(store, SKILL, LINT, matcher=exact_matcher)
    assert add_lesson(store, SKILL, LINT, matcher=exact_matcher).merged_wording is None
    assert not Path(archive_path(settings, SKILL)).exists()


# ---- the real model --------------------------------------------------------------------------

GIT_LESSONS = (
    ("Worktree", "git worktree add lets you check out a second branch in its own folder"),
    ("Rebase", "Run git rebase -i on your own unpushed commits only, never on shared history"),
    ("Commits", "Write commit subjects in the imperative mood under 72 characters"),
    ("Push", "Use git push --force-with-lease instead of --force to keep a teammate's work"),
    ("Bisect", "git bisect run with a test script finds the commit that broke a build"),
    ("Stash", "git stash -u also stashes untracked files; plain git stash leaves them behind"),
    ("Hooks", "Keep shared hooks in a tracked folder and point core.hooksPath at it"),
    ("Reflog", "git reflog recovers commits lost after a bad reset or rebase"),
    ("Ignore", "Add build output to .gitignore before the first commit, not after"),
    ("Blame", "git blame -w ignores whitespace changes when hunting for who changed a line"),
)


@pytest.mark.real_model
def test_new_wording_is_never_lost_with_the_real_model(
    cli_real: CliInvoker, store: Store, settings: Settings
) -> None:
    for tag, text in GIT_LESSONS:
        add_lesson(store, "git", text, tag)
    new = "Use git switch instead of checkout for branches"
    data = json.loads(cli_real("add", "--skill", "git", "--json", new).output)
    knowledge = Path(store.knowledge_path("git")).read_text()
    archived = [item.lesson.text for item in read_archive(settings, "git")]
    assert new in knowledge or new in archived
    assert len(store.lessons("git")) == len(GIT_LESSONS) + (data["action"] == "added")
    if data["action"] == "merged":
        assert data["merged_wording"] == new
        assert archived == [new]
        assert data["archived_to"] == archive_path(settings, "git")
