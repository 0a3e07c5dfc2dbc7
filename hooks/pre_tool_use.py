"""PreToolUse, matcher `Skill`: inject the skill's lessons ranked for the current task.

Payload (Claude Code 2.1): `tool_name: "Skill"`, `tool_input: {"skill": name, "args"?: str}`.
The task is the skill's args plus the session's latest prompt(s).
"""

from __future__ import annotations

from fireworks_skill_memory.hooks.fast import main_for

EVENT = "PreToolUse"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.hooks.inject_flow import Ranker


def handle(payload: dict[str, Any], ranker: Ranker) -> str | None:
    """The hook's stdout for one payload (None: print nothing)."""
    tool_input = payload.get("tool_input")
    if payload.get("tool_name") != "Skill" or not isinstance(tool_input, dict):
        return None
    skill = tool_input.get("skill")
    if not isinstance(skill, str):
        return None
    from fireworks_skill_memory.hooks.inject_flow import injection_text, task_parts
    from fireworks_skill_memory.hooks.runtime import context_output
    from fireworks_skill_memory.hooks.state import SessionState
    from fireworks_skill_memory.memory.store.skill_names import skill_dirname

    directory = skill_dirname(skill)  # validates the name
    args = tool_input.get("args")
    settings = ranker.settings
    parts = task_parts(settings, payload, args if isinstance(args, str) else None)
    session = payload.get("session_id")
    text = injection_text(ranker, skill, parts, by="PreToolUse:Skill", session=session)
    if text:
        SessionState(settings.sessions_dir, session).mark_injected(directory)
    return context_output(EVENT, text)


main = main_for(EVENT, handle)
