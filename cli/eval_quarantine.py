"""`skill-memory eval quarantine`: the poisoning screen on labelled lessons."""

from __future__ import annotations

import click


@click.command("quarantine")
def quarantine_command() -> None:
    """Screen lessons for poisoning (placeholder while it is built)."""
    raise click.ClickException("not built yet")
