"""The pulled team layer, read as one more source of candidates beside a home's own lessons.

A home may hold a read-only layer of lessons under `<home>/team/` (`Settings.team_dir`):
`skills/<skill>/KNOWLEDGE.md` in the home's own line format, with the ledger beside each
file holding every team lesson's provenance (source `team`, its author). Only `team pull`
writes it (`memory.team`, through a store over `team_settings`); retrieval reads it here:

- the index mirrors its files under the scope `@team:<skill>` (`team_scope`, `team_sources`);
- a scope's candidates are its own lessons, then the team lessons that restate none of them
  (`collapse_restatements`: the same id, or a pair the dedup rules merge);
- every hit carries its origin and its provenance from its layer's ledger (`Provenances`).

Nothing here knows the team table or how a pull works. The layout part is light (the
hook's fallback reads the team layer too, `memory.retrieval.lexical_cache`): the records, the
dedup rules and the store are imported where they are used.
"""

from __future__ import annotations

import os

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.store.knowledge_files import source_path

TYPE_CHECKING = False  # the hook's fallback imports this module
if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np

    from fireworks_skill_memory.index.table import Row
    from fireworks_skill_memory.memory.retrieval.records import Hit
    from fireworks_skill_memory.memory.store.markdown_store import KnowledgeSource
    from fireworks_skill_memory.memory.store.provenance import Provenance

LOCAL = "local"  # a lesson of the home's own
TEAM = "team"  # a lesson of the pulled team layer
TEAM_SCOPE_PREFIX = "@team:"  # skill names never start with "@", so no skill can collide
UNLIMITED = str(10**9)  # the team layer mirrors the team table: no eviction


def team_settings(settings: Settings) -> Settings:
    """Settings whose home is the team layer (same model, author and limits lifted)."""
    env = dict(settings.environ)
    env.update(
        AI_MEMORY_HOME=settings.team_dir,
        AI_MEMORY_SKILLS_DIR=os.path.join(settings.team_dir, "skills"),
        AI_MEMORY_GLOBAL_FILE=os.path.join(settings.team_dir, "global", "KNOWLEDGE.md"),
        SKILLS_KNOWLEDGE_DIR=os.path.join(settings.team_dir, ".no-legacy"),
        SKILL_MAX=UNLIMITED,
        GLOBAL_MAX=UNLIMITED,
    )
    return Settings(env)


def team_scope(scope: str) -> str:
    """The index scope of a team layer file, from the scope of the same skill's own lessons."""
    return TEAM_SCOPE_PREFIX + scope


def origin_of(scope: str) -> str:
    """Which layer an index scope belongs to: `team` or `local`."""
    return TEAM if scope.startswith(TEAM_SCOPE_PREFIX) else LOCAL


def own_scope(scope: str) -> str:
    """The scope of the home's own lessons that a (team or own) index scope belongs to."""
    return scope.removeprefix(TEAM_SCOPE_PREFIX)


def team_source(settings: Settings, skill: str | None) -> KnowledgeSource | None:
    """The team layer's knowledge file of a scope, when it was pulled."""
    from fireworks_skill_memory.memory.store.markdown_store import KnowledgeSource

    if not settings.team_uri and not os.path.isdir(settings.team_dir):
        return None
    found = source_path(team_settings(settings), skill)
    if found is None:
        return None
    try:
        stat = os.stat(found[0])
    except FileNotFoundError:
        return None
    return KnowledgeSource(
        skill, found[0], stat.st_mtime_ns, stat.st_size, False, stat.st_ino, layer=TEAM
    )


def team_sources(settings: Settings) -> list[KnowledgeSource]:
    """Every knowledge file of the team layer (none when nothing was ever pulled)."""
    from dataclasses import replace

    from fireworks_skill_memory.memory.store.markdown_store import Store

    if not os.path.isdir(settings.team_dir):
        return []
    return [replace(source, layer=TEAM) for source in Store(team_settings(settings)).sources()]


def collapse_restatements(rows: list[Row], vectors: np.ndarray) -> tuple[list[Row], np.ndarray]:
    """Own lessons first, then the team lessons that restate none of them (same skill)."""
    own = [i for i, row in enumerate(rows) if origin_of(row.scope) == LOCAL]
    team = [i for i, row in enumerate(rows) if origin_of(row.scope) == TEAM]
    if not team:
        return rows, vectors
    kept = [i for i in team if not _restates_own(rows, vectors, i, own)]
    order = own + kept
    return [rows[i] for i in order], vectors[order]


def _restates_own(rows: Sequence[Row], vectors: np.ndarray, i: int, own: Sequence[int]) -> bool:
    from fireworks_skill_memory.memory.dedup.rules import DEFAULT_THRESHOLDS, Verdict, decide_pair

    team_row = rows[i]
    scope = own_scope(team_row.scope)
    for j in own:
        row = rows[j]
        if row.scope != scope:
            continue
        if row.id == team_row.id:
            return True
        cosine = float(vectors[i] @ vectors[j])
        if cosine >= DEFAULT_THRESHOLDS.grey and (
            decide_pair(row.text, team_row.text, cosine).verdict is Verdict.MERGE
        ):
            return True
    return False


class Provenances:
    """Each scope's provenance records by lesson id, per layer, re-read when a ledger changes."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._team: Settings | None = None
        self._cache: dict[str, tuple[tuple[int, int], dict[str, Provenance]]] = {}

    def label(self, hits: Sequence[Hit]) -> list[Hit]:
        """The hits with their provenance (a team hit's from the team layer's ledger)."""
        from dataclasses import replace

        return [
            replace(hit, provenance=self.of(hit.origin, hit.lesson.skill).get(hit.lesson.id))
            for hit in hits
        ]

    def of(self, origin: str, skill: str | None) -> dict[str, Provenance]:
        """Lesson id -> provenance for one scope of one layer (empty when unreadable)."""
        if origin == TEAM:
            if self._team is None:
                self._team = team_settings(self.settings)
            settings = self._team
        else:
            settings = self.settings
        from fireworks_skill_memory.memory.store.ledger import ledger_path, read_ledger

        path = ledger_path(settings, skill)
        try:
            stat = os.stat(path)
        except OSError:
            return {}
        mark = (stat.st_mtime_ns, stat.st_size)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == mark:
            return cached[1]
        try:
            records = read_ledger(settings, skill).records
        except OSError:  # an unreadable ledger costs the labels, never the answer
            return {}
        found = {lesson_id: record.provenance for lesson_id, record in records.items()}
        self._cache[path] = (mark, found)
        return found
