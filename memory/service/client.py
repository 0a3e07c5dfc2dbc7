"""Talking to the service from a hook or the CLI, within a time budget. Standard library only.

`call` raises `ServiceUnavailable` for every way the service can fail to answer in time
(no socket, refused, timeout, stale version, error reply), so callers have one thing to
catch before falling back to in-process work.
"""

from __future__ import annotations

import os
import socket
import time

from memory.service.protocol import (
    MAX_MESSAGE,
    VERSION,
    decode,
    encode,
    run_dir,
    short_path,
    socket_path,
)


class ServiceUnavailable(Exception):
    """The service did not answer usefully within the budget."""


def call(
    home: str, op: str, payload: dict[str, object] | None = None, timeout: float = 0.15
) -> dict[str, object]:
    """Send one request and return the reply's `result`; ServiceUnavailable otherwise."""
    deadline = time.monotonic() + timeout
    path = socket_path(home)
    if not os.path.exists(path):
        raise ServiceUnavailable("not running")
    request: dict[str, object] = {"v": VERSION, "op": op, **(payload or {})}
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock, short_path(path) as address:
            sock.settimeout(max(0.001, deadline - time.monotonic()))
            sock.connect(address)
            sock.sendall(encode(request))
            reply = _read_line(sock, deadline)
    except (OSError, ValueError) as error:
        raise ServiceUnavailable(f"{type(error).__name__}: {error}") from None
    if reply.get("ok") is True:
        result = reply.get("result")
        return result if isinstance(result, dict) else {}
    if reply.get("error") == "version":
        _retire_stale(home, timeout=0.05)
        raise ServiceUnavailable(f"stale service {reply.get('server_version')}")
    raise ServiceUnavailable(f"service error: {reply.get('error')}")


def try_call(
    home: str, op: str, payload: dict[str, object] | None = None, timeout: float = 0.15
) -> dict[str, object] | None:
    """`call`, with None instead of ServiceUnavailable."""
    try:
        return call(home, op, payload, timeout)
    except ServiceUnavailable:
        return None


def _read_line(sock: socket.socket, deadline: float) -> dict[str, object]:
    chunks: list[bytes] = []
    size = 0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("service reply timed out")
        sock.settimeout(remaining)
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("service closed the connection")
        chunks.append(chunk)
        size += len(chunk)
        if chunk.endswith(b"\n"):
            return decode(b"".join(chunks))
        if size > MAX_MESSAGE:
            raise ValueError("service reply too large")


def _retire_stale(home: str, timeout: float) -> None:
    # A server from another version only honours "shutdown"; it exits and a fresh one starts.
    try:
        with (
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock,
            short_path(socket_path(home)) as address,
        ):
            sock.settimeout(timeout)
            sock.connect(address)
            sock.sendall(encode({"v": VERSION, "op": "shutdown"}))
    except OSError:
        pass  # it may already be gone; starting a new one is the caller's next step


def start_detached(home: str, module: str, python: str | None = None) -> int | None:
    """Spawn the service entry point `module` for this home, detached; its pid or None."""
    from memory.spawn import spawn_module

    os.makedirs(run_dir(home), mode=0o700, exist_ok=True)
    env = dict(os.environ)
    env["AI_MEMORY_HOME"] = home
    return spawn_module(module, [], env, os.path.join(home, "logs", "service.out"), python)
