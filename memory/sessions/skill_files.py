"""Find a skill's SKILL.md by its name, the way the agents lay skills out, and hash it.

Roots, in order: Claude Code (`$CLAUDE_CONFIG_DIR` or `~/.claude`, then `<cwd>/.claude`), the
shared `~/.agents` and `<cwd>/.agents`, Codex (`$CODEX_HOME` or `~/.codex`, its bundled
`.system` skills, then `<cwd>/.codex`); a plugin skill `<plugin>:<name>` is looked up under
the Claude plugin folders (`<root>/skills/<name>/SKILL.md` where `<root>` holds
`.claude-plugin/plugin.json` naming the plugin). The first file found wins.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Mapping

from fireworks_skill_memory.memory.sessions.skill_paths import (
    CODEX_SYSTEM_DIR,
    SKILL_FILE,
    SKILLS_DIR,
    skill_from_skill_md,
)

PLUGIN_SEARCH_DEPTH = 5
HASH_CHARS = 16
MAX_SKILL_BYTES = 4_000_000


def _roots(env: Mapping[str, str], cwd: str | None) -> Iterator[str]:
    home = env.get("HOME") or os.path.expanduser("~")
    yield env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    if cwd:
        yield os.path.join(cwd, ".claude")
    yield os.path.join(home, ".agents")
    if cwd:
        yield os.path.join(cwd, ".agents")
    codex = env.get("CODEX_HOME") or os.path.join(home, ".codex")
    yield codex
    if cwd:
        yield os.path.join(cwd, ".codex")


def skill_md_path(skill: str, env: Mapping[str, str], cwd: str | None = None) -> str | None:
    """The SKILL.md of `skill` (a plain or `<plugin>:<name>` name), or None when none is found."""
    if ":" in skill:
        plugin, name = skill.split(":", 1)
        return _plugin_skill(plugin, name, env)
    for root in _roots(env, cwd):
        folder = os.path.join(root, SKILLS_DIR)
        for candidate in (
            os.path.join(folder, skill, SKILL_FILE),
            os.path.join(folder, CODEX_SYSTEM_DIR, skill, SKILL_FILE),
        ):
            if os.path.isfile(candidate):
                return candidate
    return None


def _plugin_skill(plugin: str, name: str, env: Mapping[str, str]) -> str | None:
    """The SKILL.md under the Claude plugin folders that the hooks would name `plugin:name`."""
    home = env.get("HOME") or os.path.expanduser("~")
    base = os.path.join(env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude"), "plugins")
    start_depth = base.rstrip(os.sep).count(os.sep)
    wanted = f"{plugin}:{name}"
    for folder, dirs, _ in os.walk(base):
        if folder.count(os.sep) - start_depth >= PLUGIN_SEARCH_DEPTH:
            dirs[:] = []
        candidate = os.path.join(folder, SKILLS_DIR, name, SKILL_FILE)
        if os.path.isfile(candidate) and skill_from_skill_md(candidate) == wanted:
            return candidate
    return None


def file_hash(path: str) -> str | None:
    """A short content hash of a file (None when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SKILL_BYTES)
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest()[:HASH_CHARS]


def skill_md_hash(skill: str | None, env: Mapping[str, str], cwd: str | None = None) -> str | None:
    """The content hash of the skill's current SKILL.md, or None (global scope, none found)."""
    if skill is None:
        return None
    path = skill_md_path(skill, env, cwd)
    return None if path is None else file_hash(path)
