"""Ranking personal and team lessons together: one candidate set, restatements collapsed, labels.

A team lesson that restates one of the user's own lessons (the same id, or a pair the dedup
rules merge) is dropped in favour of the personal one; every hit is labelled with its origin
and its author (from the ledger beside its knowledge file).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.dedup.rules import DEFAULT_THRESHOLDS, Verdict, decide_pair
from fireworks_skill_memory.memory.retrieval.inject import Hit
from fireworks_skill_memory.memory.store.ledger import ledger_path
from fireworks_skill_memory.memory.team.layer import TEAM_SCOPE_PREFIX, authors, team_settings

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.index.table import Row

_AUTHORS: dict[str, tuple[tuple[int, int], dict[str, str]]] = {}


def collapse_restatements(rows: list[Row], vectors: np.ndarray) -> tuple[list[Row], np.ndarray]:
    """Own lessons first, then the team lessons that restate none of them (same skill)."""
    own = [i for i, row in enumerate(rows) if not row.scope.startswith(TEAM_SCOPE_PREFIX)]
    team = [i for i, row in enumerate(rows) if row.scope.startswith(TEAM_SCOPE_PREFIX)]
    if not team:
        return rows, vectors
    kept = [i for i in team if not _restates_own(rows, vectors, i, own)]
    order = own + kept
    return [rows[i] for i in order], vectors[order]


def _restates_own(rows: Sequence[Row], vectors: np.ndarray, i: int, own: Sequence[int]) -> bool:
    team_row = rows[i]
    scope = team_row.scope.removeprefix(TEAM_SCOPE_PREFIX)
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


def label_hits(settings: Settings, hits: Sequence[Hit]) -> list[Hit]:
    """The hits with their author (team hits keep the origin the ranking gave them)."""
    team = team_settings(settings) if any(hit.origin == "team" for hit in hits) else None
    labelled = []
    for hit in hits:
        source = team if hit.origin == "team" and team is not None else settings
        author = _authors(source, hit.lesson.skill).get(hit.lesson.id)
        labelled.append(replace(hit, author=author))
    return labelled


def _authors(settings: Settings, skill: str | None) -> dict[str, str]:
    """Lesson id -> author of a scope's ledger, re-read only when the ledger changed."""
    path = ledger_path(settings, skill)
    try:
        stat = os.stat(path)
    except OSError:
        return {}
    mark = (stat.st_mtime_ns, stat.st_size)
    cached = _AUTHORS.get(path)
    if cached is not None and cached[0] == mark:
        return cached[1]
    try:
        found = authors(settings, skill)
    except OSError:  # an unreadable ledger costs the author label, never the answer
        return {}
    _AUTHORS[path] = (mark, found)
    return found
