"""`skill-memory promote`: lessons with strong evidence proposed for their skill's SKILL.md."""

from __future__ import annotations

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, store
from fireworks_skill_memory.memory.store.skill_names import validate_skill

NOT_READY = (
    "no lesson of {skill} is ready for promotion (it needs {helped}+ helped ratings, no "
    "standing dispute, and its SKILL.md unchanged since it was last confirmed)"
)


@click.command()
@click.option("--skill", "-s", help="The skill whose SKILL.md gets the lessons.")
@click.option("--all", "every", is_flag=True, help="List the candidates of every skill.")
@click.option("--apply", is_flag=True, help="Write the change (a backup is kept beside it).")
@json_option
def promote(skill: str | None, every: bool, apply: bool, as_json: bool) -> None:
    """Propose moving proven lessons into their skill's SKILL.md.

    A lesson is proven when it was rated helped at least twice, has no standing dispute
    and its SKILL.md has not changed since it was last confirmed. The proposal is a unified
    diff on stdout that adds them under a "Lessons learned" section; nothing is written
    without --apply, which keeps a backup beside SKILL.md, leaves its other bytes as they
    were, and moves the promoted lessons to ARCHIVE.md (they are no longer injected).
    SKILL.md is found where the staleness check looks (~/.claude/skills, ~/.agents/skills,
    ~/.codex/skills, the project's .claude/.agents/.codex, plugins).

    \b
    Examples:
      skill-memory promote --skill git
      skill-memory promote --skill git --apply
      skill-memory promote --all --json
    """
    from fireworks_skill_memory.memory.ingest import promotion

    if every == (skill is not None):
        raise click.UsageError("give either --skill S or --all")
    if every and apply:
        raise click.BadParameter(
            "--apply takes one skill at a time: use --skill", param_hint="--apply"
        )
    memory = store()
    if every:
        proposals = [promotion.propose(memory, info.skill) for info in memory.skills()]
        chosen = [proposal for proposal in proposals if proposal.candidates]
        if as_json:
            emit_json({"skills": [proposal.as_json() for proposal in chosen]})
            return
        if not chosen:
            click.echo("No lesson is ready for promotion.")
        for proposal in chosen:
            where = proposal.path or "no SKILL.md found"
            click.echo(f"{proposal.skill}: {len(proposal.candidates)} lesson(s) ({where})")
            for candidate in proposal.candidates:
                lesson = candidate.lesson
                click.echo(f"  {lesson.id}  helped {candidate.record.helped}  {lesson.text}")
        return
    scope = validate_skill(skill or "")
    proposal = promotion.propose(memory, scope)
    if proposal.path is None:
        raise click.ClickException(
            f"no SKILL.md found for {scope} (run `skill-memory promote --all` to see candidates)"
        )
    if not proposal.candidates:
        if as_json:
            emit_json({**proposal.as_json(), "applied": None})
            return
        click.echo(NOT_READY.format(skill=scope, helped=promotion.MIN_HELPED), err=True)
        return
    done = None
    if apply:
        done = promotion.apply_promotion(
            memory, scope, expect_ids=proposal.ids, expect_hash=proposal.skill_md_hash
        )
    if as_json:
        emit_json({**proposal.as_json(), "applied": None if done is None else done.as_json()})
        return
    click.echo(proposal.diff(), nl=False)
    if done is None:
        click.echo("(nothing written: add --apply to write it)", err=True)
    else:
        click.echo(
            f"promoted {len(done.promoted)} lesson(s) into {done.path} (backup: {done.backup}); "
            "they moved to ARCHIVE.md",
            err=True,
        )


COMMANDS = (promote,)
