"""Where the agents keep skills: a skill's SKILL.md found by its name, and its hash.

Roots, in order: Claude Code (`$CLAUDE_CONFIG_DIR` or `~/.claude`, then `<cwd>/.claude`), the
shared `~/.agents` and `<cwd>/.agents`, Codex (`$CODEX_HOME` or `~/.codex`, its bundled
`.system` skills, then `<cwd>/.codex`); a plugin skill `<plugin>:<name>` is looked up under
the Claude plugin folders (`<root>/skills/<name>/SKILL.md` where `<root>` holds
`.claude-plugin/plugin.json` naming the plugin). The first file found wins.

Below every sub-package of `memory` (standard library only, `hashlib` and `json` imported
when used): the store hashes a skill's SKILL.md for its lessons' standing, and
`memory.sessions.skill_paths` names the skills that tool calls read with the same layout.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # hooks import this module (through memory.sessions.skill_paths)
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

SKILL_FILE = "SKILL.md"
SKILLS_DIR = "skills"
CODEX_SYSTEM_DIR = ".system"
PLUGIN_MANIFEST = os.path.join(".claude-plugin", "plugin.json")
MAX_MANIFEST_BYTES = 65_536
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
    for folder, dirs, _ in os.walk(base):
        if folder.count(os.sep) - start_depth >= PLUGIN_SEARCH_DEPTH:
            dirs[:] = []
        candidate = os.path.join(folder, SKILLS_DIR, name, SKILL_FILE)
        if os.path.isfile(candidate) and plugin_name(folder) == plugin:
            return candidate
    return None


def plugin_name(root: str) -> str | None:
    """The plugin name when `root` is a Claude plugin root, else None.

    A root holding `.claude-plugin/plugin.json` is a plugin: its `"name"`, else the directory
    name. Without a manifest on disk (e.g. reading another machine's transcript), a root under
    a `.claude/plugins/` tree is still taken for a plugin, named after its directory.
    """
    manifest = os.path.join(root, PLUGIN_MANIFEST)
    # A relative root would be looked up in this process's cwd, which is not the agent's.
    if os.path.isabs(root) and os.path.isfile(manifest):
        return _manifest_name(manifest) or _plugin_dir_name(root)
    marker = os.sep + os.path.join(".claude", "plugins") + os.sep
    if marker in root + os.sep and os.path.basename(root) != "plugins":
        return _plugin_dir_name(root)
    return None


def _manifest_name(manifest: str) -> str | None:
    import json

    try:
        with open(manifest, encoding="utf-8") as handle:
            data = json.loads(handle.read(MAX_MANIFEST_BYTES))
    except (OSError, ValueError):
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name.strip() else None


def _plugin_dir_name(root: str) -> str:
    # Marketplace installs live in `.../plugins/cache/<marketplace>/<plugin>/<version>/`.
    name = os.path.basename(root)
    if name[:1].isdigit():
        return os.path.basename(os.path.dirname(root)) or name
    return name


def file_hash(path: str) -> str | None:
    """A short content hash of a file (None when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SKILL_BYTES)
    except OSError:
        return None
    return content_hash(data)


def text_hash(text: str) -> str:
    """The hash `file_hash` gives a file holding `text` (written as UTF-8)."""
    return content_hash(text.encode("utf-8", "surrogateescape")[:MAX_SKILL_BYTES])


def content_hash(data: bytes) -> str:
    """A short content hash of a file's first MAX_SKILL_BYTES bytes."""
    import hashlib

    return hashlib.sha256(data).hexdigest()[:HASH_CHARS]


def working_folder() -> str | None:
    """The process's working folder, where project skills are looked for (None: deleted)."""
    try:
        return os.getcwd()
    except OSError:
        return None


def skill_md_hash(skill: str | None, env: Mapping[str, str], cwd: str | None = None) -> str | None:
    """The content hash of the skill's current SKILL.md, or None (global scope, none found)."""
    if skill is None:
        return None
    path = skill_md_path(skill, env, cwd)
    return None if path is None else file_hash(path)
