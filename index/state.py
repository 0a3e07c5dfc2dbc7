"""The index's sync state, `state.json`: what the table last mirrored of each knowledge file.

Parsed once into records here and written back from them; the format on disk is the one
earlier versions wrote and read:

    {"model_id": str, "writes_since_optimize": int,
     "fingerprints": {source key: {"mtime_ns", "size", "ino", "sha", "synced_ns", "scope"}}}

A fingerprint without "scope" comes from a version that named sources by absolute path
(`Fingerprint.scope` is None); the next sync gives it its scope. A fingerprint missing a
field or with a field of the wrong type is dropped: its file is then new to the index and
synced again, as a file changed since the last sync would be.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Fingerprint:
    """A knowledge file as its rows were written from it: its stat, text hash and scope."""

    mtime_ns: int
    size: int
    ino: int
    sha: str  # sha256 of the text the rows were read from
    synced_ns: int  # when the file was read (the racy-file rule compares it with mtime_ns)
    scope: str | None  # the index scope of its rows; None in a state of an older version

    def same_stat(self, mtime_ns: int, size: int, ino: int) -> bool:
        """True when a file's current stat is the one it had when it was read."""
        return (self.mtime_ns, self.size, self.ino) == (mtime_ns, size, ino)

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "mtime_ns": self.mtime_ns,
            "size": self.size,
            "ino": self.ino,
            "sha": self.sha,
            "synced_ns": self.synced_ns,
        }
        if self.scope is not None:
            data["scope"] = self.scope
        return data

    @classmethod
    def from_json(cls, raw: object) -> Fingerprint | None:
        """The fingerprint a `state.json` entry holds (None when it is not a valid one)."""
        if not isinstance(raw, dict):
            return None
        mtime_ns, size, ino = _int(raw.get("mtime_ns")), _int(raw.get("size")), _int(raw.get("ino"))
        synced_ns, sha, scope = _int(raw.get("synced_ns")), raw.get("sha"), raw.get("scope")
        if mtime_ns is None or size is None or ino is None or synced_ns is None:
            return None
        if not isinstance(sha, str) or not (scope is None or isinstance(scope, str)):
            return None
        return cls(mtime_ns, size, ino, sha, synced_ns, scope)


@dataclass(frozen=True)
class SyncState:
    """What the index last mirrored: per source key, the fingerprint it was synced at."""

    model_id: str = ""
    fingerprints: Mapping[str, Fingerprint] = field(default_factory=dict)
    writes_since_optimize: int = 0

    @property
    def needs_upgrade(self) -> bool:
        """True when some fingerprint comes from a version that did not record its scope."""
        return any(seen.scope is None for seen in self.fingerprints.values())

    def keys_in_scope(self, scope: str) -> list[str]:
        """The sources whose rows are in `scope`."""
        return [key for key, seen in self.fingerprints.items() if seen.scope == scope]

    def as_json(self) -> dict[str, object]:
        return {
            "model_id": self.model_id,
            "fingerprints": {key: seen.as_json() for key, seen in self.fingerprints.items()},
            "writes_since_optimize": self.writes_since_optimize,
        }

    @classmethod
    def from_json(cls, raw: object) -> SyncState:
        """The state a parsed `state.json` holds (empty when it is not an object)."""
        if not isinstance(raw, dict):
            return cls()
        entries = raw.get("fingerprints")
        fingerprints = {}
        for key, value in entries.items() if isinstance(entries, dict) else ():
            seen = Fingerprint.from_json(value)
            if isinstance(key, str) and seen is not None:
                fingerprints[key] = seen
        return cls(
            model_id=str(raw.get("model_id", "")),
            fingerprints=fingerprints,
            writes_since_optimize=_int(raw.get("writes_since_optimize")) or 0,
        )


def _int(value: object) -> int | None:
    return value if type(value) is int else None  # not a bool
