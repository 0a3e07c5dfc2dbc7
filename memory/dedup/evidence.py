"""Signs, in an (old, new) pair of lessons, that the new one outdates the old or that both
hold side by side. Threshold-free: each returns what it found, the decision weighs it.

* ``condition`` (a guard: both hold side by side): both lessons open with a scope clause
  ("On X,", "For X,", "If X,") and the scopes differ;
* ``reversed`` (supersede evidence): a clause of one text that carries its sentence's
  polarity denies a clause the other affirms; its strength is the share of the denying
  clause's content words the other text states;
* ``markers`` (supersede evidence): change phrases in the new text that the old lacks ("no
  longer", "now", "deprecated", "was raised to");
* ``changed-value`` (supersede evidence, with a conflict): one value changed and the rest is
  nearly the same words (:func:`masked_overlap`, :func:`one_number_changed`).

Parts that did not raise the cross-validated figures were removed: the platform, parallel
and next-step guards, the retired / replaced evidence, and the denied-clause, on-failure and
disowned merge vetoes (see the README's "Memory that stays true").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fireworks_skill_memory.memory.dedup.specifics import entry, prep, specifics, unmentioned
from fireworks_skill_memory.memory.text import (
    CODE_SPAN,
    QUOTED_SPAN,
    clauses,
    content_words,
    sentences,
    soft_hits,
    words,
)

CONDITION = "condition"
GUARDS = (CONDITION,)
# A denial must share at least this many content words with what it denies: one shared word
# is a topic, not a statement.
REVERSAL_SHARED = 2


def _scope(text: str) -> set[str] | None:
    m = entry("scope_opener").regex.match(prep(text))
    return None if m is None else content_words(words(m.group(1)))


def guards(old: str, new: str) -> frozenset[str]:
    """Every guard that holds on the pair."""
    so, sn = _scope(old), _scope(new)
    if so is not None and sn is not None and so - sn and sn - so:
        return frozenset({CONDITION})
    return frozenset()


# --------------------------------------------------------------------------- reversal


@dataclass(frozen=True)
class _Clause:
    words: tuple[str, ...]
    content: frozenset[str]
    negated: bool
    text: str


def _clauses(text: str, leading_only: bool) -> list[_Clause]:
    """The clauses of a text; with ``leading_only``, those that carry a sentence's polarity."""
    denying = entry("reversal_negators").words
    out = []
    for sentence in sentences(prep(text)):
        for clause in clauses(sentence):
            if leading_only and not clause.leading:
                continue
            bare = QUOTED_SPAN.sub(" ", CODE_SPAN.sub(" ", clause.text))
            for name in ("sql_not", "bound"):
                bare = entry(name).regex.sub(" ", bare)
            if ws := words(clause.text):
                negated = any(w in denying for w in words(bare))
                out.append(_Clause(tuple(ws), frozenset(content_words(ws)), negated, clause.text))
    return out


def _denial(negating: str, stating: str) -> float:
    """The largest share of a denying clause's content words that ``stating`` affirms (0.0
    when no clause of ``negating`` denies one of ``stating``)."""
    stated_clauses = _clauses(stating, leading_only=False)
    stated = content_words(w for c in stated_clauses for w in c.words)
    best = 0.0
    for clause in _clauses(negating, leading_only=True):
        if not clause.negated or not clause.content:
            continue
        if unmentioned(specifics(clause.text).identifiers, stating):
            continue  # the denial is about something the other lesson never names
        shared = soft_hits(clause.content, stated)
        if shared < REVERSAL_SHARED:
            continue
        touched = [c for c in stated_clauses if soft_hits(c.content, clause.content)]
        if touched and not any(
            c.negated for c in touched if soft_hits(c.content, clause.content) >= REVERSAL_SHARED
        ):
            best = max(best, shared / len(clause.content))
    return best


def reversal(old: str, new: str) -> float:
    """How much of a denying clause in one text the other affirms (0.0: no denial). Only
    clauses that carry a sentence's polarity deny (not a purpose clause "so it doesn't X"
    or a contrast ", not Y")."""
    return max(_denial(new, old), _denial(old, new))


# --------------------------------------------------------------------------- markers, values


def markers(old: str, new: str) -> tuple[str, ...]:
    """Change phrases the new text has and the old lacks, sorted."""
    pattern = entry("change_markers").regex

    def found(text: str) -> set[str]:
        return {m.group(0).casefold().strip() for m in pattern.finditer(prep(text))}

    return tuple(sorted(found(new) - found(old)))


_SPECIFIC_TOKEN = re.compile(r"`[^`]*`|\S*\d\S*")


def masked_overlap(old: str, new: str) -> float:
    """Content-word overlap once code spans and tokens with digits are removed from both."""
    a = content_words(words(_SPECIFIC_TOKEN.sub(" ", prep(old))))
    b = content_words(words(_SPECIFIC_TOKEN.sub(" ", prep(new))))
    if not a or not b:
        return 0.0
    return (soft_hits(a, b) + soft_hits(b, a)) / (len(a) + len(b))


def one_number_changed(old: str, new: str) -> bool:
    """At most one number replaces one other (a value changed); two or more differing
    numbers name another case."""
    before = {n.raw for n in specifics(old).numbers}
    after = {n.raw for n in specifics(new).numbers}
    return len(before - after) <= 1 and len(after - before) <= 1


__all__ = [
    "CONDITION",
    "GUARDS",
    "guards",
    "markers",
    "masked_overlap",
    "one_number_changed",
    "reversal",
]
