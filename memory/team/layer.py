"""The pulled team layer: read-only markdown under `<home>/team/`, its ledger, its pull state.

`<home>/team/skills/<skill>/KNOWLEDGE.md` has the same line format as a personal knowledge
file (a person can read and grep it), with `.lessons.jsonl` beside it holding each lesson's
provenance and author, and QUARANTINE.md for team lessons the screen stopped on pull. Only
`team pull` writes it (through a `Store` over the team folder, so writes are locked and
atomic); the index mirrors it under the scope `@team:<skill>` (`team_scope`).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.knowledge_files import source_path
from fireworks_skill_memory.memory.store.ledger import read_ledger
from fireworks_skill_memory.memory.store.markdown_store import KnowledgeSource, Store

TEAM_SCOPE_PREFIX = "@team:"  # skill names never start with "@", so no skill can collide
STATE_FILE = "state.json"
UNLIMITED = str(10**9)  # the team layer mirrors the team table: no eviction


def team_settings(settings: Settings) -> Settings:
    """Settings whose home is the team layer (same model, author and limits lifted)."""
    env = dict(settings.environ)
    env.update(
        AI_MEMORY_HOME=settings.team_dir,
        AI_MEMORY_SKILLS_DIR=os.path.join(settings.team_dir, "skills"),
        AI_MEMORY_GLOBAL_FILE=os.path.join(settings.team_dir, "global", "KNOWLEDGE.md"),
        SKILLS_KNOWLEDGE_DIR=os.path.join(settings.team_dir, ".no-legacy"),
        SKILL_MAX=UNLIMITED,
        GLOBAL_MAX=UNLIMITED,
    )
    return Settings(env)


def team_store(settings: Settings) -> Store:
    """The store over the team layer (only `team pull` writes through it)."""
    return Store(team_settings(settings))


def team_scope(scope: str) -> str:
    """The index scope of a team layer file, from the scope of the same skill's own lessons."""
    return TEAM_SCOPE_PREFIX + scope


def team_source(settings: Settings, skill: str | None) -> KnowledgeSource | None:
    """The team layer's knowledge file of a scope, when it was pulled."""
    if not settings.team_uri and not os.path.isdir(settings.team_dir):
        return None
    found = source_path(team_settings(settings), skill)
    if found is None:
        return None
    try:
        stat = os.stat(found[0])
    except FileNotFoundError:
        return None
    return KnowledgeSource(
        skill, found[0], stat.st_mtime_ns, stat.st_size, False, stat.st_ino, layer="team"
    )


def team_sources(settings: Settings) -> list[KnowledgeSource]:
    """Every knowledge file of the team layer (none when nothing was ever pulled)."""
    if not os.path.isdir(settings.team_dir):
        return []
    return [replace(source, layer="team") for source in Store(team_settings(settings)).sources()]


def authors(settings: Settings, skill: str | None) -> dict[str, str]:
    """Lesson id -> author, from the scope's ledger (read as is, nothing reconciled)."""
    return {
        record.id: record.provenance.author
        for record in read_ledger(settings, skill).records.values()
    }


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
