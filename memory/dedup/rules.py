"""The merge rule on its own (is a candidate the same lesson as an existing one?) and the
wording a merge keeps.

:func:`decide_pair` is :func:`memory.dedup.decision.decide` with the shipped thresholds,
seen from dedup: ``MERGE`` when the decision merges, otherwise the merge rule's ``GREY``
(maybe: the judge's band) or ``ADD`` (a pair the decision supersedes never merges). Team sync
uses it; adding a lesson goes through the matcher, which also acts on a supersession
(:class:`memory.dedup.matcher.SemanticMatcher`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fireworks_skill_memory.memory.dedup.conflicts import CONFLICTS, conflicts, overlap_and_shared
from fireworks_skill_memory.memory.dedup.decision import (
    Decision,
    MatchThresholds,
    Verdict,
    decide,
    merge_verdict,
    shipped_thresholds,
)
from fireworks_skill_memory.memory.dedup.features import pair_features
from fireworks_skill_memory.memory.dedup.specifics import (
    normalize_text,
    prep,
    specifics,
    unmentioned,
)
from fireworks_skill_memory.memory.text import stated

__all__ = [
    "DEFAULT_THRESHOLDS",
    "PairDecision",
    "Verdict",
    "clearer_wording",
    "conflict_reason",
    "content_overlap",
    "decide_pair",
    "merges",
    "normalize_text",
    "pick_merge_target",
]


def __getattr__(name: str) -> object:
    # The shipped thresholds are read from package data on first use, not at import.
    if name == "DEFAULT_THRESHOLDS":
        return shipped_thresholds()
    raise AttributeError(name)


DEFAULT_THRESHOLDS: MatchThresholds


@dataclass(frozen=True)
class PairDecision:
    """The verdict on one (existing, candidate) pair, with the cosine and a short reason."""

    verdict: Verdict
    similarity: float
    reason: str
    overlap: float = 0.0


def decide_pair(
    existing: str, candidate: str, cosine: float, t: MatchThresholds | None = None
) -> PairDecision:
    """Is ``candidate`` the same lesson as ``existing`` at this cosine?"""
    features = pair_features(existing, candidate, cosine)
    decided = decide(features, t or shipped_thresholds())
    if decided.decision is Decision.MERGE:
        return PairDecision(Verdict.MERGE, float(cosine), decided.reason, features.overlap)
    verdict = Verdict.ADD if decided.dedup_verdict is Verdict.ADD else Verdict.GREY
    return PairDecision(verdict, float(cosine), decided.reason, features.overlap)


def merges(existing: str, candidate: str, cosine: float, t: MatchThresholds | None = None) -> bool:
    """Whether :func:`decide_pair` says ``MERGE``, at a fraction of its cost for most pairs.

    The merge rule is asked first, on the pair's cheap features; the supersession evidence
    (clauses, denials, markers) is computed only for a pair the merge rule merges, since that
    evidence can only turn a merge into something else, never make one.
    """
    thresholds = t or shipped_thresholds()
    cheap = pair_features(existing, candidate, cosine, supersession=False)
    if merge_verdict(cheap, thresholds).verdict is not Verdict.MERGE:
        return False
    return decide_pair(existing, candidate, cosine, thresholds).verdict is Verdict.MERGE


def conflict_reason(a: str, b: str) -> str | None:
    """The first conflict detector that fires on two texts, or None."""
    found = conflicts(a, b).fired
    return next((name for name in CONFLICTS if name in found), None)


def content_overlap(a: str, b: str) -> float:
    """Soft Jaccard of the stemmed content words of two texts, in [0, 1]."""
    return overlap_and_shared(a, b)[0]


def pick_merge_target(decisions: Sequence[PairDecision]) -> int | None:
    """Index of the existing lesson to merge into, or None when no decision is MERGE.

    Text matches (``exact``, ``normalized-text``) win over cosine merges; among the rest the
    highest cosine wins, then the higher overlap, then the lower index (the older entry).
    """
    best: int | None = None
    best_key: tuple[int, float, float] = (-1, 0.0, 0.0)
    for i, d in enumerate(decisions):
        if d.verdict is not Verdict.MERGE:
            continue
        key = (int(d.reason in ("exact", "normalized-text")), d.similarity, d.overlap)
        if best is None or key > best_key:
            best, best_key = i, key
    return best


# --------------------------------------------------------------------------- wording

MIN_CLEAR_CHARS = 15
MAX_CLEAR_CHARS = 300


def _truncated(text: str) -> bool:
    s = text.rstrip()
    return s.endswith(("...", "…")) or s.count("`") % 2 == 1 or s.count("(") > s.count(")")


def _extra_specifics(text: str, other: str) -> int:
    """Identifiers and numbers of ``text`` that ``other`` does not state."""
    mine, theirs = specifics(text), specifics(other)
    extra_numbers = [n for n in mine.numbers if not stated(n, tuple(theirs.numbers))]
    return len(unmentioned(mine.identifiers, other)) + len(extra_numbers)


def clearer_wording(existing: str, candidate: str) -> str:
    """The text to keep when the two lessons merge.

    The heuristic, first difference wins (ties keep ``existing``, so wording does not churn):

    1. not truncated (no trailing ``...``/``…``, balanced backticks and parentheses);
    2. within the length window ``MIN_CLEAR_CHARS``..``MAX_CLEAR_CHARS`` (15..300 characters):
       a fragment or an essay is harder to act on than a one-line rule;
    3. more specific: more identifiers, commands and numbers that the other text lacks
       (``Keep lines under 80 characters`` beats ``Keep lines short``).
    """
    e, c = prep(existing), prep(candidate)
    if _truncated(e) != _truncated(c):
        return candidate if _truncated(e) else existing

    def in_window(s: str) -> bool:
        return MIN_CLEAR_CHARS <= len(s) <= MAX_CLEAR_CHARS

    if in_window(e) != in_window(c):
        return candidate if in_window(c) else existing
    if _extra_specifics(c, e) > _extra_specifics(e, c):
        return candidate
    return existing
