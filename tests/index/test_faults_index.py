"""Reads never fail because of the derived index: damaged, missing, read-only, busy or moved.

The markdown is the source of truth; the LanceDB table beside it can always be rebuilt. These
tests damage the index the ways a crash, a full disk, a sync tool or a restore do, and check
that `inject` and `search` still answer (the same lesson as before), say on stderr in one line
what is wrong, repair what they can (the damaged table moved to `index/damaged-<time>/`), and
never change a byte of the markdown.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import Result

from fireworks_skill_memory.index.errors import IndexBusy, IndexDamaged, IndexNotWritable
from fireworks_skill_memory.index.table import STATE_FILE, LessonIndex, index_error, sql_string
from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval import snapshot
from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex, inspect_index
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.store.files import hold_lock
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import REPO, CliInvoker, FakeEmbedder

DOCKER_TASK = "my app in the container can't connect to the postgres running on my laptop"
DOCKER_LESSON = "host.docker.internal"
SEARCH_QUERY = "building an index on our biggest table locked out every insert until it finished"
SEARCH_LESSON = "CONCURRENTLY"
NEW_TASK = "the zebra stripes renderer crashes when the palette file is missing"
NEW_LESSON = "The zebra stripes renderer crashes without a palette file: ship palette.toml"


@pytest.fixture
def seeded(settings: Settings) -> Settings:
    shutil.copytree(REPO / "examples" / "skills", settings.skills_dir)
    Path(settings.global_file).parent.mkdir(parents=True)
    shutil.copyfile(REPO / "examples" / "global" / "KNOWLEDGE.md", settings.global_file)
    return settings


# ---- helpers ----------------------------------------------------------------------------
def inject(cli: CliInvoker, task: str = DOCKER_TASK, skill: str = "docker") -> tuple[dict, Result]:
    result = cli("inject", "--skill", skill, "--task", task, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), result


def search(cli: CliInvoker, *args: str) -> tuple[list[dict], Result]:
    result = cli("search", *(args or (SEARCH_QUERY,)), "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["results"], result


def top_texts(cli: CliInvoker) -> tuple[str, str]:
    injected, _ = inject(cli)
    found, _ = search(cli)
    return injected["lessons"][0]["text"], found[0]["text"]


def markdown_bytes(settings: Settings) -> dict[str, bytes]:
    home = Path(settings.home)
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*.md"))}


def damage(settings: Settings, how: str, *, snapshot_too: bool = True) -> None:
    """Break the table the way a crash, a full disk or a sync tool does.

    `snapshot_too`: the vector snapshot beside it goes as well, so that a cold CLI command
    (which reads the snapshot, never the table, while it is complete) meets the damage.
    """
    if snapshot_too:
        snapshot.clear(settings.index_dir)
    table = Path(settings.index_dir, "lessons.lance")
    files = sorted(table.glob("data/*.lance"))
    assert files, "the index should have data files before it is damaged"
    if how == "truncated":
        for path in files:
            os.truncate(path, path.stat().st_size // 2)
    elif how == "deleted":
        for path in files:
            path.unlink()
    else:  # a build that failed on a full disk: an empty table folder
        shutil.rmtree(table)
        table.mkdir()


def damaged_copies(settings: Settings) -> list[Path]:
    return sorted(Path(settings.index_dir).glob("damaged-*"))


def one_line(result: Result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def make_previous_version(settings: Settings) -> None:
    """Rewrite a synced index as the previous version left it: rows keyed by absolute path."""
    index = LessonIndex.existing(settings.index_dir)
    assert index is not None
    table = index.table()
    for source in index.source_counts():
        absolute = os.path.join(settings.home, source)
        table.update(where=f"source = {sql_string(source)}", values={"source": absolute})
    state = json.loads(Path(settings.index_dir, STATE_FILE).read_text())
    state["fingerprints"] = {
        os.path.join(settings.home, key): {k: v for k, v in seen.items() if k != "scope"}
        for key, seen in state["fingerprints"].items()
    }
    Path(settings.index_dir, STATE_FILE).write_text(json.dumps(state))


class CountingEmbedder(EmbeddingModel):
    """Another embedder, counting the texts it embeds."""

    def __init__(self, inner: EmbeddingModel) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.texts: list[str] = []

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return self.inner.embed_batch(texts)


def refuse_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index's writer lock cannot be created: what a read-only home does."""

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", args[0])

    monkeypatch.setattr("fireworks_skill_memory.memory.retrieval.indexing.hold_lock", read_only)


# ---- damaged index (real model, real LanceDB) -------------------------------------------
@pytest.mark.real_model
@pytest.mark.slow
@pytest.mark.parametrize("how", ["truncated", "deleted", "empty folder"])
def test_a_damaged_index_answers_the_same_and_is_moved_aside(
    cli_real: CliInvoker, seeded: Settings, how: str
) -> None:
    before = top_texts(cli_real)
    assert DOCKER_LESSON in before[0] and SEARCH_LESSON in before[1]
    markdown = markdown_bytes(seeded)

    damage(seeded, how)
    report = inspect_index(seeded)
    assert report.state == "damaged" and report.problem and report.fix
    found, result = search(cli_real)
    assert found[0]["text"] == before[1]
    notice = one_line(result)
    assert "cannot be read" in notice and "damaged-" in notice
    assert len(damaged_copies(seeded)) == 1
    assert (damaged_copies(seeded)[0] / "lessons.lance").is_dir()
    assert inspect_index(seeded).state == "ok"

    damage(seeded, how)
    assert inspect_index(seeded).state == "damaged"
    injected, result = inject(cli_real)
    assert injected["lessons"][0]["text"] == before[0]
    assert "damaged-" in one_line(result)
    assert len(damaged_copies(seeded)) == 2
    assert inspect_index(seeded).state in ("ok", "stale")  # the other skills sync on use

    assert top_texts(cli_real) == before
    assert markdown_bytes(seeded) == markdown


@pytest.mark.real_model
@pytest.mark.slow
def test_a_damaged_index_that_cannot_be_repaired_is_read_around(
    cli_real: CliInvoker, seeded: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = top_texts(cli_real)
    markdown = markdown_bytes(seeded)
    damage(seeded, "truncated")
    refuse_writes(monkeypatch)
    injected, result = inject(cli_real)
    assert injected["lessons"][0]["text"] == before[0]
    notice = one_line(result)
    assert "cannot be read" in notice and "answered from the markdown" in notice
    assert "skill-memory reindex" in notice
    found, result = search(cli_real)
    assert found[0]["text"] == before[1]
    assert "answered from the markdown" in one_line(result)
    assert inspect_index(seeded).state == "damaged"
    assert damaged_copies(seeded) == []
    assert markdown_bytes(seeded) == markdown


# ---- read-only home ---------------------------------------------------------------------
@pytest.mark.real_model
@pytest.mark.slow
def test_a_read_only_home_answers_from_the_markdown(
    cli_real: CliInvoker, seeded: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    top_texts(cli_real)  # the index is built and in step
    add_lesson(Store(seeded), "docker", NEW_LESSON, "Render", matcher=None)  # now it is stale
    refuse_writes(monkeypatch)
    injected, result = inject(cli_real, NEW_TASK)
    assert injected["lessons"][0]["text"] == NEW_LESSON
    notice = one_line(result)
    assert "cannot write the index" in notice and "Read-only file system" in notice
    found, result = search(cli_real, NEW_TASK)
    assert found[0]["text"] == NEW_LESSON
    assert "answered from the markdown" in one_line(result)
    found, _ = search(cli_real)
    assert SEARCH_LESSON in found[0]["text"]
    assert inspect_index(seeded).state == "stale"


@pytest.mark.real_model
@pytest.mark.slow
def test_a_read_only_home_without_an_index(
    cli_real: CliInvoker, seeded: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_folder(path: str, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", path)

    monkeypatch.setattr("fireworks_skill_memory.index.table.os.makedirs", no_folder)
    injected, result = inject(cli_real)
    assert DOCKER_LESSON in injected["lessons"][0]["text"]
    assert "Read-only file system" in one_line(result)
    found, _ = search(cli_real)
    assert SEARCH_LESSON in found[0]["text"]
    assert not Path(seeded.index_dir).exists()


@contextlib.contextmanager
def read_only_mount(source: Path, target: Path) -> Iterator[None]:
    """`source` mounted read-only at `target` (skips the test where that is not allowed)."""
    target.mkdir()
    try:
        subprocess.run(
            ["mount", "--bind", str(source), str(target)], check=True, capture_output=True
        )
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"cannot bind-mount here (needs root and mount rights): {error}")
    try:
        subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(target)], check=True, capture_output=True
        )
        try:
            (target / "probe").touch()
        except OSError:
            yield
        else:
            pytest.skip("the read-only remount did not stop writes")
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"cannot remount read-only here: {error}")
    finally:
        subprocess.run(["umount", str(target)], check=False, capture_output=True)


@pytest.mark.real_model
@pytest.mark.slow
def test_a_read_only_mount_answers_from_the_markdown(
    cli_real: CliInvoker, seeded: Settings, env: dict[str, str], tmp_path: Path
) -> None:
    top_texts(cli_real)
    add_lesson(Store(seeded), "docker", NEW_LESSON, "Render", matcher=None)
    with read_only_mount(Path(seeded.home), tmp_path / "read-only") as _:
        reader = CliInvoker({**env, "AI_MEMORY_HOME": str(tmp_path / "read-only")})
        injected, result = inject(reader, NEW_TASK)
        assert injected["lessons"][0]["text"] == NEW_LESSON
        assert "answered from the markdown" in one_line(result)
        found, _ = search(reader)
        assert SEARCH_LESSON in found[0]["text"]
        found, _ = search(reader, NEW_TASK)
        assert found[0]["text"] == NEW_LESSON


# ---- a copied, restored or moved home ---------------------------------------------------
@pytest.mark.real_model
@pytest.mark.slow
@pytest.mark.parametrize("previous_version", [False, True], ids=["relative", "absolute-paths"])
def test_a_copied_home_injects_each_lesson_once(
    cli_real: CliInvoker,
    seeded: Settings,
    env: dict[str, str],
    tmp_path: Path,
    real_embedder: EmbeddingModel,
    previous_version: bool,
) -> None:
    before = top_texts(cli_real)
    if previous_version:
        make_previous_version(seeded)
    copy = tmp_path / "copy"
    shutil.copytree(seeded.home, copy, symlinks=True)
    copied = load_settings({**env, "AI_MEMORY_HOME": str(copy)})
    reader = CliInvoker({**env, "AI_MEMORY_HOME": str(copy)})
    docker_lessons = len(Store(copied).lessons("docker"))
    for _ in range(2):
        injected, _ = inject(reader)
        ids = [lesson["id"] for lesson in injected["lessons"] + injected["global"]]
        assert len(ids) == len(set(ids)) and injected["lessons"][0]["text"] == before[0]
        found, _ = search(reader, "--skill", "docker", "--top", "100", "containers")
        assert len(found) == docker_lessons == len({r["id"] for r in found})
        found, _ = search(reader, "--top", "100", SEARCH_QUERY)
        assert len(found) == len({r["id"] for r in found}) and found[0]["text"] == before[1]
    # the cold CLI answered from the snapshot; the first sync (here a warm process's) brings
    # the copied index in step, reusing every stored vector: only the query is embedded
    counting = CountingEmbedder(real_embedder)
    Retriever(copied, counting).search("a query never seen before")
    assert counting.texts == ["a query never seen before"]
    report = inspect_index(copied)
    assert report.state == "ok" and report.stale_sources == ()
    assert report.rows == report.markdown_lessons


@pytest.mark.real_model
def test_an_index_of_the_previous_version_is_upgraded_in_place(
    seeded: Settings, real_embedder: EmbeddingModel
) -> None:
    MemoryIndex(seeded, real_embedder).sync()
    make_previous_version(seeded)
    before = inspect_index(seeded)
    assert before.state == "stale" and all(os.path.isabs(s) for s in before.stale_sources)
    counting = CountingEmbedder(real_embedder)
    report = MemoryIndex(seeded, counting).sync()
    assert report.embedded == 0 and counting.texts == []
    after = inspect_index(seeded)
    assert after.state == "ok" and after.rows == after.markdown_lessons
    index = LessonIndex.existing(seeded.index_dir)
    assert index is not None
    assert not any(os.path.isabs(source) for source in index.source_counts())


# ---- nothing to rank, empty queries -----------------------------------------------------
@pytest.fixture
def no_model(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> CliInvoker:
    def refuse(*args: object, **kwargs: object) -> EmbeddingModel:
        raise AssertionError("the model was loaded although there was nothing to rank")

    monkeypatch.setattr("fireworks_skill_memory.models.embedders.load_embedder", refuse)
    return CliInvoker(env)


def test_nothing_to_rank_loads_no_model(no_model: CliInvoker, settings: Settings) -> None:
    result = no_model("search", "anything at all")
    assert result.exit_code == 0 and "no lessons stored yet" in result.stdout  # empty home
    store = Store(settings)
    add_lesson(store, "docker", "Use host.docker.internal to reach the host", "Net", matcher=None)
    add_lesson(store, None, "Reproduce a failure before fixing it", "Verify", matcher=None)
    store.checkpoint("empty", "a raw note, not a lesson yet")
    result = no_model("search", "--skill", "unknown", "x")
    assert result.exit_code == 0 and "no lessons stored for unknown" in result.stdout
    for skill in ("empty", "unknown"):
        result = no_model("inject", "--skill", skill, "--task", "x")
        assert result.exit_code == 0 and result.stdout == ""
        out = json.loads(no_model("inject", "--skill", skill, "--task", "x", "--json").stdout)
        assert out["lessons"] == [] and out["global"] == []


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_an_empty_query_is_a_usage_error(cli: CliInvoker, settings: Settings, query: str) -> None:
    add_lesson(Store(settings), "docker", "Use host.docker.internal", "Net", matcher=None)
    result = cli("search", query)
    assert result.exit_code == 2
    assert "QUERY" in result.stderr and "empty" in result.stderr
    result = cli("search", "--skill", "docker", query)
    assert result.exit_code == 2


# ---- fast checks with the fake embedder -------------------------------------------------
def fill(settings: Settings) -> None:
    store = Store(settings)
    add_lesson(
        store, "docker", "Inside a container localhost is the container", "Net", matcher=None
    )
    add_lesson(store, "docker", "Copy the lockfile before the sources", "Cache", matcher=None)
    add_lesson(
        store, "pytest", "Use monkeypatch for environment variables", "Fixtures", matcher=None
    )
    add_lesson(store, None, "Reproduce a failure before fixing it", "Verify", matcher=None)


def test_errors_are_told_apart() -> None:
    assert isinstance(
        index_error(OSError(errno.EROFS, "Read-only file system"), "x"), IndexNotWritable
    )
    assert isinstance(index_error(OSError(errno.ENOSPC, "No space left"), "x"), IndexNotWritable)
    lance_full = RuntimeError("lance error: LanceError(IO): No space left on device (os error 28)")
    assert isinstance(index_error(lance_full, "x"), IndexNotWritable)
    broken = RuntimeError(
        "lance error: LanceError(IO): failed to fill whole buffer, /rustc/abc/src/f.rs:250:5"
    )
    error = index_error(broken, "/home/index")
    assert isinstance(error, IndexDamaged)
    assert (
        str(error) == "the index in /home/index cannot be read: lance error: LanceError(IO): "
        "failed to fill whole buffer"
    )
    assert isinstance(index_error(ValueError("Table 'lessons' was not found"), "x"), IndexDamaged)


def test_a_writer_holding_the_lock_too_long_is_read_around(
    settings: Settings, fake_embedder: FakeEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(settings)
    MemoryIndex(settings, fake_embedder).sync()
    add_lesson(
        Store(settings), "docker", "Zebra stripes need a palette file", "Render", matcher=None
    )
    monkeypatch.setattr("fireworks_skill_memory.memory.retrieval.retriever.READ_LOCK_WAIT", 0.2)
    index = LessonIndex(settings.index_dir, "", 0)
    held, release = threading.Event(), threading.Event()

    def writer() -> None:
        with hold_lock(index.lock_path, 5):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    held.wait(5)
    try:
        retriever = Retriever(settings, fake_embedder)
        hits = retriever.search("zebra stripes palette", skill="docker", top=1)
        assert hits[0].lesson.text == "Zebra stripes need a palette file"
        notices = retriever.take_notices()
        assert len(notices) == 1 and "another process" in notices[0].line()
        assert retriever.take_notices() == []
        with pytest.raises(IndexBusy):
            MemoryIndex(settings, fake_embedder).sync(["docker"], wait=0.1)
    finally:
        release.set()
        thread.join()


def test_a_moved_home_drops_the_old_rows_of_a_skill_at_its_first_sync(
    settings: Settings, env: dict[str, str], tmp_path: Path, fake_embedder: FakeEmbedder
) -> None:
    fill(settings)
    MemoryIndex(settings, fake_embedder).sync()
    make_previous_version(settings)
    moved = tmp_path / "moved"
    shutil.move(settings.home, moved)
    home = load_settings({**env, "AI_MEMORY_HOME": str(moved)})
    assert len(inspect_index(home).stale_sources) == 3
    memory = MemoryIndex(home, fake_embedder)
    report = memory.sync(["docker"])
    assert report.embedded == 0 and report.reused == 2
    rows, _ = memory.index.scope_rows(["docker"])
    assert sorted(row.source for row in rows) == ["skills/docker/KNOWLEDGE.md"] * 2
    assert memory.sync().embedded == 0
    assert inspect_index(home).state == "ok"


def test_reindex_moves_a_damaged_table_aside(cli: CliInvoker, settings: Settings) -> None:
    fill(settings)
    assert cli("reindex").exit_code == 0
    damage(settings, "truncated")
    result = cli("stats")
    assert result.exit_code == 0 and "damaged" in result.stdout
    result = cli("reindex")
    assert result.exit_code == 0 and "indexed 4 lessons" in result.stdout
    assert "damaged-" in result.stderr
    assert len(damaged_copies(settings)) == 1
    assert inspect_index(settings).state == "ok"


def test_a_damaged_table_beside_a_complete_snapshot_is_repaired_by_the_next_write(
    cli: CliInvoker, settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(settings)
    before = cli("search", "docker layer cache", "--json")
    damage(settings, "truncated", snapshot_too=False)
    after = cli("search", "docker layer cache", "--json")  # cold: the snapshot, not the table
    assert after.exit_code == 0 and after.stdout == before.stdout and after.stderr == ""
    assert inspect_index(settings).state == "damaged"  # `doctor` says so meanwhile
    add_lesson(Store(settings), "docker", "Pin the base image by digest", "Pin", matcher=None)
    report = MemoryIndex(settings, fake_embedder).sync()
    assert report.repaired is not None and "damaged-" in report.repaired.moved_to
    assert inspect_index(settings).state == "ok"


def test_refresh_tolerates_a_read_only_index(
    settings: Settings, fake_embedder: FakeEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(settings)
    refuse_writes(monkeypatch)
    retriever = Retriever(settings, fake_embedder)
    retriever.refresh()  # the service's warm-up: no exception
    assert "Read-only file system" in retriever.take_notices()[0].line()
    hits = retriever.search("monkeypatch environment variables", top=1)
    assert hits[0].lesson.skill == "pytest"


def test_inspect_index_reports_each_state(settings: Settings, fake_embedder: FakeEmbedder) -> None:
    assert inspect_index(settings).state == "empty"
    fill(settings)
    missing = inspect_index(settings)
    assert (missing.state, missing.markdown_lessons, missing.fix) == (
        "missing",
        4,
        "skill-memory reindex",
    )
    MemoryIndex(settings, fake_embedder).sync()
    ok = inspect_index(settings)
    assert (ok.state, ok.rows, ok.problem, ok.model) == ("ok", 4, None, "fake/bag-of-words")
    add_lesson(Store(settings), "docker", "One more lesson", matcher=None)
    stale = inspect_index(settings)
    assert stale.state == "stale" and stale.changed_files == ("skills/docker/KNOWLEDGE.md",)
    damage(settings, "deleted")
    damaged = inspect_index(settings)
    assert damaged.state == "damaged" and damaged.rows == 0
    assert damaged.problem is not None and "cannot be read" in damaged.problem


def test_a_full_sync_drops_rows_nothing_tracks(
    settings: Settings, fake_embedder: FakeEmbedder
) -> None:
    fill(settings)
    MemoryIndex(settings, fake_embedder).sync()
    Path(settings.index_dir, STATE_FILE).unlink()  # the sync state is lost...
    shutil.rmtree(Path(settings.skills_dir, "pytest"))  # ...and a skill removed meanwhile
    memory = MemoryIndex(settings, fake_embedder)
    report = memory.sync()
    assert report.embedded == 0
    assert memory.index.count("pytest") == 0 and memory.index.count() == 3
    assert inspect_index(settings).state == "ok"
