"""`skill-memory eval supersede`: merge, supersede or keep both on labelled pairs."""

from __future__ import annotations

import click


@click.command("supersede")
def supersede_command() -> None:
    """Decide lesson pairs (placeholder while it is built)."""
    raise click.ClickException("not built yet")
