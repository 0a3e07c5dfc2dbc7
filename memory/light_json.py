"""JSON for the hook process without importing `json` (which imports `re`, ~7 ms per hook).

`loads` runs CPython's C scanner (`_json.make_scanner`, what `json.loads` itself uses) and
`dumps` its C string encoders, so both give exactly what `json.loads` and `json.dumps` (default
separators) give. Where `_json` is missing, or for input that is
not UTF-8 (UTF-16/32 with or without a BOM), the `json` module does the work.
Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_WHITESPACE = " \t\n\r"
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _ScannerContext:
    """What `_json.make_scanner` reads from a decoder: json.loads' defaults."""

    __slots__ = (
        "object_hook",
        "object_pairs_hook",
        "parse_constant",
        "parse_float",
        "parse_int",
        "strict",
    )

    def __init__(self) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = _CONSTANTS.__getitem__


_scanner: Callable[[str, int], tuple[object, int]] | None = None
_encoders: dict[bool, Callable[[str], str]] = {}


def _load_c_parts() -> bool:
    global _scanner
    if _scanner is None:
        try:
            from _json import encode_basestring, encode_basestring_ascii, make_scanner
        except ImportError:  # not CPython: the json module's Python code does it
            return False
        _scanner = make_scanner(_ScannerContext())  # type: ignore[arg-type]  # duck-typed
        _encoders.update({False: encode_basestring, True: encode_basestring_ascii})
    return True


def loads(data: bytes | str) -> object:
    """`json.loads(data)` (ValueError for anything that is not one JSON document)."""
    if isinstance(data, bytes):
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        elif b"\x00" in data[:4] or data.startswith((b"\xff\xfe", b"\xfe\xff")):
            import json  # UTF-16 or UTF-32: json.loads detects which

            return json.loads(data)
        data = data.decode("utf-8", "surrogatepass")
    if not _load_c_parts() or _scanner is None:
        import json

        return json.loads(data)
    start = len(data) - len(data.lstrip(_WHITESPACE))
    try:
        value, end = _scanner(data, start)
    except StopIteration as error:
        raise ValueError(f"Expecting value: char {error.value}") from None
    if data[end:].strip(_WHITESPACE):
        raise ValueError(f"Extra data: char {end}")
    return value


def dumps(value: object, *, ensure_ascii: bool = True) -> str:
    """`json.dumps(value, ensure_ascii=...)` for str-keyed dicts, lists, tuples and scalars."""
    if not _load_c_parts():
        import json

        return json.dumps(value, ensure_ascii=ensure_ascii)
    parts: list[str] = []
    _encode(value, parts, _encoders[ensure_ascii])
    return "".join(parts)


def _encode(value: object, out: list[str], encode_string: Callable[[str], str]) -> None:
    if isinstance(value, str):
        out.append(encode_string(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, dict):
        out.append("{")
        for position, (key, item) in enumerate(value.items()):
            if not isinstance(key, str):
                raise TypeError(f"keys must be str, not {type(key).__name__}")
            out.append(", " if position else "")
            out.append(encode_string(key))
            out.append(": ")
            _encode(item, out, encode_string)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for position, item in enumerate(value):
            out.append(", " if position else "")
            _encode(item, out, encode_string)
        out.append("]")
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _float(value: float) -> str:
    text = float.__repr__(value)
    return _NON_FINITE.get(text, text)


_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
