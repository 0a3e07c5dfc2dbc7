"""Choosing lessons for a task: the semantic path (index + ranking) and the task-free path.

`Retriever` holds one embedder and one index; the CLI builds one per command, the warm
service keeps one for its lifetime (with per-scope candidate caches). The formula and
the gate live in `memory.ranking`; this module feeds them and frames the result.
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memory.config import Settings
from memory.errors import ConfigError
from memory.indexing import MemoryIndex, row_to_lesson, scope_of
from memory.inject import Hit, Injection, by_hits_and_age, frame
from memory.lesson import Lesson, age_in_months
from memory.store import Store

if TYPE_CHECKING:
    import numpy as np

    from index.table import Row
    from memory.ranking import RankedResult, RankingWeights
    from models.embedders import EmbeddingModel

GLOBAL_INJECT = 2
TASK_CACHE = 256
# a search across all skills stats every knowledge file first; a warm process does it at
# most this often (a skill-scoped injection always checks its own file)
ALL_SCOPES_RECHECK = 1.0

Task = str | Sequence[str]


def task_list(task: Task | None) -> list[str]:
    """A task as its non-empty parts."""
    if task is None:
        return []
    parts = [task] if isinstance(task, str) else list(task)
    return [part for part in parts if part.strip()]


def task_text(task: Task | None) -> str | None:
    """A task as one text (parts on separate lines), or None when it is empty."""
    parts = task_list(task)
    return "\n".join(parts) if parts else None


def ranking_weights(settings: Settings) -> RankingWeights:
    """The tuned weights, with `SKILL_MEMORY_RANKING` overrides applied."""
    from memory.ranking import RankingWeights

    defaults = RankingWeights()
    fields = {field.name: field.type for field in dataclasses.fields(defaults)}
    overrides: dict[str, Any] = {}
    for key, value in settings.ranking_overrides.items():
        if key not in fields:
            raise ConfigError(f"SKILL_MEMORY_RANKING: unknown weight {key!r}")
        overrides[key] = int(value) if isinstance(getattr(defaults, key), int) else value
    return dataclasses.replace(defaults, **overrides)


@dataclass
class ScopeCandidates:
    """Everything ranking needs about one scope's lessons, cached until the file changes."""

    rows: list[Row]
    lessons: list[Lesson]
    vectors: np.ndarray
    hub: np.ndarray
    tokens: list[list[str]]
    ages: np.ndarray


@dataclass(frozen=True)
class Ranked:
    """One query's ranking over one candidate set, before and after the gate."""

    candidates: ScopeCandidates
    result: RankedResult
    injected: list[int]

    def hits(self, indices: list[int] | None = None) -> list[Hit]:
        chosen = [int(i) for i in self.result.order] if indices is None else indices
        return [
            Hit(
                self.candidates.lessons[i],
                float(self.result.scores[i]),
                float(self.result.similarity[i]) if self.result.has_task else None,
            )
            for i in chosen
        ]


class Retriever:
    """Semantic retrieval over one memory home."""

    def __init__(self, settings: Settings, embedder: EmbeddingModel | None = None) -> None:
        from models.embedders import load_embedder

        self.settings = settings
        self.embedder = embedder or load_embedder(settings.embed_model, settings.device)
        self.memory = MemoryIndex(settings, self.embedder)
        self.weights = ranking_weights(settings)
        self._scopes: dict[str, tuple[object, ScopeCandidates]] = {}
        self._chunks: OrderedDict[str, np.ndarray] = OrderedDict()
        self._all_checked = -ALL_SCOPES_RECHECK

    def forget_caches(self) -> None:
        """Drop the per-scope candidates (after the table was rebuilt)."""
        self._scopes.clear()

    @property
    def store(self) -> Store:
        return self.memory.store

    # ---- vectors ------------------------------------------------------------------------
    def task_vector(self, task: Task) -> np.ndarray:
        """The pooled embedding of a task (a text, or parts such as args and the prompt).

        Each part is split into chunks (`task_embedding_texts`); chunk vectors are cached,
        so a prompt embedded when it was submitted costs nothing when a skill is used.
        """
        import numpy as np

        from memory.ranking import pool_vectors, task_embedding_texts

        chunks = [chunk for part in task_list(task) for chunk in task_embedding_texts(part)]
        missing = [chunk for chunk in dict.fromkeys(chunks) if chunk not in self._chunks]
        if missing:
            for chunk, vector in zip(missing, self.embedder.embed_batch(missing), strict=True):
                self._chunks[chunk] = vector
        for chunk in chunks:
            self._chunks.move_to_end(chunk)
        while len(self._chunks) > TASK_CACHE:
            self._chunks.popitem(last=False)
        if not chunks:
            return np.zeros(self.embedder.dimension, dtype=np.float32)
        return np.asarray(
            pool_vectors(np.stack([self._chunks[c] for c in chunks])), dtype=np.float32
        )

    # ---- candidates ---------------------------------------------------------------------
    def candidates(self, skill: str | None) -> ScopeCandidates:
        """The scope's lessons and vectors, synced with its markdown first."""
        self.memory.sync([skill])
        scope = scope_of(skill)
        key = self.memory.index.load_state().fingerprints.get(self._path_for(skill), {}).get("sha")
        cached = self._scopes.get(scope)
        if cached is not None and cached[0] == key and key is not None:
            return cached[1]
        candidates = self._prepare(*self.memory.index.scope_rows([scope]))
        self._scopes[scope] = (key, candidates)
        return candidates

    def _prepare(self, rows: list[Row], vectors: np.ndarray) -> ScopeCandidates:
        """Rows and vectors with what ranking needs precomputed (hubness, tokens, ages)."""
        import numpy as np

        from memory import lexical
        from memory.ranking import hubness

        month = self.store.month()
        return ScopeCandidates(
            rows=rows,
            lessons=[row_to_lesson(row) for row in rows],
            vectors=vectors,
            hub=hubness(vectors, self.weights.hub_k) if len(rows) else np.zeros(0),
            tokens=[lexical.tokenize(f"{row.tag} {row.text}") for row in rows],
            ages=np.asarray([age_in_months(row.month or None, month) for row in rows], dtype=float),
        )

    def _path_for(self, skill: str | None) -> str:
        source = self.memory.source(skill)
        return source.path if source is not None else ""

    def _ranked(self, candidates: ScopeCandidates, task: Task | None) -> Ranked:
        import numpy as np

        from memory.ranking import Candidates, gate, rank

        text = task_text(task)
        has_task = text is not None
        similarity = None
        if has_task and len(candidates.rows):
            similarity = candidates.vectors @ self.task_vector(task_list(task))
        result = rank(
            Candidates(
                texts=[row.text for row in candidates.rows],
                tags=[row.tag for row in candidates.rows],
                hits=np.asarray([row.hits for row in candidates.rows], dtype=float),
                age_months=candidates.ages,
                similarity=similarity,
                hub=candidates.hub,
                tokens=candidates.tokens,
            ),
            text,
            self.weights,
        )
        return Ranked(candidates, result, gate(result, self.weights))

    def rank_skill(self, skill: str | None, task: Task | None) -> Ranked:
        """Rank every lesson of one scope for `task` (or by HIT/age without one)."""
        return self._ranked(self.candidates(skill), task)

    def rank_all(self, task: Task) -> Ranked:
        """Rank lessons of every scope: nearest candidates by cosine, then the full formula."""
        from memory.ranking import ALL_SKILLS_CANDIDATES

        now = time.monotonic()
        if now - self._all_checked > ALL_SCOPES_RECHECK:
            self.memory.sync(None)
            self._all_checked = now
        vector = self.task_vector(task_list(task))
        rows, _, vectors = self.memory.index.search(vector, ALL_SKILLS_CANDIDATES)
        return self._ranked(self._prepare(rows, vectors), task)

    # ---- the two products ---------------------------------------------------------------
    def inject(
        self,
        skill: str,
        task: Task | None,
        *,
        top: int | None = None,
        include_global: bool = True,
    ) -> Injection:
        """The injection for using `skill` on `task` (gated; HIT/age order without a task)."""
        has_task = task_text(task) is not None
        ranked = self.rank_skill(skill, task)
        if has_task:
            chosen = ranked.hits(ranked.injected)[: top or self.settings.inject_top]
        else:
            chosen = ranked.hits()[: top or self.settings.inject_top]
        global_hits: list[Hit] = []
        if include_global and has_task:
            global_ranked = self.rank_skill(None, task)
            global_hits = global_ranked.hits(global_ranked.injected)[:GLOBAL_INJECT]
        text, kept, kept_global = frame(
            skill,
            chosen,
            global_hits,
            max_tokens=self.settings.inject_tokens,
            ranked_for_task=has_task,
        )
        return Injection(
            skill=skill,
            task=task_text(task),
            ranker="semantic" if has_task else "hits",
            hits=kept,
            global_hits=kept_global,
            text=text,
        )

    def search(self, query: str, *, skill: str | None = None, top: int = 10) -> list[Hit]:
        """Lessons nearest to `query` in one skill or across all, best first (no gate)."""
        ranked = self.rank_skill(skill, query) if skill else self.rank_all(query)
        return ranked.hits()[:top]


def inject_for(
    settings: Settings,
    skill: str,
    task: str | None,
    *,
    top: int | None = None,
    include_global: bool = True,
) -> Injection:
    """The injection for `skill`: task-ranked through the index, or HIT/age order without task."""
    if not (task and task.strip()):
        store = Store(settings)
        limit = top or settings.inject_top
        hits = by_hits_and_age(store.lessons(skill), store.month())[:limit]
        text, kept, _ = frame(skill, hits, max_tokens=settings.inject_tokens, ranked_for_task=False)
        return Injection(skill=skill, task=task, ranker="hits", hits=kept, text=text)
    return Retriever(settings).inject(skill, task, top=top, include_global=include_global)
