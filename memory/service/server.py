"""The warm service (started as `python -m fireworks_skill_memory.cli.service_main`, which
plugs in the hooks' handlers, or `skill-memory serve`).

One process per memory home (an flock on `run/service.lock`), listening on the Unix
socket `run/service.sock` (folder 0700, socket 0600). It binds first and loads the model
and the index in a background thread, answering `ping` at once and `warming` to work
requests until then, so a hook never waits for a model load. A failed load is retried on
a backoff, and at once when the index or the model file changes, so a repaired home heals
without a restart. It exits after `SKILL_MEMORY_SERVICE_IDLE` seconds without requests.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import SkillMemoryError
from fireworks_skill_memory.memory.locks import try_exclusive
from fireworks_skill_memory.memory.service.protocol import (
    LOCK_NAME,
    MAX_MESSAGE,
    PID_NAME,
    STARTED_BY_ENV,
    VERSION,
    caller_settings,
    decode,
    encode,
    run_dir,
    short_path,
    socket_path,
)

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.memory.ingest import LessonScreen
    from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
    from fireworks_skill_memory.memory.retrieval.ranking import Features
    from fireworks_skill_memory.memory.retrieval.records import Hit, Injection
    from fireworks_skill_memory.memory.retrieval.retriever import ScopeCandidates, Task
    from fireworks_skill_memory.memory.store.markdown_store import Matcher, Store
    from fireworks_skill_memory.models.embedders import EmbeddingModel

log = logging.getLogger("skill-memory.service")
PRUNE_SESSIONS_DAYS = 14
RETRY_FIRST = 1.0  # seconds before the first retry of a failed load; doubles up to RETRY_MAX
RETRY_MAX = 60.0
WATCH_INTERVAL = 1.0  # how often a failed service looks for a repaired index or model
LOCK_RETRY = 1.0  # a probe holds the lock for an instant; a starting service waits that out
CALLERS_KEPT = 16  # distinct callers' settings kept resolved
# An exit while the loader is inside a native library (importing torch or onnxruntime, an
# ONNX export) aborts the interpreter at shutdown (SIGABRT): a stopping service lets a load
# under way finish first, for at most this long.
LOADER_GRACE = 120.0


class WarmingUp(Exception):
    """The model and index are still loading."""


class SettingsRefused(Exception):
    """The caller's folders or model are not this service's: it cannot answer for them."""


class ServiceRetriever(Protocol):
    """What the service needs of a retriever (`memory.retrieval.retriever.Retriever` is one)."""

    @property
    def embedder(self) -> EmbeddingModel: ...

    @property
    def store(self) -> Store: ...

    @property
    def memory(self) -> MemoryIndex: ...

    def refresh(self) -> None: ...

    def candidates(self, skill: str | None) -> ScopeCandidates: ...

    def query_features(self, candidates: ScopeCandidates, task: Task) -> Features | None: ...

    def forget_caches(self) -> None: ...

    def task_vector(self, task: Task) -> np.ndarray: ...

    def pin_vectors(self, vectors: dict[str, np.ndarray]) -> None: ...

    def inject(
        self,
        skill: str,
        task: Task | None,
        *,
        top: int | None = None,
        include_global: bool = True,
        settings: Settings | None = None,
    ) -> Injection: ...

    def search(
        self,
        query: str,
        *,
        skill: str | None = None,
        top: int = 10,
        gated: bool = False,
        settings: Settings | None = None,
    ) -> list[Hit]: ...


RetrieverFactory = Callable[[Settings], ServiceRetriever]


def _rules_screen() -> LessonScreen:
    from fireworks_skill_memory.memory.screen.screen import RULES_SCREEN

    return RULES_SCREEN


class Service:
    """Request handling: holds the retriever once it is loaded, and keeps trying until it is."""

    def __init__(
        self,
        settings: Settings,
        retriever_factory: RetrieverFactory | None = None,
        hook_handler: HookHandler | None = None,
    ) -> None:
        self.settings = settings
        self.hook_handler = hook_handler
        self.started = time.time()
        self.last_request = time.monotonic()
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self.glossary_ready = threading.Event()  # failures embed no family explanation
        self.load_error: str | None = None
        self.attempts = 0
        self._next_attempt: float | None = None
        self._retry_now = threading.Event()
        self._work = threading.Lock()
        self._retriever: ServiceRetriever | None = None
        self._embedder: EmbeddingModel | None = None  # kept across attempts once it loaded
        self._matcher: Matcher | None = None
        self._screen: LessonScreen = _rules_screen()  # until the model loads
        self._factory = retriever_factory
        self._callers: dict[str, Settings | None] = {}

    # ---- loading --------------------------------------------------------------------------
    def keep_loading(self) -> None:
        """Load until it works (background thread): retry on a backoff, at once on a change.

        A change is a new index generation or model file (`watched_state`), or a nudge
        (`retry` op); either resets the backoff.
        """
        delay = RETRY_FIRST
        while not self.stopping.is_set():
            self.attempts += 1
            if self._load(retry_after=delay):
                self._next_attempt = None
                if not self.stopping.is_set():
                    self._pin_glossary()
                return
            # taken after the attempt, so what the attempt itself wrote is no "change"
            changed = self._wait_for_retry(watched_state(self.settings))
            delay = RETRY_FIRST if changed else min(delay * 2, RETRY_MAX)

    def _pin_glossary(self) -> None:
        """Read (or embed once) the failure glossary's explanations, so no failure waits on them."""
        from fireworks_skill_memory.memory.retrieval.glossary.vectors import explanation_vectors

        retriever = self._retriever
        if retriever is None:
            return
        started = time.monotonic()
        try:
            retriever.pin_vectors(explanation_vectors(self.settings, retriever.embedder))
        except Exception:  # failures then embed the explanations they need on use
            log.exception("the glossary vectors could not be prepared")
            return
        self.glossary_ready.set()
        log.info("glossary vectors ready in %.1f s", time.monotonic() - started)

    def _wait_for_retry(self, seen: tuple[object, ...]) -> bool:
        """Wait for the next attempt; True when a change or a nudge cut the wait short."""
        while not self.stopping.is_set():
            due = self._next_attempt
            remaining = (due - time.monotonic()) if due is not None else 0.0
            if remaining <= 0:
                return False
            if self._retry_now.wait(min(WATCH_INTERVAL, remaining)):
                self._retry_now.clear()
                self._next_attempt = time.monotonic()
                log.info("asked to retry loading now")
                return True
            if watched_state(self.settings) != seen:
                self._next_attempt = time.monotonic()
                log.info("the index or the model changed; retrying the load now")
                return True
        return False

    def _load(self, retry_after: float) -> bool:
        """One attempt to load the embedder and open and sync the index; True when ready.

        A failure schedules the next attempt `retry_after` s ahead (before it is reported,
        so a ping never sees a failure without its retry time).
        """
        try:
            retriever = self._new_retriever()
            retriever.embedder.embed_batch(["warm up"])
            self._embedder = retriever.embedder
            retriever.refresh()  # repairs a damaged index; a read-only one is no failure
            for info in retriever.store.skills():  # fill the per-skill caches before any hook asks
                retriever.candidates(info.skill)
            retriever.candidates(None)
            from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher
            from fireworks_skill_memory.memory.screen.screen import screen_for

            self._matcher = SemanticMatcher(retriever.embedder)
            self._screen = screen_for(self.settings, retriever.embedder)
            self._retriever = retriever
            self.load_error = None
            self.ready.set()
            log.info("ready in %.1f s (attempt %d)", time.time() - self.started, self.attempts)
            return True
        except Exception as error:  # reported to clients and logged; the next attempt may work
            self._next_attempt = time.monotonic() + retry_after
            self.load_error = f"{type(error).__name__}: {error}"
            if self.attempts == 1:
                log.exception("load failed; retrying")
            else:
                log.warning("load attempt %d failed: %s", self.attempts, self.load_error)
            return False

    def _new_retriever(self) -> ServiceRetriever:
        if self._factory is not None:
            return self._factory(self.settings)
        from fireworks_skill_memory.memory.retrieval.retriever import Retriever

        return Retriever(self.settings, self._embedder)

    def retry_now(self) -> dict[str, Any]:
        """Cut a failed service's backoff short (`service start` nudges a failed service)."""
        if not self.ready.is_set():
            self._retry_now.set()
        return {"retrying": not self.ready.is_set()}

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
        if op == "retry":
            return self.retry_now()
        handler = _OPS.get(str(op))
        if handler is None:
            raise ValueError(f"unknown op {op!r}")
        retriever = self._retriever_or_raise()
        with self._work:
            result: dict[str, Any] = handler(self, retriever, request)
            return result

    def hook(self, event: str, payload: bytes, deadline: float, settings: str = "") -> bytes:
        """Run a forwarded hook call with the hook's `settings` (`protocol.settings_text`);
        its stdout bytes (WarmingUp until the model is loaded)."""
        self.last_request = time.monotonic()
        if self.hook_handler is None:
            raise ValueError("this service does not run hooks")
        caller = self.caller_settings(settings)
        self._retriever_or_raise()
        with self._work:
            if time.monotonic() > deadline:
                raise TimeoutError("the hook gave up waiting")
            out: bytes = self.hook_handler(self, event, payload, caller)
            return out

    def caller_settings(self, text: object) -> Settings:
        """The settings to answer a request with (`protocol.caller_settings`); SettingsRefused
        when the caller's folders or model are not this service's."""
        key = text if isinstance(text, str) else ""
        if key not in self._callers:
            if len(self._callers) >= CALLERS_KEPT:
                self._callers.clear()
            self._callers[key] = caller_settings(self.settings, key)
        found = self._callers[key]
        if found is None:
            raise SettingsRefused("the caller's memory folders or model differ from the service's")
        return found

    @property
    def retriever(self) -> ServiceRetriever:
        """The warm retriever (WarmingUp until it is loaded)."""
        return self._retriever_or_raise()

    def state(self) -> str:
        """The load state: ready, failed (the last attempt failed; another is due) or loading."""
        if self.ready.is_set():
            return "ready"
        return "failed" if self.load_error else "loading"

    def ping(self) -> dict[str, Any]:
        retriever = self._retriever
        due = self._next_attempt
        return {
            "model_id": retriever.embedder.model_id if retriever is not None else None,
            "dimension": retriever.embedder.dimension if retriever is not None else None,
            "backend": retriever.embedder.backend if retriever is not None else None,
            "version": VERSION,
            "pid": os.getpid(),
            "home": self.settings.home,
            "state": self.state(),
            "ready": self.ready.is_set(),
            "glossary_ready": self.glossary_ready.is_set(),
            "load_error": None if self.ready.is_set() else self.load_error,
            "retry_in": round(max(0.0, due - time.monotonic()), 1) if due is not None else None,
            "attempts": self.attempts,
            "uptime": round(time.time() - self.started, 1),
            "started_by": os.environ.get(STARTED_BY_ENV) or None,
        }

    def _retriever_or_raise(self) -> ServiceRetriever:
        if self._retriever is None:
            raise WarmingUp(self.load_error or "warming up")
        return self._retriever

    def idle_for(self) -> float:
        return time.monotonic() - self.last_request


def watched_state(settings: Settings) -> tuple[object, ...]:
    """Cheap fingerprints of what a failed load depends on: the index's generation, the model.

    Stats only (no reads): the index folder, its table folder, manifests and sync state,
    and the model folder, its parent (a restored folder) and its weights.
    """
    from fireworks_skill_memory.index.table import STATE_FILE, TABLE

    index = settings.index_dir
    table = os.path.join(index, f"{TABLE}.lance")
    paths = [
        index,
        os.path.join(index, STATE_FILE),
        table,
        os.path.join(table, "_versions"),
        os.path.join(table, "_versions", "latest_version_hint.json"),
    ]
    model = _model_folder(settings.embed_model)
    if model is not None:
        paths += [
            os.path.dirname(model),
            model,
            *(os.path.join(model, name) for name in MODEL_FILES),
        ]
    return tuple(_stat_key(path) for path in paths)


MODEL_FILES = ("config.json", "model.safetensors", "pytorch_model.bin", "modules.json")


def _model_folder(name: str) -> str | None:
    """The folder the model loads from (None when the bundled model is not installed)."""
    from fireworks_skill_memory.models.bundled import bundled_model_dir, is_default_model
    from fireworks_skill_memory.models.errors import ModelUnavailable

    if is_default_model(name):
        try:
            return bundled_model_dir()
        except ModelUnavailable:
            return None
    return os.path.abspath(os.path.expanduser(name))  # a hub name: stats of nothing, cheap


def _stat_key(path: str) -> tuple[int, int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


HookHandler = Callable[["Service", str, bytes, Settings], bytes]
"""Runs a forwarded hook call (service, event, payload, the hook's settings) -> its stdout."""


class VersionMismatch(Exception):
    """The client speaks another version of the protocol."""


def _op_inject(
    service: Service, retriever: ServiceRetriever, request: dict[str, Any]
) -> dict[str, Any]:
    from fireworks_skill_memory.memory.retrieval.usage import inject_and_record
    from fireworks_skill_memory.memory.store.skill_names import validate_skill

    skill = validate_skill(str(request.get("skill", "")))
    task = request.get("task")
    top = request.get("top")
    settings = service.caller_settings(request.get("settings"))

    def inject() -> Injection:
        return retriever.inject(
            skill,
            task if isinstance(task, str) else None,
            top=top if isinstance(top, int) and top > 0 else None,
            include_global=bool(request.get("include_global", True)),
            settings=settings,
        )

    if request.get("record", False):
        by = str(request.get("by", "service"))
        injection = inject_and_record(settings, inject, by, request.get("session"))
    else:
        injection = inject()
    result: dict[str, Any] = injection.as_json()
    return result


def _op_search(
    service: Service, retriever: ServiceRetriever, request: dict[str, Any]
) -> dict[str, Any]:
    from fireworks_skill_memory.memory.store.skill_names import validate_skill

    skill = request.get("skill")
    top = request.get("top")
    query = str(request.get("query", ""))
    scope = validate_skill(skill) if isinstance(skill, str) else None
    hits = retriever.search(
        query,
        skill=scope,
        top=top if isinstance(top, int) and top > 0 else 10,
        gated=request.get("gated") is True,
        settings=service.caller_settings(request.get("settings")),
    )
    return {"results": [hit.as_json() for hit in hits]}


def _op_feedback(
    service: Service, retriever: ServiceRetriever, request: dict[str, Any]
) -> dict[str, Any]:
    lesson_id, rating, note = request.get("id"), request.get("rating"), request.get("note")
    source = request.get("source")
    if not isinstance(lesson_id, str) or not isinstance(rating, str):
        raise ValueError("feedback needs a lesson `id` and a `rating`")
    outcome = retriever.store.feedback(
        lesson_id,
        rating,
        note=note if isinstance(note, str) else "",
        source=source if isinstance(source, str) else "feedback",
    )
    return outcome.as_json()


def _op_add(
    service: Service, retriever: ServiceRetriever, request: dict[str, Any]
) -> dict[str, Any]:
    from fireworks_skill_memory.memory.ingest import Ingest, LessonCandidate, request_trust
    from fireworks_skill_memory.memory.store.provenance import Provenance

    skill, tag = request.get("skill"), request.get("tag")
    origin = Provenance.from_json(request.get("origin"))
    ingest = Ingest(
        store=retriever.store,
        screen=service._screen,
        trust=request_trust(request.get("trust"), origin),
        source="add",
        matcher=service._matcher,
        dry_run=bool(request.get("dry_run", False)),
    )
    candidate = LessonCandidate(
        str(request.get("text", "")),
        skill if isinstance(skill, str) else None,
        tag if isinstance(tag, str) else None,
        provenance=origin,
    )
    return ingest.add(candidate).as_json()


def _op_sync(
    service: Service, retriever: ServiceRetriever, request: dict[str, Any]
) -> dict[str, Any]:
    scopes = request.get("scopes")
    report = retriever.memory.sync(scopes if isinstance(scopes, list) else None)
    return report.as_json()


def _op_reindex(
    service: Service, retriever: ServiceRetriever, request: dict[str, Any]
) -> dict[str, Any]:
    report = retriever.memory.reindex()
    retriever.forget_caches()
    return report.as_json()


def _op_vectors(
    service: Service, retriever: ServiceRetriever, request: dict[str, Any]
) -> dict[str, Any]:
    texts = request.get("texts")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ValueError("vectors needs a list of strings")
    return {"vectors": retriever.embedder.embed_batch(texts).tolist()}


def _op_embed(
    service: Service, retriever: ServiceRetriever, request: dict[str, Any]
) -> dict[str, Any]:
    task = request.get("task")
    if isinstance(task, str) and task.strip():
        retriever.task_vector(task)
    return {}


_OPS: dict[str, Callable[[Service, ServiceRetriever, dict[str, Any]], dict[str, Any]]] = {
    "inject": _op_inject,
    "search": _op_search,
    "add": _op_add,
    "feedback": _op_feedback,
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
        except SettingsRefused as error:
            reply = {"ok": False, "error": "settings", "detail": str(error)}
        except (SkillMemoryError, ValueError, TypeError) as error:
            reply = {"ok": False, "error": "bad-request", "detail": str(error)}
        except Exception as error:  # one bad request must not kill the service
            log.exception("request failed")
            reply = {"ok": False, "error": "internal", "detail": f"{type(error).__name__}: {error}"}
        with contextlib.suppress(OSError):
            self.wfile.write(encode(reply))

    def _hook(self, header: bytes) -> None:
        """`HOOK <version> <event> <size> <budget ms> <settings size>` + settings + payload
        -> `OK <n>` + stdout bytes."""
        arrived = time.monotonic()
        service = self.server.service
        parts = header.split()
        try:
            if len(parts) != 6 or parts[1].decode() != VERSION:
                raise VersionMismatch(parts[1].decode(errors="replace") if len(parts) > 1 else "")
            size, budget_ms, settings_size = int(parts[3]), int(parts[4]), int(parts[5])
            if size > MAX_MESSAGE or settings_size > MAX_MESSAGE:
                raise ValueError("payload too large")
            settings = self.rfile.read(settings_size).decode("utf-8", "surrogateescape")
            payload = self.rfile.read(size)
            deadline = arrived + budget_ms / 1000.0
            out = service.hook(parts[2].decode(), payload, deadline, settings)
            reply = b"OK %d\n" % len(out) + out
        except VersionMismatch:
            reply = b"ERR version\n"
        except WarmingUp:
            reply = b"ERR warming\n"
        except SettingsRefused:
            reply = b"ERR settings\n"
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
    """Hold the home's service lock (with our pid in it); False when another service holds it."""
    folder = run_dir(home)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        # `client.lock_owner` takes a shared lock for an instant: only a longer holder is a service
        if not try_exclusive(fd, LOCK_RETRY):
            yield False
            return
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
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
    retriever_factory: RetrieverFactory | None = None,
    hook_handler: HookHandler | None = None,
) -> int:
    """Run the service in the foreground until idle, `shutdown` or a signal.

    Returns 0, also when another service owns the home (the home is served).
    """
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
        loader = threading.Thread(target=service.keep_loading, name="loader", daemon=True)
        loader.start()
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
            service.stopping.set()
            server.shutdown()
            server.server_close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(run_dir(settings.home), PID_NAME))
            loader.join(LOADER_GRACE)
            log.info("stopped")
    return 0
