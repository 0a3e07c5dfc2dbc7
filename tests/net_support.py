"""Stores that misbehave, on loopback only: one that hangs, one that refuses, one that fails
half-way (`CuttingProxy`).

Tests and benchmarks send traffic only to 127.0.0.0/8 (`tests/test_loopback_only.py` checks
that no file names another address). A store that hangs is a loopback listener that accepts
connections and never answers; a store that refuses is a loopback port nothing listens on.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO


@contextmanager
def silent_listener() -> Iterator[str]:
    """`http://127.0.0.1:<port>` of a listener that accepts every connection and never answers.

    Accepted sockets stay open (and unread) until the block ends, so a client waits for an
    answer until its own timeout.
    """
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(connection)

    thread = threading.Thread(target=accept, name="silent-listener", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=2)
        for connection in held:
            connection.close()
        server.close()


def closed_port() -> str:
    """`http://127.0.0.1:<port>` of a loopback port nothing listens on: connections are refused.

    The port was bound and released, so no other test holds it at that moment; the kernel
    does not hand a just-released port out again at once.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


class CuttingProxy:
    """A loopback HTTP/1.1 proxy in front of `upstream` that lets `limit` requests through, then
    closes each connection as its next request arrives: a store that fails half-way.

    Requests are counted at their head (so a client waiting for `100 Continue` is served);
    bodies (Content-Length or chunked) and answers are relayed as they come. `limit = None`
    lets everything through (`requests` then counts what a command sends); set it at any time.
    """

    def __init__(self, upstream: str, limit: int | None = None) -> None:
        host, _, port = upstream.removeprefix("http://").partition(":")
        self.upstream = (host, int(port))
        self.limit = limit
        self.requests = 0
        self.cut = 0  # connections closed at the limit
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(64)
        self.endpoint = f"http://127.0.0.1:{self._server.getsockname()[1]}"
        self._thread = threading.Thread(target=self._accept, name="cutting-proxy", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._server.close()

    def __enter__(self) -> CuttingProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _accept(self) -> None:
        self._server.settimeout(0.2)
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            server = socket.create_connection(self.upstream, timeout=30)
        except OSError:
            client.close()
            return
        threading.Thread(target=_relay, args=(server, client), daemon=True).start()
        try:
            self._requests(client, server)
        except OSError:
            pass  # either side went away: both are closed below
        finally:
            for side in (client, server):
                with contextlib.suppress(OSError):
                    side.shutdown(socket.SHUT_RDWR)
                side.close()

    def _admit(self) -> bool:
        with self._lock:
            if self.limit is not None and self.requests >= self.limit:
                self.cut += 1
                return False
            self.requests += 1
            return True

    def _requests(self, client: socket.socket, server: socket.socket) -> None:
        reader = client.makefile("rb")
        while True:
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                line = reader.readline(65536)
                if not line:
                    return
                head += line
            if not self._admit():
                return
            server.sendall(head)
            fields = _header_fields(head)
            if "chunked" in fields.get("transfer-encoding", ""):
                _relay_chunks(reader, server)
            else:
                _relay_bytes(reader, server, int(fields.get("content-length", "0") or 0))


def _header_fields(head: bytes) -> dict[str, str]:
    fields = {}
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, sep, value = line.partition(":")
        if sep:
            fields[name.strip().lower()] = value.strip().lower()
    return fields


def _relay_bytes(reader: BinaryIO, server: socket.socket, size: int) -> None:
    while size > 0:
        chunk = reader.read(min(size, 65536))
        if not chunk:
            raise ConnectionError("the client closed mid-body")
        server.sendall(chunk)
        size -= len(chunk)


def _relay_chunks(reader: BinaryIO, server: socket.socket) -> None:
    while True:
        line = reader.readline(65536)
        server.sendall(line)
        size = int(line.split(b";")[0].strip() or b"0", 16)
        _relay_bytes(reader, server, size + 2)  # the chunk and its CRLF
        if size == 0:
            return


def _relay(source: socket.socket, sink: socket.socket) -> None:
    """Copy answers from the store to the client until either side closes."""
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_RDWR)
