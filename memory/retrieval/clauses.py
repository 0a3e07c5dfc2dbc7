"""A lesson's clauses, each embedded on its own: a task may paraphrase one part of a lesson.

A lesson such as "Pin versions: FROM node:20-alpine (never :latest)" is one pooled vector in
the index; a task about one of its parts ("why did :latest break the build") matches that
part better than the whole. Lessons with two or more clauses of at least three words also
get a vector per clause, and the ranking takes, per lesson, the larger of the whole lesson's
cosine and its best clause's (`clause_similarity`). The gate still reads the whole-lesson
cosine, so what is shown at all does not change, only the order.

The clause vectors are derived state kept beside the index (`<index>/clauses-<digest>.npz`,
keyed by the clause text's hash, per model): a missing or damaged file is embedded again.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from fireworks_skill_memory.memory.retrieval.vector_file import read_vectors, write_vectors

if TYPE_CHECKING:
    from fireworks_skill_memory.models.embedders import EmbeddingModel

MIN_CLAUSE_WORDS = 3
_SPLIT = re.compile(
    r"(?<=[.;:!?])\s+|\s+[—–-]\s+|,\s+(?=(?:and|but|or|so|because|unless|instead)\b)|\s+\(|\)\s*"
)


def lesson_clauses(text: str) -> list[str]:
    """The clauses of a lesson worth their own vector (none for a one-clause lesson)."""
    parts = [part.strip(" ,.;:()") for part in _SPLIT.split(text) if part]
    parts = [part for part in parts if len(part.split()) >= MIN_CLAUSE_WORDS]
    return parts if len(parts) > 1 else []


@dataclass(frozen=True)
class ClauseMatrix:
    """The clause vectors of a scope's lessons, stacked, with the lesson each belongs to."""

    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    owner: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))


def clause_similarity(clauses: ClauseMatrix, task: np.ndarray, whole: np.ndarray) -> np.ndarray:
    """Per lesson, the larger of its whole cosine and its best clause's cosine."""
    if not len(clauses.owner):
        return whole
    best = np.array(whole, dtype=np.float64, copy=True)
    np.maximum.at(best, clauses.owner, clauses.vectors @ task)
    return best


class ClauseVectors:
    """Clause text -> vector, read from and saved to the index folder, embedded when missing."""

    def __init__(self, index_dir: str, embedder: EmbeddingModel) -> None:
        digest = hashlib.sha256(embedder.model_id.encode()).hexdigest()[:12]
        self.path = os.path.join(index_dir, f"clauses-{digest}.npz")
        self.embedder = embedder
        self._vectors: dict[str, np.ndarray] | None = None

    def matrix(self, texts: Sequence[str]) -> ClauseMatrix:
        """The clause vectors of these lessons (embedding the clauses not seen before)."""
        owners = [(i, clause) for i, text in enumerate(texts) for clause in lesson_clauses(text)]
        if not owners:
            return ClauseMatrix()
        known = self._known()
        missing = list(dict.fromkeys(c for _, c in owners if _key(c) not in known))
        if missing:
            for clause, vector in zip(missing, self.embedder.embed_batch(missing), strict=True):
                known[_key(clause)] = np.asarray(vector, dtype=np.float32)
            write_vectors(self.path, known)
        return ClauseMatrix(
            vectors=np.stack([known[_key(c)] for _, c in owners]),
            owner=np.asarray([i for i, _ in owners], dtype=np.intp),
        )

    def _known(self) -> dict[str, np.ndarray]:
        if self._vectors is None:
            self._vectors = read_vectors(self.path, self.embedder.dimension)
        return self._vectors


def _key(clause: str) -> str:
    return hashlib.sha1(clause.encode(), usedforsecurity=False).hexdigest()
