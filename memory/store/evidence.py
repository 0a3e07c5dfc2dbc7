"""What supports a lesson: the session's failing call it explains and whether a fix was seen.

A distilled lesson is `verified` when the session shows the failing call it explains and a
later successful call with the same or a corrected command, an `unverified guess` when it
does not (no such call, or no success after it); a lesson a person or the agent wrote is
`stated` (`by` says who). The kind comes from the transcript, never from the model's word.
Kept in the lesson ledger (key `evidence`), so exports and listings carry it; old records
without it read as None. `helped` ratings add to it (`supports`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

VERIFIED = "verified"
GUESS = "unverified guess"
STATED = "stated"
KINDS = (VERIFIED, GUESS, STATED)
THE_AGENT = "the agent"
MAX_FIELD_CHARS = 240  # command and error line, after redaction

# What the ranking makes of a lesson's support: a guess never outranks a verified lesson
# of similar relevance (`memory.retrieval.standing`).
SUPPORTED, NEUTRAL, GUESSED = "supported", "neutral", "guessed"


@dataclass(frozen=True)
class Evidence:
    """What supports one lesson (see the module docstring). Strings are redacted, capped."""

    kind: str
    by: str | None = None  # who stated it (`stated`)
    command: str | None = None  # the failing call's command (or path, or input)
    exit_status: int | None = None  # its exit status, when the transcript recorded one
    error: str | None = None  # the first line of its error output
    fixed_by: str | None = None  # the later successful command (`verified`)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown evidence kind {self.kind!r}")

    def as_json(self) -> dict[str, object]:
        """The evidence as its ledger object (None fields left out)."""
        data: dict[str, object] = {"kind": self.kind}
        optional: dict[str, object | None] = {
            "by": self.by,
            "command": self.command,
            "exit_status": self.exit_status,
            "error": self.error,
            "fixed_by": self.fixed_by,
        }
        data.update({key: value for key, value in optional.items() if value is not None})
        return data

    @classmethod
    def from_json(cls, data: object) -> Evidence | None:
        """The evidence in a ledger record, or None when there is none or it is not one."""
        if not isinstance(data, Mapping) or data.get("kind") not in KINDS:
            return None

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) else None

        status = data.get("exit_status")
        return cls(
            str(data["kind"]),
            by=text("by"),
            command=text("command"),
            exit_status=status
            if isinstance(status, int) and not isinstance(status, bool)
            else None,
            error=text("error"),
            fixed_by=text("fixed_by"),
        )

    @property
    def label(self) -> str:
        """The kind in a word or three: `verified`, `unverified guess`, `stated by <who>`."""
        return f"stated by {self.by or 'unknown'}" if self.kind == STATED else self.kind

    def describe(self) -> str:
        """One line for people: `verified: <command> (exit 2: <error>)`, `stated by <who>`."""
        if self.kind == STATED or self.command is None:
            return self.label
        status = f"exit {self.exit_status}" if self.exit_status is not None else "failed"
        detail = f"{status}: {self.error}" if self.error else status
        return f"{self.kind}: {self.command} ({detail})"


def stated(by: str) -> Evidence:
    """The evidence of a lesson a person (`by`) or the agent wrote."""
    return Evidence(STATED, by=by)


def stated_by_source(source: str, author: str) -> Evidence | None:
    """The evidence a write path gives by itself: `add` is stated by its author, the MCP
    tool by the agent; other paths bring their own (distill) or carry none."""
    if source == "add":
        return stated(author)
    if source == "mcp":
        return stated(THE_AGENT)
    return None


def stronger(old: Evidence | None, new: Evidence | None) -> Evidence | None:
    """The evidence a lesson keeps when a write restates it: a verification wins over a
    guess or a statement; otherwise what it had (the first word stays), else the new one."""
    if new is not None and new.kind == VERIFIED and (old is None or old.kind != VERIFIED):
        return new
    return old if old is not None else new


def support(evidence: Evidence | None, helped: int) -> str:
    """The ranking's view: `supported` (verified, or rated helped), `guessed` (an unverified
    guess nobody found helpful yet) or `neutral` (stated, or no evidence recorded)."""
    if helped > 0 or (evidence is not None and evidence.kind == VERIFIED):
        return SUPPORTED
    if evidence is not None and evidence.kind == GUESS:
        return GUESSED
    return NEUTRAL
