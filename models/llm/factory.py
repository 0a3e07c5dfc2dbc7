"""Pick and configure a backend by name; keys and URLs come from the given environment."""

from __future__ import annotations

from collections.abc import Mapping

from fireworks_skill_memory.models.errors import BackendUnavailable
from fireworks_skill_memory.models.llm.anthropic_backend import AnthropicBackend
from fireworks_skill_memory.models.llm.base import LLMBackend, Logger
from fireworks_skill_memory.models.llm.claude_cli import ClaudeCliBackend
from fireworks_skill_memory.models.llm.null_backend import NullBackend
from fireworks_skill_memory.models.llm.openai_backend import OpenAIBackend
from fireworks_skill_memory.models.llm.retry import RetryPolicy

BACKEND_NAMES = ("anthropic", "claude-cli", "openai", "null")


def make_backend(
    name: str,
    *,
    model: str,
    env: Mapping[str, str],
    timeout: float = 60.0,
    max_attempts: int = 3,
    logger: Logger | None = None,
) -> LLMBackend:
    """The backend called `name` (one of `BACKEND_NAMES`; the caller resolves "auto").

    Nothing is checked or imported here: a missing key or CLI surfaces as
    `BackendUnavailable` from `complete`, before any request.
    """
    retry = RetryPolicy(max_attempts=max_attempts)
    if name == "anthropic":
        return AnthropicBackend.from_env(
            env, model=model, timeout=timeout, retry=retry, logger=logger
        )
    if name == "openai":
        return OpenAIBackend.from_env(env, model=model, timeout=timeout, retry=retry, logger=logger)
    if name == "claude-cli":
        return ClaudeCliBackend(
            env=env, model=model, timeout=timeout, max_attempts=max_attempts, logger=logger
        )
    if name == "null":
        return NullBackend(model=model)
    raise BackendUnavailable(f"unknown LLM backend {name!r} (choose {', '.join(BACKEND_NAMES)})")
