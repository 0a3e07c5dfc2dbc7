"""Everything the merge / supersede / keep-both decision reads about one (old, new) pair.

:func:`pair_features` computes, once per pair, the cosine the caller measured and what the
text rules find (``conflicts``, ``evidence``); none of it depends on a threshold, so
`skill-memory eval cv` computes the features of every labelled pair once and refits the
thresholds of :func:`memory.dedup.decision.decide` on them, and the product decides with the
very same function.
"""

from __future__ import annotations

from dataclasses import dataclass

from fireworks_skill_memory.memory.dedup import evidence
from fireworks_skill_memory.memory.dedup.conflicts import conflicts, overlap_and_shared
from fireworks_skill_memory.memory.dedup.specifics import normalize_text


@dataclass(frozen=True)
class PairFeatures:
    """The threshold-free facts about an (old, new) pair of lesson texts."""

    similarity: float
    """Cosine of the two texts' normalized embeddings."""
    text_match: str | None
    """``exact``, ``normalized-text`` or None."""
    overlap: float = 0.0
    """Soft Jaccard of the content words (:func:`memory.dedup.conflicts.overlap_and_shared`)."""
    shared: int = 0
    """Content words matched both ways."""
    conflicts: frozenset[str] = frozenset()
    """The conflict detectors that fire (:mod:`memory.dedup.conflicts`)."""
    unshared: bool = False
    """A code name one text states and the other does not mention."""
    guards: frozenset[str] = frozenset()
    """The guards that hold (:func:`memory.dedup.evidence.guards`)."""
    reversal: float = 0.0
    """Strength of a denial of one text's clause by the other (0: none)."""
    markers: tuple[str, ...] = ()
    """Change phrases the new text has and the old lacks."""
    one_number_changed: bool = False
    masked_overlap: float = 0.0
    """Content-word overlap with code spans and numbers removed."""
    new_is_older: bool = False
    """The new lesson is dated before the old one (older knowledge, recorded late)."""


def text_match(a: str, b: str) -> str | None:
    """``exact`` for the same text, ``normalized-text`` for the same after normalisation."""
    if a.strip() == b.strip():
        return "exact"
    na = normalize_text(a)
    return "normalized-text" if na and na == normalize_text(b) else None


def pair_features(
    old: str,
    new: str,
    similarity: float,
    *,
    old_month: str | None = None,
    new_month: str | None = None,
    supersession: bool = True,
) -> PairFeatures:
    """The features of an (old, new) pair at a measured cosine; without ``supersession``
    only those of the (symmetric) merge rule."""
    matched = text_match(old, new)
    if matched is not None:
        return PairFeatures(float(similarity), matched, overlap=1.0)
    overlap, shared = overlap_and_shared(old, new)
    found = conflicts(old, new)
    if not supersession:
        return PairFeatures(float(similarity), None, overlap, shared, found.fired, found.unshared)
    return PairFeatures(
        similarity=float(similarity),
        text_match=None,
        overlap=overlap,
        shared=shared,
        conflicts=found.fired,
        unshared=found.unshared,
        guards=evidence.guards(old, new),
        reversal=evidence.reversal(old, new),
        markers=evidence.markers(old, new),
        one_number_changed=evidence.one_number_changed(old, new),
        masked_overlap=evidence.masked_overlap(old, new),
        new_is_older=bool(old_month and new_month and new_month < old_month),
    )


def with_similarity(features: PairFeatures, similarity: float) -> PairFeatures:
    """The same features at another cosine."""
    from dataclasses import replace

    return replace(features, similarity=float(similarity))
