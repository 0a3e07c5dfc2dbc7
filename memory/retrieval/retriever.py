"""Choosing lessons for a task: the semantic path (index + ranking) and the task-free path.

`Retriever` holds one embedder and one index; the CLI builds one per command, the warm
service keeps one for its lifetime (with per-scope candidate caches). The formula and
the gate live in `memory.retrieval.ranking`; this module feeds them and frames the result.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from fireworks_skill_memory.index.errors import IndexDamaged, IndexUnavailable
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import ConfigError, InvalidInput
from fireworks_skill_memory.memory.retrieval.indexing import (
    READ_LOCK_WAIT,
    IndexNotice,
    MemoryIndex,
    SyncReport,
    knowledge_source,
    parse_source,
    row_to_lesson,
    scope_of,
    source_key,
)
from fireworks_skill_memory.memory.retrieval.inject import by_hits_and_age, frame
from fireworks_skill_memory.memory.retrieval.layers import (
    Provenances,
    collapse_restatements,
    origin_of,
    team_scope,
    team_settings,
    team_source,
)
from fireworks_skill_memory.memory.retrieval.prior import prior_weights
from fireworks_skill_memory.memory.retrieval.records import Hit, Injection
from fireworks_skill_memory.memory.retrieval.standing import StandingCache, by_standing
from fireworks_skill_memory.memory.store.knowledge_files import read_doc
from fireworks_skill_memory.memory.store.lesson import Lesson, age_in_months
from fireworks_skill_memory.memory.store.markdown_store import Store

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.index.table import Row
    from fireworks_skill_memory.memory.retrieval.clauses import ClauseMatrix, ClauseVectors
    from fireworks_skill_memory.memory.retrieval.ranking import (
        Features,
        RankedResult,
        RankingWeights,
    )
    from fireworks_skill_memory.memory.retrieval.snapshot import SnapshotReader
    from fireworks_skill_memory.models.embedders import EmbeddingModel

GLOBAL_INJECT = 2
TASK_CACHE = 256
# a search across all skills stats every knowledge file first; a warm process does it at
# most this often (a skill-scoped injection always checks its own file)
ALL_SCOPES_RECHECK = 1.0
# without a usable index, an all-skills search embeds at most this many lessons in memory
# (those the index cannot supply); beyond it, the lexically best of them are embedded
MARKDOWN_EMBED_MAX = 1000
MAX_NOTICES = 20  # kept until taken; a warm service that never takes them keeps the first

T = TypeVar("T")

Task = str | Sequence[str]
AllRows = tuple[list["Row"], "np.ndarray"]


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
    from fireworks_skill_memory.memory.retrieval.ranking import RankingWeights

    defaults = RankingWeights()
    fields = {field.name: field.type for field in dataclasses.fields(defaults)}
    overrides: dict[str, Any] = {}
    for key, value in settings.ranking_overrides.items():
        if key not in fields:
            raise ConfigError(f"SKILL_MEMORY_RANKING: unknown weight {key!r}")
        overrides[key] = int(value) if isinstance(getattr(defaults, key), int) else value
    return dataclasses.replace(defaults, **overrides)


def _no_clauses() -> ClauseMatrix:
    from fireworks_skill_memory.memory.retrieval.clauses import ClauseMatrix

    return ClauseMatrix()


@dataclass
class ScopeCandidates:
    """Everything ranking needs about one scope's lessons, cached until the file changes."""

    rows: list[Row]
    lessons: list[Lesson]
    vectors: np.ndarray
    hub: np.ndarray
    tokens: list[list[str]]
    ages: np.ndarray
    clauses: ClauseMatrix = dataclasses.field(default_factory=_no_clauses)


@dataclass(frozen=True)
class Ranked:
    """One query's ranking over one candidate set, before and after the gate."""

    candidates: ScopeCandidates
    result: RankedResult
    injected: list[int]

    def hits(self, indices: list[int] | None = None) -> list[Hit]:
        chosen = [int(i) for i in self.result.order] if indices is None else indices
        passed = set(self.injected) if self.result.has_task else set()
        return [
            Hit(
                self.candidates.lessons[i],
                float(self.result.scores[i]),
                float(self.result.similarity[i]) if self.result.has_task else None,
                origin=origin_of(self.candidates.rows[i].scope),
                strong=i in passed,
            )
            for i in chosen
        ]


class Retriever:
    """Semantic retrieval over one memory home.

    The model is loaded, and the index opened, only when there is something to rank. When
    the index cannot be read, synced or written, answers come from the markdown (vectors
    embedded in memory) and an `IndexNotice` is kept for the caller (`take_notices`).

    A scope's candidates are its own lessons and those of the pulled team layer that restate
    none of them (`memory.retrieval.layers`). `inject` and `search` answer with the caller's
    settings when given (`settings`: its top, token cap and `SKILL_MEMORY_RANKING`), so a
    warm service answers each hook as that hook's environment says.

    `cold`: a process that answers and exits (the CLI with no service) ranks from the
    markdown and the index's snapshot (`memory.retrieval.snapshot`), never importing
    LanceDB, for as long as the snapshot holds every lesson's vector; from the first
    lesson it lacks on, it syncs and reads the index as a warm process does.
    """

    def __init__(
        self, settings: Settings, embedder: EmbeddingModel | None = None, *, cold: bool = False
    ) -> None:
        self.settings = settings
        self.cold = cold
        self._snapshot: SnapshotReader | None = None
        # a warm process's every lesson from the snapshot, by the synced state it was read at
        self._all_rows: tuple[tuple[tuple[str, str], ...], AllRows | None] | None = None
        self.weights = ranking_weights(settings)
        self._embedder = embedder
        self._memory: MemoryIndex | None = None
        self._store = Store(settings)
        self._standings = StandingCache(self._store)
        self._provenances = Provenances(settings)
        self._caller_weights: dict[tuple[tuple[str, float], ...], RankingWeights] = {}
        self._scopes: dict[str, tuple[str | None, ScopeCandidates]] = {}
        self._chunks: OrderedDict[str, np.ndarray] = OrderedDict()
        self._pinned: dict[str, np.ndarray] = {}  # vectors kept for good (the glossary's)
        self._clause_vectors: ClauseVectors | None = None
        self._all_checked = -ALL_SCOPES_RECHECK
        self._embedded: dict[str, np.ndarray] = {}  # vectors embedded without the index
        self._notices: dict[IndexNotice, None] = {}  # an ordered set: a warm process repeats

    @property
    def embedder(self) -> EmbeddingModel:
        """The embedding model (loaded on first use)."""
        if self._embedder is None:
            from fireworks_skill_memory.memory.embedding import embedder_for

            self._embedder = embedder_for(self.settings)
        return self._embedder

    @property
    def memory(self) -> MemoryIndex:
        """The markdown and its index, for the embedder's model (loads the model)."""
        if self._memory is None:
            self._memory = MemoryIndex(self.settings, self.embedder)
        return self._memory

    def forget_caches(self) -> None:
        """Drop the per-scope candidates (after the table was rebuilt)."""
        self._scopes.clear()

    @property
    def store(self) -> Store:
        return self._store

    def take_notices(self) -> list[IndexNotice]:
        """Index problems met since the last call, each once (for the caller to show)."""
        notices = list(self._notices)
        self._notices.clear()
        return notices

    def _notice(self, notice: IndexNotice) -> None:
        if len(self._notices) < MAX_NOTICES:
            self._notices[notice] = None

    def refresh(self) -> None:
        """Sync every scope now, repairing a damaged table (the service's warm-up).

        An index that cannot be written is no error: answers then come from the markdown.
        """
        self._all_checked = -ALL_SCOPES_RECHECK
        try:
            self._sync(None)
        except IndexUnavailable as error:
            self._notice(IndexNotice.unavailable(error, self.settings.index_dir))

    # ---- vectors ------------------------------------------------------------------------
    def task_vector(self, task: Task) -> np.ndarray:
        """The pooled embedding of a task (a text, or parts such as args and the prompt).

        Each part is split into chunks (`task_embedding_texts`); chunk vectors are cached,
        so a prompt embedded when it was submitted costs nothing when a skill is used.
        """
        import numpy as np

        from fireworks_skill_memory.memory.retrieval.ranking import (
            pool_vectors,
            task_embedding_texts,
        )

        chunks = [chunk for part in task_list(task) for chunk in task_embedding_texts(part)]
        missing = [
            chunk
            for chunk in dict.fromkeys(chunks)
            if chunk not in self._chunks and chunk not in self._pinned
        ]
        if missing:
            for chunk, vector in zip(missing, self.embedder.embed_batch(missing), strict=True):
                self._chunks[chunk] = vector
        for chunk in chunks:
            if chunk in self._chunks:
                self._chunks.move_to_end(chunk)
        while len(self._chunks) > TASK_CACHE:
            self._chunks.popitem(last=False)
        if not chunks:
            return np.zeros(self.embedder.dimension, dtype=np.float32)
        vectors = [self._pinned[c] if c in self._pinned else self._chunks[c] for c in chunks]
        return np.asarray(pool_vectors(np.stack(vectors)), dtype=np.float32)

    def pin_vectors(self, vectors: dict[str, np.ndarray]) -> None:
        """Keep these texts' vectors for good (`task_vector` then never embeds them)."""
        self._pinned.update(vectors)

    # ---- candidates ---------------------------------------------------------------------
    def candidates(self, skill: str | None) -> ScopeCandidates:
        """The scope's lessons and vectors, synced with its markdown first.

        Without a usable index they come from the markdown, embedded in memory.
        """
        if self._embedder is None and not self._has_lessons(skill):
            return self._prepare([], _no_vectors())  # nothing to rank: no model load
        cold = self._from_snapshot([skill])
        if cold is not None:
            return self._prepare(*collapse_restatements(*cold))
        try:
            return self._from_index([skill], lambda: self._indexed_candidates(skill))
        except IndexUnavailable as error:
            self._notice(IndexNotice.unavailable(error, self.settings.index_dir))
            return self._markdown_candidates([skill])

    def _from_snapshot(
        self, skills: list[str | None] | None
    ) -> tuple[list[Row], np.ndarray] | None:
        """A cold retriever's rows and vectors of these scopes (None: of all) from the markdown
        and the snapshot; None when not cold or the snapshot lacks a vector (then the index)."""
        if not self.cold:
            return None
        found = self._snapshot_rows(skills)
        if found is None:
            self.cold = False  # stale: the index syncs, and its sync completes the snapshot
        return found

    def _synced_snapshot(self) -> AllRows | None:
        """Every lesson and vector, from the snapshot, for a warm all-skills search just after a
        sync (kept until the next sync changes a file); None when the snapshot lacks one.
        A flat scan as LanceDB's below its ANN size, with no query memory left behind."""
        fingerprints = self.memory.index.load_state().fingerprints
        key = tuple(sorted((source, seen.sha) for source, seen in fingerprints.items()))
        if self._all_rows is None or self._all_rows[0] != key:
            self._all_rows = (key, self._snapshot_rows(None))
        return self._all_rows[1]

    def _snapshot_rows(
        self, skills: list[str | None] | None
    ) -> tuple[list[Row], np.ndarray] | None:
        """Rows of these scopes from the markdown, vectors from the snapshot (None: it lacks
        one). A warm process reads a synced scope's candidates this way too: LanceDB's reads
        leave ~40 MB resident in the service."""
        if self._snapshot is None:
            from fireworks_skill_memory.memory.retrieval.snapshot import SnapshotReader

            embedder = self.embedder
            self._snapshot = SnapshotReader(
                self.settings, embedder.model_id, embedder.dimension, cache=self.cold
            )
        if skills is None and self._snapshot.large():
            return None  # LanceDB's ANN index beats reading and scanning every lesson
        found = self._snapshot.scopes(skills)
        return None if found is None else (found.rows, found.vectors)

    def _has_lessons(self, skill: str | None) -> bool:
        """True when the scope has lessons of its own or in the pulled team layer."""
        if read_doc(self.settings, skill).lessons():
            return True
        return os.path.isdir(self.settings.team_dir) and bool(
            read_doc(team_settings(self.settings), skill).lessons()
        )

    def weights_for(self, settings: Settings | None) -> RankingWeights:
        """The ranking weights of a caller's settings (this retriever's own when None)."""
        if settings is None or settings.ranking_overrides == self.settings.ranking_overrides:
            return self.weights
        key = tuple(sorted(settings.ranking_overrides.items()))
        found = self._caller_weights.get(key)
        if found is None:
            found = self._caller_weights[key] = ranking_weights(settings)
        return found

    def _indexed_candidates(self, skill: str | None) -> ScopeCandidates:
        scope = scope_of(skill)
        key = self._synced_sha(skill)
        cached = self._scopes.get(scope)
        if cached is not None and cached[0] == key and key is not None:
            return cached[1]
        found = self._snapshot_rows([skill])
        rows, vectors = (
            found if found is not None else self.memory.index.scope_rows([scope, team_scope(scope)])
        )
        candidates = self._prepare(*collapse_restatements(rows, vectors))
        self._scopes[scope] = (key, candidates)
        return candidates

    def _synced_sha(self, skill: str | None) -> str | None:
        """The synced content hashes of the scope's file and its team layer file, as one key."""
        fingerprints = self.memory.index.load_state().fingerprints
        shas = []
        for source in (self.memory.source(skill), team_source(self.settings, skill)):
            seen = (
                None if source is None else fingerprints.get(source_key(self.settings, source.path))
            )
            shas.append(None if seen is None else seen.sha)
        if shas[0] is None and shas[1] is None:
            return None
        return f"{shas[0]}+{shas[1]}"

    def _from_index(self, scopes: list[str | None] | None, read: Callable[[], T]) -> T:
        """Sync `scopes` (None: all), then `read`; a table found damaged is repaired once.

        Raises IndexUnavailable when the index cannot serve the answer.
        """
        self._sync(scopes)
        try:
            return read()
        except IndexDamaged as damage:
            repair = self.memory.repair(damage, wait=READ_LOCK_WAIT)
            self._notice(IndexNotice.repaired(repair))
            self.forget_caches()
            self._all_checked = -ALL_SCOPES_RECHECK
            self._sync(scopes)
            return read()

    def _sync(self, scopes: list[str | None] | None) -> None:
        if scopes is None:
            now = time.monotonic()
            if now - self._all_checked <= ALL_SCOPES_RECHECK:
                return
            report = self.memory.sync(None, wait=READ_LOCK_WAIT)
            self._all_checked = now
        else:
            report = self.memory.sync(scopes, wait=READ_LOCK_WAIT)
        self._note(report)

    def _note(self, report: SyncReport) -> None:
        if report.repaired is not None:
            self._notice(IndexNotice.repaired(report.repaired))
            self.forget_caches()

    def _markdown_candidates(
        self, skills: list[str | None] | None, task: Task | None = None
    ) -> ScopeCandidates:
        """Candidates straight from the markdown of `skills` (None: all, preselected for `task`).

        Vectors come from the index when it can still be read, else are embedded here.
        """
        sources = (
            self.store.sources()
            if skills is None
            else [
                found
                for found in (knowledge_source(self.settings, skill) for skill in skills)
                if found is not None
            ]
        )
        parsed = [parse_source(self.settings, source) for source in sources]
        rows = [row for item in parsed for row in item.rows]
        texts = [strings for item in parsed for strings in item.texts]
        scopes = None if skills is None else [scope_of(skill) for skill in skills]
        from_index = self._index_vectors(scopes)
        pool = {**from_index, **self._embedded}
        if task is not None:
            rows, texts = _preselect(rows, texts, pool, task)
        vectors, _ = self.memory.vectors(rows, texts, pool)
        self._embedded.update((h, v) for h, v in pool.items() if h not in from_index)
        if task is not None and len(rows):
            rows, vectors = self._nearest(rows, vectors, task)
        return self._prepare(rows, vectors, clauses=task is None)

    def _index_vectors(self, scopes: list[str] | None) -> dict[str, np.ndarray]:
        """Vectors the index still holds for these scopes (none when it cannot be read)."""
        try:
            return self.memory.index.vectors_by_hash(scopes)
        except IndexUnavailable:
            return {}

    def _nearest(
        self, rows: list[Row], vectors: np.ndarray, task: Task
    ) -> tuple[list[Row], np.ndarray]:
        import numpy as np

        from fireworks_skill_memory.memory.retrieval.ranking import ALL_SKILLS_CANDIDATES

        similarity = vectors @ self.task_vector(task_list(task))
        order = np.argsort(-similarity, kind="stable")[:ALL_SKILLS_CANDIDATES]
        return [rows[int(i)] for i in order], vectors[order]

    def _prepare(
        self, rows: list[Row], vectors: np.ndarray, *, clauses: bool = True
    ) -> ScopeCandidates:
        """Rows and vectors with what ranking needs precomputed (hubness, tokens, ages).

        `clauses`: also the lessons' clause vectors, for ranking within one skill (across
        skills they favour long lessons, so the all-skills search leaves them out).
        """
        import numpy as np

        from fireworks_skill_memory.memory.retrieval import lexical
        from fireworks_skill_memory.memory.retrieval.ranking import hubness

        month = self.store.month()
        return ScopeCandidates(
            rows=rows,
            lessons=[row_to_lesson(row) for row in rows],
            vectors=vectors,
            hub=hubness(vectors, self.weights.hub_k) if len(rows) else np.zeros(0),
            tokens=[lexical.tokenize(f"{row.tag} {row.text}") for row in rows],
            ages=np.asarray([age_in_months(row.month or None, month) for row in rows], dtype=float),
            clauses=self._clauses([row.text for row in rows])
            if rows and clauses
            else _no_clauses(),
        )

    def _clauses(self, texts: list[str]) -> ClauseMatrix:
        """The clause vectors of these lessons (`memory.retrieval.clauses`)."""
        from fireworks_skill_memory.memory.retrieval.clauses import ClauseVectors

        if self._clause_vectors is None:
            self._clause_vectors = ClauseVectors(self.settings.index_dir, self.embedder)
        return self._clause_vectors.matrix(texts)

    def query_features(
        self, candidates: ScopeCandidates, task: Task, weights: RankingWeights | None = None
    ) -> Features | None:
        """What the ranking formula reads for `task` over these candidates (None: no task
        text or no candidates), under `weights` (this retriever's by default)."""
        text = task_text(task)
        if text is None or not len(candidates.rows):
            return None
        weights = weights or self.weights
        if weights.hub_k != self.weights.hub_k:  # the cached hubness is for our own hub_k
            from fireworks_skill_memory.memory.retrieval.ranking import hubness

            candidates = dataclasses.replace(
                candidates, hub=hubness(candidates.vectors, weights.hub_k)
            )
        return scope_features(candidates, self.task_vector(task_list(task)), text, weights)

    def _ranked(
        self, candidates: ScopeCandidates, task: Task | None, weights: RankingWeights
    ) -> Ranked:
        import numpy as np

        from fireworks_skill_memory.memory.retrieval.ranking import Candidates, gate, rank, score

        found = None if task is None else self.query_features(candidates, task, weights)
        if found is not None:
            result = score(found, weights)
        else:
            result = rank(
                Candidates(
                    texts=[row.text for row in candidates.rows],
                    tags=[row.tag for row in candidates.rows],
                    hits=np.asarray([row.hits for row in candidates.rows], dtype=float),
                    age_months=candidates.ages,
                ),
                None,
                weights,
            )
        return Ranked(candidates, result, gate(result, weights))

    def rank_skill(
        self, skill: str | None, task: Task | None, weights: RankingWeights | None = None
    ) -> Ranked:
        """Rank every lesson of one scope for `task` (or by HIT/age without one)."""
        return self._ranked(self.candidates(skill), task, weights or self.weights)

    def rank_all(self, task: Task, weights: RankingWeights | None = None) -> Ranked:
        """Rank lessons of every scope: nearest candidates by cosine, then the full formula."""
        return self._ranked(self.nearest_candidates(task), task, weights or self.weights)

    def nearest_candidates(self, task: Task) -> ScopeCandidates:
        """The lessons of every scope nearest to `task` by cosine (`ALL_SKILLS_CANDIDATES`)."""
        from fireworks_skill_memory.memory.retrieval.ranking import ALL_SKILLS_CANDIDATES

        if self._embedder is None and not self.store.sources():
            return self._prepare([], _no_vectors())  # empty home: no model

        cold = self._from_snapshot(None)
        if cold is not None:
            rows, vectors = self._nearest(*cold, task) if cold[0] else cold
            return self._prepare(*collapse_restatements(rows, vectors), clauses=False)

        def nearest() -> ScopeCandidates:
            synced = self._synced_snapshot()
            if synced is not None:
                rows, vectors = self._nearest(*synced, task)
            else:
                vector = self.task_vector(task_list(task))
                rows, _, vectors = self.memory.index.search(vector, ALL_SKILLS_CANDIDATES)
            return self._prepare(*collapse_restatements(rows, vectors), clauses=False)

        try:
            return self._from_index(None, nearest)
        except IndexUnavailable as error:
            self._notice(IndexNotice.unavailable(error, self.settings.index_dir))
            return self._markdown_candidates(None, task)

    # ---- the two products ---------------------------------------------------------------
    def inject(
        self,
        skill: str,
        task: Task | None,
        *,
        top: int | None = None,
        include_global: bool = True,
        settings: Settings | None = None,
    ) -> Injection:
        """The injection for using `skill` on `task` (gated; HIT/age order without a task).

        `settings`: the caller's (its top, token cap and ranking weights); ours by default.
        """
        answer = settings or self.settings
        weights = self.weights_for(settings)
        has_task = task_text(task) is not None
        ranked = self.rank_skill(skill, task, weights)
        hits = ranked.hits(ranked.injected) if has_task else ranked.hits()
        chosen = by_standing(hits, self._standings.get(skill), self._standings.supports(skill))
        chosen = chosen[: top or answer.inject_top]
        global_hits: list[Hit] = []
        # global principles accompany a skill's own lessons; a skill without any gets none
        if include_global and has_task and ranked.candidates.rows:
            global_ranked = self.rank_skill(None, task, weights)
            global_hits = global_ranked.hits(global_ranked.injected)[:GLOBAL_INJECT]
        text, kept, kept_global = frame(
            skill,
            self._provenances.label(chosen),
            self._provenances.label(global_hits),
            max_tokens=answer.inject_tokens,
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

    def search(
        self,
        query: str,
        *,
        skill: str | None = None,
        top: int = 10,
        gated: bool = False,
        settings: Settings | None = None,
    ) -> list[Hit]:
        """Lessons nearest to `query` in one skill or across all, best first.

        With `gated`, only the lessons the injection gate passes (a query no lesson helps
        finds nothing rather than the nearest noise); without, each hit says whether the gate
        passes it (`Hit.strong`). `settings`: the caller's ranking weights; ours by default.
        """
        if task_text(query) is None:
            raise InvalidInput("the search query is empty: give some words to search for")
        weights = self.weights_for(settings)
        ranked = self.rank_skill(skill, query, weights) if skill else self.rank_all(query, weights)
        hits = ranked.hits(ranked.injected) if gated else ranked.hits()
        scopes = dict.fromkeys(hit.lesson.skill for hit in hits[: top * 2])
        standings = {k: v for scope in scopes for k, v in self._standings.get(scope).items()}
        supports = {k: v for scope in scopes for k, v in self._standings.supports(scope).items()}
        return self._provenances.label(by_standing(hits, standings, supports)[:top])


def scope_features(
    candidates: ScopeCandidates, vector: np.ndarray, text: str, weights: RankingWeights
) -> Features:
    """The formula's inputs for a task (its text and pooled vector) over a scope's candidates:
    the whole-lesson cosine, each lesson's best clause, hubness, lexical match and prior."""
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.clauses import clause_similarity
    from fireworks_skill_memory.memory.retrieval.ranking import Candidates, features

    similarity = candidates.vectors @ vector
    return features(
        Candidates(
            texts=[row.text for row in candidates.rows],
            tags=[row.tag for row in candidates.rows],
            hits=np.asarray([row.hits for row in candidates.rows], dtype=float),
            age_months=candidates.ages,
            similarity=clause_similarity(candidates.clauses, vector, similarity),
            gate_similarity=similarity,
            hub=candidates.hub,
            tokens=candidates.tokens,
        ),
        text,
        weights,
    )


def inject_for(
    settings: Settings,
    skill: str,
    task: str | None,
    *,
    top: int | None = None,
    include_global: bool = True,
) -> tuple[Injection, list[IndexNotice]]:
    """The injection for `skill` (task-ranked, or HIT/age order without a task).

    Also returns the index problems met on the way, for the caller to show.
    """
    if not (task and task.strip()):
        store = Store(settings)
        limit = top or settings.inject_top
        weights = prior_weights(settings)
        hits = by_hits_and_age(store.lessons(skill), store.month(), weights)[:limit]
        text, kept, _ = frame(skill, hits, max_tokens=settings.inject_tokens, ranked_for_task=False)
        return Injection(skill=skill, task=task, ranker="hits", hits=kept, text=text), []
    retriever = Retriever(settings, cold=True)
    injection = retriever.inject(skill, task, top=top, include_global=include_global)
    return injection, retriever.take_notices()


def _no_vectors() -> np.ndarray:
    import numpy as np

    return np.zeros((0, 0), dtype=np.float32)


def _preselect(
    rows: list[Row], texts: list[list[str]], known: dict[str, np.ndarray], task: Task
) -> tuple[list[Row], list[list[str]]]:
    """Every row with a known vector, and at most MARKDOWN_EMBED_MAX others, lexically best."""
    from fireworks_skill_memory.memory.retrieval import lexical

    missing = [i for i, row in enumerate(rows) if row.content_hash not in known]
    if len(missing) <= MARKDOWN_EMBED_MAX:
        return rows, texts
    scores = lexical.bm25_scores(
        task_text(task) or "", [f"{rows[i].tag} {rows[i].text}" for i in missing]
    )
    best = sorted(range(len(missing)), key=lambda j: -scores[j])[:MARKDOWN_EMBED_MAX]
    keep = sorted(
        {i for i, row in enumerate(rows) if row.content_hash in known} | {missing[j] for j in best}
    )
    return [rows[i] for i in keep], [texts[i] for i in keep]
