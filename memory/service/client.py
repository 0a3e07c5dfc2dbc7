"""Talking to the service from a hook or the CLI, within a time budget. Standard library only.

`call` raises `ServiceUnavailable` for every way the service can fail to answer in time
(no socket, refused, timeout, stale version, error reply), so callers have one thing to
catch before falling back to in-process work. `probe` tells, without side effects, what
state the home's service is in (ready, loading, failed, not responding, not running).
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass, replace

from fireworks_skill_memory.memory.locks import held_elsewhere
from fireworks_skill_memory.memory.service.protocol import (
    LOCK_NAME,
    MAX_MESSAGE,
    PID_NAME,
    STARTED_BY_ENV,
    VERSION,
    decode,
    encode,
    run_dir,
    short_path,
    socket_path,
)

READY = "ready"
LOADING = "loading"
FAILED = "failed"
NOT_RESPONDING = "not_responding"
NOT_RUNNING = "not_running"
STATES = (READY, LOADING, FAILED, NOT_RESPONDING, NOT_RUNNING)
_RETRY_CONNECT = 0.05  # a service that holds the lock binds its socket within milliseconds


class ServiceUnavailable(Exception):
    """The service did not answer usefully within the budget."""


class ServiceRejected(ServiceUnavailable):
    """The service answered, and refused the request as invalid (`detail` says why)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"service error: bad-request: {detail}")
        self.detail = detail


@dataclass(frozen=True)
class ServiceHealth:
    """What `probe` found: the service's state, its pid, why it failed, one line for humans."""

    state: str  # one of STATES
    pid: int | None
    error: str | None
    detail: str
    retry_in: float | None = None  # seconds until a failed service tries to load again
    version: str | None = None
    model_id: str | None = None
    backend: str | None = None  # what embeds in the service: onnx or torch
    uptime: float | None = None
    stopped: bool = False  # the pid is stopped (SIGSTOP / a debugger)
    started_by: str | None = None  # who started it: "hook:<event>", "cli:<command>", "mcp"...

    @property
    def answers(self) -> bool:
        """True when the service answered the ping (ready, loading or failed)."""
        return self.state in (READY, LOADING, FAILED)

    @property
    def stale(self) -> bool:
        """True when the service answered but runs another version of the protocol."""
        return self.version is not None and self.version != VERSION

    def as_json(self) -> dict[str, object]:
        return {
            "state": self.state,
            "running": self.state != NOT_RUNNING,
            "ready": self.state == READY,
            "pid": self.pid,
            "error": self.error,
            "load_error": self.error if self.state == FAILED else None,
            "retry_in": self.retry_in,
            "version": self.version,
            "model_id": self.model_id,
            "backend": self.backend,
            "uptime": self.uptime,
            "stopped": self.stopped,
            "started_by": self.started_by,
            "starter": starter(self.started_by),
            "detail": self.detail,
        }


def call(
    home: str, op: str, payload: dict[str, object] | None = None, timeout: float = 0.15
) -> dict[str, object]:
    """Send one request and return the reply's `result`; ServiceUnavailable otherwise."""
    deadline = time.monotonic() + timeout
    if not os.path.exists(socket_path(home)):
        raise ServiceUnavailable("not running")
    pid = _pid_file(home)
    if pid is not None and is_stopped(pid):  # its socket accepts, and it never answers
        raise ServiceUnavailable(f"stopped (pid {pid})")
    request: dict[str, object] = {"v": VERSION, "op": op, **(payload or {})}
    try:
        reply = _exchange(home, request, deadline)
    except (OSError, ValueError) as error:
        raise ServiceUnavailable(f"{type(error).__name__}: {error}") from None
    if reply.get("ok") is True:
        result = reply.get("result")
        return result if isinstance(result, dict) else {}
    if reply.get("error") == "version":
        _retire_stale(home, timeout=0.05)
        raise ServiceUnavailable(f"stale service {reply.get('server_version')}")
    if reply.get("error") == "bad-request":
        raise ServiceRejected(str(reply.get("detail") or "invalid request"))
    raise ServiceUnavailable(f"service error: {reply.get('error')}")


def try_call(
    home: str, op: str, payload: dict[str, object] | None = None, timeout: float = 0.15
) -> dict[str, object] | None:
    """`call`, with None instead of ServiceUnavailable."""
    try:
        return call(home, op, payload, timeout)
    except ServiceUnavailable:
        return None


def _exchange(home: str, request: dict[str, object], deadline: float) -> dict[str, object]:
    """One request, one reply line (OSError / ValueError when it fails or is late)."""
    with (
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock,
        short_path(socket_path(home)) as address,
    ):
        sock.settimeout(max(0.001, deadline - time.monotonic()))
        sock.connect(address)
        sock.sendall(encode(request))
        return _read_line(sock, deadline)


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


# ---- health -----------------------------------------------------------------------------
def lock_owner(home: str) -> tuple[bool, int | None]:
    """(whether a process holds the home's service lock, its pid when known). Never raises.

    The lock is an flock held for the service's whole life, so "held" means a service process
    is alive (perhaps stopped or hung); the pid is what the owner wrote into the lock file.
    """
    try:
        fd = os.open(os.path.join(run_dir(home), LOCK_NAME), os.O_RDONLY)
    except (OSError, ValueError):  # absent, unreadable, or a path with a NUL byte
        return False, None
    try:
        try:
            # a shared lock for an instant: a service starting at this very moment retries
            if not held_elsewhere(fd):
                return False, None
        except OSError:
            return False, None
        return True, _pid_in(os.pread(fd, 32, 0)) or _pid_file(home)
    except OSError:
        return True, _pid_file(home)
    finally:
        os.close(fd)


def _pid_in(raw: bytes) -> int | None:
    text = raw.decode("ascii", "replace").strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def _pid_file(home: str) -> int | None:
    try:
        with open(os.path.join(run_dir(home), PID_NAME), "rb") as handle:
            return _pid_in(handle.read(32))
    except OSError:
        return None


def is_stopped(pid: int) -> bool:
    """True when `pid` is stopped (SIGSTOP, a debugger); False when unknown (no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False
    # "pid (comm) S ...": the state follows the last parenthesis (comm may hold any bytes)
    fields = stat[stat.rfind(b")") + 1 :].split()
    return bool(fields) and fields[0] in (b"T", b"t")


def probe(home: str, timeout: float = 1.0) -> ServiceHealth:
    """The state of the home's service, found within about `timeout` s; never raises."""
    deadline = time.monotonic() + max(0.05, timeout)
    held, pid = lock_owner(home)
    if not held:
        return ServiceHealth(NOT_RUNNING, None, None, f"not running for {home}")
    if pid is not None and is_stopped(pid):
        return _not_responding(pid, "the process is stopped (SIGSTOP)")
    request: dict[str, object] = {"v": VERSION, "op": "ping"}
    why = "no answer"
    while True:
        try:
            return _health_of(_exchange(home, request, deadline), pid)
        except (FileNotFoundError, ConnectionRefusedError) as error:
            why = f"no socket ({type(error).__name__})"  # binding right now, or hung before
        except (OSError, ValueError) as error:
            why = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            break
        if time.monotonic() + _RETRY_CONNECT >= deadline:
            break
        time.sleep(_RETRY_CONNECT)
    return _not_responding(pid, why)


def _not_responding(pid: int | None, why: str) -> ServiceHealth:
    stopped = pid is not None and is_stopped(pid)
    who = f"pid {pid}, stopped" if stopped else f"pid {pid}" if pid else "pid unknown"
    return ServiceHealth(
        NOT_RESPONDING,
        pid,
        why,
        f"not responding ({who}): `skill-memory service stop` ends it",
        stopped=stopped,
    )


def _health_of(reply: dict[str, object], owner: int | None) -> ServiceHealth:
    if reply.get("error") == "version":
        version = str(reply.get("server_version"))
        stale = f"runs version {version}, not {VERSION}"
        return ServiceHealth(
            FAILED,
            owner,
            stale,
            f"running, failed: {stale} (`skill-memory service start` replaces it)",
            version=version,
        )
    result = reply.get("result")
    info = result if reply.get("ok") is True and isinstance(result, dict) else {}
    pid = _int(info.get("pid")) or owner
    base = ServiceHealth(
        LOADING,
        pid,
        None,
        "",
        version=str(info.get("version") or VERSION),
        model_id=_str(info.get("model_id")),
        backend=_str(info.get("backend")),
        uptime=_float(info.get("uptime")),
        started_by=_str(info.get("started_by")),
    )
    about = f"pid {pid}, up {base.uptime} s, {base.version}, {started_phrase(base.started_by)}"
    error = _str(info.get("load_error"))
    if not info:
        why = f"unexpected reply: {reply.get('error') or reply}"
        return replace(base, state=FAILED, error=why, detail=f"running, failed: {why} ({about})")
    if info.get("ready") is True:
        embeds = f", embeds with {base.backend}" if base.backend else ""
        return replace(base, state=READY, detail=f"running, ready ({about}{embeds})")
    if error:
        retry_in = _float(info.get("retry_in"))
        when = (
            f"retrying in {retry_in:.0f} s"
            if retry_in is not None and retry_in >= 1
            else "retrying now"
        )
        return replace(
            base,
            state=FAILED,
            error=error,
            retry_in=retry_in,
            detail=f"running, failed: {error} ({when}; {about})",
        )
    return replace(base, detail=f"running, loading ({about})")


STARTERS = ("hook", "cli", "mcp")


def starter(started_by: str | None) -> str | None:
    """What kind of caller started the service: hook, cli, mcp, manual (None: not known)."""
    if not started_by:
        return None
    kind = started_by.split(":", 1)[0]
    return kind if kind in STARTERS else "manual"


def started_phrase(started_by: str | None) -> str:
    """`started by the CLI (search)`, for status lines."""
    kind = starter(started_by)
    if kind is None:
        return "started directly (`skill-memory serve` or the entry point)"
    detail = started_by.split(":", 1)[1] if started_by and ":" in started_by else ""
    who = {"hook": "a hook", "cli": "the CLI", "mcp": "the MCP server"}.get(kind, "hand")
    return f"started by {who}" + (f" ({detail})" if detail else "")


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def start_detached(
    home: str, module: str, python: str | None = None, started_by: str = ""
) -> int | None:
    """Spawn the service entry point `module` for this home, detached; its pid or None.

    `started_by` says who asked (see `STARTED_BY_ENV`); the service's ping reports it.
    """
    from fireworks_skill_memory.memory.service.spawn import spawn_module

    os.makedirs(run_dir(home), mode=0o700, exist_ok=True)
    env = dict(os.environ)
    env["AI_MEMORY_HOME"] = home
    env[STARTED_BY_ENV] = started_by or "manual"
    return spawn_module(module, [], env, os.path.join(home, "logs", "service.out"), python)
