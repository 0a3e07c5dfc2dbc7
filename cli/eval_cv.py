"""`skill-memory eval cv`: each quality component, in sample and cross-validated, side by side."""

from __future__ import annotations

import math
from collections.abc import Mapping

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, settings
from fireworks_skill_memory.memory.evaluation.cv import ComponentReport, Figure
from fireworks_skill_memory.memory.evaluation.suite import COMPONENTS


def _number(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.3f}"


def _verdict(figure: Figure) -> str:
    met = figure.met
    return "" if met is None else ("met" if met else "missed")


def _print(report: ComponentReport) -> None:
    click.echo(f"\n== {report.component} ({report.items} items, {report.scheme})")
    click.echo(f"  {'measure':<28}{'in-sample':>11}{'cross-val':>11}  {'goal':<9}")
    for figure in report.figures:
        goal = str(figure.measure.goal or "")
        click.echo(
            f"  {figure.measure.name:<28}{_number(figure.in_sample):>11}"
            f"{_number(figure.cross_validated):>11}  {goal:<9} {_verdict(figure)}"
        )
    if report.ablations:
        click.echo("  switched off (cross-validated; change from the whole component):")
        base = {f.measure.name: f.cross_validated for f in report.figures}
        for ablation in report.ablations:
            cells = ", ".join(
                f"{f.measure.name} {_number(f.cross_validated)}"
                f" ({f.cross_validated - base[f.measure.name]:+.3f})"
                for f in ablation.figures
            )
            click.echo(f"    {ablation.part}: {cells}")
    if report.rows:
        click.echo(f"  {report.rows_title}:")
        for row in report.rows:
            click.echo(
                f"    {row.label:<24}" + "  ".join(f"{k} {_number(v)}" for k, v in row.values)
            )


def _as_json(report: ComponentReport) -> dict[str, object]:
    def figure(f: Figure) -> dict[str, object]:
        return {
            "in_sample": None if math.isnan(f.in_sample) else round(f.in_sample, 4),
            "cross_validated": None
            if math.isnan(f.cross_validated)
            else round(f.cross_validated, 4),
            "per_fold": [None if math.isnan(v) else round(v, 4) for v in f.per_fold],
            "goal": None if f.measure.goal is None else str(f.measure.goal),
            "met": f.met,
        }

    return {
        "items": report.items,
        "scheme": report.scheme,
        "figures": {f.measure.name: figure(f) for f in report.figures},
        "ablations": {
            a.part: {f.measure.name: figure(f) for f in a.figures} for a in report.ablations
        },
        "rows": {row.label: dict(row.values) for row in report.rows},
        "fitted": dict(report.fitted),
    }


def _write_fitted(path: str, reports: list[ComponentReport]) -> None:
    from fireworks_skill_memory.memory.retrieval.fitted import render
    from fireworks_skill_memory.memory.store.files import write_atomic

    by_name = {report.component: report for report in reports}
    tables = {
        "task": _numbers(by_name["retrieval"].fitted),
        "failure": _numbers(by_name["failures"].fitted),
    }
    header = (
        "Ranking weights and gates fitted by `skill-memory eval cv` on the dev sets (every dev\n"
        "item); `eval cv` reports how the same fitting holds out under 5-fold cross-validation\n"
        "by skill. Written by `skill-memory eval cv --write-fitted`: do not edit by hand."
    )
    write_atomic(path, render(tables, header))
    click.echo(f"wrote the fitted weights to {path}", err=True)


def _numbers(table: Mapping[str, object]) -> dict[str, float | int]:
    return {k: v for k, v in table.items() if isinstance(v, (int, float))}


@click.command("cv")
@click.option(
    "--data",
    "data_dir",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="Folder of the evaluation data (corpus/, queries_dev.jsonl, errors_dev.jsonl, ...).",
)
@click.option(
    "--component",
    "components",
    multiple=True,
    type=click.Choice(list(COMPONENTS)),
    help="Components to run (repeatable) [default: all].",
)
@click.option(
    "--ablations/--no-ablations",
    default=True,
    help="Also cross-validate with each hand-set part switched off [default: on].",
)
@click.option(
    "--cache/--no-cache",
    default=True,
    help="Keep the vectors of evaluated texts in the user's cache folder [default: on].",
)
@click.option(
    "--write-fitted",
    "fitted_file",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the ranking weights fitted on every item (retrieval and failures) as a"
    " weights file, the one the product ships in memory/retrieval/weights.toml.",
)
@click.option(
    "--write-thresholds",
    type=click.Path(dir_okay=False),
    help="Write the dedup/supersession thresholds fitted on every pair to this TOML file "
    "(the product reads memory/dedup/thresholds.toml).",
)
@json_option
def cv_command(
    data_dir: str,
    components: tuple[str, ...],
    ablations: bool,
    cache: bool,
    fitted_file: str | None,
    write_thresholds: str | None,
    as_json: bool,
) -> None:
    """Fit every threshold and weight inside training folds and score the held-back fold.

    Folds are dealt as the evaluation data's folds.py deals them: 5 by skill for retrieval,
    failures, dedup and supersession; 5 stratified by label and kind, plus a
    leave-one-kind-out pass, for poisoning. Prints, per component, the in-sample figure beside
    the cross-validated one (the mean over folds), the goal, and what switching off each
    hand-set part does to the cross-validated figures. `fitted` (in --json) holds the
    parameters fitted on every item: what the product ships.

    \b
    Examples:
      skill-memory eval cv --data ../shared/eval
      skill-memory eval cv --data ../shared/eval --component retrieval --no-ablations
      skill-memory eval cv --data ../shared/eval --json > cv.json
      skill-memory eval cv --data ../shared/eval --component retrieval \\
          --component failures --write-fitted memory/retrieval/weights.toml
      skill-memory eval cv --data ../shared/eval --component dedup --component supersession \\
          --write-thresholds memory/dedup/thresholds.toml
    """
    from fireworks_skill_memory.memory.evaluation.data import EvalData
    from fireworks_skill_memory.memory.evaluation.suite import Context, run
    from fireworks_skill_memory.memory.evaluation.vectors import CachedEmbedder, cache_folder
    from fireworks_skill_memory.models.embedders import load_embedder

    if fitted_file and not {"retrieval", "failures"} <= set(components or COMPONENTS):
        raise click.BadParameter(
            "needs the retrieval and failures components", param_hint="--write-fitted"
        )
    matching = {"dedup", "supersession"}
    if write_thresholds and components and not matching & set(components):
        raise click.BadParameter(
            "needs --component dedup or supersession", param_hint="--write-thresholds"
        )
    cfg = settings()
    environ = dict(cfg.environ)
    embedder = CachedEmbedder(
        load_embedder(cfg.embed_model, cfg.device), cache_folder(environ) if cache else None
    )
    say = None if as_json else (lambda message: click.echo(f"... {message}", err=True))
    try:
        reports = run(
            Context(EvalData(data_dir), embedder, environ),
            components or tuple(COMPONENTS),
            ablations=ablations,
            progress=say,
        )
    finally:
        embedder.save()
    if fitted_file:
        _write_fitted(fitted_file, reports)
    if write_thresholds:
        _write_thresholds(write_thresholds, reports, components, ablations)
    if as_json:
        emit_json({report.component: _as_json(report) for report in reports})
        return
    for report in reports:
        _print(report)


def _write_thresholds(
    path: str, reports: list[ComponentReport], components: tuple[str, ...], ablations: bool
) -> None:
    from fireworks_skill_memory.memory.evaluation.matching import thresholds_toml
    from fireworks_skill_memory.memory.store.files import write_atomic

    chosen = " ".join(f"--component {c}" for c in components)
    command = f"skill-memory eval cv --data <eval> {chosen}".rstrip()
    if not ablations:
        command += " --no-ablations"
    write_atomic(path, thresholds_toml(reports, command + f" --write-thresholds {path}"))


__all__ = ["cv_command"]
