"""`skill-memory review`: quarantined, superseded, disputed and contested lessons, and the
moves that settle them (approve, reject, restore, archive)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, settings, store
from fireworks_skill_memory.cli.report import describe
from fireworks_skill_memory.memory.store.ledger import LessonRecord
from fireworks_skill_memory.memory.store.skill_names import validate_skill

_SKILL = click.option("--skill", "-s", help="Only this skill (default: every skill and global).")
_ID = click.argument("lesson_id", metavar="ID")


def _scope(skill: str | None) -> str | None:
    return None if skill is None else validate_skill(skill)


@click.group(invoke_without_command=True)
@_SKILL
@click.option("--all", "everything", is_flag=True, help="Also merged wordings and evictions.")
@json_option
@click.pass_context
def review(ctx: click.Context, skill: str | None, everything: bool, as_json: bool) -> None:
    """List lessons that need a person: quarantined, superseded, disputed, contested, unverified.

    Lessons `team pull` quarantined are listed too, labelled team.

    \b
    Examples:
      skill-memory review
      skill-memory review --skill git --json
      skill-memory review approve 3fa2b1c9d0
      skill-memory review reject 3fa2b1c9d0
      skill-memory review restore 9c0d1e2f3a
    """
    if ctx.invoked_subcommand is not None:
        return
    from fireworks_skill_memory.memory.ingest.review import review_items, team_quarantine
    from fireworks_skill_memory.memory.team.layer import team_store

    scope, config = _scope(skill), settings()
    items = review_items(store(), scope, scopes=skill is None, everything=everything)
    if os.path.isdir(config.team_dir):
        items += team_quarantine(team_store(config), scope, scopes=skill is None)
    if as_json:
        emit_json({"items": [item.as_json() for item in items]})
        return
    if not items:
        click.echo("Nothing to review.")
    for item in items:
        data = item.as_json()
        lesson = item.lesson
        where = lesson.skill or "global"
        where = f"team:{where}" if item.layer == "team" else where
        click.echo(f"{item.status.upper():<12} {where}  {item.id}  [{lesson.tag}] {lesson.text}")
        click.echo(f"  why: {item.reason}" + (f" ({item.date})" if item.date else ""))
        if item.layer == "team":
            click.echo("  (the pulled team layer: never injected; settle it in the team table)")
        origin = data["provenance"]
        if isinstance(origin, Mapping):
            click.echo(f"  from: {_origin(origin)}")
        if item.record is not None and item.record.evidence is not None:
            click.echo(f"  evidence: {evidence_line(item.record)}")


def evidence_line(record: LessonRecord) -> str:
    """A lesson's evidence for people, with its `helped` count when it has one."""
    text = record.evidence.describe() if record.evidence is not None else "none recorded"
    return text + (f"; helped {record.helped}x" if record.helped else "")


def _origin(origin: Mapping[str, object]) -> str:
    parts = [str(origin["source"])]
    if origin.get("agent") or origin.get("session"):
        parts.append(f"{origin.get('agent') or 'agent'} session {origin.get('session') or '?'}")
    if origin.get("backend"):
        parts.append(f"via {origin['backend']} {origin.get('model') or ''}".rstrip())
    return ", ".join(parts) + f"; by {origin['author']} at {origin['at']}"


@review.command()
@_ID
@_SKILL
@json_option
def approve(lesson_id: str, skill: str | None, as_json: bool) -> None:
    """Move a quarantined lesson into KNOWLEDGE.md (merged if it restates one).

    \b
    Example:
      skill-memory review approve 3fa2b1c9d0
    """
    from fireworks_skill_memory.memory.dedup.matcher import matcher_for
    from fireworks_skill_memory.memory.ingest import review as moves

    outcome = moves.approve(store(), lesson_id, matcher_for(settings()), _scope(skill))
    if as_json:
        emit_json(outcome.as_json())
    else:
        click.echo(f"approved {lesson_id}: " + describe(outcome.as_json()))


@review.command()
@_ID
@_SKILL
@json_option
def reject(lesson_id: str, skill: str | None, as_json: bool) -> None:
    """Delete a quarantined lesson for good (its provenance record stays).

    \b
    Example:
      skill-memory review reject 3fa2b1c9d0
    """
    from fireworks_skill_memory.memory.ingest import review as moves

    item = moves.reject(store(), lesson_id, _scope(skill))
    if as_json:
        emit_json({"rejected": item.as_json()})
    else:
        click.echo(f"rejected {lesson_id}: {item.lesson.text}")


@review.command()
@_ID
@_SKILL
@json_option
def restore(lesson_id: str, skill: str | None, as_json: bool) -> None:
    """Put an archived (superseded, merged, evicted) lesson back into KNOWLEDGE.md.

    \b
    Example:
      skill-memory review restore 9c0d1e2f3a
    """
    from fireworks_skill_memory.memory.ingest import review as moves

    item = moves.restore(store(), lesson_id, _scope(skill))
    if as_json:
        emit_json({"restored": item.as_json()})
    else:
        click.echo(f"restored {lesson_id}: {item.lesson.text}")


@review.command()
@_ID
@_SKILL
@json_option
def confirm(lesson_id: str, skill: str | None, as_json: bool) -> None:
    """Mark a lesson as still true under its skill's current SKILL.md.

    \b
    Example:
      skill-memory review confirm 3fa2b1c9d0
    """
    outcome = store().feedback(
        lesson_id, "confirmed", source="review", skill=_scope(skill), scoped=skill is not None
    )
    if as_json:
        emit_json(outcome.as_json())
    else:
        click.echo(f"confirmed {lesson_id}: {outcome.lesson.text}")


@review.command("archive")
@_ID
@_SKILL
@click.option("--why", default="", help="The reason, kept in ARCHIVE.md.")
@json_option
def archive_command(lesson_id: str, skill: str | None, why: str, as_json: bool) -> None:
    """Move a lesson out of KNOWLEDGE.md into its archive (restorable).

    \b
    Example:
      skill-memory review archive 3fa2b1c9d0 --why "the API changed in v3"
    """
    from fireworks_skill_memory.memory.ingest import review as moves

    lesson = moves.archive(store(), lesson_id, _scope(skill), why)
    if as_json:
        emit_json({"archived": lesson.as_json()})
    else:
        click.echo(f"archived {lesson_id}: {lesson.text}")


@click.command()
@_ID
@click.option("--helped", "rating", flag_value="helped", help="The lesson helped: HIT + 1.")
@click.option("--wrong", "rating", flag_value="wrong", help="It was wrong (twice: archived).")
@click.option("--note", default="", help="What happened (the evidence), kept with the lesson.")
@_SKILL
@json_option
def feedback(
    lesson_id: str, rating: str | None, note: str, skill: str | None, as_json: bool
) -> None:
    """Say whether an injected lesson helped or was wrong.

    `--helped` raises its HIT and refreshes its month; `--wrong` marks it disputed (it ranks
    below every undisputed lesson), and a second `--wrong` with no `--helped` between moves it
    to the archive with the evidence (`skill-memory review` lists it; `review restore` undoes).

    \b
    Examples:
      skill-memory feedback 3fa2b1c9d0 --helped
      skill-memory feedback 3fa2b1c9d0 --wrong --note "v3 removed that flag"
    """
    if rating is None:
        raise click.UsageError("give --helped or --wrong")
    from fireworks_skill_memory.memory.errors import NotFound
    from fireworks_skill_memory.memory.ingest.promotion import rate_promoted

    memory = store()
    in_skill_md = False
    try:
        outcome = memory.feedback(
            lesson_id, rating, note=note, skill=_scope(skill), scoped=skill is not None
        )
    except NotFound:  # a lesson promoted into SKILL.md is rated in its ledger record
        promoted = rate_promoted(memory, lesson_id, rating, note=note)
        if promoted is None:
            raise
        outcome, in_skill_md = promoted, True
    if as_json:
        emit_json(outcome.as_json())
        return
    lesson = outcome.lesson
    if outcome.archived:
        click.echo(f"archived {lesson_id}: reported wrong again (review restore undoes it)")
    elif in_skill_md and rating == "wrong":
        click.echo(f"disputed {lesson_id}: it is in SKILL.md now; `skill-memory review` lists it")
    elif in_skill_md:
        click.echo(f"helped {lesson_id} (promoted into SKILL.md)")
    elif rating == "wrong":
        click.echo(f"disputed {lesson_id}: it now ranks below every undisputed lesson")
    else:
        click.echo(f"helped {lesson_id}: HIT is now {lesson.hits}")


COMMANDS = (review, feedback)
