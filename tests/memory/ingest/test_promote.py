"""Promotion into SKILL.md (issue 25 item 2): a proposal changes no byte, `--apply` writes it
with a backup and every other byte of SKILL.md kept, the promoted lessons leave KNOWLEDGE.md
for ARCHIVE.md (no longer injected), and a promoted lesson reported wrong is listed by review."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.ingest import promotion
from fireworks_skill_memory.memory.store.archive import read_archive
from fireworks_skill_memory.memory.store.evidence import (
    GUESS,
    STATED,
    THE_AGENT,
    VERIFIED,
    Evidence,
)
from fireworks_skill_memory.memory.store.ledger import LessonRecord
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.memory.store.provenance import Provenance
from tests.conftest import CliInvoker

SKILL = "git"
# frontmatter, CRLF-free text without a final newline: the bytes a careless append would touch
SKILL_MD = (
    b"---\nname: git\ndescription: Git helpers\n---\n\n# Git\n\nUse the CLI.\n\xe2\x9c\x93 done"
)
PROVEN = "Use git switch -c to create a branch instead of checkout -b"
DISPUTED = "Rebase feature branches onto main before opening a pull request"
UNRATED = "Sign tags with git tag -s when releasing"


def skill_md(env: dict[str, str]) -> Path:
    return Path(env["HOME"]) / ".claude" / "skills" / SKILL / "SKILL.md"


def lesson_ids(cli: CliInvoker) -> dict[str, str]:
    shown = json.loads(cli("show", "--skill", SKILL, "--json").output)
    return {row["text"]: row["id"] for row in shown["lessons"]}


@pytest.fixture
def rated(cli: CliInvoker, env: dict[str, str]) -> dict[str, str]:
    """A skill with a SKILL.md, one proven lesson, one helped twice then disputed, one unrated."""
    path = skill_md(env)
    path.parent.mkdir(parents=True)
    path.write_bytes(SKILL_MD)
    for text in (PROVEN, DISPUTED, UNRATED):
        assert cli("add", "--skill", SKILL, "--tag", "Branches", text).exit_code == 0
    ids = lesson_ids(cli)
    for text in (PROVEN, DISPUTED):
        for _ in range(2):
            assert cli("feedback", ids[text], "--helped").exit_code == 0
    assert cli("feedback", ids[DISPUTED], "--wrong", "--note", "not here").exit_code == 0
    return lesson_ids(cli)


def test_a_proposal_is_a_diff_and_changes_no_byte(
    cli: CliInvoker, env: dict[str, str], rated: dict[str, str]
) -> None:
    home = Path(env["AI_MEMORY_HOME"])
    before = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    result = cli("promote", "--skill", SKILL)
    assert result.exit_code == 0, result.output
    assert f"+- **Branches:** {PROVEN}" in result.stdout
    assert DISPUTED not in result.stdout and UNRATED not in result.stdout
    assert result.stdout.startswith(f"--- {skill_md(env)}")
    assert skill_md(env).read_bytes() == SKILL_MD
    assert list(skill_md(env).parent.iterdir()) == [skill_md(env)]
    assert {p: p.read_bytes() for p in home.rglob("*") if p.is_file()} == before


def test_apply_writes_it_keeps_a_backup_and_archives_the_promoted_lessons(
    cli: CliInvoker, env: dict[str, str], rated: dict[str, str], store: Store
) -> None:
    result = cli("promote", "--skill", SKILL, "--apply")
    assert result.exit_code == 0, result.output
    written = skill_md(env).read_bytes()
    # every byte of SKILL.md as it was, then the section
    assert written == SKILL_MD + f"\n\n## Lessons learned\n\n- **Branches:** {PROVEN}\n".encode()
    backups = list(skill_md(env).parent.glob("SKILL.md.*.bak"))
    assert len(backups) == 1 and backups[0].read_bytes() == SKILL_MD
    proven = rated[PROVEN]
    assert proven not in lesson_ids(cli).values()
    shelved = {item.lesson.id: item for item in read_archive(store.settings, SKILL)}
    assert shelved[proven].reason == promotion.PROMOTED
    assert (
        "promoted into SKILL.md on "
        in (Path(store.knowledge_path(SKILL)).parent / "ARCHIVE.md").read_text()
    )
    record = store.ledger(SKILL).get(proven)
    assert record is not None and promotion.is_promoted(record)
    injected = json.loads(cli("inject", "--skill", SKILL, "--json").output)
    assert proven not in {row["id"] for row in injected["lessons"]}
    assert rated[UNRATED] in {row["id"] for row in injected["lessons"]}
    # our own edit of SKILL.md does not make the remaining lessons unverified
    assert store.standings(SKILL).get(rated[UNRATED]) is None
    again = cli("promote", "--skill", SKILL)
    assert again.exit_code == 0 and again.stdout == "" and "no lesson" in again.stderr


def test_a_promoted_lesson_reported_wrong_is_listed_by_review(
    cli: CliInvoker, rated: dict[str, str]
) -> None:
    assert cli("promote", "--skill", SKILL, "--apply").exit_code == 0
    proven = rated[PROVEN]
    items = json.loads(cli("review", "--json").output)["items"]
    assert proven not in {item["id"] for item in items}
    result = cli("feedback", proven, "--wrong", "--note", "switch needs git 2.23")
    assert result.exit_code == 0, result.output
    items = json.loads(cli("review", "--json").output)["items"]
    listed = [item for item in items if item["id"] == proven]
    assert [item["status"] for item in listed] == ["promoted"]
    assert "git 2.23" in listed[0]["reason"] and "SKILL.md" in listed[0]["reason"]


def test_all_lists_the_candidates_per_skill(cli: CliInvoker, rated: dict[str, str]) -> None:
    result = cli("promote", "--all", "--json")
    assert result.exit_code == 0, result.output
    skills = json.loads(result.output)["skills"]
    assert [(s["skill"], [c["id"] for c in s["candidates"]]) for s in skills] == [
        (SKILL, [rated[PROVEN]])
    ]
    assert cli("promote", "--all", "--apply").exit_code == 2
    assert cli("promote").exit_code == 2


def test_no_skill_md_is_a_clear_error(cli: CliInvoker) -> None:
    assert (
        cli("add", "--skill", "docker", "Prune build cache with docker builder prune").exit_code
        == 0
    )
    result = cli("promote", "--skill", "docker")
    assert result.exit_code == 1 and "no SKILL.md found for docker" in result.output


def test_a_proposal_that_changed_since_it_was_shown_is_refused(
    cli: CliInvoker, env: dict[str, str], rated: dict[str, str], store: Store
) -> None:
    shown = promotion.propose(store, SKILL)
    skill_md(env).write_bytes(SKILL_MD + b"\nedited meanwhile\n")
    with pytest.raises(InvalidInput, match="changed since it was shown"):
        promotion.apply_promotion(
            store, SKILL, expect_ids=shown.ids, expect_hash=shown.skill_md_hash
        )
    assert skill_md(env).read_bytes() == SKILL_MD + b"\nedited meanwhile\n"
    assert rated[PROVEN] in lesson_ids(cli).values()


def test_an_existing_section_grows_and_every_other_byte_stays() -> None:
    text = "# Git\r\n\r\n## Lessons learned\r\n\r\n- **Old:** kept\r\n\r\n## More\r\ntail"
    lessons = [Lesson("first new", "A", skill=SKILL), Lesson("second new", "B", skill=SKILL)]
    grown = promotion.with_lessons(text, lessons)
    added = "- **A:** first new\r\n- **B:** second new\r\n"
    assert grown == text.replace("kept\r\n", "kept\r\n" + added)
    assert promotion.with_lessons(grown, lessons) == grown  # already there: not added twice


def test_the_criterion_is_one_function() -> None:
    origin = Provenance("add", "2026-05-01T00:00:00Z", "a@example.org")
    stated = Evidence(STATED, by="a@example.org")
    record = LessonRecord(
        "x", "text", "knowledge", origin, helped=promotion.MIN_HELPED, evidence=stated
    )
    assert promotion.promotable(record, "current")
    assert not promotion.promotable(record, "unverified")
    assert not promotion.promotable(record, "disputed")
    assert not promotion.promotable(replace(record, helped=1), "current")
    assert not promotion.promotable(replace(record, place="archive", helped=5), "current")
    # the evidence must be strong: verified in its session, or stated by a person
    verified = Evidence(VERIFIED, command="pytest -q", exit_status=1, fixed_by="pytest -q")
    assert promotion.promotable(replace(record, evidence=verified), "current")
    for weak in (Evidence(GUESS), Evidence(STATED, by=THE_AGENT), None):
        assert not promotion.promotable(replace(record, evidence=weak), "current")
