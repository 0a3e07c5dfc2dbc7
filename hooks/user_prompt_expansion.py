"""UserPromptExpansion (the user typed `/skill args`): inject that skill's lessons.

Payload: `command_name`, `command_args`, `prompt`. The prompt is also recorded, since
it is the task of this turn.
"""

from __future__ import annotations

from fireworks_skill_memory.hooks.fast import main_for

EVENT = "UserPromptExpansion"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.hooks.inject_flow import Ranker


def handle(payload: dict[str, Any], ranker: Ranker) -> str | None:
    """The hook's stdout for one payload (None: print nothing)."""
    skill = payload.get("command_name")
    if not isinstance(skill, str) or not skill:
        return None
    from fireworks_skill_memory.hooks.inject_flow import injection_text
    from fireworks_skill_memory.hooks.runtime import context_output
    from fireworks_skill_memory.hooks.state import SessionState
    from fireworks_skill_memory.memory.redact.redactor import redact
    from fireworks_skill_memory.memory.store.skill_names import skill_dirname

    directory = skill_dirname(skill)
    settings = ranker.settings
    state = SessionState(settings.sessions_dir, payload.get("session_id"))
    prompt = payload.get("prompt")
    if isinstance(prompt, str) and prompt.strip():
        state.add_prompt(redact(prompt))
    args = payload.get("command_args")
    parts = [p.strip() for p in (args, *state.prompts(1)) if isinstance(p, str) and p.strip()]
    text = injection_text(ranker, skill, parts, by=EVENT, session=payload.get("session_id"))
    if text:
        state.mark_injected(directory)
    return context_output(EVENT, text)


main = main_for(EVENT, handle)
