"""Per-session hook state under `<sessions_dir>/<session id>/`: prompts, error seeds, injections.

Everything is append-only or create-once, so concurrent hooks need no lock:
- `prompts.jsonl`  one `{"t", "prompt"}` per user prompt (redacted, capped)
- `seeds.jsonl`    one `{"t", "tool", "text"}` per captured error (redacted, <= 800 chars)
- `injected/<skill dir>`  created once when a skill's lessons were injected
Standard library only.
"""

from __future__ import annotations

import json
import os
import time

from memory.session_files import INJECTED_DIR, PROMPTS_FILE, SEEDS_FILE, session_folder

PROMPT_CHARS = 4000
SEED_CHARS = 800
MAX_SEEDS_BYTES = 64 * 1024


class SessionState:
    """The state folder of one session (created lazily, on first write)."""

    def __init__(self, sessions_dir: str, session_id: object) -> None:
        self.folder = session_folder(sessions_dir, session_id)

    def _append(self, name: str, record: dict[str, object], cap: int | None = None) -> None:
        if self.folder is None:
            return
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        path = os.path.join(self.folder, name)
        if cap is not None:
            try:
                if os.path.getsize(path) > cap:
                    return
            except OSError:
                pass  # not there yet
        line = json.dumps(record, ensure_ascii=False) + "\n"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("utf-8", "surrogatepass"))
        finally:
            os.close(fd)

    def add_prompt(self, prompt: str) -> None:
        """Record a user prompt (the caller redacts it)."""
        self._append(PROMPTS_FILE, {"t": round(time.time(), 3), "prompt": prompt[:PROMPT_CHARS]})

    def add_seed(self, tool: str, text: str) -> None:
        """Record an error seed (the caller redacts it); the file is capped."""
        record = {"t": round(time.time(), 3), "tool": tool[:100], "text": text[:SEED_CHARS]}
        self._append(SEEDS_FILE, record, cap=MAX_SEEDS_BYTES)

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
                prompt = json.loads(line).get("prompt")
            except (ValueError, AttributeError):
                continue
            if isinstance(prompt, str) and prompt:
                prompts.append(prompt)
        return prompts

    def was_injected(self, skill_dir: str) -> bool:
        """True when this skill's lessons were already injected in this session."""
        return self.folder is not None and os.path.exists(
            os.path.join(self.folder, INJECTED_DIR, skill_dir)
        )

    def mark_injected(self, skill_dir: str) -> None:
        """Note that a skill was injected (so a later SKILL.md read does not repeat it)."""
        if self.folder is None:
            return
        folder = os.path.join(self.folder, INJECTED_DIR)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        os.close(os.open(os.path.join(folder, skill_dir), os.O_CREAT | os.O_WRONLY, 0o600))
