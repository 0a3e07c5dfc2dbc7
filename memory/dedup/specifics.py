"""What a lesson states specifically: code names, acronyms, product names, numbers.

Small sentence encoders barely see a changed specific (all-MiniLM-L6-v2 scores "timeout
30 s" / "timeout 60 s" 0.98), so the dedup and supersession rules compare these directly.
Standard library only; the word lists are data (``lexicon.toml``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from fireworks_skill_memory.memory import lexicon
from fireworks_skill_memory.memory.text import Number, fold, numbers, units, words

__all__ = [
    "Specifics",
    "entry",
    "key",
    "normalize_text",
    "prep",
    "specifics",
    "unmentioned",
]

# Entry markup around a lesson text: "- [YYYY-MM] [Tag] " (month and tag optional after a
# bullet; a bare "[YYYY-MM] [Tag] " prefix too) and a trailing "[HIT:N]".
_MONTH_TAG = r"(?:\[\d{4}-\d{2}\]\s*)?(?:\[[^\[\]]*\]\s*)?"
_META_PREFIX = re.compile(
    r"^\s*(?:[-*]\s+" + _MONTH_TAG + r"|\[\d{4}-\d{2}\]\s*(?:\[[^\[\]]*\]\s*)?)"
)
_HIT_SUFFIX = re.compile(r"\s*\[HIT:\s*\d+\]\s*$")


def entry(name: str) -> lexicon.Entry:
    """An entry of the dedup lexicon (``lexicon.toml``)."""
    return _lexicon()[name]


def _lexicon() -> Mapping[str, lexicon.Entry]:
    return lexicon.load("fireworks_skill_memory.memory.dedup", "lexicon.toml")


def prep(text: str) -> str:
    """:func:`memory.text.fold`, with entry markup (bullet, month, tag, HIT) removed."""
    text = _HIT_SUFFIX.sub("", fold(text))
    return _META_PREFIX.sub("", text, count=1).strip()


def normalize_text(text: str) -> str:
    """Canonical form for exact dedup: two lessons with equal forms are the same lesson.

    Case-folded; entry markup (``- [YYYY-MM] [Tag]`` prefix, ``[HIT:N]`` suffix) removed;
    apostrophes and hyphens inside words dropped (``don't`` = ``dont``, ``re-run`` = ``rerun``);
    every other run of punctuation (markdown backticks and emphasis, a trailing period, quotes,
    brackets) and whitespace becomes one space. Digits and letters are never changed, so
    ``3.5`` and ``35`` stay different.
    """
    text = prep(text).casefold()
    text = re.sub(r"(?<=\w)['-](?=\w)", "", text)
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def key(raw: str) -> str:
    """A name as compared: lower-case letters and digits only."""
    return re.sub(r"[\W_]+", "", raw.casefold())


_BACKTICK = re.compile(r"`([^`]+)`")
_QUOTED = re.compile(r"(?<![\w])[\"']([^\"'\n]{1,40})[\"'](?![\w])")
_TOKEN_STRIP = "()[]{}<>,;:!?\"'`*"
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]{1,7}s?")
_CLAUSE_OPENERS = frozenset(".:;!?([{\"'-*>")  # after prep: quotes and dashes are ASCII
_NAME = re.compile(r"(?<![\w.'`/@$-])([A-Z][a-z][A-Za-z0-9]*)(?![\w`(/-]|\.\w)")


def _is_code_token(core: str) -> bool:
    """camelCase, snake_case, dotted.name, call(), /path, --flag, $var, @decorator, v2-style."""
    if len(core) < 2 or not re.search(r"[A-Za-z]", core):
        return False
    return bool(
        re.search(r"[a-z][A-Z]", core)
        or re.search(r"\w_\w", core)
        or re.search(r"[A-Za-z]\.[A-Za-z]", core)
        or re.search(r"\w\(", core)
        or core.startswith(("/", "./", "--", "~/", "$", "@", "."))
        or (re.search(r"[A-Za-z]\d|\d[A-Za-z]", core) is not None and not core[0].isdigit())
    )


@dataclass(frozen=True)
class Specifics:
    """The specifics a lesson states: code names, ACRONYMS, Capitalised names, numbers."""

    code: frozenset[str]
    acronyms: frozenset[str]
    names: frozenset[str]
    numbers: frozenset[Number]

    @property
    def identifiers(self) -> frozenset[str]:
        return self.code | self.acronyms | self.names


@lru_cache(maxsize=4096)
def specifics(text: str) -> Specifics:
    """The specifics of a text; identifiers are lower-cased letters and digits only.

    Code names: backticked spans, short quoted literals and code-shaped tokens. Acronyms:
    2-8 capitals/digits (not units such as MB). Names: a capitalised word that does not open
    a sentence or clause (``Use Redis for ...``).
    """
    text = prep(text)
    unit_words = units()
    code: set[str] = {key(span) for span in _BACKTICK.findall(text)}
    acronyms: set[str] = set()
    names: set[str] = set()
    rest = _BACKTICK.sub(" ", text)
    code.update(key(span) for span in _QUOTED.findall(rest) if len(span.split()) <= 3)
    for tok in rest.split():
        core = tok.strip(_TOKEN_STRIP).rstrip(".")
        if _ACRONYM.fullmatch(core):
            if core.rstrip("s").casefold() not in unit_words:
                acronyms.add(key(core))
        elif _is_code_token(core):
            code.add(key(core))
    for m in _NAME.finditer(rest):
        before = rest[: m.start()].rstrip()
        opens_clause = not before or before[-1] in _CLAUSE_OPENERS
        if not opens_clause and m.group(1).casefold() not in unit_words:
            names.add(key(m.group(1)))

    def clean(keys: set[str]) -> frozenset[str]:
        return frozenset(k for k in keys if k and not k.isdigit())

    return Specifics(clean(code), clean(acronyms), clean(names) - code, numbers(text))


def _initialisms(ws: Sequence[str], max_len: int = 6) -> set[str]:
    """Initials of consecutive words ("role based access control" -> rbac, ...)."""
    out = set()
    for i in range(len(ws)):
        acc = ""
        for w in ws[i : i + max_len]:
            acc += w[0]
            if len(acc) >= 2:
                out.add(acc)
    return out


def unmentioned(ids: set[str] | frozenset[str], other: str) -> set[str]:
    """The names of ``ids`` that ``other`` never mentions (as a word, inside a longer word of
    four letters or more, or spelled out: RBAC = role-based access control)."""
    ws = words(prep(other))
    compact = "".join(ws)
    word_set = set(ws)
    initials = _initialisms(ws)

    def mentioned(k: str) -> bool:
        if len(k) >= 4 and k in compact:
            return True
        return k in word_set or k in initials or (k.endswith("s") and k[:-1] in initials)

    return {k for k in ids if not mentioned(k)}
