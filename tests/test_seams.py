"""The typed seams between packages: the index's sync-state records, the one sync-report JSON,
the one lock helper and the one line appender."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fireworks_skill_memory.index.state import Fingerprint, SyncState
from fireworks_skill_memory.index.table import STATE_FILE, LessonIndex
from fireworks_skill_memory.memory import appender, locks
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import LockTimeout
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex, SyncReport, inspect_index
from fireworks_skill_memory.memory.service import client, server
from fireworks_skill_memory.memory.service.protocol import LOCK_NAME, run_dir
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel
from tests.conftest import CliInvoker, FakeEmbedder

FINGERPRINT = {
    "mtime_ns": 1_700_000_000_000_000_000,
    "size": 812,
    "ino": 4242,
    "sha": "ab" * 32,
    "synced_ns": 1_700_000_005_000_000_000,
    "scope": "docker",
}
# state.json exactly as the previous release wrote it (json.dumps(..., sort_keys=True))
PREVIOUS_STATE = json.dumps(
    {
        "model_id": "fake/bag-of-words",
        "fingerprints": {
            "skills/docker/KNOWLEDGE.md": FINGERPRINT,
            "global/KNOWLEDGE.md": {**FINGERPRINT, "ino": 7, "scope": "@global"},
        },
        "writes_since_optimize": 3,
    },
    sort_keys=True,
)


def seed(settings: Settings) -> None:
    store = Store(settings)
    add_lesson(
        store, "docker", "Copy the manifest before the source tree for the build cache.", "Build"
    )
    add_lesson(store, "pytest", "Run pytest with -x to stop at the first failing test.", "Testing")
    add_lesson(store, None, "Read the whole traceback before retrying.", "Debugging")


def strip_scopes(settings: Settings) -> None:
    """Rewrite state.json as a version that did not record the scope of a fingerprint."""
    path = Path(settings.index_dir, STATE_FILE)
    state = json.loads(path.read_text())
    for seen in state["fingerprints"].values():
        del seen["scope"]
    path.write_text(json.dumps(state))


# ---- the sync-state records ---------------------------------------------------------------
def test_state_json_of_the_previous_release_reads_and_writes_back_unchanged(
    tmp_path: Path,
) -> None:
    Path(tmp_path, STATE_FILE).write_text(PREVIOUS_STATE)
    index = LessonIndex(str(tmp_path), "", 0)
    state = index.load_state()
    assert state.model_id == "fake/bag-of-words" and state.writes_since_optimize == 3
    docker = state.fingerprints["skills/docker/KNOWLEDGE.md"]
    assert docker == Fingerprint(**FINGERPRINT)
    assert docker.same_stat(FINGERPRINT["mtime_ns"], 812, 4242)
    assert not docker.same_stat(FINGERPRINT["mtime_ns"], 813, 4242)
    assert not state.needs_upgrade
    index.save_state(state)
    assert Path(tmp_path, STATE_FILE).read_text() == PREVIOUS_STATE


def test_sync_state_round_trips_through_state_json(tmp_path: Path) -> None:
    state = SyncState(
        model_id="m",
        fingerprints={
            "a": Fingerprint(1, 2, 3, "s", 4, "docker"),
            "/old/absolute/b": Fingerprint(5, 6, 7, "t", 8, None),
        },
        writes_since_optimize=2,
    )
    index = LessonIndex(str(tmp_path), "", 0)
    index.save_state(state)
    assert index.load_state(fresh=True) == state
    on_disk = json.loads(Path(tmp_path, STATE_FILE).read_text())
    assert on_disk["fingerprints"]["a"]["scope"] == "docker"
    assert "scope" not in on_disk["fingerprints"]["/old/absolute/b"]  # as the old version wrote
    assert index.load_state().needs_upgrade
    assert index.load_state().keys_in_scope("docker") == ["a"]


def test_records_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SyncState().writes_since_optimize = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        Fingerprint(1, 2, 3, "s", 4, "x").sha = "t"


@pytest.mark.parametrize(
    "text",
    ["", "not json", "[1, 2]", '{"fingerprints": [1]}', '{"fingerprints": {"a": 3}}'],
)
def test_an_unreadable_state_is_an_empty_one(tmp_path: Path, text: str) -> None:
    Path(tmp_path, STATE_FILE).write_text(text)
    assert LessonIndex(str(tmp_path), "", 0).load_state().fingerprints == {}


def test_an_invalid_fingerprint_is_dropped_and_the_others_kept() -> None:
    raw = {
        "model_id": "m",
        "fingerprints": {
            "good": FINGERPRINT,
            "no sha": {k: v for k, v in FINGERPRINT.items() if k != "sha"},
            "text size": {**FINGERPRINT, "size": "812"},
            "bool ino": {**FINGERPRINT, "ino": True},
            "number scope": {**FINGERPRINT, "scope": 3},
        },
        "writes_since_optimize": "many",
    }
    state = SyncState.from_json(raw)
    assert list(state.fingerprints) == ["good"]
    assert state.writes_since_optimize == 0


def test_a_state_without_scopes_is_upgraded_in_place_without_embedding(
    settings: Settings,
) -> None:
    seed(settings)
    MemoryIndex(settings, FakeEmbedder()).sync()
    strip_scopes(settings)
    index = LessonIndex.existing(settings.index_dir)
    assert index is not None and index.load_state().needs_upgrade
    embedder = FakeEmbedder()
    report = MemoryIndex(settings, embedder).sync()
    assert report.embedded == 0 and embedder.texts_embedded == 0
    state = index.load_state(fresh=True)
    assert not state.needs_upgrade
    assert {seen.scope for seen in state.fingerprints.values()} == {"docker", "pytest", "@global"}
    assert inspect_index(settings).state == "ok"


def test_a_sync_writes_one_fingerprint_per_scope_and_drops_vanished_files(
    settings: Settings,
) -> None:
    seed(settings)
    memory = MemoryIndex(settings, FakeEmbedder())
    memory.sync()
    state = memory.index.load_state()
    assert sorted(state.fingerprints) == [
        "global/KNOWLEDGE.md",
        "skills/docker/KNOWLEDGE.md",
        "skills/pytest/KNOWLEDGE.md",
    ]
    knowledge = Path(settings.skills_dir, "pytest", "KNOWLEDGE.md")
    text = knowledge.read_text()
    knowledge.unlink()
    report = memory.sync()
    assert report.files_removed == 1
    assert "skills/pytest/KNOWLEDGE.md" not in memory.index.load_state().fingerprints
    knowledge.write_text(text)
    memory.sync(["pytest"])
    seen = memory.index.load_state().fingerprints["skills/pytest/KNOWLEDGE.md"]
    stat = os.stat(knowledge)
    assert seen.scope == "pytest" and seen.same_stat(stat.st_mtime_ns, stat.st_size, stat.st_ino)


# ---- the sync report's JSON ----------------------------------------------------------------
def test_sync_report_json_has_one_shape() -> None:
    report = SyncReport(files_changed=2, files_removed=1, rows=7, embedded=5, reused=2)
    assert report.as_json() == {"rows": 7, "embedded": 5, "files": 2}


def test_reindex_json_and_the_service_ops_answer_the_report_json(
    cli: CliInvoker, settings: Settings
) -> None:
    seed(settings)
    result = cli("reindex", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"rows": 3, "embedded": 3, "files": 3}

    from fireworks_skill_memory.memory.retrieval.retriever import Retriever

    service = server.Service(settings, lambda s: Retriever(s, FakeEmbedder()))
    retriever = service._new_retriever()
    synced = server._op_sync(service, retriever, {})
    rebuilt = server._op_reindex(service, retriever, {})
    assert synced == {"rows": 0, "embedded": 0, "files": 0}
    assert rebuilt == {"rows": 3, "embedded": 3, "files": 3}


@pytest.mark.real_model
@pytest.mark.slow
def test_real_model_reindex_json_and_an_old_state_upgraded_without_embedding(
    cli_real: CliInvoker, settings: Settings, real_embedder: EmbeddingModel
) -> None:
    seed(settings)
    result = cli_real("reindex", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"rows": 3, "embedded": 3, "files": 3}
    strip_scopes(settings)
    report = MemoryIndex(settings, real_embedder).sync()
    assert report.embedded == 0
    index = LessonIndex.existing(settings.index_dir)
    assert index is not None and not index.load_state().needs_upgrade
    assert inspect_index(settings).state == "ok"


# ---- the lock helper -----------------------------------------------------------------------
def test_hold_lock_times_out_while_another_holds_it(tmp_path: Path) -> None:
    lock_file = str(tmp_path / "sub" / "x.lock")
    with locks.hold_lock(lock_file, 1.0):
        busy = locks.hold_lock(lock_file, 0.05, what="the thing")
        with pytest.raises(LockTimeout, match="the thing is busy"), busy:
            pass
    with locks.hold_lock(lock_file, 0.05):  # released on leaving the block
        pass


def test_try_exclusive_and_the_shared_probe(tmp_path: Path) -> None:
    # flock locks belong to open file descriptions: two opens conflict within one process
    path = str(tmp_path / "service.lock")
    owner = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    other = os.open(path, os.O_RDONLY)
    try:
        assert not locks.held_elsewhere(other)
        assert locks.try_exclusive(owner)
        assert locks.held_elsewhere(other)
        assert not locks.try_exclusive(other, wait=0.05)
        os.close(owner)
        owner = -1
        assert not locks.held_elsewhere(other)
        assert locks.try_exclusive(other)
    finally:
        os.close(other)
        if owner >= 0:
            os.close(owner)


def test_the_service_lock_is_seen_by_lock_owner(settings: Settings) -> None:
    assert client.lock_owner(settings.home) == (False, None)
    with server.single_instance(settings.home) as owner:
        assert owner
        assert client.lock_owner(settings.home) == (True, os.getpid())
        with server.single_instance(settings.home) as second:
            assert not second
    assert client.lock_owner(settings.home) == (False, None)
    assert os.path.exists(os.path.join(run_dir(settings.home), LOCK_NAME))


# ---- the line appender ---------------------------------------------------------------------
def test_append_line_adds_one_newline_and_creates_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "x.log"
    assert appender.append_line(str(path), "one")
    assert appender.append_line(str(path), "two\n")
    assert path.read_text() == "one\ntwo\n"
    assert path.stat().st_mode & 0o777 == 0o600


def test_append_line_rotates_past_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "x.log"
    path.write_text("o" * 100 + "\n")
    assert appender.append_line(str(path), "small", rotate_past=200)
    assert not Path(f"{path}.1").exists()
    assert appender.append_line(str(path), "new", rotate_past=50)
    assert path.read_text() == "new\n"
    assert Path(f"{path}.1").read_text() == "o" * 100 + "\nsmall\n"


def test_append_line_never_raises(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert not appender.append_line(str(blocker / "x.log"), "line")  # a folder that is a file
    assert not appender.append_line(str(tmp_path / "nul\0.log"), "line")
    assert not appender.append_line(str(tmp_path / "x.log"), "\ud800")  # surrogateescape
    assert appender.append_line(str(tmp_path / "y.log"), "\ud800", errors="surrogatepass")
    assert appender.log_entry(str(tmp_path / "z.log"), "lone \ud800 surrogate")
    assert "lone \\ud800 surrogate" in (tmp_path / "z.log").read_text(encoding="utf-8")


STAMPED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d (.*)$")


def test_the_hooks_and_the_distiller_write_one_log_format(settings: Settings) -> None:
    from fireworks_skill_memory.hooks.runtime import log_note
    from fireworks_skill_memory.memory.distill.state import log_line

    log_note("hook PreToolUse: a bad payload")
    log_line(settings, "skipped: too few tool calls")
    lines = Path(settings.log_file).read_text(encoding="utf-8").splitlines()
    messages = [match.group(1) for line in lines if (match := STAMPED.match(line))]
    assert messages == ["hook PreToolUse: a bad payload", "distill: skipped: too few tool calls"]


WRITER = """
import sys
from fireworks_skill_memory.memory.appender import append_line
path, tag, count, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for n in range(count):
    # lines of 60 to ~6000 bytes: larger than PIPE_BUF too
    line = f"{tag} {n} " + tag * (60 + (n * 397) % 6000) + " end"
    assert append_line(path, line, rotate_past=limit or None)
"""


def run_writers(path: Path, limit: int, writers: int = 4, count: int = 150) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, str(count), str(limit)])
        for tag in "abcdefgh"[:writers]
    ]
    assert [proc.wait(timeout=120) for proc in procs] == [0] * writers


def whole(line: str) -> bool:
    tag, n, body, end = line.split(" ")
    return end == "end" and len(body) == 60 + (int(n) * 397) % 6000 and set(body) == {tag}


def test_concurrent_appends_from_processes_keep_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "shared.log"
    run_writers(path, limit=0)
    lines = path.read_text().splitlines()
    assert len(lines) == 4 * 150
    assert all(whole(line) for line in lines)
    for tag in "abcd":  # each writer's lines in its own order
        mine = [int(line.split(" ")[1]) for line in lines if line.startswith(tag + " ")]
        assert mine == list(range(150))


def test_concurrent_appends_with_rotation_keep_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "shared.log"
    run_writers(path, limit=64 * 1024)
    lines = path.read_text().splitlines() + Path(f"{path}.1").read_text().splitlines()
    assert lines and all(whole(line) for line in lines)
    assert os.path.getsize(path) <= 64 * 1024 + 4 * 7000  # rotated, not grown without bound


# ---- light enough for the hook path --------------------------------------------------------
def test_the_appender_and_the_locks_import_only_light_modules() -> None:
    probe = (
        "import sys; before = set(sys.modules)\n"
        "import fireworks_skill_memory.memory.appender, fireworks_skill_memory.memory.locks\n"
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    new = {name.split(".")[0] for name in done.stdout.split()}
    assert new <= {"fireworks_skill_memory", "fcntl", "time"}, new
