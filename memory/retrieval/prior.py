"""The HIT/age prior and the one order of a skill's lessons when there is no task.

``prior = (1 - R) * h / (h + H0) + R * 0.5 ** (age / T)``, in ``[0, 1)``: saturating in the
HIT count ``h``, decaying with the age in months. `retrieval.ranking` adds it (times a hundredth)
to every task score as a tie-breaker; without a task it is the whole order, and
`order_without_task` is the only function that decides that order: the CLI (`inject`
without `--task`), the warm service and the hook's in-process fallback all call it, so the
same skill shows the same lessons first whichever path answered.

Standard library only (the hook process imports it).
"""

from __future__ import annotations

import math

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from fireworks_skill_memory.memory.config import Settings

HITS_HALF = 5.0
"""H0: HIT count at which the HIT part of the prior reaches half its maximum."""
AGE_HALF_LIFE_MONTHS = 12.0
"""T: age at which the recency part of the prior halves."""
RECENCY_SHARE = 0.3
"""R: share of the prior given to recency (the rest goes to HIT count)."""
PRIOR_WEIGHT = 0.01
"""PRIOR: the prior's weight in a score (`ranking.RankingWeights.prior_weight`); without a
task a lesson's score is PRIOR times its prior."""
_VERY_OLD = 1e6  # months: what an unknown (NaN) or infinite age counts as
_BELOW_ONE = 1.0 - 2.0**-53  # the largest float below 1.0


class PriorWeights:
    """The three tunables of the prior (`SKILL_MEMORY_RANKING` may override them)."""

    __slots__ = ("age_half_life_months", "hits_half", "recency_share")

    def __init__(
        self,
        hits_half: float = HITS_HALF,
        age_half_life_months: float = AGE_HALF_LIFE_MONTHS,
        recency_share: float = RECENCY_SHARE,
    ) -> None:
        self.hits_half = hits_half
        self.age_half_life_months = age_half_life_months
        self.recency_share = recency_share


def prior_weights(settings: Settings) -> PriorWeights:
    """The prior's weights with this environment's `SKILL_MEMORY_RANKING` overrides."""
    overrides = settings.ranking_overrides
    return PriorWeights(
        overrides.get("hits_half", HITS_HALF),
        overrides.get("age_half_life_months", AGE_HALF_LIFE_MONTHS),
        overrides.get("recency_share", RECENCY_SHARE),
    )


def prior_weight(settings: Settings) -> float:
    """PRIOR with this environment's `SKILL_MEMORY_RANKING` override."""
    return settings.ranking_overrides.get("prior_weight", PRIOR_WEIGHT)


def hits_age_prior(hits: float, age_months: float, weights: PriorWeights | None = None) -> float:
    """The prior of one lesson, in ``[0, 1)``.

    Negative HIT counts and ages count as 0, a NaN HIT count as 0, a NaN or infinite age as
    very old.
    """
    w = weights or PriorWeights()
    h = 0.0 if math.isnan(hits) else max(0.0, float(hits))
    if math.isnan(age_months) or age_months == math.inf:
        age = _VERY_OLD
    else:
        age = max(0.0, float(age_months))
    if w.hits_half > 0:
        hit_part = h / (h + w.hits_half) if h != math.inf else 1.0
    else:
        hit_part = 1.0 if h > 0 else 0.0
    recency: float = 0.5 ** (age / w.age_half_life_months)
    prior = (1.0 - w.recency_share) * hit_part + w.recency_share * recency
    return min(prior, _BELOW_ONE)  # the documented bound, even for huge HIT counts


def order_without_task(
    hits: Sequence[float], ages: Sequence[float], weights: PriorWeights | None = None
) -> list[int]:
    """Positions of the lessons, highest prior first; equal priors keep their input order."""
    priors = [hits_age_prior(h, a, weights) for h, a in zip(hits, ages, strict=True)]
    return sorted(range(len(priors)), key=lambda position: -priors[position])


def months_between(month: str | None, today: str) -> int:
    """Whole months from `month` to `today` (both `YYYY-MM`); 0 when either is not a month."""
    if month is None or not _is_month(month) or not _is_month(today):
        return 0
    return max(0, (int(today[:4]) - int(month[:4])) * 12 + int(today[5:7]) - int(month[5:7]))


def _is_month(text: str) -> bool:
    """`YYYY-MM` with a month 01-12 (the year in any decimal digits, as `\\d{4}` matches)."""
    return len(text) == 7 and text[:4].isdecimal() and text[4] == "-" and text[5:7] in _MONTHS


_MONTHS = frozenset(f"{month:02d}" for month in range(1, 13))
