"""The pulled team layer as `team pull` writes it: its store and its pull state.

`<home>/team/skills/<skill>/KNOWLEDGE.md` has the same line format as a personal knowledge
file (a person can read and grep it), with `.lessons.jsonl` beside it holding each lesson's
provenance and author, and QUARANTINE.md for team lessons the screen stopped on pull. Only
`team pull` writes it (through a `Store` over the team folder, so writes are locked and
atomic). Where the layer lives and how it is ranked beside the home's own lessons is
retrieval's (`memory.retrieval.layers`).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.retrieval.layers import team_settings
from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.markdown_store import Store

STATE_FILE = "state.json"


def team_store(settings: Settings) -> Store:
    """The store over the team layer (only `team pull` writes through it)."""
    return Store(team_settings(settings))


@dataclass(frozen=True)
class TeamState:
    """What this home knows of the team table: last pull (version, fragment mark), last push."""

    uri: str = ""
    version: int = 0
    max_fragment: int = -1
    pulled_at: str | None = None
    pushed_at: str | None = None
    lessons: int = 0  # team lessons in the layer after the last pull


def state_path(settings: Settings) -> str:
    return os.path.join(settings.team_dir, STATE_FILE)


def read_state(settings: Settings) -> TeamState:
    """The team state (defaults when there is none or it cannot be read)."""
    text = read_text(state_path(settings))
    try:
        raw = json.loads(text) if text else {}
    except ValueError:
        raw = {}
    if not isinstance(raw, dict):
        raw = {}
    default = asdict(TeamState())
    values: dict[str, object] = {}
    for name, fallback in default.items():
        value = raw.get(name, fallback)
        wanted = str if fallback is None else type(fallback)
        ok = (isinstance(value, wanted) and not isinstance(value, bool)) or value is None
        values[name] = value if ok and (value is not None or fallback is None) else fallback
    return TeamState(**values)  # type: ignore[arg-type]


def update_state(settings: Settings, **changes: object) -> TeamState:
    """Change some fields of the team state under its lock (atomic write)."""
    path = state_path(settings)
    os.makedirs(settings.team_dir, exist_ok=True)
    with locked(path):
        state = replace(read_state(settings), **changes)  # type: ignore[arg-type]
        write_atomic(path, json.dumps(asdict(state), indent=1) + "\n")
    return state
