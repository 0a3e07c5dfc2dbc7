"""A tool call's arguments checked against the tool's advertised schema, never echoed back.

The SDK's own check (`jsonschema`'s message) repeats the offending value, so a 1 MB argument
came back as a 1 MB tool error in the agent's context. Here oversized strings are refused
first, by name, length and limit; the schema check runs after, and its message is built from
the failed keyword and the argument's name, never from the value. `app` turns the SDK's
check off and calls `check_arguments` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fireworks_skill_memory.mcpserver.tools import ToolRefused, length_error

PREFIX = "Input validation error: "
MAX_ERROR_CHARS = 500  # every error a tool answers with, whatever it quotes
MAX_NAME_CHARS = 40  # of an argument or tool name the caller chose, when one is shown


def check_arguments(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> None:
    """Nothing when `arguments` fit `schema`; ToolRefused with a short message otherwise."""
    properties: Mapping[str, Any] = schema.get("properties", {})
    for name, value in arguments.items():
        limit = properties.get(name, {}).get("maxLength")
        if isinstance(value, str) and isinstance(limit, int) and len(value) > limit:
            raise ToolRefused(PREFIX + length_error(name, len(value), limit))
    unexpected = [name for name in arguments if name not in properties]
    if unexpected and schema.get("additionalProperties") is False:
        raise ToolRefused(PREFIX + _unexpected(unexpected, list(properties)))
    import jsonschema

    validator = jsonschema.validators.validator_for(schema)(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(dict(arguments)))
    if error is not None:
        raise ToolRefused(PREFIX + _describe(error, properties, arguments))


def clip(name: str) -> str:
    """A caller-chosen name as an error may show it: short, and quoted as a literal."""
    shown = name if len(name) <= MAX_NAME_CHARS else name[:MAX_NAME_CHARS] + "..."
    return repr(shown)


def short(message: str) -> str:
    """`message` cut to MAX_ERROR_CHARS."""
    if len(message) <= MAX_ERROR_CHARS:
        return message
    return message[: MAX_ERROR_CHARS - 3] + "..."


def _unexpected(names: list[str], allowed: list[str]) -> str:
    shown = ", ".join(clip(name) for name in names[:3])
    more = f" and {len(names) - 3} more" if len(names) > 3 else ""
    takes = ", ".join(allowed) if allowed else "no arguments"
    return f"unexpected argument {shown}{more}; the tool takes: {takes}"


def _describe(error: Any, properties: Mapping[str, Any], arguments: Mapping[str, Any]) -> str:
    """The failed keyword in words, naming the argument (a schema's name, not the caller's)."""
    path = [part for part in error.path if isinstance(part, str)]
    name = path[0] if path and path[0] in properties else "arguments"
    keyword, expected = str(error.validator), error.validator_value
    if keyword == "required":
        missing = [item for item in expected if item not in arguments]
        return f"missing required argument: {', '.join(missing) or ', '.join(expected)}"
    if keyword == "type":
        return f"{name} must be of type {expected}"
    if keyword == "minLength":
        return f"{name} is empty: give at least {expected} character(s)"
    if keyword == "maxLength":
        value = arguments.get(name)
        return length_error(name, len(value) if isinstance(value, str) else 0, int(expected))
    if keyword in ("minimum", "maximum"):
        bounds = properties.get(name, {})
        return f"{name} must be from {bounds.get('minimum')} to {bounds.get('maximum')}"
    if keyword == "enum":
        return f"{name} must be one of: {', '.join(str(item) for item in expected)}"
    return f"{name} does not satisfy the schema's {keyword}"
