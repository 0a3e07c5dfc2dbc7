"""The ranker a handler gets inside the warm service: its retriever, with the hook's settings.

Built per forwarded hook call by the service's composition root (`cli.service_main`) from
the service's loaded retriever and the calling hook's settings (`memory.service.protocol
.caller_settings`), so a hook's top, token cap and ranking weights hold whichever process
started the service. It also keeps each injected skill's lexical cache fresh
(`memory.retrieval.lexical_cache`), so a hook finding the service down ranks from that cache
instead of parsing the markdown.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.retrieval import lexical_cache
from fireworks_skill_memory.memory.retrieval.usage import inject_and_record

if TYPE_CHECKING:
    from fireworks_skill_memory.memory.retrieval.records import Injection
    from fireworks_skill_memory.memory.service.server import ServiceRetriever


class WarmRanker:
    """Ranks with the service's warm retriever under one caller's settings."""

    warm = True

    def __init__(
        self, retriever: ServiceRetriever, settings: Settings, caches: lexical_cache.FreshCaches
    ) -> None:
        self.retriever = retriever
        self.settings = settings
        self.caches = caches  # the service's, kept for its life

    def inject(self, skill: str, parts: list[str], by: str, session: object) -> Injection:
        """The skill's lessons for the task `parts` (semantic, gated), logged under `by`."""
        injection = inject_and_record(
            self.settings,
            lambda: self.retriever.inject(skill, parts, settings=self.settings),
            by,
            session,
        )
        self.caches.ensure(self.settings, skill)  # for the fallback, should we be down
        return injection

    def ensure_service(self, why: str) -> bool:
        """Nothing to start: this runs in the service."""
        return False

    def prepare(self, parts: list[str]) -> None:
        """Embed the task now, so the injection that follows costs no embedding."""
        if parts:
            self.retriever.task_vector(parts)

    def failure(
        self, skills: list[str], task: str, shown: Collection[str], by: str, session: object
    ) -> Injection:
        """The lessons of `skills` (and the global ones) that explain a failure, never one
        of `shown`; logged under `by`."""
        from fireworks_skill_memory.memory.retrieval.failure_ranking import failure_injection

        return inject_and_record(
            self.settings,
            lambda: failure_injection(
                self.retriever,
                skills,
                task,
                shown=frozenset(shown),
                max_tokens=self.settings.inject_tokens,
            ),
            by,
            session,
        )
