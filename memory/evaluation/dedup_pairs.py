"""`eval dedup` and `eval supersede`: decide labelled pairs the way `add` would, and score them.

Dedup: each pair's `a` is stored in a skill of a temporary home and `b` is offered to the
same skill with no judge; the decision (merged or added) is scored against the label:
precision, recall, F1 and false merge (the share of distinct pairs merged).

Supersede: each pair's new lesson is offered to a skill holding only its old lesson, through
the `SemanticMatcher` with no judge: a merge target -> ``merge``; ``supersedes`` or
``contested`` -> ``supersede``; otherwise ``keep_both``. A lesson is *lost* when a
still-true one is merged away or archived (``keep_both`` or ``supersede`` decided
``merge``, ``keep_both`` decided ``supersede``); *retired* is the share of ``supersede``
pairs decided ``supersede``.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher
from fireworks_skill_memory.memory.dedup.supersede import Decision
from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.lesson import Lesson

if TYPE_CHECKING:
    from fireworks_skill_memory.models.embedders import EmbeddingModel

DECISIONS = tuple(d.value for d in Decision)


@dataclass(frozen=True)
class SupersedePair:
    """One line of a pairs file: an old and a new lesson of a skill, maybe labelled."""

    id: str
    old: Lesson
    new: Lesson
    label: str | None = None
    kind: str | None = None


@dataclass(frozen=True)
class PairOutcome:
    """The decision on one pair, with the matcher's reason and cosine."""

    id: str
    decision: str
    reason: str
    similarity: float | None


@dataclass(frozen=True)
class KindFigures:
    """Figures over one group of labelled pairs."""

    n: int
    correct: int
    lost: int
    outdated: int
    retired: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.n if self.n else 0.0

    @property
    def lost_rate(self) -> float:
        return self.lost / self.n if self.n else 0.0

    @property
    def retired_share(self) -> float | None:
        return self.retired / self.outdated if self.outdated else None


@dataclass(frozen=True)
class SupersedeReport:
    """Confusion matrix (label -> decision -> count) and figures overall and per kind."""

    confusion: Mapping[str, Mapping[str, int]]
    overall: KindFigures
    by_kind: Mapping[str, KindFigures]
    decided: Mapping[str, int]


def _lesson(raw: object, skill: str | None, where: str) -> Lesson:
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str) or not raw["text"]:
        raise InvalidInput(f"{where}: needs an object with a non-empty 'text'")
    tag, month = raw.get("tag"), raw.get("month")
    return Lesson(
        text=raw["text"],
        tag=tag if isinstance(tag, str) else None,
        month=month if isinstance(month, str) else None,
        skill=skill,
    )


def parse_pair(item: Mapping[str, object], where: str) -> SupersedePair:
    """A :class:`SupersedePair` from one decoded line; InvalidInput names what is wrong."""
    skill = item.get("skill")
    skill = skill if isinstance(skill, str) and skill else "pairs"
    label, kind = item.get("label"), item.get("kind")
    if label is not None and label not in DECISIONS:
        raise InvalidInput(f"{where}: label must be one of {', '.join(DECISIONS)}")
    return SupersedePair(
        id=str(item.get("id", where)),
        old=_lesson(item.get("old"), skill, f"{where}: old"),
        new=_lesson(item.get("new"), skill, f"{where}: new"),
        label=label if isinstance(label, str) else None,
        kind=kind if isinstance(kind, str) else None,
    )


def read_pairs(path: str) -> list[SupersedePair]:
    """The pairs of a JSONL file (blank lines skipped); InvalidInput names the bad line."""
    pairs = []
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                except ValueError:
                    raise InvalidInput(f"{path}:{number}: not JSON") from None
                if not isinstance(item, dict):
                    raise InvalidInput(f"{path}:{number}: not a JSON object")
                pairs.append(parse_pair(item, f"{path}:{number}"))
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror}") from None
    return pairs


def decide_pairs(pairs: Sequence[SupersedePair], embedder: EmbeddingModel) -> list[PairOutcome]:
    """Offer each pair's new lesson to a skill holding its old one (no judge)."""
    matcher = SemanticMatcher(embedder, judge=None)
    outcomes = []
    for pair in pairs:
        match = matcher([pair.old], pair.new)
        if match.target_id is not None:
            decision = Decision.MERGE
        elif match.supersedes is not None or match.contested is not None:
            decision = Decision.SUPERSEDE
        else:
            decision = Decision.KEEP_BOTH
        similarity = None if match.similarity is None else round(float(match.similarity), 4)
        outcomes.append(PairOutcome(pair.id, decision.value, match.reason, similarity))
    return outcomes


def is_lost(label: str, decision: str) -> bool:
    """A still-true lesson merged away or archived by this decision."""
    if decision == Decision.MERGE.value:
        return label != Decision.MERGE.value
    return label == Decision.KEEP_BOTH.value and decision == Decision.SUPERSEDE.value


def _figures(items: Sequence[tuple[str, str]]) -> KindFigures:
    outdated = [d for label, d in items if label == Decision.SUPERSEDE.value]
    return KindFigures(
        n=len(items),
        correct=sum(1 for label, d in items if label == d),
        lost=sum(1 for label, d in items if is_lost(label, d)),
        outdated=len(outdated),
        retired=sum(1 for d in outdated if d == Decision.SUPERSEDE.value),
    )


def supersede_report(
    pairs: Sequence[SupersedePair], outcomes: Sequence[PairOutcome]
) -> SupersedeReport:
    """Score decisions against the labels (unlabelled pairs count only in ``decided``)."""
    confusion = {label: dict.fromkeys(DECISIONS, 0) for label in DECISIONS}
    groups: dict[str, list[tuple[str, str]]] = {}
    labelled = []
    for pair, outcome in zip(pairs, outcomes, strict=True):
        if pair.label is None:
            continue
        confusion[pair.label][outcome.decision] += 1
        labelled.append((pair.label, outcome.decision))
        groups.setdefault(pair.kind or "unknown", []).append((pair.label, outcome.decision))
    decided = Counter(o.decision for o in outcomes)
    return SupersedeReport(
        confusion=confusion,
        overall=_figures(labelled),
        by_kind={kind: _figures(items) for kind, items in sorted(groups.items())},
        decided={d: decided.get(d, 0) for d in DECISIONS},
    )


# --------------------------------------------------------------------------- dedup


@dataclass(frozen=True)
class DedupDecision:
    """One pair: merged or added, with the similarity and the lesson merged into."""

    index: int
    decision: str
    similarity: float | None
    target: str | None
    reason: str


def evaluate_dedup(
    settings_env: dict[str, str], pairs: Sequence[dict[str, Any]], embedder: EmbeddingModel
) -> tuple[list[DedupDecision], dict[str, dict[str, float]]]:
    """Offer each pair's `b` to a skill holding `a` (no judge); score merges against labels."""
    from fireworks_skill_memory.memory.retrieval.evaluation import temporary_home
    from fireworks_skill_memory.memory.store.markdown_store import Store

    decisions = []
    matcher = SemanticMatcher(embedder, judge=None)
    with temporary_home(settings_env) as settings:
        store = Store(settings)
        for index, pair in enumerate(pairs):
            skill = f"pair-{index}"
            add_lesson(store, skill, str(pair["a"]), matcher=None)
            outcome = add_lesson(store, skill, str(pair["b"]), matcher=matcher)
            merged = outcome.action == "merged"
            decisions.append(
                DedupDecision(
                    index=index,
                    decision="merge" if merged else "add",
                    similarity=None if outcome.similarity is None else round(outcome.similarity, 4),
                    target=outcome.merged_from.id if merged and outcome.merged_from else None,
                    reason=outcome.reason,
                )
            )
    return decisions, dedup_metrics(pairs, decisions)


def dedup_metrics(
    pairs: Sequence[dict[str, Any]], decisions: Sequence[DedupDecision]
) -> dict[str, dict[str, float]]:
    """Precision, recall, F1 and false-merge rate (label-0 pairs merged), overall and by kind."""
    groups: dict[str, list[tuple[int, bool]]] = defaultdict(list)
    for pair, decision in zip(pairs, decisions, strict=True):
        item = (int(pair.get("label", 0)), decision.decision == "merge")
        groups["all"].append(item)
        groups[str(pair.get("kind", "unknown"))].append(item)
    out = {}
    for kind, items in sorted(groups.items()):
        tp = sum(1 for label, merged in items if label and merged)
        fp = sum(1 for label, merged in items if not label and merged)
        fn = sum(1 for label, merged in items if label and not merged)
        negatives = sum(1 for label, _ in items if not label)
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        row: dict[str, float] = {"n": len(items)}
        if tp + fn:
            row.update(precision=round(precision, 4), recall=round(recall, 4), f1=round(f1, 4))
        if negatives:
            row["false_merge"] = round(fp / negatives, 4)
        out[kind] = row
    return out
