"""The lesson line format and the KNOWLEDGE.md document: parsing, rendering, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.memory.errors import InvalidLesson
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.lesson import (
    Lesson,
    age_in_months,
    clean_text,
    lesson_id,
    new_lesson,
    parse_entry,
    render_entry,
)

ORIGINAL_STYLE = """# browser-use — experience

> Hands-on experience accumulated while using the browser-use skill.
> Max 30 entries; oldest are dropped when the limit is reached. Last updated: 2026-03-27

## Entries

- [State first] Run `tool state` before clicking; indices change after any interaction.
- [Daemon persists] The daemon stays open between commands (~50ms per call) — close it [when done].
- A bare entry with no tag, no month and no HIT.
- [2025-11] Month but no tag  [HIT:4]
- [2026-02] [Auth] Use `--profile "Default"` for logged-in sites  [HIT:12]
- [placeholder] No lessons recorded yet.
  an indented continuation line
* a star bullet that is not an entry
"""


def test_parses_every_original_form() -> None:
    lessons = KnowledgeDoc.parse(ORIGINAL_STYLE, "browser-use").lessons()
    assert [(lesson.month, lesson.tag, lesson.hits) for lesson in lessons] == [
        (None, "State first", None),
        (None, "Daemon persists", None),
        (None, None, None),
        ("2025-11", None, 4),
        ("2026-02", "Auth", 12),
    ]
    assert lessons[1].text.endswith("close it [when done].")
    assert lessons[4].text == 'Use `--profile "Default"` for logged-in sites'
    assert all(lesson.skill == "browser-use" for lesson in lessons)


def test_unchanged_document_renders_byte_for_byte() -> None:
    for text in (ORIGINAL_STYLE, ORIGINAL_STYLE.replace("\n", "\r\n"), ORIGINAL_STYLE.rstrip("\n")):
        assert KnowledgeDoc.parse(text, "x").render() == text


def test_append_replaces_placeholder_and_keeps_other_lines() -> None:
    doc = KnowledgeDoc.parse(ORIGINAL_STYLE, "browser-use")
    doc.append(new_lesson("New lesson", skill="browser-use", month="2026-11", tag="T"))
    before = ORIGINAL_STYLE.splitlines()
    after = doc.render().splitlines()
    assert len(after) == len(before)
    changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert changed == [
        ("- [placeholder] No lessons recorded yet.", "- [2026-11] [T] New lesson  [HIT:1]")
    ]


def test_append_goes_after_the_last_entry() -> None:
    text = "# x\n\n## Entries\n\n- [A] one\n\n## Notes\nfree text\n"
    doc = KnowledgeDoc.parse(text, "x")
    doc.append(new_lesson("two", skill="x", month="2026-01", tag="B"))
    assert (
        doc.render()
        == "# x\n\n## Entries\n\n- [A] one\n- [2026-01] [B] two  [HIT:1]\n\n## Notes\nfree text\n"
    )


def test_new_document_has_the_original_header() -> None:
    doc = KnowledgeDoc.new("demo", "2026-11-29")
    doc.append(new_lesson("first", skill="demo", month="2026-11", tag="T"))
    assert doc.render() == (
        "# demo — experience\n\n> Shared cross-session lessons for `demo`.\n"
        "> Auto-maintained by fireworks-skill-memory. Last updated: 2026-11-29\n\n"
        "## Entries\n\n- [2026-11] [T] first  [HIT:1]\n"
    )


def test_ids_are_stable_and_scope_dependent() -> None:
    assert lesson_id("a", "Use X") == lesson_id("a", "  use   x. ")
    assert lesson_id("a", "Use X") != lesson_id("b", "Use X")
    assert lesson_id(None, "Use X") != lesson_id("a", "Use X")
    assert len(lesson_id("a", "Use X")) == 10
    # fixed value: ids must not change between releases
    assert lesson_id("demo", "first") == "e098728397"


def test_clean_text_rejects_empty_and_huge() -> None:
    with pytest.raises(InvalidLesson, match="empty"):
        clean_text("   \n ")
    with pytest.raises(InvalidLesson, match="limit is 2000"):
        clean_text("x" * 1_000_000)
    assert clean_text("  two\nlines\ttabbed ") == "two lines tabbed"


def test_age_in_months() -> None:
    assert age_in_months("2025-11", "2026-11") == 12
    assert age_in_months(None, "2026-11") == 0
    assert age_in_months("2027-01", "2026-11") == 0


def test_non_entries() -> None:
    assert parse_entry("-no space") is None
    assert parse_entry("- ") is None
    assert parse_entry("- [2025-01]") is None
    assert parse_entry("text") is None


# ---- properties -------------------------------------------------------------------------

_text_chars = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"))
texts = (
    st.text(_text_chars, min_size=1, max_size=400).map(lambda s: " ".join(s.split())).filter(bool)
)
long_texts = (
    st.text(st.sampled_from("ab `[]()-: 中文é"), min_size=1, max_size=1900)
    .map(lambda s: " ".join(s.split()))
    .filter(bool)
)
tags = (
    st.text(_text_chars.filter(lambda c: c not in "[]"), min_size=1, max_size=40)
    .map(lambda s: " ".join(s.split()))
    .filter(lambda t: bool(t) and t.lower() != "placeholder")
)
months = st.builds(lambda y, m: f"{y:04d}-{m:02d}", st.integers(2000, 2099), st.integers(1, 12))
lessons = st.builds(
    Lesson,
    text=st.one_of(texts, long_texts),
    tag=tags,
    month=months,
    hits=st.integers(1, 10**6),
    skill=st.just("s"),
)


@given(lessons)
@settings(max_examples=400)
def test_own_output_round_trips(lesson: Lesson) -> None:
    line = render_entry(lesson)
    assert parse_entry(line, "s") == lesson
    assert render_entry(parse_entry(line, "s")) == line  # type: ignore[arg-type]


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=2000))
@settings(max_examples=300)
def test_any_file_round_trips_unchanged(text: str) -> None:
    assert KnowledgeDoc.parse(text, "s").render() == text


@given(st.lists(lessons, max_size=20))
@settings(max_examples=100)
def test_documents_of_own_lessons_round_trip(items: list[Lesson]) -> None:
    doc = KnowledgeDoc.new("s", "2026-11-29")
    for lesson in items:
        doc.append(lesson)
    rendered = doc.render()
    again = KnowledgeDoc.parse(rendered, "s")
    assert again.render() == rendered
    assert (
        again.lessons()
        == [lesson for lesson in items if not lesson.is_placeholder][: len(again.lessons())]
    )


def test_a_file_mixing_lf_and_crlf_lines_reads_every_lesson() -> None:
    text = "# x\n- [A] first lesson\n- [B] second lesson\r\n- [C] third lesson\n"
    doc = KnowledgeDoc.parse(text, "s")
    assert [lesson.text for lesson in doc.lessons()] == [
        "first lesson",
        "second lesson",
        "third lesson",
    ]
    doc.append(doc.lessons()[0].confirmed("2026-12", text="a new lesson"))
    assert doc.render().endswith("- [C] third lesson\n- [2026-12] [A] a new lesson  [HIT:2]\n")


def test_a_crlf_file_stays_crlf_when_a_lesson_is_added() -> None:
    text = "# x\r\n\r\n## Entries\r\n\r\n- [A] first lesson\r\n"
    doc = KnowledgeDoc.parse(text, "s")
    doc.append(doc.lessons()[0].confirmed("2026-12", text="second lesson"))
    assert doc.render() == text + "- [2026-12] [A] second lesson  [HIT:2]\r\n"


@given(st.binary(max_size=600), st.sampled_from([b"\n", b"\r\n"]))
@settings(max_examples=300)
def test_any_bytes_round_trip_and_never_yield_undecodable_lessons(
    noise: bytes, newline: bytes
) -> None:
    raw = newline.join([b"# x", b"- [A] a fine lesson", b"- [B] " + noise, noise, b""])
    doc = KnowledgeDoc.parse(raw.decode("utf-8", "surrogateescape"), "s")
    assert doc.render().encode("utf-8", "surrogateescape") == raw
    for lesson in doc.lessons():
        lesson.text.encode("utf-8")  # every lesson is valid text
        assert len(lesson.id) == 10
    rendered = doc.render().split("\n")
    for bad in doc.bad_lines():
        assert rendered[bad.number - 1].removesuffix("\r") == bad.text
        assert bad.shown.encode("utf-8")  # printable anywhere
