"""LLM backends for the distiller: one structured request in, one validated object out.

Usage::

    backend = make_backend("anthropic", model="claude-haiku-4-5", env=os.environ)
    reply = backend.complete(StructuredRequest(system=..., user=..., schema=..., schema_name=...))

`complete` raises only `models.errors.BackendError` subclasses. Importing this
package is cheap: `anthropic` is imported on the first call of its backend.
"""

from __future__ import annotations

from fireworks_skill_memory.models.errors import (
    BackendBadReply,
    BackendConnectionError,
    BackendError,
    BackendHTTPError,
    BackendRateLimited,
    BackendTimeout,
    BackendUnavailable,
)
from fireworks_skill_memory.models.llm.anthropic_backend import AnthropicBackend
from fireworks_skill_memory.models.llm.base import (
    LLMBackend,
    StructuredReply,
    StructuredRequest,
)
from fireworks_skill_memory.models.llm.claude_cli import ClaudeCliBackend
from fireworks_skill_memory.models.llm.factory import BACKEND_NAMES, make_backend
from fireworks_skill_memory.models.llm.null_backend import NullBackend
from fireworks_skill_memory.models.llm.openai_backend import OpenAIBackend
from fireworks_skill_memory.models.llm.retry import RetryPolicy

__all__ = [
    "BACKEND_NAMES",
    "AnthropicBackend",
    "BackendBadReply",
    "BackendConnectionError",
    "BackendError",
    "BackendHTTPError",
    "BackendRateLimited",
    "BackendTimeout",
    "BackendUnavailable",
    "ClaudeCliBackend",
    "LLMBackend",
    "NullBackend",
    "OpenAIBackend",
    "RetryPolicy",
    "StructuredReply",
    "StructuredRequest",
    "make_backend",
]
