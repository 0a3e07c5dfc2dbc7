"""`skill-memory codex ...`: install and remove the Codex hooks and AGENTS.md block."""

from __future__ import annotations

import click


@click.group("codex")
def codex_group() -> None:
    """Install or remove the Codex CLI integration."""
