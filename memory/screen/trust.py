"""The trust of a distilled lesson, read from the session it came from.

The seam the write pipeline calls (`memory.distill.run`): the session's tool calls as
(name, input) pairs and its working folder in, a `Trust` and why out. This version reads
nothing from them: every session is of normal trust until the screen decides otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fireworks_skill_memory.memory.screen.screen import Trust


def session_trust(
    calls: Sequence[tuple[str, Mapping[str, object]]], cwd: str | None
) -> tuple[Trust, str]:
    """The trust of lessons distilled from a session with these (tool name, input) calls."""
    return Trust.NORMAL, ""
