"""Shared machinery for the fake model servers (stdlib only).

A fake server listens on ``127.0.0.1`` on an OS-assigned port, in a background
thread, records every request, and asks a *responder* (a script) what to answer
on its scripted routes. Replies are plain data objects:

* provider-specific replies (``MessageReply`` in ``messages_server``,
  ``ResponsesReply``/``ChatReply`` in ``responses_server``), rendered by the
  concrete server as JSON or SSE;
* the provider-neutral faults defined here: :class:`ErrorReply` (HTTP status +
  JSON body + headers), :class:`MalformedReply` (bytes that are not the JSON the
  client expects), :class:`DropConnection` (close the socket without answering);
* raw escape hatches: :class:`JSONResponse` and :class:`SSEResponse`.

Every reply type has a ``delay`` (seconds slept before answering, to trigger
client timeouts). Sleeping is interruptible: stopping the server wakes it.

A responder that raises is answered with HTTP 500 and the exception is stored
in ``server.responder_errors`` so tests can assert their script never failed.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

__all__ = [
    "DropConnection",
    "ErrorReply",
    "FakeServerBase",
    "JSONResponse",
    "MalformedReply",
    "RecordedRequest",
    "SSEResponse",
    "sse_encode",
]

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request as the fake server saw it.

    ``body`` is the parsed JSON body (``None`` when there was no body or it was
    not JSON). ``call_index`` is the request's 0-based index among the calls of
    its scripted route (``None`` for unscripted routes such as ``HEAD /``).
    """

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw_body: bytes
    call_index: int | None = None
    timestamp: float = 0.0

    @property
    def route(self) -> str:
        """The path without the query string, e.g. ``/v1/messages``."""
        return urlsplit(self.path).path

    @property
    def query(self) -> dict[str, list[str]]:
        """The parsed query string, e.g. ``{"beta": ["true"]}``."""
        return parse_qs(urlsplit(self.path).query, keep_blank_values=True)

    def header(self, name: str, default: str | None = None) -> str | None:
        """Case-insensitive header lookup."""
        lowered = name.lower()
        for key, value in self.headers.items():
            if key.lower() == lowered:
                return value
        return default

    def body_text(self) -> str:
        """The whole JSON body dumped to a string: search it for markers."""
        if self.body is None:
            return self.raw_body.decode("utf-8", "replace")
        return json.dumps(self.body, ensure_ascii=False)


@dataclass(frozen=True)
class ErrorReply:
    """Answer with an HTTP error status and a JSON body (e.g. 429, 500, 529)."""

    status: int
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class MalformedReply:
    """Answer with a body that is not what the client can parse."""

    body: bytes = b'{"type": "message", "content": [ this is not json'
    status: int = 200
    content_type: str = "application/json"
    delay: float = 0.0


@dataclass(frozen=True)
class DropConnection:
    """Close the connection without sending any response bytes."""

    delay: float = 0.0


@dataclass(frozen=True)
class JSONResponse:
    """A raw JSON response (escape hatch for anything the helpers lack)."""

    body: Any
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class SSEResponse:
    """A raw Server-Sent-Events response sent with chunked encoding.

    ``events`` are ``(event_name_or_None, data)`` pairs; ``data`` is a dict
    (JSON-encoded) or a str (sent verbatim). ``event_delay`` sleeps between
    events; ``cut_after`` drops the connection after that many events.
    """

    events: tuple[tuple[str | None, Any], ...]
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    event_delay: float = 0.0
    cut_after: int | None = None


WireReply = ErrorReply | MalformedReply | DropConnection | JSONResponse | SSEResponse


def sse_encode(event: str | None, data: Any) -> bytes:
    """Encode one SSE event as ``event: ...\\ndata: ...\\n\\n``."""
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    lines = [] if event is None else [f"event: {event}"]
    lines.extend(f"data: {line}" for line in payload.split("\n"))
    return ("\n".join(lines) + "\n\n").encode("utf-8")


class _Handler(BaseHTTPRequestHandler):
    """Routes every method to the owning :class:`FakeServerBase`."""

    protocol_version = "HTTP/1.1"
    server_version = "FakeModelServer/1.0"
    # Idle keep-alive connections end after this many seconds.
    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def setup(self) -> None:
        super().setup()
        self._owner().track_connection(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self._owner().track_connection(self.connection, add=False)

    def _owner(self) -> FakeServerBase:
        return self.server.owner  # type: ignore[attr-defined,no-any-return]

    def _dispatch(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            self._owner().handle_request(self, raw)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _dispatch


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = False


_S = TypeVar("_S", bound="FakeServerBase")


class FakeServerBase:
    """Background HTTP server on 127.0.0.1 with request recording.

    Subclasses implement :meth:`route` and return a wire reply (or ``None`` for
    a JSON 404). Use as a context manager, or call :meth:`start`/:meth:`stop`.
    """

    #: Routes (method, path without query) whose calls get a ``call_index``.
    scripted_routes: tuple[tuple[str, str], ...] = ()

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._counters: dict[tuple[str, str], int] = {}
        self._connections: set[socket.socket] = set()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self.responder_errors: list[BaseException] = []

    # ----------------------------------------------------------- lifecycle
    def start(self: _S) -> _S:
        """Bind 127.0.0.1:<free port> and serve in a daemon thread."""
        if self._httpd is not None:
            return self
        httpd = _Server((LOOPBACK, 0), _Handler)
        httpd.owner = self  # type: ignore[attr-defined]
        self._httpd = httpd
        self._stopping.clear()
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"{type(self).__name__}:{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, wake sleeping handlers and close open connections."""
        httpd = self._httpd
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        httpd.server_close()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self: _S) -> _S:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ------------------------------------------------------------- access
    @property
    def port(self) -> int:
        """The bound port (the server must be started)."""
        if self._httpd is None:
            raise RuntimeError("server is not running")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>`` (no trailing slash, no ``/v1``)."""
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def requests(self) -> list[RecordedRequest]:
        """A snapshot of every request received so far, in arrival order."""
        with self._lock:
            return list(self._requests)

    def requests_to(self, route: str, method: str = "POST") -> list[RecordedRequest]:
        """Recorded requests for one route (path without query)."""
        return [r for r in self.requests if r.route == route and r.method == method]

    def wait_for_requests(
        self, count: int, *, route: str | None = None, timeout: float = 10.0
    ) -> list[RecordedRequest]:
        """Block until at least ``count`` (matching) requests arrived."""
        deadline = time.monotonic() + timeout
        while True:
            found = [r for r in self.requests if route is None or r.route == route]
            if len(found) >= count or time.monotonic() >= deadline:
                return found
            time.sleep(0.01)

    def clear(self) -> None:
        """Forget recorded requests and reset call counters."""
        with self._lock:
            self._requests.clear()
            self._counters.clear()
            self.responder_errors.clear()

    # ------------------------------------------------------------ serving
    def track_connection(self, conn: socket.socket, *, add: bool) -> None:
        """Remember open sockets so :meth:`stop` can close idle keep-alives."""
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def route(self, request: RecordedRequest) -> WireReply | None:
        """Return the reply for ``request``; ``None`` means JSON 404."""
        raise NotImplementedError

    def not_found_body(self, request: RecordedRequest) -> Any:
        """The JSON body of a 404 (override for provider-specific shapes)."""
        return {"error": {"type": "not_found_error", "message": f"no route {request.route}"}}

    def handle_request(self, handler: BaseHTTPRequestHandler, raw: bytes) -> None:
        """Record the request, ask :meth:`route`, write the reply."""
        request = self._record(handler, raw)
        try:
            reply = self.route(request)
        except Exception as exc:  # a broken script must not hang the client
            with self._lock:
                self.responder_errors.append(exc)
            reply = ErrorReply(
                500,
                {
                    "type": "error",
                    "error": {
                        "type": "api_error",
                        "message": "fake server responder raised: "
                        + "".join(traceback.format_exception_only(type(exc), exc)).strip(),
                    },
                },
            )
        if reply is None:
            reply = JSONResponse(self.not_found_body(request), status=404)
        self._write(handler, request, reply)

    def _record(self, handler: BaseHTTPRequestHandler, raw: bytes) -> RecordedRequest:
        route = urlsplit(handler.path).path
        body: Any = None
        if raw:
            try:
                body = json.loads(raw)
            except (ValueError, UnicodeDecodeError):
                body = None
        with self._lock:
            key = (handler.command, route)
            call_index: int | None = None
            if key in self.scripted_routes:
                call_index = self._counters.get(key, 0)
                self._counters[key] = call_index + 1
            request = RecordedRequest(
                method=handler.command,
                path=handler.path,
                headers=dict(handler.headers.items()),
                body=body,
                raw_body=raw,
                call_index=call_index,
                timestamp=time.time(),
            )
            self._requests.append(request)
        return request

    # ------------------------------------------------------------ writing
    def _sleep(self, seconds: float) -> bool:
        """Sleep unless the server stops first; True when still running."""
        if seconds <= 0:
            return not self._stopping.is_set()
        return not self._stopping.wait(seconds)

    def _write(
        self, handler: BaseHTTPRequestHandler, request: RecordedRequest, reply: WireReply
    ) -> None:
        if not self._sleep(reply.delay):
            _drop(handler)
            return
        if isinstance(reply, DropConnection):
            _drop(handler)
        elif isinstance(reply, (ErrorReply, JSONResponse)):
            _send_bytes(handler, reply.status, _json_bytes(reply.body), reply.headers)
        elif isinstance(reply, MalformedReply):
            _send_bytes(handler, reply.status, reply.body, {"Content-Type": reply.content_type})
        elif isinstance(reply, SSEResponse):
            self._send_sse(handler, request, reply)
        else:  # pragma: no cover - programming error in a subclass
            raise TypeError(f"unknown reply type {type(reply).__name__}")

    def _send_sse(
        self, handler: BaseHTTPRequestHandler, request: RecordedRequest, reply: SSEResponse
    ) -> None:
        handler.send_response(reply.status)
        headers = {
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache",
            "Transfer-Encoding": "chunked",
            **dict(reply.headers),
        }
        for key, value in headers.items():
            handler.send_header(key, value)
        handler.end_headers()
        if request.method == "HEAD":
            return
        for index, (event, data) in enumerate(reply.events):
            if reply.cut_after is not None and index >= reply.cut_after:
                handler.wfile.flush()
                _drop(handler)
                return
            if index and not self._sleep(reply.event_delay):
                _drop(handler)
                return
            chunk = sse_encode(event, data)
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            handler.wfile.flush()
        handler.wfile.write(b"0\r\n\r\n")
        handler.wfile.flush()


def _json_bytes(body: Any) -> bytes:
    return b"" if body is None else json.dumps(body).encode("utf-8")


def _send_bytes(
    handler: BaseHTTPRequestHandler,
    status: int,
    payload: bytes,
    headers: Mapping[str, str] | Iterable[tuple[str, str]],
) -> None:
    items = dict(headers)
    items.setdefault("Content-Type", "application/json")
    handler.send_response(status)
    for key, value in items.items():
        handler.send_header(key, value)
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    if handler.command != "HEAD":
        handler.wfile.write(payload)
    handler.wfile.flush()


def _drop(handler: BaseHTTPRequestHandler) -> None:
    """Close the client connection abruptly (no response, or mid-stream)."""
    handler.close_connection = True
    with contextlib.suppress(OSError):
        handler.connection.shutdown(socket.SHUT_RDWR)
