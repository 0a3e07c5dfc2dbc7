"""`python -I -m fireworks_skill_memory.cli.service_main`: the warm service, composed.

The service's composition root. `memory.service.server` serves the socket and keeps the
model and the index warm, and knows nothing of hooks; this module hands it the hooks'
handlers (`hooks.dispatch.MODULES`, imported at start, not during the first hook's budget),
each run for a forwarded call with a `hooks.warm.WarmRanker` over the service's retriever and
the calling hook's settings. It lives above `hooks` because it wires `hooks` and `memory`
together; it imports no click (`skill-memory serve` calls `run`).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING

from fireworks_skill_memory.hooks.dispatch import MODULES
from fireworks_skill_memory.hooks.runtime import handle_bytes
from fireworks_skill_memory.hooks.warm import WarmRanker
from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.retrieval.lexical_cache import FreshCaches
from fireworks_skill_memory.memory.service.server import HookHandler, Service, serve

if TYPE_CHECKING:
    from fireworks_skill_memory.hooks.runtime import Body


def hook_handler(handlers: dict[str, Body]) -> HookHandler:
    """The service's handler of forwarded hook calls: the stdout the hook would print."""
    caches = FreshCaches()  # the fallback's lexical caches, kept fresh for the service's life

    def handle(service: Service, event: str, payload: bytes, settings: Settings) -> bytes:
        body = handlers.get(event)
        if body is None:
            return b""
        output = handle_bytes(body, payload, WarmRanker(service.retriever, settings, caches))
        return output.encode("utf-8") if output else b""

    return handle


def run(settings: Settings) -> int:
    """Serve this memory home in the foreground (until idle, `stop` or SIGTERM)."""
    handlers: dict[str, Body] = {
        event: importlib.import_module(name).handle for event, name in MODULES.items()
    }
    # one intra-op thread: a task is a few short texts, and on a busy machine extra threads
    # only queue behind the agent's own work (set before torch is imported by the warm-up)
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    return serve(settings, hook_handler=hook_handler(handlers))


def main() -> int:
    """Entry point."""
    return run(load_settings())


if __name__ == "__main__":
    sys.exit(main())
