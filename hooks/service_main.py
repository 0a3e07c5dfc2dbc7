"""`python -m hooks.service_main`: the warm service with the hooks' logic plugged in.

The service (memory.service.server) knows nothing of hooks; this entry point gives it
a handler for forwarded hook calls that runs the same `handle(payload)` functions as
the hook processes, with injection ranked by the service's warm retriever.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from hooks import inject_flow
from hooks.dispatch import MODULES
from hooks.runtime import handle_bytes
from memory.config import Settings, load_settings
from memory.service.server import Service, serve


def handle_hook(service: Service, event: str, payload: bytes) -> bytes:
    """A forwarded hook call: the stdout the hook process would have printed."""
    module_name = MODULES.get(event)
    if module_name is None:
        return b""
    module = importlib.import_module(module_name)
    output = handle_bytes(module.handle, payload)
    return output.encode("utf-8") if output else b""


def run(settings: Settings) -> int:
    """Serve this memory home in the foreground (until idle, `stop` or SIGTERM)."""

    def warm_injector(service: Service) -> Any:
        def inject(skill: str, task: str) -> dict[str, Any]:
            result: dict[str, Any] = service.retriever.inject(skill, task or None).as_json()
            return result

        return inject

    def handler(service: Service, event: str, payload: bytes) -> bytes:
        inject_flow.use_injector(warm_injector(service))
        return handle_hook(service, event, payload)

    for module_name in set(MODULES.values()):  # import now, not during the first hook's budget
        importlib.import_module(module_name)
    return serve(settings, hook_handler=handler)


def main() -> int:
    """Entry point."""
    return run(load_settings())


if __name__ == "__main__":
    sys.exit(main())
