"""The screen's tables, word lists and patterns, read once from the TOML files in `data/`.

Every entry is a TOML table with a `kind` and at least one `match` and one `no_match`
example (tests/memory/screen/test_screen.py checks each):

* `pattern`: a regular expression (case-insensitive unless `case = true`), searched in text;
* `words`: literal words or phrases (`*` ends a stem; spaces match any whitespace), searched
  at word boundaries (words in scripts without spaces, such as Chinese, anywhere);
* `hosts`: domain names; a host matches a name or any subdomain of it;
* `names`: a set of exact names (lower case), e.g. popular packages.

Standard library only: the write paths screen without loading anything heavy.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["Entry", "Lexicon", "lexicon", "read_entries", "tomllib"]

DATA_FILES = (
    "text.toml",
    "commands.toml",
    "places.toml",
    "prose.toml",
    "structure.toml",
    "trust.toml",
)
PACKAGES_FILE = "packages.toml"
KINDS = ("pattern", "words", "hosts", "names")

_SPACELESS = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


@dataclass(frozen=True)
class Entry:
    """One named table of a data file."""

    name: str
    kind: str
    regex: re.Pattern[str] | None
    values: frozenset[str]
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    source: str

    def search(self, text: str) -> re.Match[str] | None:
        if self.regex is None:
            raise TypeError(f"{self.name} is a {self.kind} table, not a pattern")
        return self.regex.search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if self.regex is None:
            raise TypeError(f"{self.name} is a {self.kind} table, not a pattern")
        return self.regex.finditer(text)

    def has_host(self, host: str) -> bool:
        host = host.lower().rstrip(".")
        return any(host == name or host.endswith("." + name) for name in self.values)

    def matches(self, example: str) -> bool:
        """Whether an example belongs to this entry, in the entry's own sense."""
        if self.kind == "hosts":
            return self.has_host(example)
        if self.kind == "names":
            return example.lower() in self.values
        return self.search(example) is not None


def _word_regex(words: list[str], case: bool) -> re.Pattern[str]:
    spaced: list[str] = []
    spaceless: list[str] = []
    for word in sorted(set(words), key=len, reverse=True):
        stem = word.endswith("*")
        body = re.escape(word.rstrip("*")).replace(r"\ ", r"\s+")
        body += r"\w*" if stem else ""
        (spaceless if _SPACELESS.search(word) else spaced).append(body)
    parts = []
    if spaced:
        parts.append(r"(?<![\w])(?:" + "|".join(spaced) + r")(?![\w])")
    if spaceless:
        parts.append("(?:" + "|".join(spaceless) + ")")
    return re.compile("|".join(parts), 0 if case else re.IGNORECASE)


def _entry(name: str, table: dict[str, object], source: str) -> Entry:
    kind = table.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{source}: [{name}] kind must be one of {KINDS}")
    case = bool(table.get("case", False))
    match = tuple(str(x) for x in table.get("match", []))  # type: ignore[attr-defined]
    no_match = tuple(str(x) for x in table.get("no_match", []))  # type: ignore[attr-defined]
    if not match or not no_match:
        raise ValueError(f"{source}: [{name}] needs a match and a no_match example")
    regex: re.Pattern[str] | None = None
    values: frozenset[str] = frozenset()
    if kind == "pattern":
        regex = re.compile(str(table["pattern"]), 0 if case else re.IGNORECASE)
    else:
        items = [str(x) for x in table.get("values", [])]  # type: ignore[attr-defined]
        if not items:
            raise ValueError(f"{source}: [{name}] has no values")
        if kind == "words":
            regex = _word_regex(items, case)
        values = frozenset(item.lower() for item in items)
    return Entry(name, str(kind), regex, values, match, no_match, source)


class Lexicon:
    """All entries of the data files, by name (names are unique across files)."""

    def __init__(self, entries: dict[str, Entry]) -> None:
        self.entries = entries

    def __getitem__(self, name: str) -> Entry:
        return self.entries[name]

    def search(self, name: str, text: str) -> re.Match[str] | None:
        return self.entries[name].search(text)

    def finditer(self, name: str, text: str) -> Iterator[re.Match[str]]:
        return self.entries[name].finditer(text)

    def has(self, name: str, text: str) -> bool:
        return self.entries[name].search(text) is not None


def read_entries(files: tuple[str, ...]) -> dict[str, Entry]:
    """The entries of the named files of the package's `data/` folder."""
    entries: dict[str, Entry] = {}
    folder = resources.files(__package__).joinpath("data")
    for filename in files:
        tables = tomllib.loads(folder.joinpath(filename).read_text(encoding="utf-8"))
        for name, table in tables.items():
            if name in entries:
                raise ValueError(f"{filename}: [{name}] is also in {entries[name].source}")
            entries[name] = _entry(name, table, filename)
    return entries


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The screen's tables (read once per process)."""
    return Lexicon(read_entries((*DATA_FILES, PACKAGES_FILE)))
