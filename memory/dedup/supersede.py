"""Merge, supersede or keep both, for a new lesson's text against an old one's.

:func:`decide_supersession` computes the pair's features and applies the decision
(:func:`memory.dedup.decision.decide`) with the shipped thresholds; see those modules for
the rules.
"""

from __future__ import annotations

from fireworks_skill_memory.memory.dedup.decision import (
    Decision,
    MatchThresholds,
    Supersession,
    decide,
    shipped_thresholds,
)
from fireworks_skill_memory.memory.dedup.evidence import GUARDS
from fireworks_skill_memory.memory.dedup.features import pair_features

__all__ = ["GUARDS", "Decision", "Supersession", "decide_supersession"]


def decide_supersession(
    old: str,
    new: str,
    cosine: float,
    *,
    old_month: str | None = None,
    new_month: str | None = None,
    t: MatchThresholds | None = None,
) -> Supersession:
    """Merge, supersede or keep both for ``new`` against ``old`` at this cosine.

    Args:
        old: text of the lesson the skill already has.
        new: text of the lesson being added.
        cosine: cosine of their normalized embeddings (all-MiniLM-L6-v2 scale).
        old_month, new_month: ``YYYY-MM``; a new lesson dated before the old one never
            supersedes it.
        t: thresholds (default: the shipped ones).
    """
    features = pair_features(
        old,
        new,
        cosine,
        old_month=old_month,
        new_month=new_month,
    )
    return decide(features, t or shipped_thresholds())
