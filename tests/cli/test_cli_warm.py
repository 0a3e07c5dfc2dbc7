"""The CLI warms itself (issue 26): a command that needs the model and finds no service answers
in-process and starts the service for the next call, by the hooks' one spawn rule.

Fast tests record spawns instead of starting processes, or run the service in this process
(the fake embedder); the `real_model` test starts the real service from a real CLI process.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.service import client, server
from fireworks_skill_memory.memory.service.protocol import STAMP_NAME, STARTED_BY_ENV
from fireworks_skill_memory.memory.service.spawn import SERVICE_MODULE, SPAWN_COOLDOWN
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.conftest import CliInvoker, FakeEmbedder
from tests.hook_support import cli as cli_process
from tests.hook_support import injections, service_status, wait_until
from tests.memory.service.test_service_health import end, start_silent, wait_for

LESSON = "Container logs vanish after a restart unless the json-file log driver keeps them"
TASK = "the container logs vanish after restart"


@pytest.fixture
def warming(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, cli: CliInvoker
) -> tuple[CliInvoker, list[tuple[str, str]]]:
    """The CLI (fake embedder) allowed to start the service; the starts it asked for."""
    assert cli("add", "--skill", "docker", LESSON).exit_code == 0  # NO_SERVICE=1: no start
    monkeypatch.delenv("SKILL_MEMORY_NO_SERVICE")
    started: list[tuple[str, str]] = []

    def start_detached(home: str, module: str, python: str | None = None, **kw: str) -> int:
        started.append((module, kw.get("started_by", "")))
        return 4242

    monkeypatch.setattr(client, "start_detached", start_detached)
    environ = {k: v for k, v in env.items() if k != "SKILL_MEMORY_NO_SERVICE"}
    return CliInvoker(environ), started


def test_a_read_with_no_service_answers_and_starts_one_once_per_cooldown(
    warming: tuple[CliInvoker, list[tuple[str, str]]], settings: Settings
) -> None:
    cli, started = warming
    search = cli("search", "container logs vanish after restart")
    assert search.exit_code == 0 and LESSON in search.output  # answered in-process
    assert started == [(SERVICE_MODULE, "cli:search")]
    stamp = Path(settings.run_dir) / STAMP_NAME
    assert stamp.read_text() == "cli:search"

    assert LESSON in cli("inject", "--skill", "docker", "--task", TASK).output
    assert cli("add", "--skill", "docker", "Prune dangling images weekly").exit_code == 0
    assert len(started) == 1  # a start is under way: the hooks' cooldown holds for the CLI too

    past = time.time() - SPAWN_COOLDOWN - 1
    os.utime(stamp, (past, past))
    assert LESSON in cli("inject", "--skill", "docker", "--task", TASK).output
    assert started[-1] == (SERVICE_MODULE, "cli:inject")


def test_commands_that_need_no_model_start_nothing(
    warming: tuple[CliInvoker, list[tuple[str, str]]],
) -> None:
    cli, started = warming
    for command in (
        ["inject", "--skill", "docker"],  # no task: ranked by HIT and age
        ["show", "--skill", "docker"],
        ["list"],
        ["stats"],
    ):
        assert cli(*command).exit_code == 0, command
    assert started == []


def test_no_service_setting_keeps_the_cli_from_starting_one(
    warming: tuple[CliInvoker, list[tuple[str, str]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    cli, started = warming
    monkeypatch.setenv("SKILL_MEMORY_NO_SERVICE", "1")
    quiet = CliInvoker({**cli.env, "SKILL_MEMORY_NO_SERVICE": "1"})
    assert LESSON in quiet("search", "container logs").output
    assert LESSON in quiet("inject", "--skill", "docker", "--task", TASK).output
    assert quiet("add", "--skill", "docker", "Prune dangling images weekly").exit_code == 0
    assert started == []
    doctor = json.loads(quiet("doctor", "--json").output)
    (finding,) = [item for item in doctor if item["check"] == "service"]
    assert "SKILL_MEMORY_NO_SERVICE=1: the CLI does not" in finding["detail"]


def test_a_service_that_does_not_answer_is_not_doubled(
    warming: tuple[CliInvoker, list[tuple[str, str]]], settings: Settings
) -> None:
    cli, started = warming
    silent = start_silent(settings)
    try:
        assert LESSON in cli("search", "container logs").output
        assert started == []  # it holds the home: a new one would exit at once
    finally:
        end(silent)


# ---- a service in this process ----------------------------------------------------------
class GatedFactory:
    """A retriever factory that loads only once `open` is set (a service still loading)."""

    def __init__(self) -> None:
        self.open = threading.Event()

    def __call__(self, settings: Settings) -> object:
        from fireworks_skill_memory.memory.retrieval.retriever import Retriever

        assert self.open.wait(60), "the test never let the load finish"
        return Retriever(settings, FakeEmbedder())


@pytest.fixture
def in_process_service(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> Iterator[GatedFactory]:
    """`serve` for the test's home in a thread, started by `cli:search` (as the CLI would)."""
    monkeypatch.setenv(STARTED_BY_ENV, "cli:search")
    handlers = list(server.log.handlers)
    factory = GatedFactory()
    thread = threading.Thread(target=server.serve, args=(settings, factory), daemon=True)
    thread.start()
    try:
        wait_for(lambda: client.probe(settings.home).state == "loading", 20, "loading")
        yield factory
    finally:
        factory.open.set()
        client.try_call(settings.home, "shutdown", timeout=1.0)
        thread.join(timeout=30)
        for handler in server.log.handlers[len(handlers) :]:
            server.log.removeHandler(handler)
            handler.close()


def test_a_read_answers_in_process_while_the_service_loads(
    cli: CliInvoker, settings: Settings, in_process_service: GatedFactory
) -> None:
    """A cold read ranks from the markdown and the snapshot in under a second: less than
    waiting for a service that is still loading its model (which it leaves loading)."""
    add_lesson(Store(settings), "docker", LESSON, "Logs", matcher=None)
    result = cli("inject", "--skill", "docker", "--task", TASK)
    assert result.exit_code == 0 and LESSON in result.output
    assert client.probe(settings.home).state == "loading"  # not waited for, not asked


def test_status_and_doctor_say_who_started_the_service(
    cli: CliInvoker, settings: Settings, in_process_service: GatedFactory
) -> None:
    in_process_service.open.set()
    wait_for(lambda: client.probe(settings.home).state == "ready", 20, "ready")
    status = cli("service", "status")
    assert status.exit_code == 0 and "started by the CLI (search)" in status.output
    data = json.loads(cli("service", "status", "--json").output)
    assert (data["started_by"], data["starter"]) == ("cli:search", "cli")
    doctor = json.loads(cli("doctor", "--json").output)
    (finding,) = [item for item in doctor if item["check"] == "service"]
    assert finding["status"] == "ok" and "started by the CLI (search)" in finding["detail"]


def test_who_started_it_reads_the_same_for_every_caller() -> None:
    assert client.started_phrase("hook:PreToolUse:Skill") == "started by a hook (PreToolUse:Skill)"
    assert client.started_phrase("mcp") == "started by the MCP server"
    assert client.started_phrase("cli:service start") == "started by the CLI (service start)"
    assert client.started_phrase("manual") == "started by hand"
    assert client.started_phrase(None).startswith("started directly")
    assert [client.starter(who) for who in ("hook:SessionStart", "mcp", "x", None)] == [
        "hook",
        "mcp",
        "manual",
        None,
    ]


# ---- the real service, from a real CLI process --------------------------------------------
@pytest.mark.real_model
@pytest.mark.slow
def test_a_fresh_shell_search_starts_the_real_service_and_the_next_call_uses_it(
    env: dict[str, str], tmp_path: Path
) -> None:
    quiet = {**env, "AI_MEMORY_HOME": str(tmp_path / "quiet")}
    warm = {k: v for k, v in env.items() if k != "SKILL_MEMORY_NO_SERVICE"}
    for environ in (quiet, warm):
        done = cli_process(quiet | {"AI_MEMORY_HOME": environ["AI_MEMORY_HOME"]}, "add",
                           "--skill", "docker", LESSON)  # fmt: skip
        assert done.returncode == 0, done.stderr
    try:
        first = cli_process(warm, "search", "container logs vanish after restart")
        assert first.returncode == 0 and LESSON in first.stdout
        wait_until(lambda: service_status(warm)[0] == 0, 240, "the started service is ready")
        _, report = service_status(warm)
        assert (report["started_by"], report["starter"]) == ("cli:search", "cli")
        second = cli_process(warm, "inject", "--skill", "docker", "--task", TASK)
        assert second.returncode == 0 and LESSON in second.stdout
        assert [line["by"] for line in injections(Path(warm["AI_MEMORY_HOME"]))] == ["cli"]

        again = cli_process(quiet, "search", "container logs vanish after restart")
        assert again.returncode == 0 and LESSON in again.stdout
        time.sleep(2)  # a start would have taken the home's lock by now
        assert service_status(quiet)[0] == 3  # SKILL_MEMORY_NO_SERVICE=1: none started
    finally:
        cli_process(warm, "service", "stop", "--timeout", "20")
