"""UserPromptSubmit: record the prompt as the session's current task (prints nothing)."""

from __future__ import annotations

from fireworks_skill_memory.hooks.fast import main_for

EVENT = "UserPromptSubmit"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.hooks.inject_flow import Ranker


def handle(payload: dict[str, Any], ranker: Ranker) -> str | None:
    """Record the prompt (redacted); never adds context."""
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return None
    from fireworks_skill_memory.hooks.state import SessionState
    from fireworks_skill_memory.memory.redact.redactor import redact

    settings = ranker.settings
    state = SessionState(settings.sessions_dir, payload.get("session_id"))
    recent = state.prompts(1)
    clean = redact(prompt)
    if not recent or recent[-1] != clean:  # UserPromptExpansion may have recorded it already
        state.add_prompt(clean)
    from fireworks_skill_memory.hooks.inject_flow import task_parts

    ranker.prepare(task_parts(settings, payload))  # warm: the next injection's task, embedded now
    return None


main = main_for(EVENT, handle)
