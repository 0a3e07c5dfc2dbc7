"""Where a lesson came from: the write path, when, which agent session, backend and author.

Provenance is not derivable from the markdown, so it lives in the lesson ledger beside it
(`memory.store.ledger`), never only in the derived index.
"""

from __future__ import annotations

import getpass
import socket
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache

from fireworks_skill_memory.memory.config import Settings

# The write paths a lesson can come from; "edit" is a lesson found in the markdown that no
# write path recorded (written or reworded by hand).
SOURCES = ("distill", "add", "flush", "import", "team", "mcp", "review", "edit")
AGENTS = ("claude-code", "codex")
_FIELDS = ("agent", "session", "backend", "model")


@dataclass(frozen=True)
class Provenance:
    """Where one lesson came from."""

    source: str
    at: str  # ISO 8601, UTC, seconds
    author: str
    agent: str | None = None
    session: str | None = None
    backend: str | None = None
    model: str | None = None

    def as_json(self) -> dict[str, object]:
        """The provenance as a JSON record (what `--json` listings print)."""
        return {
            "source": self.source,
            "at": self.at,
            "author": self.author,
            "agent": self.agent,
            "session": self.session,
            "backend": self.backend,
            "model": self.model,
        }

    @classmethod
    def from_json(cls, data: object) -> Provenance | None:
        """The provenance in a ledger record, or None when it is not one."""
        if not isinstance(data, Mapping):
            return None
        source, at, author = data.get("source"), data.get("at"), data.get("author")
        if not (isinstance(source, str) and isinstance(at, str) and isinstance(author, str)):
            return None
        extra = {name: data.get(name) for name in _FIELDS}
        return cls(
            source,
            at,
            author,
            **{name: value if isinstance(value, str) else None for name, value in extra.items()},
        )


def utc_stamp(now: datetime | None = None) -> str:
    """`now` (default: the current time) as an ISO 8601 UTC stamp to the second."""
    moment = now if now is not None else datetime.now(timezone.utc)
    if moment.tzinfo is None:
        moment = moment.astimezone()
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def resolve_author(settings: Settings) -> str:
    """SKILL_MEMORY_AUTHOR, else the git user's email, else `user@host`."""
    return settings.author or _git_email() or _user_at_host()


@lru_cache(maxsize=1)
def _git_email() -> str | None:
    try:
        found = subprocess.run(
            ["git", "config", "--get", "user.email"],
            capture_output=True,
            text=True,
            timeout=2,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    email = found.stdout.strip()
    return email if found.returncode == 0 and email else None


def _user_at_host() -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER
        user = "unknown"
    return f"{user}@{socket.gethostname() or 'localhost'}"


def provenance(
    settings: Settings,
    source: str,
    *,
    agent: str | None = None,
    session: str | None = None,
    backend: str | None = None,
    model: str | None = None,
    now: datetime | None = None,
) -> Provenance:
    """A provenance record for a lesson written now by `source`."""
    if source not in SOURCES:
        raise ValueError(f"unknown lesson source {source!r}")
    return Provenance(
        source, utc_stamp(now), resolve_author(settings), agent, session, backend, model
    )
