"""SessionStart: make sure the warm service is running (start it detached, never wait).

When the service answers, the forwarded call itself proves it runs and nothing else
happens; this handler only runs when it did not answer.
"""

from __future__ import annotations

from fireworks_skill_memory.hooks.fast import main_for

EVENT = "SessionStart"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def handle(payload: dict[str, Any]) -> str | None:
    """Start the service unless this runs inside it, and a due team pull. Prints nothing."""
    from fireworks_skill_memory.hooks.inject_flow import ensure_service, in_service
    from fireworks_skill_memory.hooks.team_pull import maybe_start_pull
    from fireworks_skill_memory.memory.config import load_settings

    settings = load_settings()
    if not in_service():  # run by the service itself for a forwarded call: it is up
        ensure_service(settings, "hook:SessionStart")
    maybe_start_pull(settings)  # detached; the hook never waits on the network
    return None


main = main_for(EVENT, handle)
