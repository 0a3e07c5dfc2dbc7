"""Clause vectors: a task that paraphrases one part of a lesson finds it; the gate is unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval.clauses import (
    ClauseMatrix,
    ClauseVectors,
    clause_similarity,
    lesson_clauses,
)
from fireworks_skill_memory.memory.retrieval.ranking import Candidates, rank
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import FakeEmbedder


def test_clauses_of_a_lesson() -> None:
    assert lesson_clauses("Pin base versions: FROM node:20-alpine, never the latest tag.") == [
        "Pin base versions",
        "FROM node:20-alpine, never the latest tag",
    ]
    assert lesson_clauses(
        "Copy the lock file first; the dependency layer then stays cached between builds"
    ) == ["Copy the lock file first", "the dependency layer then stays cached between builds"]
    assert lesson_clauses("Run the formatter before the linter.") == []  # one clause
    assert lesson_clauses("Use uv (not pip).") == []  # clauses under three words


def test_a_lesson_counts_its_best_clause() -> None:
    whole = np.asarray([0.2, 0.5])
    clauses = ClauseMatrix(
        vectors=np.asarray([[1.0, 0.0], [0.0, 1.0]]), owner=np.asarray([0, 0], dtype=np.intp)
    )
    task = np.asarray([0.9, 0.1])
    assert np.allclose(clause_similarity(clauses, task, whole), [0.9, 0.5])
    assert clause_similarity(ClauseMatrix(), task, whole) is whole


def test_the_gate_reads_the_whole_lesson() -> None:
    base = {"texts": ["a b", "c d"], "tags": ["", ""], "hits": [1, 1], "age_months": [0, 0]}
    by_clause = rank(
        Candidates(**base, similarity=[0.9, 0.1], gate_similarity=[0.3, 0.1]), "a task"
    )
    whole = rank(Candidates(**base, similarity=[0.3, 0.1]), "a task")
    assert by_clause.confidence == pytest.approx(whole.confidence)
    assert by_clause.scores[0] > whole.scores[0]


def test_clause_vectors_are_derived_and_embedded_once(settings: Settings) -> None:
    texts = ["Copy the lock file first; the dependency layer then stays cached between builds"]
    embedder = FakeEmbedder()
    first = ClauseVectors(settings.index_dir, embedder).matrix(texts)
    assert first.vectors.shape == (2, embedder.dimension) and list(first.owner) == [0, 0]
    calls = embedder.calls
    again = ClauseVectors(settings.index_dir, embedder).matrix(texts)  # a new process
    assert embedder.calls == calls and np.array_equal(first.vectors, again.vectors)
    path = Path(ClauseVectors(settings.index_dir, embedder).path)
    path.write_bytes(b"damaged")  # derived state: embedded again
    healed = ClauseVectors(settings.index_dir, embedder).matrix(texts)
    assert embedder.calls == calls + 1 and np.array_equal(first.vectors, healed.vectors)


def test_a_read_only_index_folder_keeps_the_clauses_in_memory(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fireworks_skill_memory.memory.retrieval import clauses

    def refuse(path: str, data: bytes) -> None:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr("fireworks_skill_memory.memory.store.files.write_atomic", refuse)
    vectors = clauses.ClauseVectors(settings.index_dir, FakeEmbedder())
    assert len(vectors.matrix(["One clause here; and another clause there"]).owner) == 2


@pytest.mark.real_model
def test_real_model_finds_the_lesson_one_clause_of_which_the_task_paraphrases(
    settings: Settings, real_embedder: EmbeddingModel
) -> None:
    lessons = [
        "Tag images with the git commit SHA for traceability; inside a container localhost is"
        " the container itself, so use host.docker.internal to reach services on the host",
        "Publish container ports with -p host:container to expose a service",
        "Use a user-defined bridge network so containers resolve each other by name",
        "Run the container as a non-root user",
        "Pin the base image to a version tag",
    ]
    store = Store(settings)
    for text in lessons:
        add_lesson(store, "docker", text, matcher=None)
    retriever = Retriever(settings, real_embedder)
    task = "my app in docker cannot connect to the postgres running on my laptop"
    ranked = retriever.rank_skill("docker", task)
    texts = [lesson.text for lesson in ranked.candidates.lessons]
    assert texts[int(ranked.result.order[0])] == lessons[0]
    whole = ranked.candidates.vectors @ retriever.task_vector(task)
    assert texts[int(np.argmax(whole))] != lessons[0]  # the whole lesson alone loses
