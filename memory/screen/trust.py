"""The trust of a distilled lesson, read from the session it came from.

A session that used a web tool (WebFetch, WebSearch, a fetch or browser MCP server), ran a
shell command that downloads from another host, or read a file outside its project (other
than the agent's own skills and settings) has read text an attacker could have written: what
is distilled from it is low trust (`screen.Trust.LOW`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from fireworks_skill_memory.memory.screen.lexicon import lexicon
from fireworks_skill_memory.memory.screen.screen import Trust


def call_reads_untrusted(
    name: str, tool_input: Mapping[str, object], cwd: str | None
) -> str | None:
    """Why one tool call brought outside content into the session, or None."""
    lex = lexicon()
    if lex.has("web_tools", name):
        return f"used {name}"
    lowered = name.lower()
    if lowered in lex["shell_tools"].values:
        command = tool_input.get("command", tool_input.get("cmd", ""))
        line = " ".join(map(str, command)) if isinstance(command, list) else str(command)
        if lex.has("shell_fetch", line):
            return "downloaded from the web in a shell command"
    if lowered in lex["read_tools"].values:
        path = tool_input.get("file_path", tool_input.get("path"))
        if isinstance(path, str) and _outside_project(path, cwd):
            return f"read {path}, outside the project"
    return None


def _outside_project(path: str, cwd: str | None) -> bool:
    if not os.path.isabs(path) or lexicon().has("agent_homes", path):
        return False
    if cwd is None:
        return False
    project = os.path.normpath(cwd)
    return os.path.commonpath([project, os.path.normpath(path)]) != project


def session_trust(
    calls: Sequence[tuple[str, Mapping[str, object]]], cwd: str | None
) -> tuple[Trust, str]:
    """The trust of lessons distilled from a session with these (tool name, input) calls."""
    for name, tool_input in calls:
        why = call_reads_untrusted(name, tool_input, cwd)
        if why is not None:
            return Trust.LOW, why
    return Trust.NORMAL, ""
