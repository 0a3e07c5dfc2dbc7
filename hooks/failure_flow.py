"""Injecting at the moment of failure, from the PostToolUse and PostToolUseFailure handlers.

With the warm ranker only: the lessons of the session's active skills (used or injected so
far) and the global ones are ranked against the failure's task text
(`memory.retrieval.failure.failure_task`) under the failure gate; at most two are shown,
each once per session, and recorded in the injection log with `by` naming the event. With
the lexical ranker (a hook process whose service did not answer) nothing is injected for a
failure: the lexical match has no gate hard enough to tell an explained failure from an
unexplained one.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.hooks.inject_flow import Ranker
    from fireworks_skill_memory.hooks.state import SessionState

COMMAND_KEYS = ("command", "cmd", "file_path", "path", "url", "pattern")


def called_command(tool: str, tool_input: object) -> str:
    """What the failed call ran: its command line, else the tool and its main argument."""
    if not isinstance(tool_input, dict):
        return tool
    for key in COMMAND_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            return value if key in ("command", "cmd") else f"{tool} {value}"
        if isinstance(value, list) and all(isinstance(part, str) for part in value):
            return " ".join(value)  # Codex `local_shell` passes argv
    return tool


def failure_context(
    ranker: Ranker, state: SessionState, payload: dict[str, Any], output: str, by: str
) -> str | None:
    """The block to inject for a failed call with this output (None: nothing explains it)."""
    if not ranker.warm:
        return None
    from fireworks_skill_memory.memory.store.skill_names import skill_from_dirname

    skills = [
        skill for skill in map(skill_from_dirname, state.active_skill_dirs()) if skill is not None
    ]
    if not skills:
        return None
    from fireworks_skill_memory.memory.retrieval.failure import failure_task

    tool = payload.get("tool_name")
    command = called_command(tool if isinstance(tool, str) else "", payload.get("tool_input"))
    task = failure_task(command, output)
    if not task:
        return None
    shown = state.failure_shown()
    injection = ranker.failure(skills, task, shown, by, payload.get("session_id"))
    if injection is None or not injection.text:
        return None
    state.add_failure_shown([i for ids in injection.shown().values() for i in ids])
    return injection.text
