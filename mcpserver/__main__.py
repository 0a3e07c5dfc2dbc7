"""`python -m fireworks_skill_memory.mcpserver [--agent A] [--wait S]`: the command installers
register, the same server as `skill-memory mcp` without the click CLI's start-up cost.

Bad options exit 2 with a usage line on stderr (argparse); stdout stays protocol-only.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from fireworks_skill_memory.mcpserver.link import DEFAULT_WAIT, MAX_WAIT
from fireworks_skill_memory.memory.store.provenance import AGENTS


def _wait(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= MAX_WAIT:
        raise argparse.ArgumentTypeError(f"{value:g} is not in the range 0 to {MAX_WAIT:g}")
    return value


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The server's options (the same as `skill-memory mcp`'s)."""
    parser = argparse.ArgumentParser(
        prog="python -m fireworks_skill_memory.mcpserver",
        description="Serve the memory tools over MCP on stdin/stdout.",
    )
    parser.add_argument("--agent", choices=AGENTS, help="The agent that starts the server.")
    parser.add_argument(
        "--wait",
        type=_wait,
        default=DEFAULT_WAIT,
        help=f"Seconds a tool call waits for a starting memory service (default {DEFAULT_WAIT:g}).",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    options = parse(argv)
    from fireworks_skill_memory.mcpserver.sdk import skip_package_inits

    skip_package_inits()
    from fireworks_skill_memory.mcpserver.app import serve
    from fireworks_skill_memory.memory.config import load_settings

    serve(load_settings(), agent=options.agent, wait=options.wait)


if __name__ == "__main__":
    main()
