"""The service's health: `probe`, the load that heals itself, `service status|start|stop`
for each state, and the CLI giving up quickly on a service that does not answer.

Fast: the fake embedder, the service class in-process, and a tiny stand-in process that holds
the service lock and a socket but never answers (what a hung or SIGSTOPped service looks like).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.service import client, server
from fireworks_skill_memory.memory.service.protocol import VERSION
from fireworks_skill_memory.models.errors import ModelUnavailable
from tests.conftest import REPO, CliInvoker, FakeEmbedder

# takes the home's service lock (pid inside, as the service does) and binds a socket it
# never accepts on: connecting works, no answer ever comes
SILENT_SERVICE = """
import fcntl, os, signal, socket, sys, time
from fireworks_skill_memory.memory.service.protocol import short_path
run = sys.argv[1]
if "--ignore-term" in sys.argv:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
os.makedirs(run, mode=0o700, exist_ok=True)
fd = os.open(os.path.join(run, "service.lock"), os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0)
os.pwrite(fd, str(os.getpid()).encode(), 0)
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
with short_path(os.path.join(run, "service.sock")) as address:
    sock.bind(address)
sock.listen(16)
print("ready", flush=True)
while True:
    time.sleep(1)
"""


# an older service: answers every request with a version error and exits on `shutdown`
STALE_SERVICE = """
import fcntl, json, os, socket, sys
from fireworks_skill_memory.memory.service.protocol import short_path
run = sys.argv[1]
os.makedirs(run, mode=0o700, exist_ok=True)
fd = os.open(os.path.join(run, "service.lock"), os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0)
os.pwrite(fd, str(os.getpid()).encode(), 0)
path = os.path.join(run, "service.sock")
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
with short_path(path) as address:
    sock.bind(address)
sock.listen(16)
print("ready", flush=True)
while True:
    conn, _ = sock.accept()
    request = json.loads(conn.makefile("rb").readline())
    if request.get("op") == "shutdown":
        os.unlink(path)
        sys.exit(0)
    conn.sendall(b'{"ok": false, "error": "version", "server_version": "0.0.0/0"}\\n')
    conn.close()
"""


def start_silent(
    settings: Settings, *extra: str, script: str = SILENT_SERVICE
) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", script, settings.run_dir, *extra],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def end(process: subprocess.Popen[str]) -> None:
    """Never leave a stopped or running stand-in behind."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)
            process.kill()
    process.wait(timeout=30)


@pytest.fixture
def silent(settings: Settings) -> Iterator[subprocess.Popen[str]]:
    process = start_silent(settings)
    try:
        yield process
    finally:
        end(process)


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.02)


# ---- probe ------------------------------------------------------------------------------
def test_probe_without_a_service_is_not_running(settings: Settings, tmp_path: Path) -> None:
    for home in (settings.home, str(tmp_path / "never-created")):
        health = client.probe(home)
        assert (health.state, health.pid, health.error) == ("not_running", None, None)
        assert health.as_json()["running"] is False and "not running" in health.detail


def test_probe_of_a_service_that_does_not_answer(
    settings: Settings, silent: subprocess.Popen[str]
) -> None:
    started = time.monotonic()
    health = client.probe(settings.home, timeout=0.5)
    assert time.monotonic() - started < 5
    assert (health.state, health.pid, health.stopped) == ("not_responding", silent.pid, False)
    assert health.error and f"pid {silent.pid}" in health.detail
    assert "service stop" in health.detail


def test_probe_says_a_sigstopped_service_is_stopped(
    settings: Settings, silent: subprocess.Popen[str]
) -> None:
    os.kill(silent.pid, signal.SIGSTOP)
    health = client.probe(settings.home, timeout=0.3)
    assert (health.state, health.stopped) == ("not_responding", True)
    assert "stopped" in health.detail


def test_lock_owner_reads_the_pid_the_owner_wrote(
    settings: Settings, silent: subprocess.Popen[str]
) -> None:
    assert client.lock_owner(settings.home) == (True, silent.pid)
    end(silent)
    assert client.lock_owner(settings.home) == (False, None)


# ---- status, start and stop of a service that does not answer ---------------------------
def test_status_of_a_service_that_does_not_answer_exits_6(
    cli: CliInvoker, silent: subprocess.Popen[str]
) -> None:
    text = cli("service", "status")
    assert text.exit_code == 6 and f"not responding (pid {silent.pid})" in text.output
    report = cli("service", "status", "--json")
    assert report.exit_code == 6
    data = json.loads(report.output)
    assert (data["state"], data["running"], data["pid"]) == ("not_responding", True, silent.pid)


def test_status_without_a_service_exits_3(cli: CliInvoker) -> None:
    result = cli("service", "status", "--json")
    assert result.exit_code == 3 and json.loads(result.output)["state"] == "not_running"


def test_status_help_documents_every_exit_code(cli: CliInvoker) -> None:
    text = cli("service", "status", "--help").output
    for code, state in [("0", "ready"), ("3", "not running"), ("4", "loading")]:
        assert f"{code}  " in text and state in text
    assert "5  running, failed" in text and "6  not responding" in text


def test_start_does_not_spawn_beside_a_service_that_does_not_answer(
    cli: CliInvoker, silent: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spawned: list[str] = []
    monkeypatch.setattr(
        "fireworks_skill_memory.memory.service.client.start_detached",
        lambda home, *a, **k: spawned.append(home),
    )
    result = cli("service", "start")
    assert result.exit_code == 6 and spawned == []
    assert f"not responding (pid {silent.pid})" in result.output
    assert "service stop" in result.output


def test_stop_ends_a_sigstopped_service(
    cli: CliInvoker, settings: Settings, silent: subprocess.Popen[str]
) -> None:
    os.kill(silent.pid, signal.SIGSTOP)
    result = cli("service", "stop", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"stopped": True, "pid": silent.pid, "how": "SIGTERM"}
    assert silent.wait(timeout=10) == -signal.SIGTERM
    assert client.probe(settings.home).state == "not_running"
    assert not os.path.exists(os.path.join(settings.run_dir, "service.sock"))


def test_stop_escalates_to_sigkill_when_sigterm_is_ignored(
    cli: CliInvoker, settings: Settings
) -> None:
    process = start_silent(settings, "--ignore-term")
    try:
        result = cli("service", "stop", "--timeout", "0.5")
        assert result.exit_code == 0 and "SIGKILL" in result.output
        assert process.wait(timeout=10) == -signal.SIGKILL
    finally:
        end(process)


@pytest.mark.slow
def test_the_cli_answers_in_process_when_the_service_does_not_answer(
    cli: CliInvoker, silent: subprocess.Popen[str]
) -> None:
    assert cli("add", "--skill", "demo", "Pin the lancedb version before upgrading").exit_code == 0
    started = time.monotonic()  # the stand-in is alive but never answers: a hung service
    search = cli("search", "lancedb upgrade")
    inject = cli("inject", "--skill", "demo", "--task", "pin the lancedb version before upgrading")
    add = cli("add", "--skill", "demo", "Rotate the socket path when the home moves")
    # each waited ~1.5 s for a ping, not the 30 s budget of an answering service
    assert time.monotonic() - started < 25
    assert search.exit_code == 0 and "Pin the lancedb" in search.output
    assert inject.exit_code == 0 and "Pin the lancedb" in inject.output
    assert add.exit_code == 0 and "added" in add.output


# ---- start: honest about the process it spawned -------------------------------------------
def test_start_reports_started_once_the_new_process_holds_the_lock(
    cli: CliInvoker, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    children: list[subprocess.Popen[bytes]] = []

    def spawn(home: str, *args: object, **kwargs: object) -> int:
        children.append(
            subprocess.Popen(
                [sys.executable, "-c", SILENT_SERVICE, settings.run_dir],
                cwd=REPO,
                stdout=subprocess.DEVNULL,
            )
        )
        return children[-1].pid

    monkeypatch.setattr("fireworks_skill_memory.memory.service.client.start_detached", spawn)
    try:
        result = cli("service", "start", "--json")
        assert result.exit_code == 0
        assert json.loads(result.output) == {"started": True, "pid": children[0].pid}
        assert client.lock_owner(settings.home) == (True, children[0].pid)
    finally:
        for child in children:
            child.kill()
            with contextlib.suppress(ChildProcessError):
                child.wait(timeout=10)


def test_start_replaces_a_service_of_another_version(
    cli: CliInvoker, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = start_silent(settings, script=STALE_SERVICE)
    children: list[subprocess.Popen[bytes]] = []

    def spawn(home: str, *args: object, **kwargs: object) -> int:
        children.append(
            subprocess.Popen([sys.executable, "-c", SILENT_SERVICE, settings.run_dir], cwd=REPO)
        )
        return children[-1].pid

    monkeypatch.setattr("fireworks_skill_memory.memory.service.client.start_detached", spawn)
    try:
        status = cli("service", "status")
        assert status.exit_code == 5 and "runs version 0.0.0/0" in status.output
        assert client.probe(settings.home).stale
        result = cli("service", "start")
        assert result.exit_code == 0 and f"started (pid {children[0].pid})" in result.output
        assert stale.wait(timeout=10) == 0
    finally:
        end(stale)
        for child in children:
            child.kill()
            child.wait(timeout=10)


def test_start_reports_a_process_that_exits_at_once(
    cli: CliInvoker, monkeypatch: pytest.MonkeyPatch
) -> None:
    children: list[subprocess.Popen[bytes]] = []

    def spawn(home: str, *args: object, **kwargs: object) -> int:
        children.append(subprocess.Popen([sys.executable, "-c", "raise SystemExit(2)"]))
        return children[-1].pid

    monkeypatch.setattr("fireworks_skill_memory.memory.service.client.start_detached", spawn)
    result = cli("service", "start")
    assert result.exit_code == 1
    assert f"(pid {children[0].pid}) exited at once with status 2" in result.output
    assert "started" not in result.output


# ---- the service heals: a failed load is retried ------------------------------------------
class FlakyFactory:
    """A retriever factory that fails (model missing) until `broken` is cleared."""

    def __init__(self) -> None:
        self.broken = True
        self.calls = 0

    def __call__(self, settings: Settings) -> Any:
        from fireworks_skill_memory.memory.retrieval.retriever import Retriever

        self.calls += 1
        if self.broken:
            raise ModelUnavailable("cannot load embedding model: Path /nowhere not found")
        return Retriever(settings, FakeEmbedder())


@contextlib.contextmanager
def loading(service: server.Service) -> Iterator[server.Service]:
    thread = threading.Thread(target=service.keep_loading, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.stopping.set()
        service.retry_now()
        thread.join(timeout=30)


def test_a_failed_load_is_retried_on_a_backoff_until_it_works(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "RETRY_FIRST", 0.05)
    factory = FlakyFactory()
    with loading(server.Service(settings, factory)) as service:
        wait_for(lambda: factory.calls >= 3, 10, "three attempts")
        ping = service.ping()
        assert (ping["state"], ping["ready"]) == ("failed", False)
        assert "Path /nowhere not found" in ping["load_error"]
        assert isinstance(ping["retry_in"], float) and ping["attempts"] >= 3
        factory.broken = False
        wait_for(service.ready.is_set, 10, "ready")
        ping = service.ping()
        assert (ping["state"], ping["load_error"], ping["retry_in"]) == ("ready", None, None)
        assert ping["model_id"] == FakeEmbedder.model_id


def test_a_changed_index_cuts_a_long_backoff_short(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "RETRY_FIRST", 600.0)
    monkeypatch.setattr(server, "WATCH_INTERVAL", 0.05)
    looks: list[tuple[object, ...]] = []
    watched_state = server.watched_state

    def look(settings: Settings) -> tuple[object, ...]:
        looks.append(watched_state(settings))
        return looks[-1]

    monkeypatch.setattr(server, "watched_state", look)
    factory = FlakyFactory()
    with loading(server.Service(settings, factory)) as service:
        wait_for(lambda: len(looks) >= 1, 10, "failed and watching")
        assert service.state() == "failed" and service.ping()["retry_in"] > 500
        factory.broken = False
        os.makedirs(settings.index_dir, exist_ok=True)
        Path(settings.index_dir, "state.json").write_text("{}")
        wait_for(service.ready.is_set, 10, "ready after the index changed")
        assert factory.calls == 2


def test_a_nudge_cuts_a_long_backoff_short(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "RETRY_FIRST", 600.0)
    factory = FlakyFactory()
    with loading(server.Service(settings, factory)) as service:
        wait_for(lambda: service.state() == "failed", 10, "failed")
        factory.broken = False
        assert service.handle({"v": VERSION, "op": "retry"}) == {"retrying": True}
        wait_for(service.ready.is_set, 10, "ready after the nudge")
        assert service.retry_now() == {"retrying": False}


def test_watched_state_sees_a_restored_model_folder(env: dict[str, str], tmp_path: Path) -> None:
    from fireworks_skill_memory.memory.config import load_settings

    model = tmp_path / "models" / "mini"
    model.parent.mkdir()
    settings = load_settings({**env, "SKILL_MEMORY_EMBED_MODEL": str(model)})
    before = server.watched_state(settings)
    assert server.watched_state(settings) == before
    model.mkdir()
    (model / "config.json").write_text("{}")
    assert server.watched_state(settings) != before


def test_watched_state_sees_a_rebuilt_index(settings: Settings, cli: CliInvoker) -> None:
    assert cli("add", "--skill", "demo", "Pin the lancedb version before upgrading").exit_code == 0
    assert cli("reindex").exit_code == 0
    before = server.watched_state(settings)
    assert cli("reindex").exit_code == 0
    assert server.watched_state(settings) != before


# ---- the whole service in-process: status and start while failed, then healed -----------
@pytest.fixture
def quiet_service_log() -> Iterator[None]:
    handlers = list(server.log.handlers)
    yield
    for handler in server.log.handlers[len(handlers) :]:
        server.log.removeHandler(handler)
        handler.close()
    logging.getLogger("skill-memory.service").handlers[:] = handlers


def test_status_and_start_of_a_failed_service_that_then_heals(
    cli: CliInvoker,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    quiet_service_log: None,
) -> None:
    monkeypatch.setattr(server, "RETRY_FIRST", 600.0)
    factory = FlakyFactory()
    thread = threading.Thread(target=server.serve, args=(settings, factory), daemon=True)
    thread.start()
    try:
        wait_for(lambda: client.probe(settings.home).state == "failed", 20, "failed")
        status = cli("service", "status")
        assert status.exit_code == 5
        assert "running, failed: ModelUnavailable: cannot load" in status.output
        assert "retrying in" in status.output
        factory.broken = False
        start = cli("service", "start", "--json")
        assert start.exit_code == 0
        data = json.loads(start.output)
        assert (data["started"], data["state"], data["retrying"]) == (False, "failed", True)
        wait_for(lambda: client.probe(settings.home).state == "ready", 20, "ready")
        ready = cli("service", "status", "--json")
        assert ready.exit_code == 0 and json.loads(ready.output)["ready"] is True
        assert "already running, ready" in cli("service", "start").output
        stop = cli("service", "stop", "--json")
        assert stop.exit_code == 0 and json.loads(stop.output)["how"] == "asked"
        thread.join(timeout=30)
        assert not thread.is_alive()
    finally:
        client.try_call(settings.home, "shutdown", timeout=1.0)
        thread.join(timeout=30)


def test_the_loaded_service_keeps_the_glossary_vectors_for_failures(settings: Settings) -> None:
    """After the load, a failure's families cost no model call (their vectors are kept)."""
    from fireworks_skill_memory.memory.retrieval.glossary.vectors import explanation_texts
    from fireworks_skill_memory.memory.retrieval.retriever import Retriever

    embedder = FakeEmbedder()
    texts = iter(explanation_texts())

    def embeds_nothing() -> bool:
        calls = embedder.calls
        service.retriever.task_vector(next(texts))  # a new text each time
        return embedder.calls == calls

    with loading(server.Service(settings, lambda s: Retriever(s, embedder))) as service:
        wait_for(service.ready.is_set, 10, "ready")
        wait_for(embeds_nothing, 30, "the glossary vectors kept")
        assert any(name.startswith("glossary-") for name in os.listdir(settings.index_dir))
