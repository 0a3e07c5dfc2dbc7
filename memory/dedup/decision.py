"""The decision on a new lesson against an existing one: merge, supersede or keep both.

A pure function of the pair's features (:class:`memory.dedup.features.PairFeatures`) and the
thresholds (:class:`MatchThresholds`, shipped in ``thresholds.toml``, fitted by
`skill-memory eval cv`). Dedup ("is it the same lesson?") and supersession ("does it outdate
the old one?") are this one decision: the matcher merges on MERGE, archives the old lesson
on SUPERSEDE and adds on KEEP_BOTH. In order:

1. ``exact`` / ``normalized-text`` -> MERGE.
2. Supersede evidence -> SUPERSEDE, unless both lessons open with different scopes
   (``condition``) or the new lesson is dated before the old one (then KEEP_BOTH, unclear):
   ``reversed`` (a denial covering at least ``reversal_coverage`` of a clause the other
   affirms), ``markers`` (change phrases, from the cosine ``subject``), ``changed-value``
   (a number, name or antonym changed, from the cosine ``changed_value``, the other words
   overlapping at least ``changed_overlap``).
3. The merge rule (:func:`merge_verdict`): a conflict (number, identifier, antonym) -> no
   merge; cosine >= ``merge`` -> MERGE; from ``support``, content-word overlap >=
   ``overlap`` with ``min_shared`` words in common -> MERGE, unless a code name is on one
   side only (``unshared-specifics``).
4. Otherwise KEEP_BOTH; its merge verdict is GREY (the judge's band, from ``grey``) when the
   cosine is high enough, for a matcher that has an LLM judge to ask "same lesson?".

``off`` switches hand-set parts off by name (`eval cv` ablations); the product passes none.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources

from fireworks_skill_memory.memory.dedup import conflicts as c
from fireworks_skill_memory.memory.dedup import evidence as e
from fireworks_skill_memory.memory.dedup.features import PairFeatures

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REVERSED, MARKERS, CHANGED = "reversed", "markers", "changed-value"
EVIDENCE = (REVERSED, MARKERS, CHANGED)
OVERLAP_STEP, UNSHARED = "overlap step", "unshared-specifics"
#: Every hand-set part that `eval cv` can switch off, by name.
PARTS = (*c.CONFLICTS, *e.GUARDS, *EVIDENCE, OVERLAP_STEP, UNSHARED)


class Decision(enum.Enum):
    """What a new lesson does to an existing one."""

    MERGE = "merge"
    SUPERSEDE = "supersede"
    KEEP_BOTH = "keep_both"


class Verdict(enum.Enum):
    """The merge rule's verdict: merge, ask the judge (grey band), or add."""

    MERGE = "merge"
    GREY = "grey"
    ADD = "add"


@dataclass(frozen=True)
class MatchThresholds:
    """The decision's thresholds (cosines of normalized all-MiniLM-L6-v2 embeddings, and
    content-word overlaps). The shipped values are fitted by `eval cv` (``thresholds.toml``);
    another encoder has another cosine scale and needs its own."""

    merge: float = 0.85
    support: float = 0.55
    overlap: float = 0.35
    min_shared: int = 3
    subject: float = 0.50
    changed_value: float = 0.80
    changed_overlap: float = 0.85
    reversal_coverage: float = 0.45
    grey: float = 0.50
    """Lower edge of the judge's band; not fitted (the offline figures run without a judge)."""
    unclear_cosine: float = 0.75
    """From this cosine an unexplained conflict is left to the distiller; not fitted."""

    def __post_init__(self) -> None:
        if not -1.0 <= self.grey <= self.support <= self.merge <= 1.0:
            raise ValueError("thresholds must satisfy -1 <= grey <= support <= merge <= 1")
        for name in ("overlap", "changed_overlap", "reversal_coverage"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must lie in [0, 1]")
        if self.min_shared < 0:
            raise ValueError("min_shared must not be negative")


def thresholds_from(table: Mapping[str, object]) -> MatchThresholds:
    """Thresholds from a table (unknown keys are an error, missing ones keep the default)."""
    known = {f.name: f.type for f in fields(MatchThresholds)}
    unknown = set(table) - set(known)
    if unknown:
        raise ValueError(f"unknown thresholds: {', '.join(sorted(unknown))}")
    values: dict[str, float | int] = {}
    for name, value in table.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ValueError(f"threshold {name} must be a number")
        values[name] = int(value) if name == "min_shared" else float(value)
    return MatchThresholds(**values)  # type: ignore[arg-type]


@cache
def shipped_thresholds() -> MatchThresholds:
    """The thresholds the product decides with (``thresholds.toml``, fitted by `eval cv`)."""
    text = resources.files(__package__).joinpath("thresholds.toml").read_text(encoding="utf-8")
    return thresholds_from(tomllib.loads(text)["thresholds"])


@dataclass(frozen=True)
class Supersession:
    """The decision on one (old, new) pair, why, and whether an LLM could settle it."""

    decision: Decision
    reason: str
    similarity: float
    unclear: bool = False
    dedup_verdict: Verdict = Verdict.ADD


@dataclass(frozen=True)
class MergeVerdict:
    verdict: Verdict
    reason: str


def merge_verdict(
    f: PairFeatures, t: MatchThresholds, off: frozenset[str] = frozenset()
) -> MergeVerdict:
    """Is the new text the same lesson as the old? (symmetric in the two texts)."""
    cos = f.similarity
    if f.text_match is not None:
        return MergeVerdict(Verdict.MERGE, f.text_match)
    found = f.conflicts - off
    if found:
        reason = next(name for name in c.CONFLICTS if name in found)
        return MergeVerdict(Verdict.GREY if cos >= t.grey else Verdict.ADD, reason)
    if cos >= t.merge:
        return MergeVerdict(Verdict.MERGE, f"cosine>={t.merge:.2f}")
    if (
        OVERLAP_STEP not in off
        and cos >= t.support
        and f.overlap >= t.overlap
        and f.shared >= t.min_shared
    ):
        if f.unshared and UNSHARED not in off:
            return MergeVerdict(Verdict.GREY, UNSHARED)
        return MergeVerdict(Verdict.MERGE, f"cosine>={t.support:.2f}+overlap>={t.overlap:.2f}")
    if cos >= t.grey:
        return MergeVerdict(Verdict.GREY, "grey-band")
    return MergeVerdict(Verdict.ADD, "below-band")


def _evidence(
    f: PairFeatures, t: MatchThresholds, found: frozenset[str], off: frozenset[str]
) -> tuple[str, bool] | None:
    """(reason, weak) of the strongest sign that the new lesson outdates the old, or None;
    weak evidence (a bare "now", or markers below the subject cosine) is left unclear."""
    cos = f.similarity
    if REVERSED not in off and f.reversal > 0 and f.reversal >= t.reversal_coverage:
        return REVERSED, False
    markers = f.markers if MARKERS not in off else ()
    if markers and cos >= t.subject:
        return "marker:" + ",".join(markers), markers == ("now",) and not found
    value = (c.NUMBER in found and f.one_number_changed) or found & {c.IDENTIFIER, c.ANTONYM}
    close = cos >= t.changed_value and f.masked_overlap >= t.changed_overlap
    if CHANGED not in off and value and close:
        return CHANGED, False
    if markers:
        return "marker:" + ",".join(markers) + " (weak subject)", True
    return None


def decide(f: PairFeatures, t: MatchThresholds, off: frozenset[str] = frozenset()) -> Supersession:
    """Merge, supersede or keep both (see the module docstring)."""
    cos = f.similarity
    merge = merge_verdict(f, t, off)
    if f.text_match is not None:
        return Supersession(Decision.MERGE, f.text_match, cos, False, Verdict.MERGE)
    found = f.conflicts - off
    evidence = _evidence(f, t, found, off)
    if evidence is not None:
        reason, weak = evidence
        guard = next((g for g in e.GUARDS if g in f.guards - off), None)
        if guard is not None:
            return Supersession(Decision.KEEP_BOTH, guard, cos, True, merge.verdict)
        if weak and reason.endswith("(weak subject)"):
            return Supersession(Decision.KEEP_BOTH, reason, cos, True, merge.verdict)
        if f.new_is_older:
            return Supersession(Decision.KEEP_BOTH, reason + ", new is older", cos, True)
        return Supersession(Decision.SUPERSEDE, reason, cos, weak, merge.verdict)
    if merge.verdict is Verdict.MERGE:
        return Supersession(Decision.MERGE, merge.reason, cos, False, merge.verdict)
    unclear = bool(found) and cos >= t.unclear_cosine
    return Supersession(Decision.KEEP_BOTH, merge.reason, cos, unclear, merge.verdict)
