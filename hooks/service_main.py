"""`python -m hooks.service_main`: the warm service with the hooks' logic plugged in.

The service (memory.service.server) knows nothing of hooks; this entry point gives it
a handler for forwarded hook calls that runs the same `handle(payload)` functions as
the hook processes, with injection ranked by the service's warm retriever. It also keeps
each injected skill's lexical cache fresh (`memory.retrieval.lexical_cache`), so a hook finding the
service down ranks from that cache instead of parsing the markdown.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from fireworks_skill_memory.hooks import inject_flow
from fireworks_skill_memory.hooks.dispatch import MODULES
from fireworks_skill_memory.hooks.runtime import handle_bytes
from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.retrieval import lexical_cache
from fireworks_skill_memory.memory.service.server import Service, serve


def handle_hook(service: Service, event: str, payload: bytes) -> bytes:
    """A forwarded hook call: the stdout the hook process would have printed."""
    module_name = MODULES.get(event)
    if module_name is None:
        return b""
    module = importlib.import_module(module_name)
    output = handle_bytes(module.handle, payload)
    return output.encode("utf-8") if output else b""


class WarmRanker:
    """The hooks' view of the service: rank with its retriever, embed tasks ahead."""

    def __init__(self, service: Service) -> None:
        self.service = service

    def inject(self, skill: str, task_parts: list[str]) -> dict[str, Any]:
        result: dict[str, Any] = self.service.retriever.inject(skill, task_parts).as_json()
        # the skill's lexical cache, for the hook's fallback while this service is down
        lexical_cache.ensure_fresh(self.service.settings, skill)
        return result

    def prepare(self, task_parts: list[str]) -> None:
        self.service.retriever.task_vector(task_parts)

    def failure(self, skills: list[str], task: str, shown: list[str]) -> dict[str, Any]:
        from fireworks_skill_memory.memory.retrieval.failure_ranking import failure_injection

        injection = failure_injection(
            self.service.retriever,
            skills,
            task,
            shown=frozenset(shown),
            max_tokens=self.service.settings.inject_tokens,
        )
        result: dict[str, Any] = injection.as_json()
        return result


def run(settings: Settings) -> int:
    """Serve this memory home in the foreground (until idle, `stop` or SIGTERM)."""

    def handler(service: Service, event: str, payload: bytes) -> bytes:
        inject_flow.use_ranker(WarmRanker(service))
        return handle_hook(service, event, payload)

    for module_name in set(MODULES.values()):  # import now, not during the first hook's budget
        importlib.import_module(module_name)
    # one intra-op thread: a task is a few short texts, and on a busy machine extra threads
    # only queue behind the agent's own work (set before torch is imported by the warm-up)
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    return serve(settings, hook_handler=handler)


def main() -> int:
    """Entry point."""
    return run(load_settings())


if __name__ == "__main__":
    sys.exit(main())
