"""PostToolUse (every tool): inject on a SKILL.md read, and keep error seeds.

- `Read` of `.../skills/<name>/SKILL.md` (Claude), or a shell command that reads one
  (Codex runs `cat`/`sed` through `tool_name: "Bash"`): inject that skill's lessons ranked
  for the session's latest prompt, once per skill per session.
- Shell output that looks like an error: redact, cap and append it to the session's seeds.
This runs on every tool call, so anything not needed is never imported.
"""

from __future__ import annotations

from fireworks_skill_memory.hooks.fast import main_for
from fireworks_skill_memory.hooks.seeds import SHELL_TOOLS, failed_response

EVENT = "PostToolUse"
READ_TOOLS = frozenset({"Read", "View"})

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def skills_read(tool: str, tool_input: dict[str, Any], cwd: str | None) -> list[str]:
    """Skills whose SKILL.md this tool call read (cheap when there are none)."""
    if tool in READ_TOOLS:
        path = tool_input.get("file_path")
        if isinstance(path, str) and path.endswith("SKILL.md"):
            from fireworks_skill_memory.memory.sessions.skill_paths import skill_from_skill_md

            skill = skill_from_skill_md(path, cwd)
            return [skill] if skill else []
    elif tool in SHELL_TOOLS:
        command = tool_input.get("command", tool_input.get("cmd"))
        if isinstance(command, str) and "SKILL.md" in command:
            from fireworks_skill_memory.memory.sessions.skill_paths import (
                skills_in_shell_command,
            )

            return skills_in_shell_command(command, cwd)
    return []


def handle(payload: dict[str, Any]) -> str | None:
    """The hook's stdout for one payload (None: print nothing)."""
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if not isinstance(tool, str) or not isinstance(tool_input, dict):
        return None
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    skills = skills_read(tool, tool_input, cwd)
    # a SKILL.md read is documentation, not a failure, whatever words it contains
    seed = None if skills else failed_response(tool, payload.get("tool_response"))
    if not skills and seed is None:
        return None
    from fireworks_skill_memory.hooks.runtime import context_output
    from fireworks_skill_memory.hooks.state import SessionState
    from fireworks_skill_memory.memory.config import load_settings

    settings = load_settings()
    state = SessionState(settings.sessions_dir, payload.get("session_id"))
    if seed is not None:
        from fireworks_skill_memory.memory.redact.redactor import redact

        state.add_seed(tool, redact(seed))
    return context_output(EVENT, _inject_new(settings, state, payload, skills))


def _inject_new(
    settings: Any, state: Any, payload: dict[str, Any], skills: list[str]
) -> str | None:
    from fireworks_skill_memory.hooks.inject_flow import injection_text, task_parts
    from fireworks_skill_memory.memory.store.skill_names import skill_dirname

    blocks = []
    for skill in skills:
        directory = skill_dirname(skill)
        if state.was_injected(directory):
            continue
        text = injection_text(
            settings, skill, task_parts(settings, payload), by=f"{EVENT}:SKILL.md"
        )
        if text:
            state.mark_injected(directory)
            blocks.append(text)
    return "\n\n".join(blocks) or None


main = main_for(EVENT, handle)
