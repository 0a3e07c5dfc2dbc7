"""`skill-memory export` and `skill-memory import`: lessons as JSON Lines."""

from __future__ import annotations

import json
import sys

import click

from fireworks_skill_memory.cli.common import emit_json, ingest, json_option, store
from fireworks_skill_memory.memory.store.skill_names import validate_skill


@click.command()
@click.option("--skill", "-s", help="Only this skill (default: every skill and global).")
@click.option("--include-archive", is_flag=True, help="Also the archived lessons.")
@click.option("--out", "-o", type=click.Path(dir_okay=False, writable=True), help="Write to FILE.")
@json_option
def export(skill: str | None, include_archive: bool, out: str | None, as_json: bool) -> None:
    """Write lessons as JSON Lines: one lesson a line, with its ledger record.

    Each line holds the lesson's text, tag, month, HITs and skill (null: global), where it
    is (knowledge or archive) and its ledger record (provenance, ratings, disputes). Secrets
    are redacted. `skill-memory import FILE` reads it back. --json prints a summary when
    --out is given.

    \b
    Examples:
      skill-memory export > lessons.jsonl
      skill-memory export --skill git --include-archive --out git.jsonl
    """
    from fireworks_skill_memory.memory.ingest.portable import export_lessons
    from fireworks_skill_memory.memory.store.files import write_atomic

    scope = None if skill is None else validate_skill(skill)
    lines = [
        json.dumps(item.as_json(), ensure_ascii=False) + "\n"
        for item in export_lessons(store(), scope, archive=include_archive)
    ]
    if out is None:
        sys.stdout.write("".join(lines))
        return
    write_atomic(out, "".join(lines))
    if as_json:
        emit_json({"exported": len(lines), "out": out})
    else:
        click.echo(f"exported {len(lines)} lesson(s) to {out}")


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--dry-run", is_flag=True, help="Report what would be imported.")
@json_option
def import_command(file: str, dry_run: bool, as_json: bool) -> None:
    """Bring in lessons from an export (FILE, or `-` for stdin).

    Every lesson goes through the write pipeline: secrets redacted, the poisoning screen
    (a lesson it stops is quarantined), dedup (a lesson already here stays as it is).
    Provenance becomes `import`, the original author is kept, and so are HITs, months and
    ratings. Importing the same file twice adds nothing. A malformed line stops the
    import before anything is written, naming its line.

    \b
    Examples:
      skill-memory import lessons.jsonl
      skill-memory export --skill git | AI_MEMORY_HOME=/tmp/other skill-memory import -
    """
    from fireworks_skill_memory.memory.errors import InvalidInput
    from fireworks_skill_memory.memory.ingest.portable import import_lessons, parse_export

    try:
        with click.open_file(file, encoding="utf-8", errors="surrogateescape") as handle:
            items = parse_export(handle)
    except OSError as error:
        raise InvalidInput(f"cannot read {file}: {error.strerror}") from None
    summary = import_lessons(ingest("import", dry_run=dry_run), items)
    if as_json:
        emit_json({"dry_run": dry_run, **summary.as_json()})
        return
    counts = summary.counts
    click.echo(
        ("(dry run) " if dry_run else "") + f"{counts['added']} added, {counts['merged']} merged, "
        f"{counts['quarantined']} quarantined, {counts['archived']} archived"
    )


COMMANDS = (export, import_command)
