"""PostToolUse (every tool): inject on a SKILL.md read, and keep error seeds.

- `Read` of `.../skills/<name>/SKILL.md` (Claude), or a shell command that reads one
  (Codex runs `cat`/`sed` through `tool_name: "Bash"`): inject that skill's lessons ranked
  for the session's latest prompt, once per skill per session.
- `Skill` (Claude) and SKILL.md reads mark the skill active in the session.
- Output that looks like an error (`hooks.seeds.failed_response`): redact, cap and append it to
  the session's seeds, and, in the warm service, inject the lessons of the active skills that
  explain it (`hooks.failure_flow`; Codex reports failures only through this event).
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

    from fireworks_skill_memory.hooks.inject_flow import Ranker
    from fireworks_skill_memory.hooks.state import SessionState


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


def handle(payload: dict[str, Any], ranker: Ranker) -> str | None:
    """The hook's stdout for one payload (None: print nothing)."""
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if not isinstance(tool, str) or not isinstance(tool_input, dict):
        return None
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    skills = skills_read(tool, tool_input, cwd)
    loaded = tool_input.get("skill") if tool == "Skill" else None
    # a SKILL.md read is documentation, not a failure, whatever words it contains
    seed = None if skills or loaded else failed_response(tool, payload.get("tool_response"))
    if not skills and seed is None and not isinstance(loaded, str):
        return None
    from fireworks_skill_memory.hooks.runtime import context_output
    from fireworks_skill_memory.hooks.state import SessionState

    state = SessionState(ranker.settings.sessions_dir, payload.get("session_id"))
    if isinstance(loaded, str):
        _mark_active(state, [loaded])
        return None
    if seed is not None:
        from fireworks_skill_memory.hooks.failure_flow import failure_context
        from fireworks_skill_memory.hooks.seeds import response_text
        from fireworks_skill_memory.memory.redact.redactor import redact

        state.add_seed(tool, redact(seed))
        output = response_text(payload.get("tool_response"))
        return context_output(EVENT, failure_context(ranker, state, payload, output, by=EVENT))
    _mark_active(state, skills)
    return context_output(EVENT, _inject_new(ranker, state, payload, skills))


def _mark_active(state: SessionState, skills: list[str]) -> None:
    from fireworks_skill_memory.memory.errors import InvalidSkillName
    from fireworks_skill_memory.memory.store.skill_names import skill_dirname

    for skill in skills:
        try:
            state.mark_active(skill_dirname(skill))
        except InvalidSkillName:
            continue  # not a name this memory could hold


def _inject_new(
    ranker: Ranker, state: SessionState, payload: dict[str, Any], skills: list[str]
) -> str | None:
    from fireworks_skill_memory.hooks.inject_flow import injection_text, task_parts
    from fireworks_skill_memory.memory.store.skill_names import skill_dirname

    blocks = []
    for skill in skills:
        directory = skill_dirname(skill)
        if state.was_injected(directory):
            continue
        text = injection_text(
            ranker,
            skill,
            task_parts(ranker.settings, payload),
            by=f"{EVENT}:SKILL.md",
            session=payload.get("session_id"),
        )
        if text:
            state.mark_injected(directory)
            blocks.append(text)
    return "\n\n".join(blocks) or None


main = main_for(EVENT, handle)
