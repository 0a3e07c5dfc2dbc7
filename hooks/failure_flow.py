"""Injecting at the moment of failure, from the PostToolUse and PostToolUseFailure handlers.

In the warm service only: the lessons of the session's active skills (used or injected so
far) and the global ones are ranked against the failure's task text
(`memory.retrieval.failure.failure_task`) under the failure gate; at most two are shown,
each once per session, and recorded in the injection log with `by` naming the event. In a
hook process (the service did not answer) nothing is injected for a failure: the lexical
fallback has no gate hard enough to tell an explained failure from an unexplained one.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.hooks.state import SessionState
    from fireworks_skill_memory.memory.config import Settings

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
    settings: Settings, state: SessionState, payload: dict[str, Any], output: str, by: str
) -> str | None:
    """The block to inject for a failed call with this output (None: nothing explains it)."""
    from fireworks_skill_memory.hooks import inject_flow

    ranker = inject_flow.failure_ranker()
    if ranker is None:
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
    result = ranker.failure(skills, task, sorted(state.failure_shown()))
    text = result.get("text")
    if not isinstance(text, str) or not text:
        return None
    _record(settings, state, payload, result, skills[0], by)
    return text


def _record(
    settings: Settings,
    state: SessionState,
    payload: dict[str, Any],
    result: dict[str, Any],
    first_skill: str,
    by: str,
) -> None:
    """Note the shown lessons in the session (never again) and in the injection log."""
    from fireworks_skill_memory.memory.retrieval.usage import record_injection

    by_skill: dict[str, list[str]] = {}
    for key in ("lessons", "global"):
        items = result.get(key)
        for item in items if isinstance(items, list) else []:
            lesson_id = item.get("id") if isinstance(item, dict) else None
            if isinstance(lesson_id, str):
                skill = item.get("skill")
                # a global lesson is logged with the skill it was shown alongside
                owner = skill if isinstance(skill, str) and skill else first_skill
                by_skill.setdefault(owner, []).append(lesson_id)
    state.add_failure_shown([i for ids in by_skill.values() for i in ids])
    for skill, ids in by_skill.items():
        record_injection(settings, skill, ids, by, payload.get("session_id"))
