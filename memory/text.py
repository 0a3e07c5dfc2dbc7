"""Plain-text helpers for the memory's text rules: one place for words, stems, sentences,
clauses, code and quoted spans, negation and numbers.

Dedup and supersession read lessons through these; the screen and retrieval may adopt them.
Standard library only (hooks may import it). The word lists (stopwords, negators,
subordinators, units) are data: ``text_words.toml`` beside this module.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from fireworks_skill_memory.memory import lexicon

__all__ = [
    "CODE_SPAN",
    "QUOTED_SPAN",
    "Number",
    "clauses",
    "content_words",
    "fold",
    "negated",
    "numbers",
    "sentences",
    "soft_hits",
    "split_outside_code",
    "stem",
    "stopwords",
    "units",
    "words",
]

_FOLD = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "—": "-", "–": "-"})
CODE_SPAN = re.compile(r"`[^`]*`")
QUOTED_SPAN = re.compile(r"(?<![\w])[\"']([^\"'\n]{1,60})[\"'](?![\w])")
# Sentence ends (a period after a word, not inside "e.g." or "3.5"), a spaced dash, a newline.
_SENTENCE_END = re.compile(r"(?<=[\w)\]`'\"])[.;:!?](?=\s|$)|\s[-—]\s|\n")


def _entries() -> Mapping[str, lexicon.Entry]:
    return lexicon.load("fireworks_skill_memory.memory", "text_words.toml")


@cache
def stopwords() -> frozenset[str]:
    """Function words and generic imperatives ("use", "make", "ensure")."""
    return _entries()["stopwords"].words


@cache
def negators() -> frozenset[str]:
    """Negating words (not, never, n't written without the apostrophe, avoid, skip, ...)."""
    return _entries()["negators"].words


def fold(text: str) -> str:
    """NFKC with typographic quotes and dashes folded to ASCII."""
    return unicodedata.normalize("NFKC", text).translate(_FOLD)


def words(text: str) -> list[str]:
    """Lower-case alphanumeric words; possessive 's dropped, apostrophes and ``non-``/``un-``
    hyphens joined (``don't`` -> ``dont``, ``non-blocking`` -> ``nonblocking``)."""
    text = fold(text).casefold()
    text = re.sub(r"(?<=\w)'s\b", "", text)
    text = re.sub(r"(?<=\w)'(?=\w)", "", text)
    text = re.sub(r"\b(non|un)-(?=\w)", r"\1", text)
    return re.findall(r"[^\W_]+", text)


_SUFFIXES = (
    ("ations", ""),
    ("ation", ""),
    ("ies", "y"),
    ("ied", "y"),
    ("ings", ""),
    ("ing", ""),
    ("edly", ""),
    ("ed", ""),
    ("ly", ""),
    ("sses", "ss"),
    ("xes", "x"),
    ("s", ""),
)


def stem(word: str) -> str:
    """Light suffix stemmer: plurals, -ing, -ed, -ly, -ation; a final "e" is dropped so that
    base/based, cache/caching, type/types meet. Never shortens a word below three letters."""
    if len(word) <= 3 or not word.isalpha():
        return word
    result = word
    for suffix, repl in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) + len(repl) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            result = word[: -len(suffix)] + repl
            doubled = len(result) >= 4 and result[-1] == result[-2] and result[-1] not in "lsz"
            if doubled and suffix in ("ing", "ings", "ed", "edly"):
                result = result[:-1]  # running -> run, stopped -> stop
            break
    if len(result) > 3 and result.endswith("e"):
        result = result[:-1]
    return result


def content_words(ws: Iterable[str]) -> set[str]:
    """Stems of the words that say what a text is about (no stopwords, negators, letters)."""
    skip = stopwords() | negators()
    return {stem(w) for w in ws if len(w) > 1 and w not in skip}


def soft_hits(a: Iterable[str], b: Iterable[str], prefix: int = 5) -> int:
    """Words of ``a`` found in ``b`` exactly or through a shared prefix of ``prefix`` letters."""
    others = set(b)
    heads = {w[:prefix] for w in others if len(w) >= prefix}
    return sum(1 for w in a if w in others or (len(w) >= prefix and w[:prefix] in heads))


def negated(ws: Iterable[str]) -> bool:
    """True when one of the words negates (:func:`negators`)."""
    found = negators()
    return any(w in found for w in ws)


def split_outside_code(text: str, pattern: re.Pattern[str]) -> list[str]:
    """``pattern.split`` that never cuts inside a backticked span; blank parts dropped."""
    masked = CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), text)
    parts, start = [], 0
    for m in pattern.finditer(masked):
        parts.append(text[start : m.start()])
        start = m.end()
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def sentences(text: str) -> list[str]:
    """The sentences of a text (split at sentence punctuation, spaced dashes and newlines,
    never inside a code span)."""
    return split_outside_code(fold(text), _SENTENCE_END)


@cache
def _clause_split() -> re.Pattern[str]:
    openers = "|".join(
        re.escape(w).replace(r"\ ", r"\s+")
        for w in sorted(
            _entries()["subordinators"].words | set(_entries()["subordinators"].phrases)
        )
        if w != "so"
    )
    # "so" opens a purpose clause only before a subject ("so the job", "so it"), not in "so far".
    so = r"so (?:that|the|an?|it|its|you|they|we|one|your|our|their|this|these|those|each|every|no|nothing|any)\b"  # noqa: E501
    return re.compile(rf",|\(|\)|\b(?={so})|\b(?=(?:{openers})\b)", re.IGNORECASE)


@cache
def _subordinate() -> re.Pattern[str]:
    entry = _entries()["subordinators"]
    opening = sorted(entry.words | set(entry.phrases) | {"not", "never", "no", "without"})
    body = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in opening)
    return re.compile(rf"^\s*(?:{body}|and not)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Clause:
    """A clause of a sentence; ``leading`` when it is the sentence's first or is not opened
    by a subordinating word (it carries the sentence's polarity)."""

    text: str
    leading: bool


def clauses(sentence: str) -> list[Clause]:
    """The clauses of one sentence: split at commas, parentheses and subordinating words."""
    parts = split_outside_code(sentence, _clause_split())
    return [
        Clause(part, i == 0 or _subordinate().match(part) is None) for i, part in enumerate(parts)
    ]


# --------------------------------------------------------------------------- numbers

_NUMBER = re.compile(r"(?<![A-Za-z_])\d+(?:[.,]\d+)*|(?<=[A-Za-z_])\d+")


@dataclass(frozen=True)
class Number:
    """A number a text states: as written (``raw``, thousands separators dropped) and, when a
    unit follows it, its value in the unit's base (``"time:120"`` for "2 minutes")."""

    raw: str
    value: str | None = None


@cache
def _unit_factors() -> dict[str, tuple[str, float]]:
    entry = _entries()["units"]
    out: dict[str, tuple[str, float]] = {}
    for dimension in ("time", "size"):
        for unit, factor in dict(entry.extra[dimension]).items():
            out[str(unit)] = (dimension, float(factor))
    return out


def units() -> frozenset[str]:
    """The unit words numbers may carry ("ms", "minutes", "MB"), lower-case."""
    return frozenset(_unit_factors())


_UNIT_AFTER = re.compile(r"\s?-?([A-Za-z]{1,12})\b")


def numbers(text: str) -> frozenset[Number]:
    """The numbers of a text, each with its value in base units when a unit follows it."""
    text = fold(text)
    factors = _unit_factors()
    out = set()
    for m in _NUMBER.finditer(text):
        raw = m.group(0).rstrip(".,")
        if re.fullmatch(r"\d{1,3}(?:,\d{3})+", raw):
            raw = raw.replace(",", "")
        raw = raw.replace(",", ".")
        value = None
        unit = _UNIT_AFTER.match(text, m.end())
        if unit is not None and unit.group(1).casefold() in factors:
            dimension, factor = factors[unit.group(1).casefold()]
            try:
                value = f"{dimension}:{float(raw) * factor:g}"
            except ValueError:
                value = None
        out.add(Number(raw, value))
    return frozenset(out)


def stated(number: Number, others: Sequence[Number] | frozenset[Number]) -> bool:
    """True when ``others`` state the same number: as written, or the same value in units."""
    for other in others:
        if number.value is not None and number.value == other.value:
            return True
        units_agree = number.value is None or other.value is None
        if number.raw == other.raw and units_agree:
            return True
    return False
