"""Per-session hook state under `<sessions_dir>/<session id>/`: prompts, error seeds, injections.

Everything is append-only or create-once, so concurrent hooks need no lock:
- `prompts.jsonl`  one `{"t", "prompt"}` per user prompt (redacted, capped)
- `seeds.jsonl`    one `{"t", "tool", "text"}` per captured error (redacted, <= 800 chars)
- `injected/<skill dir>`  created once when a skill's lessons were injected
- `active/<skill dir>`  created once when a skill was used (read or loaded), injected or not
- `failure_shown.jsonl`  one `{"t", "ids"}` per failure injection (a lesson is shown once)
Every write is best effort: on a home that cannot be written (read-only, full) the hook
still does its job, it only remembers less. Standard library only (`memory.light_json`).
"""

from __future__ import annotations

import os
import time

from fireworks_skill_memory.memory.appender import append_line
from fireworks_skill_memory.memory.light_json import dumps, loads
from fireworks_skill_memory.memory.sessions.session_files import (
    INJECTED_DIR,
    PROMPTS_FILE,
    SEEDS_FILE,
    session_folder,
)

ACTIVE_DIR = "active"
FAILURE_SHOWN_FILE = "failure_shown.jsonl"
PROMPT_CHARS = 4000
SEED_CHARS = 800
MAX_SEEDS_BYTES = 64 * 1024


class SessionState:
    """The state folder of one session (created lazily, on first write)."""

    def __init__(self, sessions_dir: str, session_id: object) -> None:
        self.folder = session_folder(sessions_dir, session_id)

    def _append(self, name: str, record: dict[str, object], cap: int | None = None) -> bool:
        """Append one JSON line; False when it was not written (capped, or not writable)."""
        if self.folder is None:
            return False
        path = os.path.join(self.folder, name)
        if cap is not None:
            try:
                if os.path.getsize(path) > cap:
                    return False
            except OSError:
                pass  # not there yet
        # surrogatepass: a prompt may carry a lone surrogate (an escape in the payload's JSON)
        line = dumps(record, ensure_ascii=False)
        return append_line(path, line, folder_mode=0o700, errors="surrogatepass")

    def add_prompt(self, prompt: str) -> bool:
        """Record a user prompt (the caller redacts it); False when it was not written."""
        record = {"t": round(time.time(), 3), "prompt": prompt[:PROMPT_CHARS]}
        return self._append(PROMPTS_FILE, record)

    def add_seed(self, tool: str, text: str) -> bool:
        """Record an error seed (the caller redacts it); the file is capped."""
        record = {"t": round(time.time(), 3), "tool": tool[:100], "text": text[:SEED_CHARS]}
        return self._append(SEEDS_FILE, record, cap=MAX_SEEDS_BYTES)

    def prompts(self, n: int = 2) -> list[str]:
        """The last n recorded prompts, oldest first."""
        if self.folder is None:
            return []
        try:
            with open(os.path.join(self.folder, PROMPTS_FILE), "rb") as handle:
                handle.seek(0, os.SEEK_END)
                size = handle.tell()
                handle.seek(max(0, size - 64 * 1024))
                lines = handle.read().splitlines()[-n:]
        except OSError:
            return []
        prompts = []
        for line in lines:
            try:
                record = loads(line)
            except ValueError:
                continue
            prompt = record.get("prompt") if isinstance(record, dict) else None
            if isinstance(prompt, str) and prompt:
                prompts.append(prompt)
        return prompts

    def was_injected(self, skill_dir: str) -> bool:
        """True when this skill's lessons were already injected in this session."""
        return self.folder is not None and os.path.exists(
            os.path.join(self.folder, INJECTED_DIR, skill_dir)
        )

    def mark_injected(self, skill_dir: str) -> bool:
        """Note that a skill was injected (so a later SKILL.md read does not repeat it).

        False when it could not be noted: the injection stands, a later read may repeat it.
        """
        return self._mark(INJECTED_DIR, skill_dir)

    def mark_active(self, skill_dir: str) -> bool:
        """Note that a skill is in use in this session (its lessons may explain a failure)."""
        return self._mark(ACTIVE_DIR, skill_dir)

    def active_skill_dirs(self) -> list[str]:
        """Directory names of the skills used or injected in this session, sorted."""
        if self.folder is None:
            return []
        found: set[str] = set()
        for name in (INJECTED_DIR, ACTIVE_DIR):
            try:
                found.update(os.listdir(os.path.join(self.folder, name)))
            except OSError:
                continue  # none yet
        return sorted(found)

    def add_failure_shown(self, lesson_ids: list[str]) -> bool:
        """Record the lessons shown on a failure; False when it was not written."""
        return self._append(FAILURE_SHOWN_FILE, {"t": round(time.time(), 3), "ids": lesson_ids})

    def failure_shown(self) -> set[str]:
        """Ids of the lessons this session was shown on a failure."""
        if self.folder is None:
            return set()
        try:
            with open(os.path.join(self.folder, FAILURE_SHOWN_FILE), "rb") as handle:
                lines = handle.read().splitlines()
        except OSError:
            return set()
        shown: set[str] = set()
        for line in lines:
            try:
                record = loads(line)
            except ValueError:
                continue
            ids = record.get("ids") if isinstance(record, dict) else None
            if isinstance(ids, list):
                shown.update(i for i in ids if isinstance(i, str))
        return shown

    def _mark(self, subfolder: str, skill_dir: str) -> bool:
        if self.folder is None:
            return False
        folder = os.path.join(self.folder, subfolder)
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            os.close(os.open(os.path.join(folder, skill_dir), os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError:
            return False
        return True
