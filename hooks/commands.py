"""`skill-memory hooks ...`: install, remove and inspect the Claude Code hooks."""

from __future__ import annotations

import click


@click.group("hooks")
def hooks_group() -> None:
    """Install, remove or inspect the Claude Code hooks."""
