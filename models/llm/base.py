"""The backend interface: a structured request in, a validated structured reply out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

Logger = Callable[[str], None]


@dataclass(frozen=True)
class StructuredRequest:
    """Ask a model for one JSON object shaped by `schema`.

    `system` is the static (cacheable) instruction, `user` the variable material.
    An empty `model` means the backend's default model.
    """

    system: str
    user: str
    schema: dict[str, object]
    schema_name: str
    model: str = ""
    max_tokens: int = 2000


@dataclass(frozen=True)
class StructuredReply:
    """The object the model returned (checked against the schema) and what it cost.

    `input_tokens` counts every prompt token, cached or not; `cache_read_tokens`
    says how many of them were read from the prompt cache.
    """

    data: dict[str, object]
    input_tokens: int
    output_tokens: int
    model: str
    backend: str
    cache_read_tokens: int = 0


class LLMBackend(ABC):
    """One LLM provider: pure `build_request`/`parse_response` around one call in `complete`.

    `complete` raises only `models.errors.BackendError` subclasses.
    """

    name: ClassVar[str]

    @abstractmethod
    def build_request(self, request: StructuredRequest) -> object:
        """What would be sent for `request` (no I/O)."""

    @abstractmethod
    def parse_response(self, raw: object, request: StructuredRequest) -> StructuredReply:
        """Turn the provider's raw answer into a validated reply (no I/O)."""

    @abstractmethod
    def complete(self, request: StructuredRequest) -> StructuredReply:
        """Build, make the one call (with the backend's retries), parse."""


def no_log(message: str) -> None:
    """The default logger: drop the message."""


def token_count(usage: object, *keys: str) -> int:
    """The sum of the integer `keys` of a usage mapping (missing or odd values count 0)."""
    if not isinstance(usage, Mapping):
        return 0
    values = (usage.get(key) for key in keys)
    return sum(v for v in values if isinstance(v, int) and not isinstance(v, bool))
