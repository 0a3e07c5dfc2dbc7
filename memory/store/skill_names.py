"""Skill names: validation, and the mapping to a safe directory name and back.

Plugin skills are named `<plugin>:<skill>` by Claude Code; `:` is not safe in every
file system, so it is stored as `__` (and `__` is therefore reserved in names).
"""

from __future__ import annotations

from fireworks_skill_memory.memory.errors import InvalidSkillName

MAX_SKILL_CHARS = 100
PLUGIN_SEPARATOR = ":"
DIR_SEPARATOR = "__"
_FORBIDDEN = ("/", "\\", "\x00")


def validate_skill(name: str) -> str:
    """Return `name` when it is a usable skill name, else raise InvalidSkillName."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidSkillName("skill name is empty")
    shown = repr(name) if len(name) <= MAX_SKILL_CHARS else repr(name[:40]) + "..."
    if len(name) > MAX_SKILL_CHARS:
        raise InvalidSkillName(f"skill name {shown} is over {MAX_SKILL_CHARS} characters")
    if any(bad in name for bad in _FORBIDDEN):
        raise InvalidSkillName(f"skill name {shown} contains '/', '\\' or NUL")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise InvalidSkillName(f"skill name {shown} contains a control character")
    if name != name.strip():
        raise InvalidSkillName(f"skill name {shown} has leading or trailing spaces")
    if name in (".", "..") or ".." in name:
        raise InvalidSkillName(f"skill name {shown} contains '..'")
    if name.startswith((".", "@", "-")):
        raise InvalidSkillName(f"skill name {shown} may not start with '.', '@' or '-'")
    if DIR_SEPARATOR in name:
        raise InvalidSkillName(f"skill name {shown} contains '__', reserved for plugin names")
    if (
        name.count(PLUGIN_SEPARATOR) > 1
        or name.startswith(PLUGIN_SEPARATOR)
        or name.endswith(PLUGIN_SEPARATOR)
    ):
        raise InvalidSkillName(f"skill name {shown} is not of the form <plugin>:<skill>")
    return name


def skill_dirname(name: str) -> str:
    """The directory name that stores skill `name` (validated)."""
    return validate_skill(name).replace(PLUGIN_SEPARATOR, DIR_SEPARATOR)


def skill_from_dirname(dirname: str) -> str | None:
    """The skill a directory stores, or None when the directory name is not one of ours."""
    name = dirname.replace(DIR_SEPARATOR, PLUGIN_SEPARATOR, 1)
    try:
        return validate_skill(name)
    except InvalidSkillName:
        return None
