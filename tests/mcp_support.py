"""A bare MCP client for tests: the MCP server in a subprocess, JSON-RPC lines on stdio.

The server is started as the installers register it (`python -I -m
fireworks_skill_memory.mcpserver`), or with other argv (`skill-memory mcp`, a probe script).

Every line the server writes to stdout must be a JSON-RPC message (`stray` collects any that
is not), so a test using it also checks that stdout carries protocol only.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from fireworks_skill_memory.hooks.mcp_install import SERVER_MODULE
from tests.conftest import REPO

PROTOCOL_VERSION = "2025-06-18"
REGISTERED = (sys.executable, "-I", "-m", SERVER_MODULE)
CLI = (os.path.join(os.path.dirname(sys.executable), "skill-memory"), "mcp")  # console script


class McpProcess:
    """One server process; `request` sends a call and returns its reply (or raises)."""

    def __init__(
        self,
        env: Mapping[str, str],
        args: Sequence[str] = (),
        command: Sequence[str] = REGISTERED,
        cwd: str | os.PathLike[str] = REPO,
    ) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self.process = subprocess.Popen(
            [*command, *args],
            env=dict(env),
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
        )  # fmt: skip
        self.stray: list[str] = []
        self.notifications: list[dict[str, Any]] = []
        self._replies: queue.Queue[dict[str, Any]] = queue.Queue()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace")
            try:
                message = json.loads(line)
            except ValueError:
                self.stray.append(line)
                continue
            if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
                self.stray.append(line)
            elif "id" in message and ("result" in message or "error" in message):
                self._replies.put(message)
            else:
                self.notifications.append(message)

    def send(self, message: Mapping[str, Any]) -> None:
        self.send_line(json.dumps({"jsonrpc": "2.0", **message}))

    def send_line(self, line: str) -> None:
        """One line on the server's stdin, as it is (a bad frame, for instance)."""
        assert self.process.stdin is not None
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def reply(self, timeout: float = 30) -> dict[str, Any]:
        """The next reply the server writes (a result or an error)."""
        try:
            return self._replies.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no reply within {timeout} s") from None

    def request(
        self, method: str, params: Mapping[str, Any] | None = None, timeout: float = 60
    ) -> Any:
        """The `result` of one request (AssertionError on a JSON-RPC error or no answer)."""
        self._next_id += 1
        self.send({"id": self._next_id, "method": method, "params": dict(params or {})})
        reply = self.reply(timeout)
        assert reply["id"] == self._next_id, reply
        if "error" in reply:
            raise AssertionError(f"{method}: {reply['error']}")
        return reply["result"]

    def initialize(self) -> dict[str, Any]:
        result: dict[str, Any] = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "tests", "version": "0"},
            },
        )
        self.send({"method": "notifications/initialized"})
        return result

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """The CallToolResult of one tool call."""
        result: dict[str, Any] = self.request("tools/call", {"name": tool, "arguments": arguments})
        return result

    def close(self) -> str:
        """End the server (stdin closed); its stderr."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace")
        self._stderr.close()
        return text


def keep_service_down(env: Mapping[str, str]) -> None:
    """A fresh spawn stamp (dated an hour ahead): the server then starts no memory service,
    for tests of what it answers without one."""
    run = os.path.join(env["AI_MEMORY_HOME"], "run")
    os.makedirs(run, mode=0o700, exist_ok=True)
    stamp = os.path.join(run, "spawn.stamp")
    with open(stamp, "w", encoding="utf-8") as handle:
        handle.write("test: no service")
    ahead = time.time() + 3600
    os.utime(stamp, (ahead, ahead))


def text_of(result: Mapping[str, Any]) -> str:
    """The text content of a tool result."""
    return "\n".join(part["text"] for part in result["content"] if part.get("type") == "text")
