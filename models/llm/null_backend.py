"""The backend that asks nobody: an empty, schema-shaped reply (tests, offline use)."""

from __future__ import annotations

from typing import ClassVar

from fireworks_skill_memory.models.llm.base import (
    LLMBackend,
    StructuredReply,
    StructuredRequest,
)
from fireworks_skill_memory.models.llm.schema import empty_instance, validate_object


class NullBackend(LLMBackend):
    """Always answers the schema's empty object (required arrays `[]`) at no cost."""

    name: ClassVar[str] = "null"

    def __init__(self, *, model: str = "") -> None:
        self.model = model

    def build_request(self, request: StructuredRequest) -> dict[str, object]:
        """The empty object that will be returned."""
        return empty_instance(request.schema)

    def parse_response(self, raw: object, request: StructuredRequest) -> StructuredReply:
        """`raw` (the built object) as a reply with zero tokens."""
        return StructuredReply(
            data=validate_object(raw, request.schema, label=self.name),
            input_tokens=0,
            output_tokens=0,
            model=request.model or self.model,
            backend=self.name,
        )

    def complete(self, request: StructuredRequest) -> StructuredReply:
        """No call: the empty reply."""
        return self.parse_response(self.build_request(request), request)
