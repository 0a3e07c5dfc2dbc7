"""The warm service (started as `python -m hooks.service_main` or `skill-memory serve`).

One process per memory home (an flock on `run/service.lock`), listening on the Unix
socket `run/service.sock` (folder 0700, socket 0600). It binds first and loads the model
and the index in a background thread, answering `ping` at once and `warming` to work
requests until then, so a hook never waits for a model load. It exits after
`SKILL_MEMORY_SERVICE_IDLE` seconds without requests.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import signal
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from memory.config import Settings
from memory.errors import SkillMemoryError
from memory.service.protocol import (
    LOCK_NAME,
    MAX_MESSAGE,
    PID_NAME,
    VERSION,
    decode,
    encode,
    run_dir,
    short_path,
    socket_path,
)

log = logging.getLogger("skill-memory.service")
PRUNE_SESSIONS_DAYS = 14


class WarmingUp(Exception):
    """The model and index are still loading."""


class Service:
    """Request handling: holds the retriever once it is loaded."""

    def __init__(
        self,
        settings: Settings,
        retriever_factory: Callable[[Settings], Any] | None = None,
        hook_handler: HookHandler | None = None,
    ) -> None:
        self.settings = settings
        self.hook_handler = hook_handler
        self.started = time.time()
        self.last_request = time.monotonic()
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self.load_error: str | None = None
        self._work = threading.Lock()
        self._retriever: Any = None
        self._matcher: Any = None
        self._factory = retriever_factory

    # ---- warm-up --------------------------------------------------------------------------
    def warm_up(self) -> None:
        """Load the embedder, open and sync the index (runs in a background thread)."""
        try:
            if self._factory is not None:
                retriever = self._factory(self.settings)
            else:
                from memory.retrieve import Retriever

                retriever = Retriever(self.settings)
            retriever.embedder.embed_batch(["warm up"])
            retriever.memory.sync(None)
            for info in retriever.store.skills():  # fill the per-skill caches before any hook asks
                retriever.candidates(info.skill)
            retriever.candidates(None)
            from memory.dedup import SemanticMatcher

            self._matcher = SemanticMatcher(retriever.embedder)
            self._retriever = retriever
            self.ready.set()
            log.info("ready in %.1f s", time.time() - self.started)
        except Exception as error:  # reported to clients and logged with its traceback
            self.load_error = f"{type(error).__name__}: {error}"
            log.exception("warm-up failed")

    # ---- requests -------------------------------------------------------------------------
    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (the reply envelope is added by the transport)."""
        self.last_request = time.monotonic()
        op = request.get("op")
        if op == "shutdown":
            self.stopping.set()
            return {"stopping": True}
        if request.get("v") != VERSION:
            raise VersionMismatch(str(request.get("v")))
        if op == "ping":
            return self.ping()
        handler = _OPS.get(str(op))
        if handler is None:
            raise ValueError(f"unknown op {op!r}")
        retriever = self._retriever_or_raise()
        with self._work:
            result: dict[str, Any] = handler(self, retriever, request)
            return result

    def hook(self, event: str, payload: bytes, deadline: float) -> bytes:
        """Run a forwarded hook call; its stdout bytes (WarmingUp until the model is loaded)."""
        self.last_request = time.monotonic()
        if self.hook_handler is None:
            raise ValueError("this service does not run hooks")
        self._retriever_or_raise()
        with self._work:
            if time.monotonic() > deadline:
                raise TimeoutError("the hook gave up waiting")
            out: bytes = self.hook_handler(self, event, payload)
            return out

    @property
    def retriever(self) -> Any:
        """The warm retriever (WarmingUp until it is loaded)."""
        return self._retriever_or_raise()

    def ping(self) -> dict[str, Any]:
        retriever = self._retriever
        return {
            "model_id": retriever.embedder.model_id if retriever is not None else None,
            "dimension": retriever.embedder.dimension if retriever is not None else None,
            "version": VERSION,
            "pid": os.getpid(),
            "home": self.settings.home,
            "ready": self.ready.is_set(),
            "load_error": self.load_error,
            "uptime": round(time.time() - self.started, 1),
        }

    def _retriever_or_raise(self) -> Any:
        if self._retriever is None:
            raise WarmingUp(self.load_error or "warming up")
        return self._retriever

    def idle_for(self) -> float:
        return time.monotonic() - self.last_request


HookHandler = Callable[["Service", str, bytes], bytes]


class VersionMismatch(Exception):
    """The client speaks another version of the protocol."""


def _op_inject(service: Service, retriever: Any, request: dict[str, Any]) -> dict[str, Any]:
    from memory.skill_names import validate_skill
    from memory.usage import record_injection

    skill = validate_skill(str(request.get("skill", "")))
    task = request.get("task")
    top = request.get("top")
    injection = retriever.inject(
        skill,
        task if isinstance(task, str) else None,
        top=top if isinstance(top, int) and top > 0 else None,
        include_global=bool(request.get("include_global", True)),
    )
    if request.get("record", False):
        ids = [hit.lesson.id for hit in [*injection.hits, *injection.global_hits]]
        record_injection(service.settings, skill, ids, str(request.get("by", "service")))
    result: dict[str, Any] = injection.as_json()
    return result


def _op_search(service: Service, retriever: Any, request: dict[str, Any]) -> dict[str, Any]:
    from memory.skill_names import validate_skill

    skill = request.get("skill")
    top = request.get("top")
    hits = retriever.search(
        str(request.get("query", "")),
        skill=validate_skill(skill) if isinstance(skill, str) else None,
        top=top if isinstance(top, int) and top > 0 else 10,
    )
    return {"results": [hit.as_json() for hit in hits]}


def _op_add(service: Service, retriever: Any, request: dict[str, Any]) -> dict[str, Any]:
    from memory.skill_names import validate_skill

    skill = request.get("skill")
    scope = validate_skill(skill) if isinstance(skill, str) else None
    tag = request.get("tag")
    outcome = retriever.store.add(
        scope,
        str(request.get("text", "")),
        tag if isinstance(tag, str) else None,
        matcher=service._matcher,
        dry_run=bool(request.get("dry_run", False)),
    )
    result: dict[str, Any] = outcome.as_json()
    return result


def _op_sync(service: Service, retriever: Any, request: dict[str, Any]) -> dict[str, Any]:
    scopes = request.get("scopes")
    report = retriever.memory.sync(scopes if isinstance(scopes, list) else None)
    return {"rows": report.rows, "embedded": report.embedded, "files": report.files_changed}


def _op_reindex(service: Service, retriever: Any, request: dict[str, Any]) -> dict[str, Any]:
    report = retriever.memory.reindex()
    retriever.forget_caches()
    return {"rows": report.rows, "embedded": report.embedded, "files": report.files_changed}


def _op_vectors(service: Service, retriever: Any, request: dict[str, Any]) -> dict[str, Any]:
    texts = request.get("texts")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ValueError("vectors needs a list of strings")
    return {"vectors": retriever.embedder.embed_batch(texts).tolist()}


def _op_embed(service: Service, retriever: Any, request: dict[str, Any]) -> dict[str, Any]:
    task = request.get("task")
    if isinstance(task, str) and task.strip():
        retriever.task_vector(task)
    return {}


_OPS: dict[str, Callable[[Service, Any, dict[str, Any]], dict[str, Any]]] = {
    "inject": _op_inject,
    "search": _op_search,
    "add": _op_add,
    "sync": _op_sync,
    "reindex": _op_reindex,
    "vectors": _op_vectors,
    "embed": _op_embed,
}


# ---- transport -------------------------------------------------------------------------
class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        line = self.rfile.readline(MAX_MESSAGE + 1)
        if not line:
            return
        if line.startswith(b"HOOK "):
            self._hook(line)
            return
        if line == b"STOP\n":
            self.server.service.stopping.set()
            return
        try:
            request = decode(line)
            reply: dict[str, Any] = {"ok": True, "result": self.server.service.handle(request)}
        except VersionMismatch:
            reply = {"ok": False, "error": "version", "server_version": VERSION}
        except WarmingUp as error:
            reply = {"ok": False, "error": "warming", "detail": str(error)}
        except (SkillMemoryError, ValueError, TypeError) as error:
            reply = {"ok": False, "error": "bad-request", "detail": str(error)}
        except Exception as error:  # one bad request must not kill the service
            log.exception("request failed")
            reply = {"ok": False, "error": "internal", "detail": f"{type(error).__name__}: {error}"}
        with contextlib.suppress(OSError):
            self.wfile.write(encode(reply))

    def _hook(self, header: bytes) -> None:
        """`HOOK <version> <event> <size> <budget ms>` + payload -> `OK <n>` + stdout bytes."""
        arrived = time.monotonic()
        service = self.server.service
        parts = header.split()
        try:
            if len(parts) != 5 or parts[1].decode() != VERSION:
                raise VersionMismatch(parts[1].decode(errors="replace") if len(parts) > 1 else "")
            size, budget_ms = int(parts[3]), int(parts[4])
            if size > MAX_MESSAGE:
                raise ValueError("payload too large")
            payload = self.rfile.read(size)
            out = service.hook(parts[2].decode(), payload, arrived + budget_ms / 1000.0)
            reply = b"OK %d\n" % len(out) + out
        except VersionMismatch:
            reply = b"ERR version\n"
        except WarmingUp:
            reply = b"ERR warming\n"
        except TimeoutError:
            reply = b"ERR late\n"
        except Exception:  # the hook process then runs the handler itself and logs what fails
            log.exception("hook %s failed in the service", parts[2:3])
            reply = b"ERR internal\n"
        with contextlib.suppress(OSError):
            self.wfile.write(reply)


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, path: str, service: Service) -> None:
        self.service = service
        super().__init__(path, _Handler)


@contextlib.contextmanager
def single_instance(home: str) -> Iterator[bool]:
    """Hold the home's service lock; yields False when another service holds it."""
    folder = run_dir(home)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def _setup_logging(settings: Settings) -> None:
    os.makedirs(settings.log_dir, exist_ok=True)
    handler = logging.FileHandler(os.path.join(settings.log_dir, "service.log"))
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)


def _prune_sessions(settings: Settings) -> None:
    """Remove per-session hook state older than PRUNE_SESSIONS_DAYS."""
    import shutil

    cutoff = time.time() - PRUNE_SESSIONS_DAYS * 86400
    try:
        entries = list(os.scandir(settings.sessions_dir))
    except FileNotFoundError:
        return
    for entry in entries:
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False) and entry.stat().st_mtime < cutoff:
                shutil.rmtree(entry.path, ignore_errors=True)


def serve(
    settings: Settings,
    retriever_factory: Callable[[Settings], Any] | None = None,
    hook_handler: HookHandler | None = None,
) -> int:
    """Run the service in the foreground until idle, `shutdown` or a signal; 0 when it ran."""
    _setup_logging(settings)
    with single_instance(settings.home) as owner:
        if not owner:
            log.info("another service owns %s; exiting", settings.home)
            return 0
        path = socket_path(settings.home)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # left by a service that died; we hold the lock, so it is stale
        old_umask = os.umask(0o177)
        try:
            with short_path(path) as address:
                server = _Server(address, Service(settings, retriever_factory, hook_handler))
        finally:
            os.umask(old_umask)
        service = server.service
        with open(os.path.join(run_dir(settings.home), PID_NAME), "w") as handle:
            handle.write(str(os.getpid()))
        log.info("listening on %s (version %s)", path, VERSION)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: service.stopping.set())
        threading.Thread(target=service.warm_up, name="warm-up", daemon=True).start()
        threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True
        ).start()
        _prune_sessions(settings)
        try:
            while not service.stopping.wait(1.0):
                if service.idle_for() > settings.service_idle:
                    log.info("idle for %d s; exiting", settings.service_idle)
                    break
        except KeyboardInterrupt:
            pass
        finally:
            server.shutdown()
            server.server_close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(run_dir(settings.home), PID_NAME))
            log.info("stopped")
    return 0
