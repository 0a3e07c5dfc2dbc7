"""`skill-memory eval supersede`: merge, supersede or keep both on labelled pairs."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, settings

if TYPE_CHECKING:  # the write pipeline it evaluates costs every other command ~0.1 s
    from fireworks_skill_memory.memory.evaluation.dedup_pairs import KindFigures, SupersedeReport


def _figures_json(figures: KindFigures) -> dict[str, object]:
    return {
        "n": figures.n,
        "accuracy": round(figures.accuracy, 4),
        "lost": figures.lost,
        "lost_rate": round(figures.lost_rate, 4),
        "outdated": figures.outdated,
        "retired": figures.retired,
        "retired_share": None if figures.retired_share is None else round(figures.retired_share, 4),
    }


def _report_json(report: SupersedeReport) -> dict[str, object]:
    return {
        "confusion": report.confusion,
        "overall": _figures_json(report.overall),
        "by_kind": {kind: _figures_json(f) for kind, f in report.by_kind.items()},
        "decided": report.decided,
    }


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _print_report(report: SupersedeReport, total: int) -> None:
    from fireworks_skill_memory.memory.evaluation.dedup_pairs import DECISIONS

    click.echo(f"supersede on {total} pairs (judge off)")
    click.echo("decided: " + ", ".join(f"{d} {n}" for d, n in report.decided.items()))
    if not report.overall.n:
        return
    click.echo("\nconfusion (rows: label, columns: decision)")
    click.echo(f"  {'':<12}" + "".join(f"{d:>12}" for d in DECISIONS))
    for label, row in report.confusion.items():
        click.echo(f"  {label:<12}" + "".join(f"{row[d]:>12}" for d in DECISIONS))
    overall = report.overall
    click.echo(
        f"\nlessons lost: {overall.lost}/{overall.n} ({_share(overall.lost_rate)}); "
        f"outdated retired: {overall.retired}/{overall.outdated} "
        f"({_share(overall.retired_share)}); accuracy {_share(overall.accuracy)}"
    )
    click.echo(f"\n  {'kind':<32}{'n':>5}{'correct':>9}{'lost':>6}{'retired':>10}")
    for kind, f in report.by_kind.items():
        retired = "-" if f.retired_share is None else f"{f.retired}/{f.outdated}"
        click.echo(f"  {kind:<32}{f.n:>5}{f.correct:>9}{f.lost:>6}{retired:>10}")


@click.command("supersede")
@click.option("--pairs", "pairs_file", required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--decisions-out",
    required=True,
    type=click.Path(dir_okay=False),
    help="Write {id, decision} per pair, in order.",
)
@json_option
def supersede_command(pairs_file: str, decisions_out: str, as_json: bool) -> None:
    """Decide merge, supersede or keep_both for each pair's new lesson (judge off).

    Prints the confusion matrix, the lost-lesson rate (a still-true lesson merged away or
    archived) and the share of outdated lessons retired, overall and per kind.
    """
    from fireworks_skill_memory.memory.embedding import embedder_for
    from fireworks_skill_memory.memory.evaluation.dedup_pairs import (
        decide_pairs,
        read_pairs,
        supersede_report,
    )

    pairs = read_pairs(pairs_file)
    outcomes = decide_pairs(pairs, embedder_for(settings()))
    with open(decisions_out, "w", encoding="utf-8") as handle:
        for outcome in outcomes:
            row = {"id": outcome.id, "decision": outcome.decision}
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    report = supersede_report(pairs, outcomes)
    if as_json:
        emit_json(_report_json(report))
        return
    _print_report(report, len(pairs))
