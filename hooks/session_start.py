"""SessionStart: make sure the warm service is running (start it detached, never wait).

When the service answers, the forwarded call itself proves it runs and nothing else
happens; this handler only runs when it did not answer.
"""

from __future__ import annotations

from hooks.fast import main_for

EVENT = "SessionStart"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def handle(payload: dict[str, Any]) -> str | None:
    """Start the service (it did not answer the forwarded call). Prints nothing."""
    from hooks.inject_flow import ensure_service
    from memory.config import load_settings

    ensure_service(load_settings(), "SessionStart")
    return None


main = main_for(EVENT, handle)
