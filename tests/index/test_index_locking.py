"""No writer lock of the index is held while the model loads or lessons are embedded.

A sync reads the changed files and embeds what the table lacks with no lock held, then takes
the writer lock only to write the files whose fingerprint still matches what it embedded. A
file edited in between is never written with rows of its old text: it is read and embedded
again (at most `SYNC_ROUNDS` times), else keeps its old rows and fingerprint until the next
sync. These tests take the lock from another thread (fake model) or another process (real
model) while a sync embeds, and check the rows always mirror the text their fingerprint names.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from fireworks_skill_memory.index.table import STATE_FILE, LessonIndex
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import LockTimeout
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval.indexing import (
    SYNC_ROUNDS,
    MemoryIndex,
    SyncReport,
    inspect_index,
    scope_of,
)
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.store.files import hold_lock
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import REPO, FakeEmbedder
from tests.index.test_faults_index import damage

LOCK_WAIT = 2.0  # what another writer waits for the lock before the test calls it held
LESSON_A = "The zebra renderer crashes without a palette file: ship palette.toml"
LESSON_B = "The okapi exporter drops alpha channels unless --keep-alpha is given"
DOCKER_FILE = "skills/docker/KNOWLEDGE.md"


def fill(store: Store) -> None:
    add_lesson(
        store, "docker", "Inside a container localhost is the container", "Net", matcher=None
    )
    add_lesson(store, "docker", "Copy the lockfile before the sources", "Cache", matcher=None)
    add_lesson(
        store, "docker", "Run containers with --user to keep files editable", "Perms", matcher=None
    )
    add_lesson(
        store, "pytest", "Use monkeypatch for environment variables", "Fixtures", matcher=None
    )
    add_lesson(store, None, "Reproduce a failure before fixing it", "Verify", matcher=None)


def lock_path(settings: Settings) -> str:
    return LessonIndex(settings.index_dir, "", 0).lock_path


def lock_is_free(settings: Settings) -> bool:
    """True when another thread gets the index's writer lock within `LOCK_WAIT` s."""
    taken: list[bool] = []

    def take() -> None:
        try:
            with hold_lock(lock_path(settings), LOCK_WAIT):
                taken.append(True)
        except LockTimeout:
            taken.append(False)

    thread = threading.Thread(target=take)
    thread.start()
    thread.join(LOCK_WAIT + 10)
    return taken == [True]


class ProbingEmbedder(FakeEmbedder):
    """The fake model, "loaded" on first use; each load and embed waits until another thread
    has taken the index's writer lock (or gave up after `LOCK_WAIT` s), and records which."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.loaded = False
        self.probes: list[tuple[str, bool]] = []

    @property
    def dimension(self) -> int:
        if not self.loaded:
            self.loaded = True
            self.probes.append(("load", lock_is_free(self.settings)))
        return 64

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.probes.append(("embed", lock_is_free(self.settings)))
        return super().embed_batch(texts)

    def assert_lock_was_free(self) -> None:
        assert ("load", True) in self.probes and ("embed", True) in self.probes, self.probes
        assert all(free for _, free in self.probes), self.probes


class MeddlingEmbedder(FakeEmbedder):
    """The fake model; while it embeds, `meddle` runs (an edit, another writer...)."""

    def __init__(self, meddle: Callable[[int], object], times: int = 1) -> None:
        super().__init__()
        self.meddle = meddle
        self.times = times
        self.batches: list[list[str]] = []

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(list(texts))
        if len(self.batches) <= self.times:
            self.meddle(len(self.batches))
        return super().embed_batch(texts)


def assert_mirrors(settings: Settings, skill: str | None, text: str) -> None:
    """The scope's rows and fingerprint are exactly those of the markdown `text`."""
    index = LessonIndex.existing(settings.index_dir)
    assert index is not None
    rows, vectors = index.scope_rows([scope_of(skill)])
    lessons = KnowledgeDoc.parse(text, skill).lessons()
    assert [(r.id, r.text, r.hits) for r in rows] == [(x.id, x.text, x.hit_count) for x in lessons]
    assert len(vectors) == len(rows)
    state = json.loads(Path(settings.index_dir, STATE_FILE).read_text())
    key = str(Path(Store(settings).knowledge_path(skill)).relative_to(settings.home))
    assert state["fingerprints"][key]["sha"] == hashlib.sha256(text.encode()).hexdigest()


def assert_consistent(settings: Settings) -> None:
    report = inspect_index(settings)
    assert report.state == "ok", report
    assert report.rows == report.markdown_lessons


# ---- the lock is free while the model loads and embeds ----------------------------------
def first_sync(settings: Settings, embedder: EmbeddingModel) -> SyncReport:
    return MemoryIndex(settings, embedder).sync()


def incremental_sync(settings: Settings, embedder: EmbeddingModel) -> SyncReport:
    MemoryIndex(settings, FakeEmbedder()).sync()
    add_lesson(Store(settings), "docker", LESSON_A, "Render", matcher=None)
    return MemoryIndex(settings, embedder).sync(["docker"], wait=1.0)


def model_change(settings: Settings, embedder: EmbeddingModel) -> SyncReport:
    class OtherModel(FakeEmbedder):
        model_id = "fake/other-model"

    MemoryIndex(settings, OtherModel()).sync()
    return MemoryIndex(settings, embedder).sync()


def reindex(settings: Settings, embedder: EmbeddingModel) -> SyncReport:
    MemoryIndex(settings, FakeEmbedder()).sync()
    return MemoryIndex(settings, embedder).reindex()


def repair(settings: Settings, embedder: EmbeddingModel) -> SyncReport:
    MemoryIndex(settings, FakeEmbedder()).sync()
    damage(settings, "truncated")
    add_lesson(
        Store(settings), "docker", LESSON_A, "Render", matcher=None
    )  # the sync reads the table
    report = MemoryIndex(settings, embedder).sync()
    assert report.repaired is not None and report.repaired.moved_to
    return report


def search(settings: Settings, embedder: EmbeddingModel) -> SyncReport:
    hits = Retriever(settings, embedder).search("monkeypatch environment variables", top=1)
    assert hits[0].lesson.skill == "pytest"
    return SyncReport()


@pytest.mark.parametrize(
    "operation",
    [first_sync, incremental_sync, model_change, reindex, repair, search],
    ids=lambda f: f.__name__,
)
def test_the_writer_lock_is_free_while_the_model_loads_and_embeds(
    settings: Settings, store: Store, operation: Callable[[Settings, EmbeddingModel], SyncReport]
) -> None:
    fill(store)
    embedder = ProbingEmbedder(settings)
    report = operation(settings, embedder)
    embedder.assert_lock_was_free()
    assert report.deferred == 0
    if operation is not search:
        assert report.embedded > 0
    assert_consistent(settings)


def test_a_reindex_leaves_the_old_table_to_readers_while_it_embeds(
    settings: Settings, store: Store
) -> None:
    fill(store)
    MemoryIndex(settings, FakeEmbedder()).sync()
    seen: list[int] = []

    def read(_: int) -> None:
        index = LessonIndex.existing(settings.index_dir)
        seen.append(index.count() if index is not None else -1)

    report = MemoryIndex(settings, MeddlingEmbedder(read)).reindex()
    assert seen == [5]
    assert (report.rows, report.embedded, report.files_changed) == (5, 5, 3)
    assert_consistent(settings)


# ---- a file edited while its lessons are embedded ---------------------------------------
def test_a_file_edited_while_embedded_keeps_its_old_rows_until_the_next_sync(
    settings: Settings, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("fireworks_skill_memory.memory.retrieval.indexing.SYNC_ROUNDS", 1)
    fill(store)
    MemoryIndex(settings, FakeEmbedder()).sync()
    path = Path(store.knowledge_path("docker"))
    synced = path.read_text()
    add_lesson(store, "docker", LESSON_A, "Render", matcher=None)
    add_lesson(
        store, "pytest", "Mark slow tests so the quick run skips them", "Speed", matcher=None
    )
    embedder = MeddlingEmbedder(
        lambda _: add_lesson(store, "docker", LESSON_B, "Export", matcher=None)
    )

    report = MemoryIndex(settings, embedder).sync()
    assert (report.files_changed, report.deferred, report.embedded) == (1, 1, 2)
    assert_mirrors(settings, "docker", synced)  # not the rows of the text that was embedded
    assert_mirrors(settings, "pytest", Path(store.knowledge_path("pytest")).read_text())
    assert inspect_index(settings).changed_files == (DOCKER_FILE,)

    later = FakeEmbedder()
    report = MemoryIndex(settings, later).sync()
    assert (report.files_changed, report.deferred, report.embedded) == (1, 0, 2)
    assert_mirrors(settings, "docker", path.read_text())
    assert LESSON_A in path.read_text() and LESSON_B in path.read_text()
    assert_consistent(settings)


def test_a_file_edited_while_embedded_is_embedded_again_only_for_the_edit(
    settings: Settings, store: Store
) -> None:
    fill(store)
    MemoryIndex(settings, FakeEmbedder()).sync()
    add_lesson(store, "docker", LESSON_A, "Render", matcher=None)
    embedder = MeddlingEmbedder(
        lambda _: add_lesson(store, "docker", LESSON_B, "Export", matcher=None)
    )

    report = MemoryIndex(settings, embedder).sync()
    assert (report.files_changed, report.deferred, report.embedded) == (1, 0, 2)
    # two rounds: each embeds the two strings of the one lesson it had not seen
    assert [len(batch) for batch in embedder.batches] == [2, 2]
    assert any(LESSON_B in text for text in embedder.batches[1])
    assert_mirrors(settings, "docker", Path(store.knowledge_path("docker")).read_text())
    assert_consistent(settings)


def test_a_file_that_keeps_changing_is_left_stale_and_consistent(
    settings: Settings, store: Store
) -> None:
    fill(store)
    MemoryIndex(settings, FakeEmbedder()).sync()
    path = Path(store.knowledge_path("docker"))
    synced = path.read_text()
    add_lesson(store, "docker", LESSON_A, "Render", matcher=None)

    def edit(n: int) -> None:
        add_lesson(store, "docker", f"Edit number {n} of a busy file about wombats", matcher=None)

    embedder = MeddlingEmbedder(edit, times=SYNC_ROUNDS)
    report = MemoryIndex(settings, embedder).sync(["docker"])
    assert (report.files_changed, report.deferred) == (0, 1)
    assert len(embedder.batches) == SYNC_ROUNDS
    assert_mirrors(settings, "docker", synced)

    report = MemoryIndex(settings, FakeEmbedder()).sync(["docker"])
    assert (report.files_changed, report.deferred) == (1, 0)
    assert_mirrors(settings, "docker", path.read_text())
    assert_consistent(settings)


def test_a_file_synced_by_another_writer_meanwhile_is_left_as_it_wrote_it(
    settings: Settings, store: Store
) -> None:
    fill(store)
    MemoryIndex(settings, FakeEmbedder()).sync()
    add_lesson(store, "docker", LESSON_A, "Render", matcher=None)
    other = MemoryIndex(settings, FakeEmbedder())
    other_reports: list[SyncReport] = []
    embedder = MeddlingEmbedder(lambda _: other_reports.append(other.sync(wait=1.0)))

    report = MemoryIndex(settings, embedder).sync()
    assert other_reports[0].files_changed == 1  # the lock was free: the other writer wrote
    assert (report.files_changed, report.deferred) == (0, 0)
    assert_mirrors(settings, "docker", Path(store.knowledge_path("docker")).read_text())
    assert_consistent(settings)


def test_a_file_removed_while_embedded_leaves_the_index(settings: Settings, store: Store) -> None:
    fill(store)
    MemoryIndex(settings, FakeEmbedder()).sync()
    add_lesson(store, "docker", LESSON_A, "Render", matcher=None)
    add_lesson(
        store, "pytest", "Mark slow tests so the quick run skips them", "Speed", matcher=None
    )
    path = Path(store.knowledge_path("pytest"))
    embedder = MeddlingEmbedder(lambda _: path.unlink())

    report = MemoryIndex(settings, embedder).sync()
    assert (report.files_changed, report.files_removed, report.deferred) == (1, 1, 0)
    index = LessonIndex.existing(settings.index_dir)
    assert index is not None and index.count("pytest") == 0
    assert_consistent(settings)


# ---- the real model ---------------------------------------------------------------------
TAKE_LOCK = """
import sys, time
from fireworks_skill_memory.memory.errors import LockTimeout
from fireworks_skill_memory.memory.store.files import hold_lock
try:
    with hold_lock(sys.argv[1], float(sys.argv[2])):
        print(time.monotonic())
except LockTimeout:
    sys.exit(3)
"""


class TimedEmbedder(EmbeddingModel):
    """The real model, noting when its first batch starts and its last one ends."""

    def __init__(self, inner: EmbeddingModel) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.started = threading.Event()
        self.started_at = 0.0
        self.finished_at = 0.0

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        if not self.started.is_set():
            self.started_at = time.monotonic()
            self.started.set()
        vectors = self.inner.embed_batch(texts)
        self.finished_at = time.monotonic()
        return vectors


def write_lessons(settings: Settings, skills: int, per_skill: int) -> None:
    store = Store(settings)
    for s in range(skills):
        skill = f"service-{s}"
        lines = [
            f"- [2026-{1 + n % 9:02d}] [Topic {n % 7}] In service {s}, incident {n}: restart "
            f"worker {n * 7 % 31} only after draining queue {n % 13}; check disk {n % 5} first."
            f"  [HIT:{1 + n % 4}]"
            for n in range(per_skill)
        ]
        path = Path(store.knowledge_path(skill))
        path.parent.mkdir(parents=True)
        path.write_text(f"# {skill}\n\n## Entries\n\n" + "\n".join(lines) + "\n")


@pytest.mark.real_model
@pytest.mark.slow
def test_another_process_gets_the_lock_while_the_real_model_embeds(
    settings: Settings, real_embedder: EmbeddingModel
) -> None:
    write_lessons(settings, skills=8, per_skill=50)
    embedder = TimedEmbedder(real_embedder)
    memory = MemoryIndex(settings, embedder)
    outcome: list[SyncReport | BaseException] = []

    def run() -> None:
        try:
            outcome.append(memory.sync())
        except BaseException as error:  # re-raised by the test below
            outcome.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        assert embedder.started.wait(120), "the sync never started embedding"
        taken = subprocess.run(
            [sys.executable, "-c", TAKE_LOCK, lock_path(settings), str(LOCK_WAIT)],
            cwd=REPO,
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        thread.join(600)
    assert taken.returncode == 0, f"the lock was held while embedding: {taken.stderr}"
    acquired_at = float(taken.stdout)
    assert embedder.started_at < acquired_at < embedder.finished_at  # during the embedding
    report = outcome[0]
    if isinstance(report, BaseException):
        raise report
    assert (report.rows, report.embedded, report.files_changed) == (400, 400, 8)
    assert_consistent(settings)
    index = LessonIndex.existing(settings.index_dir)
    assert index is not None
    assert all(count == 50 for count in index.source_counts().values())
