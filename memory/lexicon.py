"""Word lists and phrase patterns kept as data: TOML files shipped in the package.

A lexicon file is a TOML document whose top-level tables are entries. Each entry is either a
word list (``words``: whitespace-separated words, or a list of strings) or a regular
expression (``pattern``, case-insensitive), and carries examples that one parametrised test
checks: ``match`` (texts in which the entry finds something) and ``no_match`` (texts in which
it finds nothing). A word list matches a text when one of its words is among the text's
words (:func:`memory.text.words`); a phrase of several words matches as a phrase.

A pattern is case-insensitive unless the entry says ``case_sensitive = true``.
Extra keys (a mapping, a minimum length, pairs) are kept in ``Entry.extra`` for the code that
reads them. Standard library only; a file is parsed once per process.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@dataclass(frozen=True)
class Entry:
    """One word list or pattern of a lexicon file, with its examples."""

    name: str
    words: frozenset[str] = frozenset()
    phrases: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None
    match: tuple[str, ...] = ()
    no_match: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def search(self, text: str) -> re.Match[str] | None:
        """The first place this entry matches ``text`` (a pattern entry, or a word list
        compiled into ``\\b(?:w1|w2|...)\\b``)."""
        return self.regex.search(text)

    @property
    def regex(self) -> re.Pattern[str]:
        if self.pattern is not None:
            return self.pattern
        return _word_regex(tuple(sorted(self.words | set(self.phrases), key=lambda w: -len(w))))

    def matches(self, text: str) -> bool:
        """True when the entry finds something in ``text`` (what the examples check)."""
        if self.pattern is not None:
            return self.pattern.search(text) is not None
        from fireworks_skill_memory.memory.text import words

        found = set(words(text))
        if found & self.words:
            return True
        folded = " ".join(words(text))
        return any(f" {phrase} " in f" {folded} " for phrase in self.phrases)


@cache
def _word_regex(alternatives: tuple[str, ...]) -> re.Pattern[str]:
    body = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in alternatives) or "(?!)"
    return re.compile(rf"\b(?:{body})\b", re.IGNORECASE)


def _strings(value: object, where: str, *, split: bool) -> tuple[str, ...]:
    """A list of strings; a single string is split into words (``split``) or is one item."""
    if isinstance(value, str):
        return tuple(value.split()) if split else (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError(f"{where}: expected a string or a list of strings")


def _entry(name: str, table: Mapping[str, Any], where: str) -> Entry:
    match = _strings(table.get("match", []), f"{where}.match", split=False)
    no_match = _strings(table.get("no_match", []), f"{where}.no_match", split=False)
    pattern = table.get("pattern")
    words: frozenset[str] = frozenset()
    phrases: tuple[str, ...] = ()
    if pattern is not None:
        if not isinstance(pattern, str):
            raise ValueError(f"{where}.pattern: expected a string")
        flags = 0 if table.get("case_sensitive") else re.IGNORECASE
        compiled: re.Pattern[str] | None = re.compile(pattern, flags)
    else:
        compiled = None
        listed = _strings(table.get("words", []), f"{where}.words", split=True)
        words = frozenset(w.casefold() for w in listed if " " not in w)
        phrases = tuple(w.casefold() for w in listed if " " in w)
    known = {"pattern", "words", "match", "no_match", "case_sensitive"}
    extra = {k: v for k, v in table.items() if k not in known}
    return Entry(name, words, phrases, compiled, match, no_match, extra)


@cache
def load(package: str, filename: str) -> Mapping[str, Entry]:
    """The entries of a lexicon file shipped in ``package``, by name (parsed once)."""
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    where = f"{package}/{filename}"
    entries = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise ValueError(f"{where}: {name} is not a table")
        entries[name] = _entry(name, table, f"{where}:{name}")
    return entries
