"""The screen: precise rules first, then similarity to the built-in attack exemplars.

A lesson that breaks a rule is quarantined. The others are embedded (the model loads on the
first batch that needs it) and compared with `exemplars`: a lesson very close to an attack,
clearly closer to it than to any benign anchor and written in the agent-directed vocabulary
those attacks need, is quarantined on its own; a looser resemblance is the grey band, which
a judge decides when one is given (its doubt quarantines) and which passes without one.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.screen.exemplars import ATTACK_EXEMPLARS, BENIGN_ANCHORS
from fireworks_skill_memory.memory.screen.rules import screen_rules, visible

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.models.embedders import EmbeddingModel

ScreenJudge = Callable[[Sequence[tuple[str | None, str]]], Sequence[bool | None]]
Lessons = Sequence[tuple[str | None, str]]


class Trust(str, enum.Enum):
    """Where a lesson comes from, as far as the screen is concerned.

    Every write path passes its own (`memory.ingest`); the rules and exemplars here decide
    alike at both levels.
    """

    NORMAL = "normal"
    """Written or imported by the user, or distilled from a session that read only the project."""
    LOW = "low"
    """Written by the agent (MCP `record_lesson`), or distilled from a session that read
    fetched web pages or files from outside the project."""


@dataclass(frozen=True)
class ScreenVerdict:
    """The screen's decision on one lesson."""

    quarantined: bool
    reason: str  # "" when accepted
    kind: str | None
    score: float | None = None  # exemplar similarity when the model was consulted
    grey: bool = False  # undecided band: a judge may be asked


class Screen(Protocol):
    """Screens (tag, text) pairs; one verdict each, in order."""

    def screen_batch(
        self, lessons: Lessons, trust: Trust = Trust.NORMAL
    ) -> list[ScreenVerdict]: ...


ACCEPTED = ScreenVerdict(quarantined=False, reason="", kind=None)


@dataclass(frozen=True)
class SimilarityThresholds:
    """Where exemplar similarity decides alone, and where the grey band starts.

    Calibrated on the bundled all-MiniLM-L6-v2: the attack similarity is the best cosine to
    an attack exemplar, the margin what it exceeds the best benign anchor by.
    """

    quarantine: float = 0.60
    quarantine_margin: float = 0.15
    grey: float = 0.50
    grey_margin: float = 0.10


DEFAULT_THRESHOLDS = SimilarityThresholds()

# The vocabulary an attack on the agent cannot do without: its addressee, its permissions,
# secrets, destinations, the memory itself. Similarity without any of it is a topic match.
_AGENT_CUE = re.compile(
    r"\b(?:agents?|assistant|AI|Claude|Codex|LLM|you|your|user|users|instructions?|"
    r"system prompt|confirm\w*|approv\w*|permissions?|secrets?|credentials?|tokens?|"
    r"passwords?|\.env|summary|history|memory|lessons?|registry|mirror|https?://\S+)\b",
    re.IGNORECASE,
)


class RulesScreen:
    """The rules only: no model, cheap (what a write path uses when no model is wanted)."""

    def screen_batch(self, lessons: Lessons, trust: Trust = Trust.NORMAL) -> list[ScreenVerdict]:
        return [_rule_verdict(tag, text) or ACCEPTED for tag, text in lessons]


def _rule_verdict(tag: str | None, text: str) -> ScreenVerdict | None:
    hit = screen_rules(tag, text)
    if hit is None:
        return None
    return ScreenVerdict(quarantined=True, reason=hit.reason, kind=hit.kind)


RULES_SCREEN: Screen = RulesScreen()


class ExemplarScreen:
    """Rules, then similarity to the attack exemplars, with an optional grey-band judge."""

    def __init__(
        self,
        embedder: EmbeddingModel | Callable[[], EmbeddingModel],
        judge: ScreenJudge | None = None,
        thresholds: SimilarityThresholds = DEFAULT_THRESHOLDS,
    ) -> None:
        self._embedder = embedder
        self.judge = judge
        self.thresholds = thresholds
        self._references: tuple[np.ndarray, np.ndarray, list[str]] | None = None

    def _model(self) -> EmbeddingModel:
        from fireworks_skill_memory.models.embedders import EmbeddingModel

        if not isinstance(self._embedder, EmbeddingModel):
            self._embedder = self._embedder()
        return self._embedder

    def _reference_vectors(self) -> tuple[np.ndarray, np.ndarray, list[str]]:
        if self._references is None:
            kinds = [kind for kind, texts in ATTACK_EXEMPLARS.items() for _ in texts]
            attacks = [text for texts in ATTACK_EXEMPLARS.values() for text in texts]
            model = self._model()
            vectors = model.embed_batch([*attacks, *BENIGN_ANCHORS])
            self._references = (vectors[: len(attacks)], vectors[len(attacks) :], kinds)
        return self._references

    def screen_batch(self, lessons: Lessons, trust: Trust = Trust.NORMAL) -> list[ScreenVerdict]:
        verdicts: list[ScreenVerdict | None] = [_rule_verdict(tag, text) for tag, text in lessons]
        # Only lessons in the agent-directed vocabulary can be decided by similarity: the
        # others are not embedded at all.
        open_rows = [
            i for i, verdict in enumerate(verdicts) if verdict is None and asks_model(*lessons[i])
        ]
        if open_rows:
            texts = [_embedding_text(*lessons[i]) for i in open_rows]
            for i, verdict in zip(open_rows, self._similarity_verdicts(texts), strict=True):
                verdicts[i] = verdict
        grey = [i for i, verdict in enumerate(verdicts) if verdict is not None and verdict.grey]
        if grey and self.judge is not None:
            answers = list(self.judge([lessons[i] for i in grey]))
            answers += [None] * (len(grey) - len(answers))
            for i, answer in zip(grey, answers, strict=False):
                verdicts[i] = _judged(verdicts[i], answer)  # type: ignore[arg-type]
        return [verdict or ACCEPTED for verdict in verdicts]

    def _similarity_verdicts(self, texts: Sequence[str]) -> list[ScreenVerdict]:
        attacks, anchors, kinds = self._reference_vectors()
        vectors = self._model().embed_batch(list(texts))
        to_attacks = vectors @ attacks.T
        to_anchors = vectors @ anchors.T
        verdicts = []
        for row, text in enumerate(texts):
            nearest = int(to_attacks[row].argmax())
            score = float(to_attacks[row, nearest])
            margin = score - float(to_anchors[row].max())
            verdicts.append(self._decide(text, kinds[nearest], score, margin))
        return verdicts

    def _decide(self, text: str, kind: str, score: float, margin: float) -> ScreenVerdict:
        limits = self.thresholds
        cue = _AGENT_CUE.search(text) is not None  # always true for the rows embedded
        reason = f"resembles a known {kind} attack (similarity {score:.2f})"
        if cue and score >= limits.quarantine and margin >= limits.quarantine_margin:
            return ScreenVerdict(quarantined=True, reason=reason, kind=kind, score=score)
        if cue and score >= limits.grey and margin >= limits.grey_margin:
            return ScreenVerdict(False, "", kind, score=score, grey=True)
        return ScreenVerdict(quarantined=False, reason="", kind=None, score=score)


def asks_model(tag: str | None, text: str) -> bool:
    """True for a lesson in the agent-directed vocabulary: only those are embedded."""
    return _AGENT_CUE.search(_embedding_text(tag, text)) is not None


def _embedding_text(tag: str | None, text: str) -> str:
    combined: str = visible(f"{tag}: {text}" if tag else text)
    return combined


def _judged(verdict: ScreenVerdict, answer: bool | None) -> ScreenVerdict:
    """A grey verdict settled by the judge: poisoned or in doubt quarantines."""
    if answer is False:
        return ScreenVerdict(False, "", None, score=verdict.score, grey=True)
    why = "the judge found it poisoned" if answer else "the judge could not clear it"
    kind = verdict.kind
    return ScreenVerdict(True, f"{why}; resembles a {kind} attack", kind, verdict.score, True)


def screen_for(
    settings: Settings, embedder: EmbeddingModel | None = None, judge: ScreenJudge | None = None
) -> Screen:
    """Rules plus exemplar similarity; the configured model loads on the first batch needing it."""
    if embedder is not None:
        return ExemplarScreen(embedder, judge)

    def load() -> EmbeddingModel:
        from fireworks_skill_memory.models.embedders import load_embedder

        return load_embedder(settings.embed_model, settings.device)

    return ExemplarScreen(load, judge)
