"""The markdown store: adding, merging, eviction, checkpoints, legacy files, skill names."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import InvalidLesson, InvalidSkillName
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.ingest.legacy import import_legacy
from fireworks_skill_memory.memory.screen import RULES_SCREEN
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.memory.store.skill_names import (
    skill_dirname,
    skill_from_dirname,
    validate_skill,
)


def test_reads_never_create_anything(store: Store, settings: Settings) -> None:
    assert store.lessons("nothing-here") == []
    assert store.skills() == []
    assert store.checkpoints("nothing-here") == []
    assert store.sources() == []
    assert not os.path.exists(settings.home)


def test_add_then_exact_duplicate_bumps_hit(store: Store) -> None:
    first = add_lesson(store, "demo", "Run the linter before committing", "CI")
    again = add_lesson(store, "demo", "  run the linter before committing. ", "Other")
    assert first.action == "added" and again.action == "merged"
    assert again.lesson.id == first.lesson.id
    (lesson,) = store.lessons("demo")
    assert lesson.hits == 2 and lesson.tag == "CI"


def test_dry_run_writes_nothing(store: Store, settings: Settings) -> None:
    outcome = add_lesson(store, "demo", "lesson", dry_run=True)
    assert outcome.action == "added"
    assert not os.path.exists(settings.home)


def test_eviction_uses_hits_minus_age_penalty(settings: Settings, env: dict[str, str]) -> None:
    small = Settings({**env, "SKILL_MAX": "3"})
    store = Store(small, now=lambda: datetime(2026, 11, 1))
    path = Path(store.knowledge_path("demo"))
    path.parent.mkdir(parents=True)
    path.write_text(
        "# demo\n\n## Entries\n\n"
        "- [2026-10] [T] recent single  [HIT:1]\n"  # value 1
        "- [2025-11] [T] old but popular  [HIT:9]\n"  # 9 - (12-3)*0.5 = 4.5
        "- [2024-11] [T] very old popular  [HIT:9]\n"  # 9 - (24-3)*0.5 = -1.5
    )
    outcome = add_lesson(store, "demo", "brand new", "T")
    assert [lesson.text for lesson in outcome.evicted] == ["very old popular"]
    assert [lesson.text for lesson in store.lessons("demo")] == [
        "recent single",
        "old but popular",
        "brand new",
    ]


def test_eviction_ties_drop_the_earlier_entry(env: dict[str, str]) -> None:
    store = Store(Settings({**env, "SKILL_MAX": "2"}), now=lambda: datetime(2026, 11, 1))
    add_lesson(store, "demo", "first")
    add_lesson(store, "demo", "second")
    outcome = add_lesson(store, "demo", "third")
    assert [lesson.text for lesson in outcome.evicted] == ["first"]


def test_evicted_lessons_are_archived_not_lost(env: dict[str, str]) -> None:
    from fireworks_skill_memory.memory.store.archive import read_archive

    settings = Settings({**env, "SKILL_MAX": "2"})
    store = Store(settings, now=lambda: datetime(2026, 11, 1))
    for text in ("first", "second", "third"):
        add_lesson(store, "demo", text)
    archived = read_archive(settings, "demo")
    assert [item.lesson.text for item in archived] == ["first"]
    assert archived[0].reason == "evicted: over the limit of 2 lessons"
    assert archived[0].date == "2026-11-01"


def test_global_scope_and_limit(env: dict[str, str]) -> None:
    store = Store(Settings({**env, "GLOBAL_MAX": "1"}))
    add_lesson(store, None, "principle one")
    add_lesson(store, None, "principle two")
    assert [lesson.text for lesson in store.lessons(None)] == ["principle two"]
    assert store.lessons(None)[0].skill is None


def test_checkpoints_append_and_clear(store: Store) -> None:
    store.checkpoint("demo", "tried X, failed with Y")
    store.checkpoint("demo", "fixed by Z")
    notes = store.checkpoints("demo")
    assert [note.note for note in notes] == ["tried X, failed with Y", "fixed by Z"]
    assert store.remove_checkpoints("demo", notes[:1]) == 1
    assert [note.note for note in store.checkpoints("demo")] == ["fixed by Z"]
    assert store.remove_checkpoints("demo", notes) == 1  # only what is still there
    assert store.checkpoints("demo") == []


def test_removing_notes_keeps_one_written_since_they_were_read(store: Store) -> None:
    store.checkpoint("demo", "read by the flush")
    read = store.checkpoints("demo")
    store.checkpoint("demo", "written while the flush ran")
    assert store.remove_checkpoints("demo", read) == 1
    assert [note.note for note in store.checkpoints("demo")] == ["written while the flush ran"]


def test_archived_notes_go_to_the_archive_first(store: Store) -> None:
    store.checkpoint("demo", "a note the distiller read")
    assert store.archive_checkpoints("demo", store.checkpoints("demo"), "checkpoint note x") == 1
    assert store.checkpoints("demo") == []
    archive = Path(store.checkpoints_path("demo")).with_name("ARCHIVE.md").read_text()
    assert "[Checkpoint note] a note the distiller read" in archive
    assert "checkpoint note x on" in archive
    with pytest.raises(InvalidLesson):
        store.checkpoint("demo", "  ")


def test_secrets_are_redacted_before_storing(store: Store) -> None:
    key = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8" * 6
    add_lesson(store, "demo", f"export ANTHROPIC_API_KEY={key} before running")
    store.checkpoint("demo", f"used {key}")
    text = (
        Path(store.knowledge_path("demo")).read_text()
        + Path(store.checkpoints_path("demo")).read_text()
    )
    assert key not in text
    assert "[REDACTED:" in text


def test_legacy_files_are_read_then_imported(store: Store, settings: Settings) -> None:
    legacy = Path(settings.legacy_dir) / "old-skill" / "KNOWLEDGE.md"
    legacy.parent.mkdir(parents=True)
    legacy.write_text("# old\n\n## Entries\n\n- [Tip] legacy lesson\n")
    assert [info.skill for info in store.skills()] == ["old-skill"]
    assert store.skills()[0].legacy
    assert [lesson.text for lesson in store.lessons("old-skill")] == ["legacy lesson"]
    results = import_legacy(store, RULES_SCREEN)
    assert [(r.skill, r.copied) for r in results] == [("old-skill", 1)]
    assert Path(store.knowledge_path("old-skill")).read_text() == legacy.read_text()
    assert import_legacy(store, RULES_SCREEN)[0].copied == 0


def test_adding_to_a_legacy_only_skill_keeps_its_lessons(store: Store, settings: Settings) -> None:
    legacy = Path(settings.legacy_dir) / "old-skill" / "KNOWLEDGE.md"
    legacy.parent.mkdir(parents=True)
    legacy.write_text("# old\n\n## Entries\n\n- [Tip] legacy lesson\n")
    add_lesson(store, "old-skill", "new lesson")
    assert [lesson.text for lesson in store.lessons("old-skill")] == ["legacy lesson", "new lesson"]
    assert legacy.read_text() == "# old\n\n## Entries\n\n- [Tip] legacy lesson\n"


@pytest.mark.parametrize(
    "name",
    [
        "",
        " ",
        "..",
        "../../etc",
        "a/b",
        "a\\b",
        "a\x00b",
        "a\x07b",
        "x" * 101,
        ".hidden",
        "a__b",
        ":a",
        "a:b:c",
        " a",
    ],
)
def test_bad_skill_names_are_refused(name: str, store: Store) -> None:
    with pytest.raises(InvalidSkillName):
        validate_skill(name)
    with pytest.raises(InvalidSkillName):
        add_lesson(store, name, "x")


def test_plugin_names_map_to_safe_dirs_and_back(store: Store) -> None:
    assert skill_dirname("superpowers:brainstorming") == "superpowers__brainstorming"
    assert skill_from_dirname("superpowers__brainstorming") == "superpowers:brainstorming"
    add_lesson(store, "superpowers:brainstorming", "lesson")
    assert [info.skill for info in store.skills()] == ["superpowers:brainstorming"]
    assert store.lessons("superpowers:brainstorming")[0].skill == "superpowers:brainstorming"
    assert skill_from_dirname("..") is None


def test_remove_by_id(store: Store) -> None:
    kept = add_lesson(store, "demo", "keep me").lesson
    gone = add_lesson(store, "demo", "drop me").lesson
    assert [lesson.id for lesson in store.remove("demo", [gone.id])] == [gone.id]
    assert store.lessons("demo") == [Lesson(kept.text, kept.tag, kept.month, kept.hits, "demo")]
