"""How commands report stored lessons: one wording for `add`, `flush` and `flush --distill`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import click

from fireworks_skill_memory.cli.common import emit_json

if TYPE_CHECKING:  # the write pipeline behind it costs every other command ~0.1 s
    from fireworks_skill_memory.memory.distill.flush import FlushResult


def describe(outcome: Mapping[str, object]) -> str:
    """What happened to one lesson (an `AddOutcome.as_json()` record), with any evictions."""
    lesson = outcome["lesson"]
    assert isinstance(lesson, Mapping)
    similarity = outcome.get("similarity")
    if outcome["action"] == "quarantined":
        where = outcome.get("quarantined_to")
        kept = f"kept in {where}; " if where else ""
        return f"quarantined: {outcome['reason']}\n  ({kept}never injected; `skill-memory review`)"
    if outcome["action"] == "merged":
        how = str(outcome["reason"]) + (
            "" if similarity is None else f", similarity {similarity:.2f}"
        )
        line = f"merged into {lesson['id']} ({how}); HIT is now {lesson['hits']}"
        folded = outcome.get("merged_wording")
        if folded is not None:
            archived = outcome.get("archived_to")
            line += f"\n  kept:      {lesson['text']}\n  folded in: {folded}"
            line += f"\n  (the folded-in wording is kept in {archived})" if archived else ""
    else:
        line = f"added {lesson['id']}: [{lesson['tag']}] {lesson['text']}"
        superseded = outcome.get("superseded")
        if isinstance(superseded, Mapping):
            line += f"\n  superseded {superseded['id']}: {superseded['text']} (archived)"
        if outcome.get("contested_with"):
            line += f"\n  contradicts {outcome['contested_with']}, which has more HITs: both kept"
            line += " (`skill-memory review` lists the pair)"
        if similarity is not None:
            line += (
                f"\n  (nearest existing lesson: similarity {similarity:.2f}, {outcome['reason']})"
            )
    evicted = outcome.get("evicted")
    for gone in evicted if isinstance(evicted, list) else []:
        line += f"\nevicted {gone['id']}: {gone['text']}"
    return line


def print_outcomes(skill: str, outcomes: Sequence[Mapping[str, object]]) -> None:
    """One `describe` per lesson, prefixed with its scope when it is not `skill`."""
    for outcome in outcomes:
        lesson = outcome["lesson"]
        assert isinstance(lesson, Mapping)
        scope = lesson.get("skill")
        prefix = "" if scope == skill else f"({scope or 'global'}) "
        click.echo(prefix + describe(outcome))


def report_flush(skill: str, result: FlushResult, as_json: bool, source: str | None = None) -> None:
    """The output of an explicit-sections flush."""
    stored = [outcome.as_json() for outcome in result.outcomes]
    if as_json:
        data: dict[str, object] = {"skill": skill}
        if source is not None:
            data["session"] = source
        data.update(
            found=result.found,
            stored=stored,
            cleared_checkpoints=result.cleared_checkpoints,
            kept_checkpoints=result.kept_checkpoints,
        )
        emit_json(data)
        return
    if not stored:
        where = f"in {source}" if source else f"for {skill}"
        click.echo(f"no lessons found under a lessons/takeaways/insights heading {where}")
    print_outcomes(skill, stored)
    if result.cleared_checkpoints:
        noun = "note" if result.cleared_checkpoints == 1 else "notes"
        click.echo(f"cleared {result.cleared_checkpoints} checkpoint {noun} (stored above)")
    if result.kept_checkpoints:
        noun = "note stays" if result.kept_checkpoints == 1 else "notes stay"
        click.echo(
            f"{result.kept_checkpoints} checkpoint {noun} in CHECKPOINTS.md "
            "(--include-checkpoints stores them, within --max-lessons)"
        )
