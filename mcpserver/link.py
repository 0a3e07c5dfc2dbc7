"""Reaching the warm service from the MCP server: call it, start it when absent, wait briefly.

The MCP process never loads the model: when the service is not ready within `wait` seconds
the call fails with `ServiceStarting` ("try again in a few seconds"), and the service keeps
loading in its own process for the next call.
"""

from __future__ import annotations

import contextlib
import os
import time

from fireworks_skill_memory.hooks.inject_flow import ensure_service
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.service import client

CALL_TIMEOUT = 20.0  # one operation of a ready service (a write may embed and screen)
PROBE_TIMEOUT = 1.0  # a service importing torch may take a moment to answer a ping
POLL = 0.1
DEFAULT_WAIT = 10.0  # s a call waits for a starting service before "try again"
MAX_WAIT = 120.0


class ServiceStarting(Exception):
    """The memory service is still starting; the same call works in a few seconds."""


class ServiceDown(Exception):
    """The memory service failed to load or does not respond (the message says what to do)."""


class RequestRefused(Exception):
    """The memory service refused the request as invalid (the message says why)."""


class ServiceLink:
    """Calls to the service of one memory home, starting it when it is not running."""

    def __init__(self, settings: Settings, wait: float) -> None:
        self.settings = settings
        self.wait = wait

    def warm_up(self) -> None:
        """Start the service now when none runs, so the first tool call finds it loading."""
        if client.probe(self.settings.home, PROBE_TIMEOUT).state == client.NOT_RUNNING:
            ensure_service(self.settings, "mcp")

    def call(self, op: str, payload: dict[str, object]) -> dict[str, object]:
        """The service's answer to `op`; ServiceStarting, ServiceDown or RequestRefused."""
        _reap_children()
        try:
            return self._call(op, payload)
        except client.ServiceUnavailable:
            pass  # absent, loading, stale or busy: find out which, and wait when it helps
        self._await_ready()
        try:
            return self._call(op, payload)
        except client.ServiceUnavailable as error:
            raise ServiceStarting(_starting(f"({error})")) from None

    def _call(self, op: str, payload: dict[str, object]) -> dict[str, object]:
        try:
            return client.call(self.settings.home, op, payload, timeout=CALL_TIMEOUT)
        except client.ServiceRejected as error:
            raise RequestRefused(error.detail) from None

    def _await_ready(self) -> None:
        deadline = time.monotonic() + self.wait
        while True:
            health = client.probe(self.settings.home, PROBE_TIMEOUT)
            if health.state == client.READY:
                return
            if health.state == client.NOT_RUNNING:
                ensure_service(self.settings, "mcp")
            elif health.state == client.FAILED and not health.stale:
                raise ServiceDown(
                    f"the memory service failed to load: {health.error} "
                    "(it retries by itself; `skill-memory doctor` says what is wrong)"
                )
            elif health.state == client.NOT_RESPONDING and health.stopped:
                raise ServiceDown(f"the memory service is {health.detail}")
            if time.monotonic() + POLL >= deadline:
                raise ServiceStarting(_starting(f"({health.state})"))
            time.sleep(POLL)


def _starting(why: str) -> str:
    return f"memory service is starting, try again in a few seconds {why}"


def _reap_children() -> None:
    """Collect a service we started that has since exited (it idles out on its own)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
