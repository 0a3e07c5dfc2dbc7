"""The index's vector snapshot: written by every sync, read by a cold process without LanceDB,
and never a wrong answer (a lesson it lacks sends the process to the index)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fireworks_skill_memory.index.table import LessonIndex
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval import snapshot
from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
from fireworks_skill_memory.memory.retrieval.records import Hit
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.retrieval.vector_file import read_vectors
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import REPO, FakeEmbedder

LESSONS = {
    "docker": [
        ("Cache", "Copy the lockfile before the sources so the dependency layer stays cached"),
        ("Net", "Inside a container localhost is the container; use host.docker.internal"),
        ("Perms", "Run containers with --user to keep bind-mounted files editable"),
    ],
    "pytest": [
        ("Fixtures", "Use monkeypatch for environment variables in fixtures"),
        ("Flaky", "A test that passes alone but fails in the suite shares state: reset it"),
    ],
    None: [("Verify", "Reproduce a failure before fixing it")],
}
QUERIES = (
    "the docker build cache is invalidated on every source change",
    "tests pass alone but fail when the whole suite runs",
    "reach a service on the host from inside a container",
)


def fill(store: Store) -> None:
    for skill, lessons in LESSONS.items():
        for tag, text in lessons:
            add_lesson(store, skill, text, tag, matcher=None)


class NoIndex(LessonIndex):
    """A LessonIndex that fails the test when anything opens LanceDB."""

    def _connect(self) -> object:
        raise AssertionError("the cold path opened the LanceDB index")


def lancedb_only(retriever: Retriever) -> Retriever:
    """A retriever that reads every candidate from LanceDB (as before the snapshot)."""
    retriever._snapshot_rows = lambda skills: None  # type: ignore[method-assign]
    return retriever


def summary(hits: list[Hit]) -> list[tuple[str, str | None, float]]:
    return [(hit.lesson.id, hit.lesson.skill, round(hit.score, 5)) for hit in hits]


@pytest.fixture
def synced(store: Store, settings: Settings, fake_embedder: FakeEmbedder) -> MemoryIndex:
    fill(store)
    memory = MemoryIndex(settings, fake_embedder)
    memory.sync()
    return memory


def test_a_sync_writes_one_snapshot_file_per_knowledge_file(synced: MemoryIndex) -> None:
    folder = Path(synced.snapshot_dir)
    assert len(list(folder.glob("*.npz"))) == 3
    rows, vectors = synced.index.scope_rows(["docker"])
    stored = read_vectors(str(folder / snapshot.file_name(rows[0].source)), vectors.shape[1])
    assert set(stored) == {row.content_hash for row in rows}
    for row, vector in zip(rows, vectors, strict=True):
        np.testing.assert_array_equal(stored[row.content_hash], vector)


def test_the_cold_path_answers_as_the_index_does_without_opening_it(
    synced: MemoryIndex,
    settings: Settings,
    fake_embedder: FakeEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    warm = lancedb_only(Retriever(settings, fake_embedder))
    expected = {q: summary(warm.search(q)) for q in QUERIES}
    expected_skill = summary(warm.search(QUERIES[0], skill="docker"))
    expected_inject = warm.inject("pytest", QUERIES[1]).text
    monkeypatch.setattr("fireworks_skill_memory.memory.retrieval.indexing.LessonIndex", NoIndex)
    cold = Retriever(settings, fake_embedder, cold=True)
    assert {q: summary(cold.search(q)) for q in QUERIES} == expected
    assert summary(cold.search(QUERIES[0], skill="docker")) == expected_skill
    assert cold.inject("pytest", QUERIES[1]).text == expected_inject
    assert cold.cold and cold.take_notices() == []


def test_an_edit_since_the_last_sync_sends_the_cold_path_to_the_index(
    synced: MemoryIndex, store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    path = Path(store.knowledge_path("docker"))
    path.write_text(path.read_text().replace("host.docker.internal", "the zebra gateway"))
    cold = Retriever(settings, fake_embedder, cold=True)
    hits = cold.search("zebra gateway", skill="docker", top=1)
    assert "zebra" in hits[0].lesson.text  # the edit is answered, not the stale vector's text
    assert cold.cold is False  # it synced and read the index from then on
    again = Retriever(settings, fake_embedder, cold=True)
    assert summary(again.search("zebra gateway", skill="docker")) == summary(
        cold.search("zebra gateway", skill="docker")
    )
    assert again.cold  # that sync completed the snapshot


def test_a_new_knowledge_file_and_a_removed_one(
    synced: MemoryIndex, store: Store, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    add_lesson(
        store, "git", "Rebase a feature branch before opening the pull request", matcher=None
    )
    cold = Retriever(settings, fake_embedder, cold=True)
    assert cold.search("rebase the feature branch", top=1)[0].lesson.skill == "git"
    assert cold.cold is False  # the git file was in no snapshot yet
    os.unlink(store.knowledge_path("pytest"))
    synced.sync()
    assert len(list(Path(synced.snapshot_dir).glob("*.npz"))) == 3  # docker, global, git
    cold = Retriever(settings, fake_embedder, cold=True)
    assert all(hit.lesson.skill != "pytest" for hit in cold.search("monkeypatch fixtures"))
    assert cold.cold


def test_a_missing_or_damaged_snapshot_is_filled_from_the_table_by_the_next_sync(
    synced: MemoryIndex, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    folder = Path(synced.snapshot_dir)
    shutil.rmtree(folder)  # a home indexed before snapshots existed
    cold = Retriever(settings, fake_embedder, cold=True)
    expected = summary(cold.search(QUERIES[1]))
    assert cold.cold is False
    assert len(list(folder.glob("*.npz"))) == 3
    first = sorted(folder.glob("*.npz"))[0]
    first.write_bytes(b"not a zip file")
    cold = Retriever(settings, fake_embedder, cold=True)
    assert summary(cold.search(QUERIES[1])) == expected
    assert cold.cold is False
    assert MemoryIndex(settings, fake_embedder).fill_snapshot() == 0  # the search's sync did it
    assert summary(Retriever(settings, fake_embedder, cold=True).search(QUERIES[1])) == expected


def test_reindex_and_another_model_keep_no_stale_snapshot(
    synced: MemoryIndex, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    stray = Path(settings.index_dir) / (snapshot.PREFIX + "0123456789ab")
    stray.mkdir()
    synced.reindex()
    names = [p.name for p in Path(settings.index_dir).iterdir() if p.name.startswith("snapshot-")]
    assert names == [Path(synced.snapshot_dir).name]

    class OtherModel(FakeEmbedder):
        model_id = "fake/other-model"

    other = Retriever(settings, OtherModel(), cold=True)
    other.search(QUERIES[0])
    assert other.cold is False  # another model's vectors are never read


def test_a_snapshot_that_cannot_be_written_costs_only_speed(
    synced: MemoryIndex,
    settings: Settings,
    fake_embedder: FakeEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shutil.rmtree(synced.snapshot_dir)
    calls: list[str] = []
    monkeypatch.setattr(
        "fireworks_skill_memory.memory.retrieval.snapshot.save_source",
        lambda folder, key, rows, vectors: calls.append(key),
    )
    memory = MemoryIndex(settings, fake_embedder)
    assert memory.fill_snapshot() == 3
    assert memory.fill_snapshot() == 0  # tried once per process, not on every sync
    cold = Retriever(settings, fake_embedder, cold=True)
    assert cold.search(QUERIES[2], top=1)[0].lesson.skill == "docker"


def test_a_warm_process_reads_the_snapshot_after_each_sync(
    synced: MemoryIndex,
    store: Store,
    settings: Settings,
    fake_embedder: FakeEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    warm = Retriever(settings, fake_embedder)
    baseline = lancedb_only(Retriever(settings, fake_embedder))
    assert summary(warm.search(QUERIES[2])) == summary(baseline.search(QUERIES[2]))
    searches: list[int] = []
    real = LessonIndex.search
    monkeypatch.setattr(LessonIndex, "search", lambda *a, **k: searches.append(1) or real(*a, **k))
    warm.search(QUERIES[0], skill="docker")
    warm.search(QUERIES[1])
    assert searches == []  # candidates from the snapshot, no LanceDB query
    path = Path(store.knowledge_path("docker"))
    path.write_text(path.read_text().replace("host.docker.internal", "the zebra gateway"))
    monkeypatch.setattr("fireworks_skill_memory.memory.retrieval.retriever.ALL_SCOPES_RECHECK", 0)
    hits = warm.search("zebra gateway", top=3)
    assert any("zebra" in hit.lesson.text for hit in hits)
    assert summary(warm.search("zebra gateway", skill="docker")) == summary(
        lancedb_only(Retriever(settings, fake_embedder)).search("zebra gateway", skill="docker")
    )
    assert searches == []  # the sync rewrote the docker file's snapshot
    assert summary(hits) == summary(baseline.search("zebra gateway", top=3))


# ---- a cold CLI process imports no LanceDB ----------------------------------------------
PROBE = """
import json, sys
from click.testing import CliRunner
from tests.conftest import FakeEmbedder
import fireworks_skill_memory.models.embedders as embedders
embedders.load_embedder = lambda *a, **k: FakeEmbedder()
from fireworks_skill_memory.cli.main import cli
result = CliRunner().invoke(cli, json.loads(sys.argv[1]), catch_exceptions=False)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("lancedb", "pyarrow", "torch"))
print(json.dumps({"code": result.exit_code, "heavy": heavy, "out": result.output}))
"""


def probe(args: list[str], env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_a_cold_cli_search_with_a_fresh_snapshot_imports_no_lancedb(
    synced: MemoryIndex, store: Store, env: dict[str, str]
) -> None:
    search = probe(["search", QUERIES[1], "--json"], env)
    assert search["code"] == 0 and search["heavy"] == []
    assert "passes alone" in str(search["out"])
    inject = probe(["inject", "--skill", "pytest", "--task", QUERIES[1]], env)
    assert inject["code"] == 0 and inject["heavy"] == []
    path = Path(store.knowledge_path("pytest"))
    path.write_text(path.read_text().replace("reset it", "reset it first"))
    stale = probe(["search", QUERIES[1], "--json"], env)
    assert stale["code"] == 0 and "lancedb" in stale["heavy"]  # the index answered


# ---- the real model ---------------------------------------------------------------------
@pytest.mark.real_model
def test_the_cold_path_ranks_as_the_lancedb_path_with_the_real_model(
    store: Store, settings: Settings, real_embedder: EmbeddingModel
) -> None:
    fill(store)
    for skill, text in (
        ("docker", "Pin base images by digest: FROM node:20-alpine@sha256 never :latest"),
        ("pytest", "Mark slow tests and deselect them with -m 'not slow' on every push"),
        ("git", "Never force-push a shared branch; use --force-with-lease on your own"),
        ("git", "Squash fixup commits with an interactive rebase before the review"),
    ):
        add_lesson(store, skill, text, matcher=None)
    warm = lancedb_only(Retriever(settings, real_embedder))
    queries = (*QUERIES, "which image tag should the Dockerfile build from", "undo a force push")
    expected = [summary(warm.search(q, top=5)) for q in queries]
    cold = Retriever(settings, real_embedder, cold=True)
    found = [summary(cold.search(q, top=5)) for q in queries]
    assert cold.cold
    synced = Retriever(settings, real_embedder)  # warm: reads the snapshot after each sync
    found_warm = [summary(synced.search(q, top=5)) for q in queries]
    for want, got in zip(expected * 2, found + found_warm, strict=True):
        assert [h[:2] for h in got] == [h[:2] for h in want]
        assert [h[2] for h in got] == pytest.approx([h[2] for h in want], abs=1e-4)
