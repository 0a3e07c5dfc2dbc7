"""The MCP server when the memory service is stopped (SIGSTOP) and continued (issue 26).

Driven from outside, as an agent runs it: the registered server module in a subprocess, the
real service in another. While the service is stopped, a tool that needs it answers within
`--wait` with an error naming the fix, one that does not (list_skills) answers as usual, and
no markdown changes; after SIGCONT the same calls answer normally.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.hook_support import (
    cli,
    service_env,
    service_status,
    start_service,
    stop_process,
    wait_ready,
)
from tests.mcp_support import McpProcess, text_of

SKILL = "deploy-checks"
LESSONS = [
    ("Migrations", "Run the database migrations before switching traffic to the new release"),
    ("DNS", "Lower the DNS TTL a day before moving the service to a new load balancer"),
]
NEW = "Keep the previous release's image for a day so a rollback needs no rebuild"
WAIT = 3.0  # the MCP server's --wait
SLACK = 5.0  # what a loaded 2-CPU machine may add beyond it (a call that waited out the
# service's 20 s operation timeout instead would fail this)

pytestmark = [pytest.mark.real_model, pytest.mark.slow]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[dict[str, str], int]]:
    """A home with two lessons and its warm service; (environment, service pid)."""
    (tmp_path / "user").mkdir()
    env = service_env(tmp_path / "memory", tmp_path / "user")
    store = Store(load_settings(env))
    for tag, text in LESSONS:
        add_lesson(store, SKILL, text, tag, matcher=None)
    process = start_service(env)
    try:
        wait_ready(env, process)
        pid = service_status(env)[1]["pid"]
        yield env, pid
    finally:
        os.kill(pid, signal.SIGCONT)
        cli(env, "service", "stop", "--timeout", "20")
        stop_process(process)


def markdown(home: str) -> dict[str, bytes]:
    return {str(path): path.read_bytes() for path in sorted(Path(home).rglob("*.md"))}


def timed_call(server: McpProcess, tool: str, **arguments: object) -> tuple[dict, float]:  # type: ignore[type-arg]
    started = time.monotonic()
    result = server.call(tool, **arguments)
    return result, time.monotonic() - started


def test_a_stopped_service_gets_an_error_naming_the_fix_then_answers_after_sigcont(
    served: tuple[dict[str, str], int],
) -> None:
    env, pid = served
    server = McpProcess(env, ["--agent", "claude-code", "--wait", str(WAIT)])
    try:
        server.initialize()
        found = server.call("search_lessons", query="switch traffic to the new release")
        assert not found.get("isError") and "database migrations" in text_of(found)
        before = markdown(env["AI_MEMORY_HOME"])

        os.kill(pid, signal.SIGSTOP)
        for tool, arguments in (
            ("search_lessons", {"query": "switch traffic to the new release"}),
            ("lessons_for_skill", {"skill": SKILL, "task": "move to a new load balancer"}),
            ("record_lesson", {"skill": SKILL, "text": NEW, "tag": "Rollback"}),
        ):
            result, elapsed = timed_call(server, tool, **arguments)
            text = text_of(result)
            assert result.get("isError") is True, (tool, text)
            assert f"pid {pid}, stopped" in text and "skill-memory service stop" in text, text
            assert elapsed < WAIT + SLACK, f"{tool}: {elapsed:.1f} s with --wait {WAIT}"
        listed = server.call("list_skills")  # reads the markdown: no service needed
        assert not listed.get("isError") and SKILL in text_of(listed)
        assert markdown(env["AI_MEMORY_HOME"]) == before  # the refused record wrote nothing

        os.kill(pid, signal.SIGCONT)
        found = server.call("search_lessons", query="switch traffic to the new release")
        assert not found.get("isError"), text_of(found)
        assert "database migrations" in text_of(found)
        recorded = server.call("record_lesson", skill=SKILL, text=NEW, tag="Rollback")
        assert not recorded.get("isError"), text_of(recorded)
        assert NEW in (Path(env["AI_MEMORY_HOME"]) / "skills" / SKILL / "KNOWLEDGE.md").read_text()
        assert server.stray == []
    finally:
        server.close()
