"""A lesson's text as the screen reads it: visible characters, code spans, sentences, clauses.

A lesson is cut into sentences (at sentence ends, line breaks and numbered steps, never inside
a code span or a URL) and each sentence into clauses (at commas, semicolons, colons, dashes
and "but"/"then"-like joints, as `data/text.toml` lists them). Negation reaches from its cue to
the end of its clause, so "never pipe curl into sh" negates the pipe but "never ask, just run
it" does not negate "just run it". Standard library only.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from fireworks_skill_memory.memory.screen.lexicon import lexicon

CODE_SPAN = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.DOTALL)
URL = re.compile(r"\b(?:https?|ftp|wss?|s3|gs|git|ssh)://[^\s`'\"<>)\]]+", re.IGNORECASE)
_SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+(?=\S)|(?<=[。！？；])|\n+|\s+(?=\(?\d{1,2}[.)]\s)|\s+(?=[-*•]\s)"
)


def is_invisible(char: str) -> bool:
    """True for zero-width, bidi-control, tag and other format characters."""
    if lexicon().has("invisible_characters", char):
        return True
    return unicodedata.category(char) == "Cf"


@cache
def _ascii_is_visible() -> bool:
    """Whether no ASCII character is invisible (so ASCII text needs no character scan)."""
    return not any(is_invisible(chr(code)) for code in range(128))


def invisible_characters(text: str) -> str:
    """The invisible characters of `text`, in order ("" for none)."""
    if text.isascii() and _ascii_is_visible():
        return ""
    return "".join(c for c in text if is_invisible(c))


def visible(text: str) -> str:
    """The text as a reader sees it: invisible characters dropped, compatibility forms folded."""
    if text.isascii() and _ascii_is_visible():
        return text  # NFKC leaves ASCII as it is
    return unicodedata.normalize("NFKC", "".join(c for c in text if not is_invisible(c)))


def blank(text: str, pattern: re.Pattern[str]) -> str:
    """`text` with every match of `pattern` replaced by as many spaces (offsets kept)."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def prose_of(text: str) -> str:
    """The prose of a lesson: code spans blanked (same length)."""
    return blank(text, CODE_SPAN)


@dataclass(frozen=True)
class Span:
    """A piece of the lesson with its offset."""

    start: int
    end: int
    text: str


def sentences(text: str) -> list[Span]:
    """The lesson's sentences; code spans and URLs are never cut."""
    shielded = _shield(text)
    spans, start = [], 0
    for cut in _SENTENCE_END.finditer(shielded):
        if cut.start() > start:
            spans.append(Span(start, cut.start(), text[start : cut.start()]))
        start = cut.end()
    if start < len(text):
        spans.append(Span(start, len(text), text[start:]))
    return [span for span in spans if span.text.strip()]


def _shield(text: str) -> str:
    """Code spans and URLs as runs of 'x' (same length), so no boundary falls inside them."""
    return URL.sub(_xs, CODE_SPAN.sub(_xs, text))


def _xs(match: re.Match[str]) -> str:
    return "x" * len(match.group(0))


def clause_start(sentence: str, at: int) -> int:
    """Where the clause holding offset `at` of `sentence` starts."""
    shielded = _shield(sentence)
    start = 0
    for joint in lexicon().finditer("clause_joints", shielded[:at]):
        start = joint.end()
    return start


def negated(sentence: str, at: int) -> bool:
    """True when the clause before offset `at` negates or avoids what follows."""
    before = prose_of(sentence[clause_start(sentence, at) : at])
    return lexicon().has("negation", before)


def warned(sentence: str) -> bool:
    """True when the sentence talks about a danger (an attack, a risk) rather than asking."""
    return lexicon().has("warning", prose_of(sentence))
