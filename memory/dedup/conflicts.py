"""Signs that two related lesson texts state different facts, and their shared words.

Each detector is a hand-set part that `skill-memory eval cv` switches off in turn
(``memory.evaluation.dedup``); what it returns does not depend on any threshold, so the
decision (``memory.dedup.decision``) can be refitted without computing it again.

* ``number-mismatch``: each text states a number the other does not (``30 s`` / ``60 s``);
  the same value in other units is the same number (``2 minutes`` = ``120 s``), and a
  number on one side only is the more specific wording, no conflict.
* ``identifier-mismatch``: each text names something the other never mentions: code,
  ACRONYMS, capitalised names mid-sentence (``with Jest`` / ``with Vitest``).
* ``antonym``: one text has a word, the other its opposite and not the word itself
  (always/never, enable/disable, before/after, related/unrelated, ...).

Detectors that did not raise the cross-validated figures were removed (command-mismatch,
negation-mismatch, preference-reversed; see the README's "Dedup").
"""

from __future__ import annotations

from dataclasses import dataclass

from fireworks_skill_memory.memory.dedup.specifics import entry, prep, specifics, unmentioned
from fireworks_skill_memory.memory.text import content_words, soft_hits, stated, stem, words

NUMBER, IDENTIFIER, ANTONYM = "number-mismatch", "identifier-mismatch", "antonym"
CONFLICTS = (NUMBER, IDENTIFIER, ANTONYM)


def lesson_words(text: str) -> list[str]:
    """:func:`memory.text.words` of a lesson text (entry markup removed)."""
    return words(prep(text))


def overlap_and_shared(a: str, b: str) -> tuple[float, int]:
    """(soft Jaccard of the two texts' content words, content words matched both ways).

    Two words match when equal after stemming or when they share their first five letters.
    The overlap is ``(hits(a in b) + hits(b in a)) / (|a| + |b|)``; 0.0 when either text has
    no content word.
    """
    ca, cb = content_words(lesson_words(a)), content_words(lesson_words(b))
    if not ca or not cb:
        return 0.0, 0
    hits_a, hits_b = soft_hits(ca, cb), soft_hits(cb, ca)
    return (hits_a + hits_b) / (len(ca) + len(cb)), min(hits_a, hits_b)


def _antonym(wa: set[str], wb: set[str]) -> bool:
    only_a, only_b = wa - wb, wb - wa
    for x, y in entry("antonym_pairs").extra["pairs"]:
        if (x in only_a and y in only_b) or (y in only_a and x in only_b):
            return True
    for prefix, min_base in dict(entry("antonym_prefixes").extra["prefixes"]).items():
        for base, other in ((only_a, only_b), (only_b, only_a)):
            if any(len(w) >= int(min_base) and prefix + w in other for w in base):
                return True
    return False


@dataclass(frozen=True)
class Conflicts:
    """The conflict detectors that fire on a pair, and what one text states alone."""

    fired: frozenset[str]
    unshared: bool
    """A code name one text states and the other does not mention."""


def conflicts(a: str, b: str) -> Conflicts:
    """Every detector that fires on the pair (``fired`` is symmetric in a, b)."""
    sa, sb = specifics(a), specifics(b)
    ua, ub = unmentioned(sa.identifiers, b), unmentioned(sb.identifiers, a)
    na = [n for n in sa.numbers if not stated(n, tuple(sb.numbers))]
    nb = [n for n in sb.numbers if not stated(n, tuple(sa.numbers))]
    fired = set()
    if na and nb:
        fired.add(NUMBER)
    if ua and ub:
        fired.add(IDENTIFIER)
    wa, wb = lesson_words(a), lesson_words(b)
    if _antonym({stem(w) for w in wa} | set(wa), {stem(w) for w in wb} | set(wb)):
        fired.add(ANTONYM)
    return Conflicts(frozenset(fired), bool((ua | ub) & (sa.code | sb.code)))
