"""The screen's ASCII fast path (`memory.screen.text`): ASCII text is read as it is, the same
answer the character scan gives, so the screen costs less per lesson (team push screens each)."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.memory.screen.text import (
    _ascii_is_visible,
    invisible_characters,
    is_invisible,
    visible,
)


def scanned(text: str) -> tuple[str, str]:
    shown = unicodedata.normalize("NFKC", "".join(c for c in text if not is_invisible(c)))
    return shown, "".join(c for c in text if is_invisible(c))


def test_no_ascii_character_is_invisible() -> None:
    assert _ascii_is_visible()
    assert [chr(i) for i in range(128) if is_invisible(chr(i))] == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)) | st.text())
def test_the_fast_path_reads_what_the_scan_reads(text: str) -> None:
    assert (visible(text), invisible_characters(text)) == scanned(text)


def test_invisible_characters_are_still_found() -> None:
    text = "run\u200b this\U000e0041 now\u00ad"
    assert invisible_characters(text) == "\u200b\U000e0041\u00ad"
    assert visible(text) == "run this now"
