"""The distiller's bookkeeping: its lock, its state file, the usage statistics and its logs.

Files, all replaced atomically (the logs are appended):

- `<home>/run/distill.lock`: one distillation per home at a time;
- `<home>/run/distill-state.json`: `{"version": 1, "day": "YYYY-MM-DD" (UTC), "calls": N,
  "tokens": N, "eligible": N, "sessions": {id: {"t", "picked", "distilled", "last_call",
  "rated"}}}` (`rated`: the lesson ids this session already rated);
- `settings.stats_file`: `{skill: {"uses", "sessions", "last_used", "lessons_added",
  "lessons_merged"}}` (keys of the original tool's file are kept);
- `settings.distill_log`: one JSON object per run; `settings.log_file`: redacted messages.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

from fireworks_skill_memory.memory.appender import append_line, log_entry
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.locks import hold_lock
from fireworks_skill_memory.memory.redact.redactor import redact, redact_obj
from fireworks_skill_memory.memory.sessions.readers import SessionDigest
from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.markdown_store import AddOutcome

LOCK_FILE = "distill.lock"
STATE_FILE = "distill-state.json"
STATE_VERSION = 1
LOCK_WAIT = 120.0
SESSIONS_KEPT = 1000


@contextlib.contextmanager
def run_lock(settings: Settings, wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold `<home>/run/distill.lock` (one distillation per home at a time), waiting `wait` s."""
    os.makedirs(settings.run_dir, mode=0o700, exist_ok=True)
    with hold_lock(os.path.join(settings.run_dir, LOCK_FILE), wait, what="the distill lock"):
        yield


def utc_day() -> str:
    """Today's date in UTC, the unit of the daily cost guard."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


@dataclass
class DistillState:
    """The distiller's small state file: today's spending, the EVERY counter, sessions seen."""

    path: str
    day: str = ""
    calls: int = 0
    tokens: int = 0
    eligible: int = 0
    sessions: dict[str, dict[str, object]] = field(default_factory=dict)

    @classmethod
    def load(cls, settings: Settings) -> DistillState:
        """The state as stored (a missing or unreadable file starts afresh), rolled to today."""
        path = os.path.join(settings.run_dir, STATE_FILE)
        state = cls(path)
        raw = _json_file(path)
        if raw.get("version") == STATE_VERSION:
            state.day = str(raw.get("day", ""))
            state.calls = _int(raw.get("calls"))
            state.tokens = _int(raw.get("tokens"))
            state.eligible = _int(raw.get("eligible"))
            sessions = raw.get("sessions")
            if isinstance(sessions, dict):
                state.sessions = {str(k): v for k, v in sessions.items() if isinstance(v, dict)}
        today = utc_day()
        if state.day != today:
            state.day, state.calls, state.tokens = today, 0, 0
        return state

    def save(self) -> None:
        """Write the state atomically (the oldest sessions beyond SESSIONS_KEPT are dropped)."""
        if len(self.sessions) > SESSIONS_KEPT:
            newest = sorted(self.sessions.items(), key=lambda kv: -_float(kv[1].get("t")))
            self.sessions = dict(newest[:SESSIONS_KEPT])
        data = {
            "version": STATE_VERSION,
            "day": self.day,
            "calls": self.calls,
            "tokens": self.tokens,
            "eligible": self.eligible,
            "sessions": self.sessions,
        }
        write_atomic(self.path, json.dumps(data, ensure_ascii=False, indent=1) + "\n", 0o600)

    def pick(self, session_id: str, every: int, force: bool) -> bool:
        """Whether this session is distilled; a new one counts as the next eligible session."""
        entry = self.sessions.get(session_id)
        if entry is None:
            # A forced run (the user's `flush --distill`) does not shift the EVERY cadence.
            self.eligible += 0 if force else 1
            entry = {"picked": force or self.eligible % every == 0}
            self.sessions[session_id] = entry
        if force:
            entry["picked"] = True
        entry["t"] = round(time.time(), 3)
        return entry.get("picked") is True

    def over_budget(self, settings: Settings, estimate: int) -> str | None:
        """Why one more call of about `estimate` tokens would break today's cap, or None."""
        if self.calls >= settings.distill_max_calls:
            return (
                f"daily cap: {self.calls} distiller calls today "
                f"(SKILL_MEMORY_DISTILL_MAX_CALLS={settings.distill_max_calls})"
            )
        if self.tokens + estimate > settings.distill_max_tokens:
            return (
                f"daily cap: {self.tokens} tokens used today + ~{estimate} for this call "
                f"> SKILL_MEMORY_DISTILL_MAX_TOKENS={settings.distill_max_tokens}"
            )
        return None

    def reserve_call(self) -> None:
        """Count a call before it is made (a killed worker still paid for it)."""
        self.calls += 1
        self.save()

    def release_call(self) -> None:
        """Give back a reserved call that never reached the model."""
        self.calls = max(0, self.calls - 1)
        self.save()

    def add_tokens(self, tokens: int) -> None:
        """Count the tokens a reply reported."""
        self.tokens += tokens
        self.save()

    def rated(self, session_id: str) -> set[str]:
        """The lesson ids an earlier run already rated for this session (rated once each)."""
        ids = self.sessions.get(session_id, {}).get("rated")
        return {i for i in ids if isinstance(i, str)} if isinstance(ids, list) else set()

    def mark_rated(self, session_id: str, lesson_ids: Sequence[str]) -> None:
        """Remember that the session rated these lessons (saved with the state)."""
        if lesson_ids:
            entry = self.sessions.setdefault(session_id, {"picked": True})
            entry["rated"] = sorted(self.rated(session_id) | set(lesson_ids))

    def mark_distilled(self, session_id: str, digest: SessionDigest) -> None:
        """Remember that the session was distilled up to its last tool call."""
        entry = self.sessions.setdefault(session_id, {"picked": True})
        entry["distilled"] = _int(entry.get("distilled")) + 1
        entry["t"] = round(time.time(), 3)
        if digest.tool_calls:
            entry["last_call"] = digest.tool_calls[-1].id


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _float(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0


def _json_file(path: str) -> dict[str, object]:
    text = read_text(path)
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def update_stats(
    settings: Settings, uses: Mapping[str, int], outcomes: Sequence[AddOutcome]
) -> None:
    """Add a session's skill uses and stored lessons to the usage statistics (locked, atomic)."""
    today = datetime.now().strftime("%Y-%m-%d")
    path = settings.stats_file
    with locked(path):
        data = _json_file(path)
        for skill, count in uses.items():
            record = _stats_record(data, skill)
            record["uses"] = _int(record.get("uses")) + count
            record["sessions"] = _int(record.get("sessions")) + 1
            record["last_used"] = today
        for outcome in outcomes:
            if outcome.lesson.skill is None or outcome.action not in ("added", "merged"):
                continue  # a quarantined lesson was not stored
            record = _stats_record(data, outcome.lesson.skill)
            key = "lessons_merged" if outcome.action == "merged" else "lessons_added"
            record[key] = _int(record.get(key)) + 1
        write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def _stats_record(data: dict[str, object], skill: str) -> dict[str, object]:
    record = data.get(skill)
    if not isinstance(record, dict):
        record = {}
        data[skill] = record
    # A record of the original tool ({"total", "last_seen", "daily"}) keeps its keys.
    record.setdefault("uses", _int(record.get("total")))
    record.setdefault("sessions", 0)
    record.setdefault("last_used", record.get("last_seen", ""))
    record.setdefault("lessons_added", 0)
    record.setdefault("lessons_merged", 0)
    return record


def log_line(settings: Settings, message: str) -> None:
    """Append one redacted entry to the tool's log file."""
    log_entry(settings.log_file, f"distill: {redact(message)}")


def append_distill_log(settings: Settings, result: Mapping[str, object], seconds: float) -> None:
    """Append a run's JSON record (`DistillResult.as_json()`) to the distill log, redacted."""
    record = {
        "t": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        **result,
        "seconds": round(seconds, 3),
    }
    # a log that cannot be written must not stop the pipeline
    append_line(settings.distill_log, json.dumps(redact_obj(record), ensure_ascii=False))
