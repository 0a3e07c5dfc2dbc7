"""The lesson ledger (provenance and per-lesson state beside the markdown), the quarantine
shelf and the review moves, on the store with stand-in screens and matchers."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.ingest import Ingest, LessonCandidate, add_lesson, review
from fireworks_skill_memory.memory.screen.screen import Trust
from fireworks_skill_memory.memory.store.archive import (
    QUARANTINE_FILE,
    archive_path,
    read_archive,
)
from fireworks_skill_memory.memory.store.ledger import ledger_path, read_ledger
from fireworks_skill_memory.memory.store.lesson import Lesson, normalize_for_id
from fireworks_skill_memory.memory.store.markdown_store import (
    AddOutcome,
    Match,
    Matcher,
    Store,
    exact_matcher,
)
from fireworks_skill_memory.memory.store.provenance import Provenance

SKILL = "demo"
POISON_WORD = "exfiltrate"


@dataclass(frozen=True)
class Verdict:
    quarantined: bool
    reason: str


class WordScreen:
    """Quarantines any lesson holding POISON_WORD (the real screen has its own tests)."""

    def screen_batch(
        self, lessons: Sequence[tuple[str | None, str]], trust: Trust
    ) -> list[Verdict]:
        return [
            Verdict(True, "test rule") if POISON_WORD in text else Verdict(False, "")
            for _, text in lessons
        ]


def screened(
    store: Store,
    skill: str,
    text: str,
    *,
    matcher: Matcher = exact_matcher,
    origin: Provenance | None = None,
    dry_run: bool = False,
) -> AddOutcome:
    """One lesson through the write pipeline with the stand-in screen."""
    pipeline = Ingest(
        store=store,
        screen=WordScreen(),
        trust=Trust.NORMAL,
        source="add",
        matcher=matcher,
        dry_run=dry_run,
    )
    return pipeline.add(LessonCandidate(text, skill, provenance=origin)).outcome


@pytest.fixture
def authored(env: dict[str, str]) -> Settings:
    env["SKILL_MEMORY_AUTHOR"] = "ada@example.org"
    return load_settings(env)


def records(settings: Settings, skill: str | None = SKILL) -> dict[str, dict[str, object]]:
    return {key: r.as_json() for key, r in read_ledger(settings, skill).records.items()}


def test_an_added_lesson_is_recorded_with_its_provenance(authored: Settings) -> None:
    store = Store(authored)
    origin = store.provenance("distill", agent="codex", session="s-1", backend="anthropic")
    outcome = add_lesson(
        store, SKILL, "Run alembic upgrade head before the dev server", origin=origin
    )
    record = read_ledger(authored, SKILL).get(outcome.lesson.id)
    assert record is not None and record.place == "knowledge"
    assert record.provenance == origin
    assert record.provenance.author == "ada@example.org"
    assert outcome.as_json()["provenance"] == origin.as_json()


def test_the_default_provenance_is_add_now(authored: Settings) -> None:
    outcome = add_lesson(Store(authored), SKILL, "Prefer tmp_path over tmpdir")
    assert outcome.provenance is not None
    assert outcome.provenance.source == "add"
    assert outcome.provenance.at.endswith("Z")


def test_a_merge_keeps_the_first_provenance_and_records_the_confirmation(
    authored: Settings,
) -> None:
    store = Store(authored)
    first = add_lesson(
        store, SKILL, "Use git switch to change branches", origin=store.provenance("add")
    )
    again = add_lesson(
        store, SKILL, "use git switch to change branches.", origin=store.provenance("flush")
    )
    assert again.action == "merged"
    record = read_ledger(authored, SKILL).get(again.lesson.id)
    assert record is not None
    assert record.provenance.source == "add"
    assert record.confirmed is not None
    assert first.lesson.id == again.lesson.id


def test_a_hand_edit_keeps_the_record_and_a_hand_written_line_is_source_edit(
    authored: Settings,
) -> None:
    store = Store(authored)
    add_lesson(
        store,
        SKILL,
        "Run the migrations before starting the dev server",
        origin=store.provenance("add"),
    )
    path = Path(store.knowledge_path(SKILL))
    text = path.read_text().replace("before starting", "before you start")
    path.write_text(text + "- [2026-01] [Hand] A lesson typed into the file by hand\n")
    shown = store.records(SKILL, store.lessons(SKILL))
    by_text = {r.text: r for r in shown.values()}
    edited = by_text["Run the migrations before you start the dev server"]
    assert edited.provenance.source == "add"
    assert by_text["A lesson typed into the file by hand"].provenance.source == "edit"
    add_lesson(store, SKILL, "Another lesson to trigger a write")  # the write persists the matches
    stored = {r.text: r for r in read_ledger(authored, SKILL).records.values()}
    assert stored["Run the migrations before you start the dev server"].edited is not None
    assert "Run the migrations before starting the dev server" not in stored  # moved, not copied


def test_a_hand_deleted_lesson_keeps_its_record_as_removed(authored: Settings) -> None:
    store = Store(authored)
    gone = add_lesson(store, SKILL, "A lesson the user will delete by hand")
    add_lesson(store, SKILL, "A lesson that stays")
    path = Path(store.knowledge_path(SKILL))
    path.write_text(
        "".join(line for line in path.read_text().splitlines(True) if "delete" not in line)
    )
    add_lesson(store, SKILL, "A third lesson")
    record = read_ledger(authored, SKILL).get(gone.lesson.id)
    assert record is not None and record.place == "removed"


def test_unreadable_ledger_lines_are_kept(authored: Settings) -> None:
    store = Store(authored)
    add_lesson(store, SKILL, "First lesson")
    path = Path(ledger_path(authored, SKILL))
    path.write_text(path.read_text() + "{not json\n")
    add_lesson(store, SKILL, "Second lesson")
    assert "{not json" in path.read_text()
    assert len(read_ledger(authored, SKILL).records) == 2


def test_the_screen_quarantines_and_nothing_else_sees_the_lesson(authored: Settings) -> None:
    store = Store(authored)
    add_lesson(store, SKILL, "A normal lesson about tests")
    outcome = screened(store, SKILL, f"Always {POISON_WORD} the keys")
    assert outcome.action == "quarantined"
    assert outcome.reason == "test rule"
    assert outcome.as_json()["decision"] == "quarantined"
    assert all(POISON_WORD not in lesson.text for lesson in store.lessons(SKILL))
    (held,) = read_archive(authored, SKILL, QUARANTINE_FILE)
    assert held.lesson.text == f"Always {POISON_WORD} the keys"
    assert held.reason == "quarantined: test rule"
    record = read_ledger(authored, SKILL).get(held.lesson.id)
    assert record is not None and record.place == "quarantine"
    again = screened(store, SKILL, f"Always {POISON_WORD} the keys")
    assert again.action == "quarantined"
    assert len(read_archive(authored, SKILL, QUARANTINE_FILE)) == 1  # kept once


def test_a_dry_run_quarantine_writes_nothing(authored: Settings) -> None:
    store = Store(authored)
    outcome = screened(store, SKILL, f"{POISON_WORD} it", dry_run=True)
    assert outcome.action == "quarantined"
    assert not Path(archive_path(authored, SKILL, QUARANTINE_FILE)).exists()


def test_review_lists_approves_and_rejects(authored: Settings) -> None:
    store = Store(authored)
    origin = store.provenance("distill", session="s-9")
    held = screened(store, SKILL, f"Never {POISON_WORD} anything", origin=origin)
    other = screened(store, "other", f"Please {POISON_WORD} it")
    (item, other_item) = review.review_items(store)
    assert (item.status, item.id, item.reason) == ("quarantined", held.lesson.id, "test rule")
    assert item.as_json()["provenance"] == origin.as_json()
    assert other_item.lesson.skill == "other"

    approved = review.approve(store, held.lesson.id, exact_matcher)
    assert approved.action == "added"
    assert [lesson.text for lesson in store.lessons(SKILL)] == [f"Never {POISON_WORD} anything"]
    assert read_archive(authored, SKILL, QUARANTINE_FILE) == []
    record = read_ledger(authored, SKILL).get(held.lesson.id)
    assert record is not None and record.provenance == origin and record.place == "knowledge"
    # an approved lesson offered again is not held back a second time
    assert screened(store, SKILL, f"Never {POISON_WORD} anything").action == "merged"

    review.reject(store, other.lesson.id)
    assert read_archive(authored, "other", QUARANTINE_FILE) == []
    gone = read_ledger(authored, "other").get(other.lesson.id)
    assert gone is not None and gone.place == "rejected"
    assert review.review_items(store) == []
    with pytest.raises(review.NotUnderReview):
        review.reject(store, other.lesson.id)


def supersede(target: str) -> object:
    def matcher(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        old = next((lesson for lesson in existing if target in lesson.text), None)
        return Match(None, "version changed", 0.9, supersedes=None if old is None else old.id)

    return matcher


def test_a_superseded_lesson_is_archived_listed_and_restorable(authored: Settings) -> None:
    store = Store(authored)
    old = add_lesson(store, SKILL, "Use Node 18 for the build")
    new = add_lesson(store, SKILL, "Use Node 22 for the build", matcher=supersede("Node 18"))  # type: ignore[arg-type]
    assert new.action == "added" and new.superseded == old.lesson
    assert [lesson.text for lesson in store.lessons(SKILL)] == ["Use Node 22 for the build"]
    (item,) = review.review_items(store)
    assert item.status == "superseded" and item.id == old.lesson.id
    assert item.reason.startswith(f"superseded by {new.lesson.id}")
    record = read_ledger(authored, SKILL).get(old.lesson.id)
    assert record is not None and record.place == "archive"

    review.restore(store, old.lesson.id)
    texts = [lesson.text for lesson in store.lessons(SKILL)]
    assert texts == ["Use Node 22 for the build", "Use Node 18 for the build"]
    assert review.review_items(store) == []
    restored = read_ledger(authored, SKILL).get(old.lesson.id)
    assert restored is not None and restored.place == "knowledge"


def test_review_archive_moves_a_lesson_out_and_restore_brings_it_back(
    authored: Settings,
) -> None:
    store = Store(authored)
    lesson = add_lesson(store, SKILL, "The API limit is 100 requests a minute").lesson
    review.archive(store, lesson.id, why="limit changed")
    assert store.lessons(SKILL) == []
    (item,) = review.review_items(store)
    assert item.status == "archived" and "limit changed" in item.reason
    review.restore(store, lesson.id)
    assert [x.text for x in store.lessons(SKILL)] == [lesson.text]


def test_a_contested_pair_is_kept_and_listed(authored: Settings) -> None:
    store = Store(authored)
    strong = add_lesson(store, SKILL, "Retry the upload three times").lesson

    def contest(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        return Match(None, "reversed advice", 0.8, contested=strong.id)

    weak = add_lesson(store, SKILL, "Never retry the upload", matcher=contest)
    assert weak.contested == strong.id
    assert len(store.lessons(SKILL)) == 2
    statuses = {(item.status, item.id) for item in review.review_items(store)}
    assert statuses == {("contested", strong.id), ("contested", weak.lesson.id)}


def test_the_ledger_survives_a_lost_index(authored: Settings) -> None:
    store = Store(authored)
    add_lesson(store, SKILL, "A lesson with provenance", origin=store.provenance("mcp"))
    index = Path(authored.index_dir)
    index.mkdir(parents=True, exist_ok=True)
    assert not str(ledger_path(authored, SKILL)).startswith(str(index))
    ((_, record),) = records(authored).items()
    assert record["provenance"]["source"] == "mcp"  # type: ignore[index]


def test_provenance_rejects_an_unknown_source(authored: Settings) -> None:
    with pytest.raises(ValueError, match="unknown lesson source"):
        Store(authored).provenance("gossip")
    assert Provenance.from_json({"source": "add"}) is None


@pytest.mark.slow
def test_a_random_history_loses_no_lesson(authored: Settings) -> None:
    """Adds, merges, supersessions, quarantines, feedback, archives and restores: every lesson
    ever written stays in KNOWLEDGE.md, the archive or the quarantine."""
    rng = random.Random(11)
    store = Store(authored)
    written: set[str] = set()
    words = ["alpha", "beta", "gamma", "delta", "epsilon", POISON_WORD]
    for step in range(120):
        move = rng.random()
        current = store.lessons(SKILL)
        if move < 0.6 or not current:
            text = f"Step {rng.randrange(40)} uses {rng.choice(words)}"
            if current and rng.random() < 0.3:
                target = rng.choice(current)
                matcher = supersede(target.text)
            else:
                matcher = exact_matcher  # type: ignore[assignment]
            outcome = screened(store, SKILL, text, matcher=matcher)  # type: ignore[arg-type]
            written.add(normalize_for_id(outcome.lesson.text))
            written.add(normalize_for_id(text))
        elif move < 0.7:
            review.archive(store, rng.choice(current).id)
        elif move < 0.8:
            rating = rng.choice(["helped", "wrong", "wrong", "confirmed"])
            store.feedback(rng.choice(current).id, rating, note=f"step {step}")
        else:
            shelved = review.review_items(store, everything=True)
            archived = [i for i in shelved if i.status in ("superseded", "archived")]
            if archived:
                review.restore(store, rng.choice(archived).id)
        kept = {normalize_for_id(lesson.text) for lesson in store.lessons(SKILL)}
        kept |= {normalize_for_id(i.lesson.text) for i in read_archive(authored, SKILL)}
        kept |= {
            normalize_for_id(i.lesson.text) for i in read_archive(authored, SKILL, QUARANTINE_FILE)
        }
        assert written <= kept, (step, written - kept)
    ledger = json.loads(Path(ledger_path(authored, SKILL)).read_text().splitlines()[0])
    assert ledger["provenance"]["author"] == "ada@example.org"
