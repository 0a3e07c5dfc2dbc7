"""`flush --distill` and `flush --session latest`: the distillation pipeline from the CLI."""

from __future__ import annotations

from memory.errors import InvalidInput


def flush_distilled(skill: str, **options: object) -> None:
    """Distil a summary or session into lessons (arrives with the distillation work)."""
    raise InvalidInput("flush --distill and --session are not available in this build yet")
