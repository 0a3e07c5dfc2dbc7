"""Find the JSON object in a model's free text (bare, in a code fence, or amid prose)."""

from __future__ import annotations

import json
import re

from fireworks_skill_memory.models.errors import BackendBadReply

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n(.*?)```", re.DOTALL)
_PREVIEW = 200


def extract_json_object(text: str, *, label: str = "model") -> dict[str, object]:
    """The first JSON object in `text`; `BackendBadReply` when there is none."""
    candidates = [text.strip(), *(match.group(1).strip() for match in _FENCE.finditer(text))]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise BackendBadReply(f"{label}: no JSON object in the reply text: {preview(text)}")


def preview(text: str) -> str:
    """A short one-line excerpt of `text` for error messages."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= _PREVIEW else flat[:_PREVIEW] + "...")
