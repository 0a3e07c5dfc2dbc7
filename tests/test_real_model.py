"""The same features on the real bundled model (all-MiniLM-L6-v2, offline)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import REPO, CliInvoker, FakeEmbedder

pytestmark = pytest.mark.real_model


@pytest.fixture
def seeded(settings: Settings) -> Settings:
    shutil.copytree(REPO / "examples" / "skills", settings.skills_dir)
    Path(settings.global_file).parent.mkdir(parents=True)
    shutil.copyfile(REPO / "examples" / "global" / "KNOWLEDGE.md", settings.global_file)
    return settings


def test_bundled_model_is_the_upstream_one(real_embedder: EmbeddingModel) -> None:
    from fireworks_skill_memory.models.bundled import (
        WEIGHTS_SHA256,
        bundled_model_dir,
        weights_sha256,
    )

    assert real_embedder.model_id == "sentence-transformers/all-MiniLM-L6-v2"
    assert real_embedder.dimension == 384
    assert weights_sha256(bundled_model_dir()) == WEIGHTS_SHA256
    vectors = real_embedder.embed_batch(["a cat", "a kitten", "tax law"])
    assert vectors.shape == (3, 384)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2])


@pytest.mark.parametrize(
    ("skill", "task", "expected"),
    [
        (
            "docker",
            "my app in the container can't connect to the postgres running on my laptop",
            "host.docker.internal",
        ),
        (
            "postgres-migrations",
            "building an index on our biggest table locked out every insert until it finished",
            "CONCURRENTLY",
        ),
        (
            "pytest",
            "my test passes when I run it alone but fails when the whole suite runs",
            "shared state",
        ),
        (
            "browser-automation",
            "clicking the element I found a moment ago hits a different button",
            "Re-read the page snapshot",
        ),
    ],
)
def test_paraphrased_task_puts_the_right_lesson_first(
    cli_real: CliInvoker, seeded: Settings, skill: str, task: str, expected: str
) -> None:
    out = json.loads(cli_real("inject", "--skill", skill, "--task", task, "--json").output)
    assert out["ranker"] == "semantic"
    assert expected in out["lessons"][0]["text"]
    assert out["lessons"][0]["id"] in out["text"]


def test_irrelevant_task_injects_nothing(seeded: Settings, real_embedder: EmbeddingModel) -> None:
    injection = Retriever(seeded, real_embedder).inject(
        "docker",
        "translate this French poem about autumn leaves into English",
        include_global=False,
    )
    assert injection.hits == [] and injection.text == ""


def test_search_across_skills(seeded: Settings, real_embedder: EmbeddingModel) -> None:
    hits = Retriever(seeded, real_embedder).search(
        "adding a column to a huge table without downtime", top=3
    )
    assert hits[0].lesson.skill == "postgres-migrations"


def test_index_of_another_model_is_rebuilt_for_the_real_one(
    seeded: Settings, real_embedder: EmbeddingModel
) -> None:
    MemoryIndex(seeded, FakeEmbedder()).sync()
    memory = MemoryIndex(seeded, real_embedder)
    assert memory.index.stored_model() == ("fake/bag-of-words", 64)
    report = memory.sync()
    assert report.rows == 26
    assert memory.index.stored_model() == ("sentence-transformers/all-MiniLM-L6-v2", 384)
    hits = Retriever(seeded, real_embedder).search("exec format error on the server", top=1)
    assert "linux/amd64" in hits[0].lesson.text


def test_near_duplicate_merges_and_a_different_lesson_is_added(
    store: Store, real_embedder: EmbeddingModel
) -> None:
    matcher = SemanticMatcher(real_embedder)
    add_lesson(
        store,
        "docker",
        "Use a multi-stage build so the compiler toolchain stays out of the runtime image",
        matcher=matcher,
    )
    merged = add_lesson(
        store,
        "docker",
        "Keep the build toolchain out of the final image by using a multi-stage build",
        matcher=matcher,
    )
    assert merged.action == "merged" and merged.lesson.hits == 2
    added = add_lesson(
        store, "docker", "Pin base images by digest so rebuilds are reproducible", matcher=matcher
    )
    assert added.action == "added"
    dry = add_lesson(
        store,
        "docker",
        "Pin the base image by its digest so that rebuilds are reproducible",
        matcher=matcher,
        dry_run=True,
    )
    assert dry.action == "merged" and dry.similarity is not None
    assert len(store.lessons("docker")) == 2
