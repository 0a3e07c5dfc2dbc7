"""`skill-memory mcp`: the stdio MCP server that the agents start (see the mcpserver package)."""

from __future__ import annotations

import click

from fireworks_skill_memory.mcpserver.link import DEFAULT_WAIT, MAX_WAIT
from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.store.provenance import AGENTS


@click.command("mcp")
@click.option(
    "--agent",
    type=click.Choice(AGENTS),
    help="The agent that starts the server, recorded in the provenance of lessons it stores.",
)
@click.option(
    "--wait",
    type=click.FloatRange(0, MAX_WAIT),
    default=DEFAULT_WAIT,
    show_default=True,
    help="Seconds a tool call waits for a starting memory service before it answers "
    "'try again in a few seconds'.",
)
def mcp_command(agent: str | None, wait: float) -> None:
    """Serve the memory tools over MCP on stdin/stdout (started by Claude Code or Codex).

    Tools: search_lessons, lessons_for_skill, record_lesson, rate_lesson, list_skills.
    Every call goes to the warm service (started when absent); stdout carries only protocol.
    Agents are registered with `python -m fireworks_skill_memory.mcpserver`, the same server
    without this CLI's start-up cost.
    """
    from fireworks_skill_memory.mcpserver.sdk import skip_package_inits

    skip_package_inits()  # this process is the server from here on
    from fireworks_skill_memory.mcpserver.app import serve

    serve(load_settings(), agent=agent, wait=wait)


COMMANDS = (mcp_command,)
