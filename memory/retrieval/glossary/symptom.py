"""One entry of the failure glossary: how a family of failures reads, and what explains it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Symptom:
    """A family of tool failures recognised by its output, and what usually explains it."""

    name: str
    """Short unique name, e.g. "python-relative-import"."""
    pattern: str
    """Regex (Python `re`, matched case-insensitively) searched in the failure's error lines."""
    explains: str
    """The usual causes and the practices that prevent them, in the words lessons use."""
    environment: bool = False
    """True when the failure usually comes from the machine's state, not from the code."""
