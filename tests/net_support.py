"""Stores that misbehave, on loopback only: one that hangs, one that refuses.

Tests and benchmarks send traffic only to 127.0.0.0/8 (`tests/test_loopback_only.py` checks
that no file names another address). A store that hangs is a loopback listener that accepts
connections and never answers; a store that refuses is a loopback port nothing listens on.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


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
