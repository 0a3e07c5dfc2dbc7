"""Evidence on every lesson (fast: fake embedder, no model), the evidence rule of the ranking,
and token accounting (`stats`)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.distill.evidence import (
    call_evidence,
    error_line,
    lesson_evidence,
    program,
)
from fireworks_skill_memory.memory.ingest import Ingest, LessonCandidate
from fireworks_skill_memory.memory.retrieval.inject_text import inject_tokens
from fireworks_skill_memory.memory.retrieval.standing import evidence_order, standing_order
from fireworks_skill_memory.memory.retrieval.token_stats import token_stats
from fireworks_skill_memory.memory.retrieval.usage import inject_and_record, record_injection
from fireworks_skill_memory.memory.screen import RULES_SCREEN, ScreenVerdict
from fireworks_skill_memory.memory.screen.screen import Trust
from fireworks_skill_memory.memory.sessions.readers import SessionDigest, ToolCall, read_session
from fireworks_skill_memory.memory.store.evidence import GUESS, STATED, VERIFIED, Evidence
from fireworks_skill_memory.memory.store.ledger import LessonRecord, read_ledger
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.conftest import FIXTURES
from tests.viewer_support import request, running_viewer

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SESSIONS = FIXTURES / "sessions"
SKILL = "python-imports"


def commands_data() -> dict[str, Any]:
    package = "fireworks_skill_memory.memory.distill"
    return tomllib.loads(resources.files(package).joinpath("commands.toml").read_text())


@pytest.mark.parametrize("section", ["wrapper", "runner", "setup"])
def test_every_command_rule_has_a_matching_and_a_missing_example(section: str) -> None:
    entries = commands_data()[section]
    assert entries
    for entry in entries:
        assert program(entry["matches"]["command"]) == entry["matches"]["program"], entry
        assert program(entry["misses"]["command"]) == entry["misses"]["program"], entry
        assert entry["word"] in entry["matches"]["command"].split()


def test_every_error_word_has_a_matching_and_a_missing_example() -> None:
    for entry in commands_data()["error_word"]:
        assert entry["word"] in entry["matches"].lower()
        assert entry["word"] not in entry["misses"].lower()
        assert error_line(f"noise line\n{entry['matches']}") == " ".join(entry["matches"].split())
        assert error_line(f"Exit code 1\n{entry['misses']}") == entry["misses"]


def call(ident: str, command: str, output: str, exit_code: int | None) -> ToolCall:
    failed = exit_code not in (None, 0)
    return ToolCall(ident, "Bash", {"command": command}, output, failed, exit_code)


def digest_of(*calls: ToolCall) -> SessionDigest:
    return SessionDigest("claude", "s1", "/tmp/p", [], [], list(calls), [SKILL], False)


IMPORT_ERROR = "Exit code 2\n==== ERRORS ====\nE   ModuleNotFoundError: No module named 'app'"


def test_a_failed_command_that_later_passes_is_verified() -> None:
    failing = call("a", "pytest -q tests", IMPORT_ERROR, 2)
    digest = digest_of(
        failing,
        call("b", "printf '[pytest]\\npythonpath = src\\n' > pytest.ini", "", 0),
        call("c", "python -m pytest -q tests", "3 passed", 0),
    )
    evidence = lesson_evidence(digest, [], "E1: the import error, fixed by pythonpath")
    assert evidence == Evidence(
        VERIFIED,
        command="pytest -q tests",
        exit_status=2,
        error="E ModuleNotFoundError: No module named 'app'",
        fixed_by="python -m pytest -q tests",
    )


def test_a_failed_command_never_run_again_is_an_unverified_guess() -> None:
    failing = call("a", "pytest -q tests", IMPORT_ERROR, 2)
    fix_only = call("b", "printf 'x' > pytest.ini", "", 0)
    evidence = call_evidence(digest_of(failing, fix_only), failing)
    assert evidence.kind == GUESS and evidence.command == "pytest -q tests"
    assert evidence.fixed_by is None and evidence.exit_status == 2
    # a success *before* the failure verifies nothing
    earlier = call("z", "pytest -q tests", "1 passed", 0)
    assert call_evidence(digest_of(earlier, failing, fix_only), failing).kind == GUESS


def test_a_lesson_naming_no_failed_call_is_an_unverified_guess() -> None:
    digest = digest_of(call("a", "pytest", IMPORT_ERROR, 1), call("b", "pytest", "ok", 0))
    assert lesson_evidence(digest, [], "the assistant's summary") == Evidence(GUESS)
    assert lesson_evidence(digest, [], "E7") == Evidence(GUESS)
    assert lesson_evidence(digest, [], "E1").kind == VERIFIED


def test_the_command_and_error_line_are_redacted() -> None:
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    failing = call("a", f"git push https://x:{secret}@example.com", f"fatal: {secret}", 128)
    evidence = call_evidence(digest_of(failing), failing)
    assert secret not in json.dumps(evidence.as_json())
    assert evidence.command and "REDACTED" in evidence.command


@pytest.mark.parametrize("name", ["claude_transcript.jsonl", "codex_rollout.jsonl"])
def test_the_recorded_sessions_verify_their_fix(name: str) -> None:
    digest = read_session(str(SESSIONS / name))
    evidence = lesson_evidence(digest, [], "E1")
    assert evidence.kind == VERIFIED, evidence
    assert evidence.command == "python3 -c 'import nosuchmod'"
    assert evidence.exit_status == 1
    assert evidence.error and "ModuleNotFoundError" in evidence.error
    assert evidence.fixed_by and "PYTHONPATH=lib" in evidence.fixed_by


def test_old_ledger_records_without_evidence_read_fine() -> None:
    old = {
        "id": "0123456789",
        "text": "x",
        "place": "knowledge",
        "provenance": {"source": "add", "at": "2026-01-01T00:00:00Z", "author": "a@b"},
    }
    record = LessonRecord.from_json(old)
    assert record is not None and record.evidence is None and record.evidence_json() is None
    assert record.support == "neutral"
    odd = LessonRecord.from_json({**old, "evidence": {"kind": "probably"}})
    assert odd is not None and odd.evidence is None
    stored = LessonRecord.from_json({**old, "evidence": Evidence(GUESS, command="c").as_json()})
    assert stored is not None and stored.evidence == Evidence(GUESS, command="c")
    assert stored.as_json()["evidence"] == {"kind": "unverified guess", "command": "c"}


def ingest(store: Store, source: str) -> Ingest:
    trust = Trust.LOW if source == "mcp" else Trust.NORMAL
    return Ingest(store=store, screen=RULES_SCREEN, trust=trust, source=source)


def record_of(settings: Settings, skill: str | None, lesson_id: str) -> LessonRecord:
    record = read_ledger(settings, skill).get(lesson_id)
    assert record is not None
    return record


def test_add_is_stated_by_its_author_and_mcp_by_the_agent(settings: Settings, store: Store) -> None:
    added = ingest(store, "add").add(LessonCandidate("Use uv sync --frozen in CI.", SKILL))
    record = record_of(settings, SKILL, added.outcome.lesson.id)
    assert record.evidence == Evidence(STATED, by=record.provenance.author)
    origin = store.provenance("mcp", agent="claude-code")
    told = ingest(store, "mcp").add(
        LessonCandidate("Pin ruff in pre-commit hooks.", SKILL, provenance=origin)
    )
    assert record_of(settings, SKILL, told.outcome.lesson.id).evidence == Evidence(
        STATED, by="the agent"
    )


def test_a_verified_restatement_upgrades_a_guess_and_helped_adds_to_it(
    settings: Settings, store: Store
) -> None:
    text = "pytest fails with ModuleNotFoundError for src layouts; set pythonpath = src."
    guess = Evidence(GUESS, command="pytest", exit_status=2)
    first = ingest(store, "distill").add(LessonCandidate(text, SKILL, evidence=guess))
    lesson_id = first.outcome.lesson.id
    assert record_of(settings, SKILL, lesson_id).support == "guessed"
    verified = Evidence(VERIFIED, command="pytest", exit_status=2, fixed_by="pytest")
    again = ingest(store, "distill").add(LessonCandidate(text, SKILL, evidence=verified))
    assert again.outcome.action == "merged"
    assert record_of(settings, SKILL, lesson_id).evidence == verified
    # a later guess does not take a verification back
    ingest(store, "distill").add(LessonCandidate(text, SKILL, evidence=guess))
    assert record_of(settings, SKILL, lesson_id).evidence == verified
    other = ingest(store, "distill").add(
        LessonCandidate("Run alembic upgrade head before tests.", SKILL, evidence=guess)
    )
    other_id = other.outcome.lesson.id
    store.feedback(other_id, "helped")
    helped = record_of(settings, SKILL, other_id)
    assert helped.support == "supported"
    assert helped.evidence_json() == {**guess.as_json(), "helped": 1}
    assert store.supports(SKILL) == {lesson_id: "supported", other_id: "supported"}


def test_a_guess_never_outranks_a_supported_lesson_of_similar_relevance() -> None:
    # a guess just above a supported lesson goes below it; a clear winner stays first
    assert evidence_order([0.80, 0.79, 0.78], ["guessed", "", "supported"]) == [1, 2, 0]
    assert evidence_order([0.90, 0.79], ["guessed", "supported"]) == [0, 1]
    assert evidence_order([0.80, 0.79], ["", "supported"]) == [0, 1]  # stated: unmoved
    # every guess within the margin of the supported one goes below it, in its order
    assert evidence_order([0.8, 0.79, 0.78], ["guessed", "guessed", "supported"]) == [2, 0, 1]
    # a disputed lesson's evidence moves nothing: it stays last
    order = standing_order([0.8, 0.79], ["current", "disputed"], ["guessed", "supported"])
    assert order == [0, 1]
    # without any evidence the order is the standings' alone
    assert standing_order([0.8, 0.79], ["current", "current"]) == [0, 1]


@dataclass
class FakeInjection:
    text: str
    by_skill: dict[str, list[str]] = field(default_factory=dict)

    def shown(self) -> dict[str, list[str]]:
        return self.by_skill


def test_every_injection_records_its_tokens_and_stats_adds_them_up(
    settings: Settings, cli: Any
) -> None:
    block = "x" * 401  # 101 tokens by the cap's estimate
    assert inject_tokens(block) == 101
    shown = {"git": ["a1", "a2", "a3"], "docker": ["b1"]}
    inject_and_record(settings, lambda: FakeInjection(block, shown), "cli", "sess-1")
    record_injection(settings, "git", ["a1"], "old-path")  # logged before tokens were
    log = Path(settings.run_dir, "injections.log").read_text().splitlines()
    lines = [json.loads(line) for line in log]
    assert [line.get("tokens") for line in lines] == [76, 25, None]
    figures = token_stats(settings)
    assert figures.tokens == 101 and figures.injections == 3 and figures.untracked == 1
    assert figures.per_skill == {"git": 76, "docker": 25}
    assert list(figures.per_day.values()) == [101]
    assert figures.sessions == 1 and figures.sessions_helped == 0
    # the distiller rated a lesson injected in that session helped
    rating = {"id": "a1", "rating": "helped", "applied": True}
    Path(settings.distill_log).parent.mkdir(parents=True, exist_ok=True)
    Path(settings.distill_log).write_text(
        json.dumps({"session": "sess-1", "ratings": [rating]}) + "\n"
    )
    assert token_stats(settings).helped_share == 1.0
    out = cli("stats", "--json")
    assert out.exit_code == 0, out.output
    tokens = json.loads(out.output)["tokens"]
    assert tokens["tokens_injected"] == 101 and tokens["tokens_per_skill"]["git"] == 76
    assert tokens["helped_share"] == 1.0 and tokens["sessions_with_injections"] == 1
    text = cli("stats").output
    assert "101 in 3 injected blocks" in text and "1 of 1 sessions" in text


def test_show_search_and_review_print_the_evidence(cli: Any) -> None:
    out = cli("add", "--skill", "git", "Use git switch -c to create a branch.")
    assert out.exit_code == 0, out.output
    shown = json.loads(cli("show", "--skill", "git", "--json").output)
    (lesson,) = shown["lessons"]
    assert lesson["evidence"]["kind"] == "stated" and lesson["evidence"]["helped"] == 0
    assert "stated by" in cli("show", "--skill", "git").output
    found = json.loads(cli("search", "git switch branch", "--json").output)
    assert found["results"][0]["evidence"]["kind"] == "stated"


class HoldEverything:
    """A screen that quarantines every lesson (to see the evidence reach the review queue)."""

    def screen_batch(
        self, lessons: Sequence[tuple[str | None, str]], trust: Trust = Trust.NORMAL
    ) -> list[ScreenVerdict]:
        return [ScreenVerdict(True, "held for the test", "test") for _ in lessons]


def test_review_and_the_viewer_show_the_evidence(
    settings: Settings, store: Store, cli: Any
) -> None:
    guess = Evidence(GUESS, command="pytest -q", exit_status=2, error="E ImportError: x")
    held = Ingest(store=store, screen=HoldEverything(), trust=Trust.NORMAL, source="distill")
    held.add(LessonCandidate("Set pythonpath = src for src layouts.", SKILL, evidence=guess))
    (item,) = json.loads(cli("review", "--json").output)["items"]
    assert item["evidence"] == {**guess.as_json(), "helped": 0}
    assert (
        "evidence: unverified guess: pytest -q (exit 2: E ImportError: x)" in cli("review").output
    )
    verified = Evidence(VERIFIED, command="pytest -q", exit_status=2, fixed_by="pytest -q")
    added = ingest(store, "distill").add(
        LessonCandidate(
            "Run pytest with -p no:cacheprovider in read-only trees.", SKILL, evidence=verified
        )
    )
    lesson_id = added.outcome.lesson.id
    inject_and_record(settings, lambda: FakeInjection("y" * 40, {SKILL: [lesson_id]}), "cli", "s9")
    with running_viewer(settings) as server:
        page = request(server, "GET", f"/lesson?s={SKILL}&id={lesson_id}").body
        assert '<span class="evidence verified">verified</span>' in page
        assert "<dt>fixed by</dt><dd>pytest -q</dd>" in page
        overview = request(server, "GET", "/").body
        assert 'id="tokens"' in overview and "tokens injected per day" in overview
        assert f"{time.strftime('%m-%d', time.gmtime())}: 10</title>" in overview
