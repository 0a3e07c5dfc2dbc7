"""The screen: what a lesson would make the agent do, the learned head, trust, the judge.

A lesson whose effects are risky (`rules`) is quarantined. With a model, the others are
embedded and scored by the learned head (`head`) when the package ships its weights: a score
over the fitted cut quarantines. A lesson of low trust (written by the agent itself, or
distilled from a session that read web pages or files from outside the project) is held for
review as soon as it asks for any action (a command, a URL, an install, a write), risky or
not. With a judge (the distiller's LLM), the head's grey band goes to it, and, when the screen
is built with `judge_actions`, every lesson that asks for an action as well; its doubt
quarantines.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.screen.rules import reading, screen_rules
from fireworks_skill_memory.memory.screen.text import visible

if TYPE_CHECKING:
    from fireworks_skill_memory.memory.screen.head import Head
    from fireworks_skill_memory.models.embedders import EmbeddingModel

ScreenJudge = Callable[[Sequence[tuple[str | None, str]]], Sequence[bool | None]]
Lessons = Sequence[tuple[str | None, str]]


class Trust(str, enum.Enum):
    """Where a lesson comes from, as far as the screen is concerned."""

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
    score: float | None = None  # the learned head's score when the model was consulted
    grey: bool = False  # undecided band: a judge may be asked


class Screen(Protocol):
    """Screens (tag, text) pairs; one verdict each, in order."""

    def screen_batch(
        self, lessons: Lessons, trust: Trust = Trust.NORMAL
    ) -> list[ScreenVerdict]: ...


ACCEPTED = ScreenVerdict(quarantined=False, reason="", kind=None)
GREY_MARGIN = 0.5
"""The grey band starts at this share of the head's cut."""


def _rule_verdict(tag: str | None, text: str) -> ScreenVerdict | None:
    hit = screen_rules(tag, text)
    if hit is None:
        return None
    return ScreenVerdict(quarantined=True, reason=hit.reason, kind=hit.kind)


LOW_TRUST_REASON = "low trust: agent-written or web-derived lesson with an action; held for review"


def _low_trust(tag: str | None, text: str) -> ScreenVerdict | None:
    """A low-trust lesson that asks for any action waits in review."""
    if not reading(tag, text).has_action:
        return None
    return ScreenVerdict(True, LOW_TRUST_REASON, "low trust")


class RulesScreen:
    """The rules and trust only: no model, cheap (a write path that wants no model)."""

    def screen_batch(self, lessons: Lessons, trust: Trust = Trust.NORMAL) -> list[ScreenVerdict]:
        verdicts = []
        for tag, text in lessons:
            verdict = _rule_verdict(tag, text)
            if verdict is None and trust is Trust.LOW:
                verdict = _low_trust(tag, text)
            verdicts.append(verdict or ACCEPTED)
        return verdicts


RULES_SCREEN: Screen = RulesScreen()


class EffectScreen:
    """Rules, the learned head over the embedding, trust and an optional judge."""

    def __init__(
        self,
        embedder: EmbeddingModel | Callable[[], EmbeddingModel],
        judge: ScreenJudge | None = None,
        head: Head | None = None,
        *,
        judge_actions: bool = False,
        learned: bool = True,
    ) -> None:
        from fireworks_skill_memory.memory.screen.head import shipped_head

        self._embedder = embedder
        self.judge = judge
        self.head = (head if head is not None else shipped_head()) if learned else None
        self.judge_actions = judge_actions

    def _model(self) -> EmbeddingModel:
        from fireworks_skill_memory.models.embedders import EmbeddingModel

        if not isinstance(self._embedder, EmbeddingModel):
            self._embedder = self._embedder()
        return self._embedder

    def screen_batch(self, lessons: Lessons, trust: Trust = Trust.NORMAL) -> list[ScreenVerdict]:
        verdicts: list[ScreenVerdict | None] = [_rule_verdict(tag, text) for tag, text in lessons]
        open_rows = [i for i, verdict in enumerate(verdicts) if verdict is None]
        if open_rows and self.head is not None:
            texts = [embedding_text(*lessons[i]) for i in open_rows]
            for i, verdict in zip(open_rows, self._head_verdicts(texts), strict=True):
                verdicts[i] = verdict
        if trust is Trust.LOW:
            for i, (tag, text) in enumerate(lessons):
                if verdicts[i] is None or not verdicts[i].quarantined:  # type: ignore[union-attr]
                    verdicts[i] = _low_trust(tag, text) or verdicts[i]
        asked = [i for i, verdict in enumerate(verdicts) if self._asks_judge(verdict, lessons[i])]
        if asked and self.judge is not None:
            answers = list(self.judge([lessons[i] for i in asked]))
            answers += [None] * (len(asked) - len(answers))
            for i, answer in zip(asked, answers, strict=False):
                verdicts[i] = _judged(verdicts[i], answer)
        return [verdict or ACCEPTED for verdict in verdicts]

    def _asks_judge(self, verdict: ScreenVerdict | None, lesson: tuple[str | None, str]) -> bool:
        if verdict is not None and verdict.quarantined:
            return False
        if verdict is not None and verdict.grey:
            return True
        return self.judge_actions and reading(*lesson).has_action

    def _head_verdicts(self, texts: Sequence[str]) -> list[ScreenVerdict | None]:
        assert self.head is not None
        model = self._model()
        if self.head.model and self.head.model != model.model_id:
            return [None] * len(texts)  # weights of another model mean nothing here
        scores = self.head.scores(model.embed_batch(list(texts)))
        cut = self.head.threshold
        verdicts: list[ScreenVerdict | None] = []
        for score in map(float, scores):
            if score >= cut:
                reason = f"reads like a poisoned lesson (learned head {score:.2f})"
                verdicts.append(ScreenVerdict(True, reason, "learned", score))
            elif score >= cut * GREY_MARGIN:
                verdicts.append(ScreenVerdict(False, "", "learned", score, grey=True))
            else:
                verdicts.append(None)
        return verdicts


def embedding_text(tag: str | None, text: str) -> str:
    """What the head embeds: the visible tag and text."""
    combined: str = visible(f"{tag}: {text}" if tag else text)
    return combined


def _judged(verdict: ScreenVerdict | None, answer: bool | None) -> ScreenVerdict:
    """A lesson the judge was asked about: poisoned, or no answer, quarantines."""
    score = verdict.score if verdict is not None else None
    if answer is False:
        return ScreenVerdict(False, "", None, score=score, grey=True)
    why = "the judge found it poisoned" if answer else "the judge could not clear it"
    kind = verdict.kind if verdict is not None else None
    return ScreenVerdict(True, why, kind, score, True)


def screen_for(
    settings: Settings,
    embedder: EmbeddingModel | None = None,
    judge: ScreenJudge | None = None,
    *,
    judge_actions: bool = False,
) -> Screen:
    """Rules plus the learned head; the configured model loads on the first batch needing it."""
    if embedder is not None:
        return EffectScreen(embedder, judge, judge_actions=judge_actions)

    def load() -> EmbeddingModel:
        from fireworks_skill_memory.memory.embedding import embedder_for

        return embedder_for(settings)

    return EffectScreen(load, judge, judge_actions=judge_actions)


def rules_screen(judge: ScreenJudge | None = None, *, judge_actions: bool = False) -> Screen:
    """The rules and trust, with no model; a judge still sees what it is given to see."""
    if judge is None:
        return RULES_SCREEN

    def no_model() -> EmbeddingModel:
        raise AssertionError("a rules-only screen embeds nothing")

    return EffectScreen(no_model, judge, judge_actions=judge_actions, learned=False)
