"""Commands on lessons and notes: add, show, list, checkpoint, flush, inject, import-legacy."""

from __future__ import annotations

import os

import click

from fireworks_skill_memory.cli.common import (
    emit_json,
    ingest,
    json_option,
    settings,
    skill_option,
    store,
    text_argument,
    via_service,
    with_provenance,
    write_screen,
)
from fireworks_skill_memory.cli.report import describe, report_flush
from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.store.skill_names import validate_skill


def _scope(skill: str | None, is_global: bool) -> str | None:
    if is_global and skill:
        raise click.UsageError("use either --skill or --global")
    if not is_global and not skill:
        raise click.UsageError("missing --skill (or --global)")
    return None if is_global else validate_skill(skill or "")


@click.command()
@skill_option(required=False)
@click.option("--global", "is_global", is_flag=True, help="Add a cross-skill principle.")
@click.option("--tag", "-t", help="Short tag, e.g. 'Auth' (default: General).")
@click.option("--dry-run", is_flag=True, help="Show the decision without writing.")
@json_option
@click.argument("text")
def add(
    skill: str | None, is_global: bool, tag: str | None, dry_run: bool, as_json: bool, text: str
) -> None:
    """Add a lesson TEXT to a skill (`-` reads it from stdin).

    A lesson that restates an existing one is merged into it (its HIT count goes up)
    instead of being added again. A lesson that tries to instruct the agent (the poisoning
    screen) is quarantined instead: `skill-memory review` lists it.

    \b
    Examples:
      skill-memory add --skill git --tag Branches "Use git switch -c to create a branch"
      echo "Prefer tmp_path over tmpdir" | skill-memory add --skill pytest -
    """
    scope = _scope(skill, is_global)
    body = text_argument(text)
    origin = store().provenance("add")
    request = {
        "skill": scope,
        "text": body,
        "tag": tag,
        "dry_run": dry_run,
        "origin": origin.as_json(),
    }
    reply = via_service("add", request, warm=True) if len(body) <= 4 * 2000 else None
    if reply is None:
        from fireworks_skill_memory.memory.ingest import LessonCandidate

        candidate = LessonCandidate(body, scope, tag, provenance=origin)
        reply = ingest("add", dry_run=dry_run).add(candidate).as_json()
    if as_json:
        emit_json({"dry_run": dry_run, **reply})
    else:
        click.echo(("(dry run) " if dry_run else "") + describe(reply))


@click.command()
@skill_option(required=False)
@click.option("--global", "is_global", is_flag=True, help="Show the global principles.")
@click.option("--raw", is_flag=True, help="Print the file exactly as stored.")
@json_option
def show(skill: str | None, is_global: bool, raw: bool, as_json: bool) -> None:
    """Show a skill's lessons with their ids (or the file itself with --raw)."""
    scope = _scope(skill, is_global)
    memory = store()
    doc = memory.read(scope)
    if as_json:
        emit_json(
            {
                "skill": scope,
                "path": memory.knowledge_path(scope),
                "lessons": with_provenance([lesson.as_json() for lesson in doc.lessons()]),
            }
        )
        return
    if raw:  # bytes: a line that is not UTF-8 comes out as stored, whatever the locale
        click.echo(doc.render().encode("utf-8", "surrogateescape"), nl=False)
        return
    entries = doc.entries()
    if not entries:
        click.echo(f"No lessons for {scope or 'global'} yet.")
    standings = memory.standings(scope)
    records = memory.records(scope, [entry.lesson for entry in entries])
    for entry in entries:
        standing = standings.get(entry.lesson.id)
        mark = f"  ({standing})" if standing else ""
        record = records.get(entry.lesson.id)
        if record is not None and record.evidence is not None:
            mark += f"  \u00b7 {record.evidence.label}"
        click.echo(f"{entry.lesson.id}  {entry.render()}{mark}")


@click.command("list")
@json_option
def list_skills(as_json: bool) -> None:
    """List skills with their number of lessons and checkpoint notes."""
    memory = store()
    infos = memory.skills()
    global_count = len(memory.lessons(None))
    if as_json:
        emit_json(
            {
                "skills": [
                    {
                        "skill": info.skill,
                        "lessons": info.lessons,
                        "checkpoints": info.checkpoints,
                        "path": info.path,
                        "legacy": info.legacy,
                    }
                    for info in infos
                ],
                "global": {"lessons": global_count, "path": memory.knowledge_path(None)},
            }
        )
        return
    if not infos and not global_count:
        click.echo(f"No lessons yet in {memory.settings.home}.")
        return
    width = max([len(info.skill) for info in infos] + [6])
    for info in infos:
        legacy = "  (legacy, read-only until imported)" if info.legacy else ""
        click.echo(
            f"{info.skill:<{width}}  {info.lessons:>4} lessons  {info.checkpoints:>3} notes{legacy}"
        )
    click.echo(f"{'global':<{width}}  {global_count:>4} lessons")


@click.command()
@skill_option()
@click.option("--note", "-n", required=True, help="The note (`-` reads it from stdin).")
@json_option
def checkpoint(skill: str, note: str, as_json: bool) -> None:
    """Append a raw note to a skill's CHECKPOINTS.md (distilled later by `flush`)."""
    saved = store().checkpoint(skill, text_argument(note))
    if as_json:
        emit_json({"skill": skill, "time": saved.time, "note": saved.note})
    else:
        click.echo(f"noted for {skill} at {saved.time}")


@click.command()
@skill_option()
@click.option("--summary-file", type=click.Path(dir_okay=False), help="A summary in markdown.")
@click.option("--session-file", type=click.Path(dir_okay=False), help="A .json/.jsonl session.")
@click.option("--stdin", "from_stdin", is_flag=True, help="Read the summary from stdin.")
@click.option(
    "--session",
    "session_ref",
    type=click.Choice(["latest"]),
    help="`latest`: the newest Codex rollout under $CODEX_HOME/sessions.",
)
@click.option("--max-lessons", default=3, show_default=True, type=click.IntRange(1, 20))
@click.option(
    "--include-checkpoints",
    is_flag=True,
    help="Also store the checkpoint notes (after the summary's lessons, within --max-lessons); "
    "the notes stored leave CHECKPOINTS.md, the others stay.",
)
@click.option(
    "--keep-checkpoints", is_flag=True, help="Leave every note in CHECKPOINTS.md, stored or not."
)
@click.option("--distill", is_flag=True, help="Ask the distiller instead of reading sections.")
@json_option
def flush(
    skill: str,
    summary_file: str | None,
    session_file: str | None,
    from_stdin: bool,
    session_ref: str | None,
    max_lessons: int,
    include_checkpoints: bool,
    keep_checkpoints: bool,
    distill: bool,
    as_json: bool,
) -> None:
    """Store the lessons of a session summary.

    Without --distill, lessons are the items under headings such as `## Lessons`,
    `## Takeaways`, `## Insights` or `经验` (the original Codex flow). A checkpoint note
    leaves CHECKPOINTS.md only as a lesson (or, read by --distill, into ARCHIVE.md, which
    `review` lists).
    """
    from fireworks_skill_memory.memory.distill.flush import flush_explicit
    from fireworks_skill_memory.memory.distill.sections import session_text

    validate_skill(skill)
    sources = [bool(summary_file), bool(session_file), from_stdin, bool(session_ref)]
    if sum(sources) != 1:
        raise click.UsageError(
            "give exactly one of --summary-file, --session-file, --stdin, --session latest"
        )
    if distill or session_ref:
        from fireworks_skill_memory.cli.distill import flush_distilled

        flush_distilled(
            skill,
            summary_file=summary_file,
            session_file=session_file,
            from_stdin=from_stdin,
            session_ref=session_ref,
            distill=distill,
            max_lessons=max_lessons,
            include_checkpoints=include_checkpoints,
            keep_checkpoints=keep_checkpoints,
            as_json=as_json,
        )
        return
    if session_file:
        try:
            with open(session_file, encoding="utf-8", errors="replace") as handle:
                raw = handle.read()
        except OSError as error:
            raise InvalidInput(f"cannot read {session_file}: {error.strerror}") from None
        text = session_text(raw, os.path.basename(session_file))
    else:
        from fireworks_skill_memory.cli.distill import read_summary

        text = read_summary(summary_file, from_stdin)
    result = flush_explicit(
        ingest("flush"),
        skill,
        text,
        max_lessons=max_lessons,
        include_checkpoints=include_checkpoints,
        keep_checkpoints=keep_checkpoints,
    )
    report_flush(skill, result, as_json)


@click.command()
@skill_option()
@click.option("--task", "-q", help="What the agent is doing now; lessons are ranked against it.")
@click.option(
    "--top",
    type=click.IntRange(1, 200),
    help="Most lessons to inject [default: $SKILLS_INJECT_TOP or 20].",
)
@click.option("--no-global", is_flag=True, help="Leave out the global principles.")
@json_option
def inject(skill: str, task: str | None, top: int | None, no_global: bool, as_json: bool) -> None:
    """Print the lessons worth knowing before using SKILL, ranked for --task."""
    validate_skill(skill)
    reply = None
    if task and task.strip():
        reply = via_service(
            "inject",
            {"skill": skill, "task": task, "top": top, "include_global": not no_global},
            warm=True,
        )
    if reply is not None:
        data = reply
    else:
        from fireworks_skill_memory.cli.search import echo_notices
        from fireworks_skill_memory.memory.retrieval.retriever import inject_for

        injection, notices = inject_for(
            settings(), skill, task, top=top, include_global=not no_global
        )
        echo_notices(notices)
        data = injection.as_json()
    if as_json:
        for key in ("lessons", "global"):
            rows = data.get(key)
            if isinstance(rows, list):
                data[key] = with_provenance(rows)
        emit_json(data)
    elif data.get("text"):
        click.echo(str(data["text"]))
    else:
        click.echo(f"(no stored lessons for {skill} are relevant to this task)", err=True)


@click.command("import-legacy")
@click.option("--dry-run", is_flag=True, help="Report what would be imported.")
@json_option
def import_legacy(dry_run: bool, as_json: bool) -> None:
    """Import lessons from the legacy ~/.claude/skills/<skill>/KNOWLEDGE.md files."""
    from fireworks_skill_memory.memory.ingest.legacy import import_legacy as run_import

    results = run_import(store(), write_screen(), dry_run=dry_run)
    if as_json:
        emit_json(
            [
                {
                    "skill": r.skill,
                    "source": r.source,
                    "copied": r.copied,
                    "already_present": r.already_present,
                    "quarantined": r.quarantined,
                }
                for r in results
            ]
        )
        return
    if not results:
        click.echo(f"no legacy KNOWLEDGE.md files under {settings().legacy_dir}")
    for r in results:
        held = f", {r.quarantined} quarantined" if r.quarantined else ""
        click.echo(f"{r.skill}: {r.copied} copied, {r.already_present} already present{held}")


COMMANDS = (add, show, list_skills, checkpoint, flush, inject, import_legacy)
