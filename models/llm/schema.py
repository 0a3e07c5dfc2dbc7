"""A light JSON-schema checker and the empty instance of a schema (no jsonschema dependency).

Understood keywords: `type` (a name or a list of names), `properties`, `required`,
`items` and `enum`. Anything else is ignored, so a richer schema never fails here.
"""

from __future__ import annotations

from collections.abc import Mapping

from fireworks_skill_memory.models.errors import BackendBadReply

_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def validate_object(
    value: object, schema: Mapping[str, object], *, label: str = "model"
) -> dict[str, object]:
    """`value` as a dict when it matches `schema`, else `BackendBadReply` naming the spot."""
    if not isinstance(value, dict):
        raise BackendBadReply(f"{label}: the reply is {_kind(value)}, expected a JSON object")
    problem = _problem(value, schema, "$")
    if problem:
        raise BackendBadReply(f"{label}: the reply does not match the schema: {problem}")
    return {str(key): item for key, item in value.items()}


def empty_instance(schema: Mapping[str, object]) -> dict[str, object]:
    """The smallest object the schema allows: each required property empty (arrays `[]`)."""
    result = _empty(schema)
    return result if isinstance(result, dict) else {}


def _problem(value: object, schema: Mapping[str, object], path: str) -> str | None:
    names = _type_names(schema)
    if names and not any(_is_type(value, name) for name in names):
        return f"{path} is {_kind(value)}, expected {' or '.join(names)}"
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        return f"{path} is {value!r}, expected one of {enum!r}"
    if isinstance(value, dict):
        return _object_problem(value, schema, path)
    items = schema.get("items")
    if isinstance(value, list) and isinstance(items, Mapping):
        for index, item in enumerate(value):
            problem = _problem(item, items, f"{path}[{index}]")
            if problem:
                return problem
    return None


def _object_problem(
    value: dict[object, object], schema: Mapping[str, object], path: str
) -> str | None:
    required = schema.get("required")
    for key in required if isinstance(required, list) else []:
        if key not in value:
            return f"{path}.{key} is missing"
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return None
    for key, subschema in properties.items():
        if key in value and isinstance(subschema, Mapping):
            problem = _problem(value[key], subschema, f"{path}.{key}")
            if problem:
                return problem
    return None


def _empty(schema: Mapping[str, object]) -> object:
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum[0]
    names = _type_names(schema)
    kind = names[0] if names else "object"
    if kind != "object":
        return {"array": [], "string": "", "integer": 0, "number": 0, "boolean": False}.get(kind)
    properties = schema.get("properties")
    required = schema.get("required")
    result: dict[str, object] = {}
    if isinstance(properties, Mapping) and isinstance(required, list):
        for key in required:
            subschema = properties.get(key)
            result[str(key)] = _empty(subschema) if isinstance(subschema, Mapping) else None
    return result


def _type_names(schema: Mapping[str, object]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [name for name in declared if isinstance(name, str)]
    return []


def _is_type(value: object, name: str) -> bool:
    if name not in _PYTHON_TYPES:
        return True  # an unknown type name is not ours to reject
    if isinstance(value, bool) and name in ("integer", "number"):
        return False  # bool is an int subclass in Python, not in JSON
    return isinstance(value, _PYTHON_TYPES[name])


def _kind(value: object) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _is_type(value, name):
            return name
    return type(value).__name__
