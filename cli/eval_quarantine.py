"""`skill-memory eval quarantine`: the poisoning screen on labelled lessons."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, settings

POISON, BENIGN = "poison", "benign"


@dataclass(frozen=True)
class Row:
    """One input line: the lesson and its optional label."""

    id: str
    skill: str | None
    tag: str | None
    text: str
    label: str | None
    kind: str | None


def _read_rows(path: str) -> list[Row]:
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as error:
                raise click.ClickException(f"{path}:{number}: not JSON ({error.msg})") from error
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise click.ClickException(f"{path}:{number}: expected an object with a 'text'")
            rows.append(
                Row(
                    id=str(item.get("id", number)),
                    skill=_optional(item.get("skill")),
                    tag=_optional(item.get("tag")),
                    text=item["text"],
                    label=_optional(item.get("label")),
                    kind=_optional(item.get("kind")),
                )
            )
    return rows


def _optional(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _summary(rows: list[Row], quarantined: list[bool]) -> dict[str, object]:
    totals: Counter[tuple[str, str]] = Counter()
    hits: Counter[tuple[str, str]] = Counter()
    for row, flagged in zip(rows, quarantined, strict=True):
        label = row.label or ""
        totals[(label, row.kind or "-")] += 1
        hits[(label, row.kind or "-")] += flagged
    poison = [q for r, q in zip(rows, quarantined, strict=True) if r.label == POISON]
    benign = [q for r, q in zip(rows, quarantined, strict=True) if r.label == BENIGN]

    def by_kind(label: str) -> dict[str, dict[str, object]]:
        return {
            kind: {"n": totals[(lab, kind)], "quarantined": hits[(lab, kind)],
                   "rate": _rate(hits[(lab, kind)], totals[(lab, kind)])}
            for lab, kind in sorted(totals) if lab == label
        }  # fmt: skip

    return {
        "lessons": len(rows),
        "quarantined": sum(quarantined),
        "poison": len(poison),
        "benign": len(benign),
        "catch_rate": _rate(sum(poison), len(poison)),
        "false_quarantine": _rate(sum(benign), len(benign)),
        "catch_by_kind": by_kind(POISON),
        "false_quarantine_by_kind": by_kind(BENIGN),
    }


def _print_summary(summary: dict[str, object]) -> None:
    click.echo(f"lessons: {summary['lessons']}, quarantined: {summary['quarantined']}")
    for title, key, table in (
        ("catch rate", "catch_rate", "catch_by_kind"),
        ("false quarantine", "false_quarantine", "false_quarantine_by_kind"),
    ):
        rate = summary[key]
        if rate is None:
            continue
        click.echo(f"{title}: {rate:.3f}")
        rows = summary[table]
        assert isinstance(rows, dict)
        for kind, cell in rows.items():
            click.echo(f"  {kind:<26}{cell['quarantined']:>5} /{cell['n']:>5}  {cell['rate']:.3f}")


@click.command("quarantine")
@click.option(
    "--lessons",
    "lessons_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="JSONL: one {id, skill, tag, text} per line (optional label, kind).",
)
@click.option(
    "--decisions-out",
    required=True,
    type=click.Path(dir_okay=False),
    help="Write one {id, decision, reason} per input line, in order.",
)
@json_option
def quarantine_command(lessons_file: str, decisions_out: str, as_json: bool) -> None:
    """Screen lessons for poisoning (rules and the real model, no judge) and score them.

    With `label`s ("poison"/"benign") it prints the catch rate and the false-quarantine
    rate, overall and per kind.
    """
    from fireworks_skill_memory.memory.screen import screen_for

    rows = _read_rows(lessons_file)
    screen = screen_for(settings())
    verdicts = screen.screen_batch([(row.tag, row.text) for row in rows])
    with open(decisions_out, "w", encoding="utf-8") as handle:
        for row, verdict in zip(rows, verdicts, strict=True):
            decision = "quarantine" if verdict.quarantined else "accept"
            record = {"id": row.id, "decision": decision, "reason": verdict.reason}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    summary = _summary(rows, [verdict.quarantined for verdict in verdicts])
    if as_json:
        emit_json(summary)
    else:
        _print_summary(summary)
