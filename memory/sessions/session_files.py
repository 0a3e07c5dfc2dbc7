"""Where per-session hook state lives: one folder per session id under `sessions_dir`.

The hooks write it and the distiller reads it, so the naming rule lives here, once.
Standard library only (hooks import it on every tool call).
"""

from __future__ import annotations

import os

PROMPTS_FILE = "prompts.jsonl"
SEEDS_FILE = "seeds.jsonl"
INJECTED_DIR = "injected"
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


def session_key(session_id: object) -> str | None:
    """A folder name for a session id: the id itself when safe, else `h-` + its hash."""
    if not isinstance(session_id, str) or not session_id:
        return None
    if len(session_id) <= 128 and set(session_id) <= _SAFE and not session_id.startswith("."):
        return session_id
    import hashlib

    return "h-" + hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def session_folder(sessions_dir: str, session_id: object) -> str | None:
    """The state folder of a session (None for a missing or non-string id)."""
    key = session_key(session_id)
    return os.path.join(sessions_dir, key) if key else None
