"""What injections cost and what they earned: tokens per skill and per day, and the share of
sessions in which a lesson the session was shown was rated `helped`.

Read from the injection log (`usage`: one line per injection, with its `tokens` since they
were recorded) and the distill log (the distiller's ratings of the lessons each session was
shown). A `feedback --helped` given by hand names no session, so it counts in the lesson's
ledger (`helped`) but not in the session share. Days are UTC.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.retrieval.usage import injection_records
from fireworks_skill_memory.memory.sessions.session_files import session_key


@dataclass(frozen=True)
class TokenStats:
    """Injections and their tokens, by skill and by day, and the sessions they helped."""

    injections: int = 0
    tokens: int = 0
    untracked: int = 0  # injections logged before their tokens were recorded
    per_skill: dict[str, int] = field(default_factory=dict)  # tokens
    per_day: dict[str, int] = field(default_factory=dict)  # tokens, by UTC day, oldest first
    sessions: int = 0  # sessions with at least one injection
    sessions_helped: int = 0  # ... in which an injected lesson was rated helped

    @property
    def helped_share(self) -> float | None:
        """The share of sessions with an injection in which one was rated helped."""
        return self.sessions_helped / self.sessions if self.sessions else None

    def as_json(self) -> dict[str, object]:
        """The figures as `stats --json` prints them."""
        share = self.helped_share
        return {
            "injections": self.injections,
            "tokens_injected": self.tokens,
            "injections_without_tokens": self.untracked,
            "tokens_per_skill": self.per_skill,
            "tokens_per_day": self.per_day,
            "sessions_with_injections": self.sessions,
            "sessions_helped": self.sessions_helped,
            "helped_share": None if share is None else round(share, 4),
        }


def token_stats(settings: Settings) -> TokenStats:
    """The figures of the home's logs (see the module docstring)."""
    injections = tokens = untracked = 0
    per_skill: dict[str, int] = {}
    per_day: dict[str, int] = {}
    sessions: set[str] = set()
    for record in injection_records(settings):
        injections += 1
        session = record.get("session")
        if isinstance(session, str):
            sessions.add(session)
        size = record.get("tokens")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            untracked += 1
            continue
        tokens += size
        skill = record.get("skill")
        if isinstance(skill, str):
            per_skill[skill] = per_skill.get(skill, 0) + size
        stamp = record.get("t")
        if isinstance(stamp, (int, float)):
            day = time.strftime("%Y-%m-%d", time.gmtime(stamp))
            per_day[day] = per_day.get(day, 0) + size
    helped = sessions & set(_helped_sessions(settings))
    return TokenStats(
        injections,
        tokens,
        untracked,
        dict(sorted(per_skill.items(), key=lambda item: (-item[1], item[0]))),
        dict(sorted(per_day.items())),
        len(sessions),
        len(helped),
    )


def _helped_sessions(settings: Settings) -> Iterator[str]:
    """The session keys whose distillation applied a `helped` rating."""
    try:
        handle = open(settings.distill_log, encoding="utf-8")  # noqa: SIM115
    except FileNotFoundError:
        return
    with handle:
        for line in handle:
            if '"helped"' not in line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            ratings = record.get("ratings") if isinstance(record, dict) else None
            if not isinstance(ratings, list):
                continue
            if any(
                isinstance(r, dict) and r.get("rating") == "helped" and r.get("applied")
                for r in ratings
            ):
                key = session_key(record.get("session"))
                if key is not None:
                    yield key
