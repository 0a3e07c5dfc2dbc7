"""What every hook shares: read the payload, never break the agent, log failures.

A hook's stdout is the protocol, so output is produced whole or not at all: the body
(`handle(payload, ranker)` of a hook module) returns the text and `run_payload` writes it
once. In a hook process the ranker is `hooks.fallback.LexicalRanker`; in the warm service,
`hooks.warm.WarmRanker` (given by the service's composition root, `cli.service_main`). Any
failure (bad payload, bad settings, disk full, a bug) ends with exit 0, no output, and the
traceback in the log file.
Standard library only, and no `json` either (`memory.light_json`: same results, without the
`re` import that `json` costs every hook process).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing costs milliseconds a hook cannot spare
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any

    from fireworks_skill_memory.hooks.inject_flow import Ranker
    from fireworks_skill_memory.memory.config import Settings

    Body = Callable[[dict[str, Any], Ranker], str | None]

FALLBACK_LOG = os.path.join("~", ".ai-memory", "logs", "skill-memory.log")


def run_payload(
    event: str, body: Body, raw: bytes, stdout: IO[str], settings: Settings, service: str = ""
) -> int:
    """Parse the payload and run the hook body in this process (the lexical ranker, this
    process's settings); always returns 0. `service`: how asking the service went
    (`hooks.fast.exchange`; "" when it was not asked)."""
    try:
        from fireworks_skill_memory.hooks.fallback import LexicalRanker

        output = handle_bytes(body, raw, LexicalRanker(settings, service))
        if output:
            from fireworks_skill_memory.hooks.fast import emit

            emit(stdout, output.encode("utf-8"))
    except BaseException as error:  # noqa: BLE001 - the agent must never see a hook failure
        if not isinstance(error, KeyboardInterrupt):
            log_failure(event)
    return 0


def handle_bytes(body: Body, raw: bytes, ranker: Ranker) -> str | None:
    """The hook's stdout for a raw payload (None for anything that is not a JSON object)."""
    from fireworks_skill_memory.memory.light_json import loads

    try:
        payload = loads(raw)
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    return body(payload, ranker)


def context_output(event: str, text: str | None) -> str | None:
    """The JSON that hands `text` to the model as additional context (None when empty)."""
    if not text:
        return None
    from fireworks_skill_memory.memory.light_json import dumps

    return dumps(
        {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}},
        ensure_ascii=False,
    )


def log_failure(event: str) -> None:
    """Log the current exception (never raises): one line for bad input, else the traceback."""
    import traceback

    from fireworks_skill_memory.memory.errors import SkillMemoryError

    error = sys.exc_info()[1]
    if isinstance(error, SkillMemoryError):  # bad input in a payload, not a bug
        log_note(f"hook {event}: {error}")
        return
    log_note(f"hook {event} failed (pid {os.getpid()}):\n{traceback.format_exc().rstrip()}")


def log_note(message: str) -> None:
    """Append to the log file, rotating it past its size limit (never raises)."""
    from fireworks_skill_memory.memory.appender import log_entry

    log_entry(_log_path(), message)


def _log_path() -> str:
    """The configured log file; with unusable settings, the default one of the memory home."""
    try:
        from fireworks_skill_memory.memory.config import load_settings, resolve_home
        from fireworks_skill_memory.memory.errors import ConfigError

        try:
            return load_settings().log_file
        except ConfigError:  # say, SKILL_MAX=abc: the home itself still resolves
            return os.path.join(resolve_home(), "logs", "skill-memory.log")
    except Exception:  # noqa: BLE001 - a broken installation must still leave a trace somewhere
        return os.path.expanduser(FALLBACK_LOG)
