"""Search with the score breakdown: the retriever's own ranking (`RankedResult` holds every
component), embedding through the warm service's model when it is up, else through one
model this viewer process loads once."""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.retrieval.retriever import Ranked, Retriever
from fireworks_skill_memory.memory.retrieval.standing import by_standing
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.models.errors import ModelUnavailable

if TYPE_CHECKING:
    from fireworks_skill_memory.models.embedders import EmbeddingModel

SERVICE = "the warm service's model"
IN_PROCESS = "a model loaded by this viewer"


@dataclass(frozen=True)
class Breakdown:
    """One lesson's score and its parts: `score = cosine - HUB*hub + LEX*lexical + PRIOR*prior`."""

    lesson: Lesson
    score: float
    cosine: float
    hub: float
    lexical: float
    prior: float
    standing: str
    gated_in: bool  # among the lessons the gate would inject for this task


@dataclass(frozen=True)
class SearchAnswer:
    """A ranked search with what the plot needs: every candidate's score and the gate."""

    query: str
    skill: str | None
    results: list[Breakdown]
    scores: list[float]
    confidence: float
    threshold: float
    relative_cut: float
    weights: tuple[float, float, float]  # HUB, LEX, PRIOR
    via: str
    notices: list[str]

    @property
    def gate_passes(self) -> bool:
        return not math.isnan(self.confidence) and self.confidence >= self.threshold


class Searcher:
    """One retriever per embedder kind, kept for the viewer's lifetime (one request at a time)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._retrievers: dict[str, Retriever] = {}

    def embedder(self) -> tuple[EmbeddingModel, str]:
        """The service's model when it is up and runs the configured model, else our own."""
        from fireworks_skill_memory.memory.service.embedder import service_embedder

        borrowed = service_embedder(self.settings.home, self._model_id())
        if borrowed is not None:
            return borrowed, SERVICE
        return self._retriever(IN_PROCESS).embedder, IN_PROCESS

    def search(self, query: str, skill: str | None, top: int = 20) -> SearchAnswer:
        """The `top` lessons for `query` (one skill, or all), ordered as `search` orders them."""
        with self._lock:
            ranked, via, retriever = self._rank(lambda r: _rank(r, query, skill))
            notices = [notice.line() for notice in retriever.take_notices()]
        rows = breakdowns(ranked, retriever, top)
        weights = retriever.weights
        return SearchAnswer(
            query=query,
            skill=skill,
            results=rows,
            scores=[float(s) for s in ranked.result.scores],
            confidence=float(ranked.result.confidence),
            threshold=weights.gate_threshold,
            relative_cut=weights.gate_relative_cut,
            weights=(weights.hub_weight, weights.lexical_weight, weights.prior_weight),
            via=via,
            notices=notices,
        )

    def rank_skill(self, skill: str | None, task: str) -> dict[str, Breakdown]:
        """Every lesson of one scope ranked for `task`: id -> its breakdown."""
        with self._lock:
            ranked, _, retriever = self._rank(lambda r: r.rank_skill(skill, task))
            retriever.take_notices()
        return {row.lesson.id: row for row in breakdowns(ranked, retriever, None)}

    def _rank(self, ranking: _Ranking) -> tuple[Ranked, str, Retriever]:
        from fireworks_skill_memory.memory.service.embedder import service_embedder

        borrowed = service_embedder(self.settings.home, self._model_id())
        if borrowed is not None:
            retriever = self._retrievers.get(SERVICE)
            if retriever is None or retriever.embedder.model_id != borrowed.model_id:
                retriever = Retriever(self.settings, borrowed)
                self._retrievers[SERVICE] = retriever
            try:
                return ranking(retriever), SERVICE, retriever
            except ModelUnavailable:  # the service stopped meanwhile: rank in-process
                self._retrievers.pop(SERVICE, None)
        retriever = self._retriever(IN_PROCESS)
        return ranking(retriever), IN_PROCESS, retriever

    def _retriever(self, kind: str) -> Retriever:
        if kind not in self._retrievers:
            self._retrievers[kind] = Retriever(self.settings)
        return self._retrievers[kind]

    def _model_id(self) -> str:
        return self.settings.embed_model


if TYPE_CHECKING:
    from collections.abc import Callable

    _Ranking = Callable[[Retriever], Ranked]


def _rank(retriever: Retriever, query: str, skill: str | None) -> Ranked:
    return retriever.rank_skill(skill, query) if skill else retriever.rank_all(query)


def breakdowns(ranked: Ranked, retriever: Retriever, top: int | None) -> list[Breakdown]:
    """The ranked lessons with their parts, in the order `Retriever.search` returns them."""
    result = ranked.result
    lessons = ranked.candidates.lessons
    position = {lesson.id: index for index, lesson in enumerate(lessons)}
    hits = ranked.hits()
    scopes = dict.fromkeys(hit.lesson.skill for hit in hits)
    standings = {
        key: value for scope in scopes for key, value in retriever.store.standings(scope).items()
    }
    supports = {
        key: value for scope in scopes for key, value in retriever.store.supports(scope).items()
    }
    ordered = by_standing(hits, standings, supports)
    gated = set(ranked.injected)
    rows = []
    for hit in ordered if top is None else ordered[:top]:
        index = position[hit.lesson.id]
        rows.append(
            Breakdown(
                lesson=hit.lesson,
                score=float(result.scores[index]),
                cosine=float(result.similarity[index]),
                hub=float(result.hub[index]),
                lexical=float(result.lexical[index]),
                prior=float(result.prior[index]),
                standing=standings.get(hit.lesson.id, "current"),
                gated_in=index in gated,
            )
        )
    return rows
