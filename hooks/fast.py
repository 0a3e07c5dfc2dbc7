"""The hot path of every hook: hand the raw payload to the warm service, print its answer.

Imports only `os`, `sys`, `time`, the C `_socket` module and three small standard-library-only
modules of ours: `memory.config` (the memory home and `SKILL_MEMORY_HOOK_BUDGET_MS`, resolved
in that one place) with `memory.errors`, and `memory.service.protocol`; no json, no re, no
enum (tests/test_light_imports.py checks the in-process path likewise). The payload bytes
go to the service unparsed, with this hook's settings (`HOOK` frame, see
memory.service.protocol); the service runs the hook's handler with its warm ranker and these
settings and returns the exact stdout. When the service does not answer within the budget
(down, warming, stale, slow, or serving other folders: `ERR settings`), the hook's own
handler runs in this process with the lexical ranker (`hooks.runtime`).

Whatever happens, `run` returns 0 and prints nothing but a whole answer: every failure,
even one while logging the failure, ends in its outermost guard.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

    from fireworks_skill_memory.hooks.runtime import Body

# How a forward went (`exchange`): "ok", "absent" (no socket or refused), "warming", "late",
# "version", "settings", "error". A hook starts a service only when none seems to be there.
SERVICE_ALIVE = frozenset({"ok", "warming", "late", "settings"})

MAX_PAYLOAD = 8 * 1024 * 1024
MAX_REPLY = 1024 * 1024


def forward(
    event: str, payload: bytes, memory_home: str, budget: float, settings: str = ""
) -> bytes | None:
    """The service's stdout bytes for this hook call, or None when it did not answer in time.

    `settings` is the hook's `protocol.settings_text` ("": answer with the service's own).
    """
    return exchange(event, payload, memory_home, budget, settings)[1]


def exchange(
    event: str, payload: bytes, memory_home: str, budget: float, settings: str = ""
) -> tuple[str, bytes | None]:
    """How the forward went (see SERVICE_ALIVE) and the service's stdout bytes (None: the
    service did not answer in time)."""
    import _socket

    from fireworks_skill_memory.memory.service.protocol import SOCKET_NAME, VERSION, short_path

    path = os.path.join(memory_home, "run", SOCKET_NAME)
    frame = settings.encode("utf-8", "surrogateescape")
    deadline = time.monotonic() + budget
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    status = "absent"
    try:
        with short_path(path) as address:
            sock.settimeout(budget)
            sock.connect(address)
        status = "late"
        header = f"HOOK {VERSION} {event} {len(payload)} {int(budget * 1000)} {len(frame)}\n"
        sock.sendall(header.encode() + frame + payload)
        reply = b""
        while b"\n" not in reply:
            chunk = _recv(sock, deadline)
            if not chunk:
                return status, None
            reply += chunk
        line, _, rest = reply.partition(b"\n")
        parts = line.split()
        if parts[:1] == [b"ERR"]:
            status = parts[1].decode(errors="replace") if len(parts) > 1 else "error"
            if status == "version":
                _retire(path)
            return status, None
        if len(parts) != 2 or parts[0] != b"OK" or not parts[1].isdigit():
            return "error", None
        size = int(parts[1])
        if size > MAX_REPLY:
            return status, None
        while len(rest) < size:
            chunk = _recv(sock, deadline)
            if not chunk:
                return status, None
            rest += chunk
        return "ok", rest[:size]
    except OSError:
        return status, None
    finally:
        sock.close()


def _retire(path: str) -> None:
    """Ask a service of another version to exit, so the next start brings the current one."""
    import _socket

    from fireworks_skill_memory.memory.service.protocol import short_path

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(0.05)
        with short_path(path) as address:
            sock.connect(address)
        sock.sendall(b"STOP\n")
    except OSError:
        pass  # already gone
    finally:
        sock.close()


def _recv(sock: Any, deadline: float) -> bytes:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError("hook budget spent")
    sock.settimeout(remaining)
    data: bytes = sock.recv(65536)
    return data


def emit(stdout: IO[str], data: bytes) -> None:
    """Write a hook's whole answer: UTF-8 bytes, whatever the locale's encoding."""
    buffer = getattr(stdout, "buffer", None)
    if buffer is None:  # an in-memory stream (tests)
        stdout.write(data.decode("utf-8", "replace"))
        stdout.flush()
        return
    stdout.flush()
    buffer.write(data)
    buffer.flush()


def run(
    event: str, handle: Body, stdin: IO[str], stdout: IO[str], forward_to_service: bool = True
) -> int:
    """A hook's main: forward to the service, else handle in-process. Always returns 0."""
    try:
        buffer = getattr(stdin, "buffer", None)
        raw = (
            buffer.read(MAX_PAYLOAD + 1)
            if buffer is not None
            else stdin.read(MAX_PAYLOAD + 1).encode()
        )
        if len(raw) > MAX_PAYLOAD:
            return 0
        from fireworks_skill_memory.memory.config import load_settings

        settings = load_settings()
        status = ""  # not asked
        if forward_to_service:
            from fireworks_skill_memory.memory.service.protocol import settings_text

            budget = settings.hook_budget_ms / 1000.0
            status, reply = exchange(event, raw, settings.home, budget, settings_text(settings))
            if reply is not None:
                if reply:
                    emit(stdout, reply)
                return 0
        from fireworks_skill_memory.hooks.runtime import run_payload

        return run_payload(event, handle, raw, stdout, settings, status)
    except BaseException as error:  # noqa: BLE001 - a hook must never break the agent
        if not isinstance(error, KeyboardInterrupt):
            _report(event)
        return 0


def _report(event: str) -> None:
    """Log the exception being handled; when even that fails, there is nowhere left to tell."""
    try:
        from fireworks_skill_memory.hooks.runtime import log_failure

        log_failure(event)
    except BaseException:  # noqa: BLE001 - the hook's exit must not depend on its log
        return


def main_for(event: str, handle: Body, forward_to_service: bool = True) -> Any:
    """`main(stdin, stdout) -> int` for a hook module (in-process only when not forwarding)."""

    def main(stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
        return run(event, handle, stdin, stdout, forward_to_service)

    return main
