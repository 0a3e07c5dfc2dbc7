"""`skill-memory eval retrieval|dedup`: the offline evaluations, figures printed or as JSON."""

from __future__ import annotations

import json
from typing import Any

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, settings
from fireworks_skill_memory.cli.eval_cv import cv_command
from fireworks_skill_memory.cli.eval_quarantine import quarantine_command
from fireworks_skill_memory.cli.eval_supersede import supersede_command


def _embedder() -> Any:
    from fireworks_skill_memory.memory.embedding import embedder_for

    return embedder_for(settings())


def _write_jsonl(path: str, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def _table(title: str, metrics: dict[str, dict[str, float]], columns: list[str]) -> None:
    click.echo(title)
    click.echo(f"  {'kind':<12}" + "".join(f"{c:>16}" for c in columns))
    for kind, row in metrics.items():
        cells = "".join(f"{row[c]:>16}" if c in row else f"{'-':>16}" for c in columns)
        click.echo(f"  {kind:<12}{cells}")


@click.group("eval")
def eval_group() -> None:
    """Offline evaluations of retrieval and dedup on labelled data."""


@eval_group.command("retrieval")
@click.option(
    "--corpus", "corpus_dir", required=True, type=click.Path(exists=True, file_okay=False)
)
@click.option(
    "--queries",
    "queries_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="JSONL of task queries {qid, skill, task, relevant, kind} or failure queries"
    " {qid, skill, command, error, relevant, kind}.",
)
@click.option(
    "--ranker",
    "rankers",
    multiple=True,
    type=click.Choice(["hits", "bm25", "dense", "ours", "all"]),
    help="Rankers to compare (repeatable) [default: all].",
)
@click.option(
    "--run-out", type=click.Path(dir_okay=False), help="Write {qid, ranked} as injected (ours)."
)
@click.option(
    "--ranking-out",
    type=click.Path(dir_okay=False),
    help="Write {qid, ranked}: top 10 before the gate (ours).",
)
@json_option
def retrieval(
    corpus_dir: str,
    queries_file: str,
    rankers: tuple[str, ...],
    run_out: str | None,
    ranking_out: str | None,
    as_json: bool,
) -> None:
    """Answer labelled queries over a corpus the way `inject` would, and score them.

    Prints Recall@1, Recall@5, best@5, MRR@10, nDCG@5 before the gate, and the
    false-injection rate and best@5 as injected, overall and by kind. A failure query is
    answered as the failure hook answers it: the task text is built from its command and
    error, and `ours` injects through the failure gate (at most two lessons).
    """
    from fireworks_skill_memory.memory.retrieval.evaluation import (
        RANKERS,
        evaluate_retrieval,
        read_jsonl,
    )

    chosen = RANKERS if not rankers or "all" in rankers else tuple(dict.fromkeys(rankers))
    if (run_out or ranking_out) and "ours" not in chosen:
        chosen = (*chosen, "ours")
    queries = read_jsonl(queries_file)
    say = None if as_json else (lambda message: click.echo(f"... {message}", err=True))
    results = evaluate_retrieval(
        dict(settings().environ), corpus_dir, queries, _embedder(), chosen, progress=say
    )
    ours = next((r for r in results if r.name == "ours"), None)
    if ours is not None and run_out:
        _write_jsonl(run_out, [{"qid": q, "ranked": ids} for q, ids in ours.run.items()])
    if ours is not None and ranking_out:
        _write_jsonl(ranking_out, [{"qid": q, "ranked": ids} for q, ids in ours.ranking.items()])
    if as_json:
        emit_json(
            {r.name: {"ranking": r.ranking_metrics, "injected": r.run_metrics} for r in results}
        )
        return
    for result in results:
        click.echo(f"\n== {result.name}")
        _table(
            "ranking (top 10, before the gate)",
            result.ranking_metrics,
            ["recall@1", "recall@5", "best@5", "mrr@10", "ndcg@5", "n"],
        )
        _table(
            "as injected (after the gate)",
            result.run_metrics,
            ["best@5", "recall@5", "false_injection", "n", "n_none"],
        )


@eval_group.command("dedup")
@click.option("--pairs", "pairs_file", required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--decisions-out", type=click.Path(dir_okay=False), help="Write one decision per pair."
)
@json_option
def dedup(pairs_file: str, decisions_out: str | None, as_json: bool) -> None:
    """Offer each pair's `b` to a skill holding `a` (judge off) and score merge vs add."""
    from fireworks_skill_memory.memory.evaluation.dedup_pairs import evaluate_dedup
    from fireworks_skill_memory.memory.retrieval.evaluation import read_jsonl

    pairs = read_jsonl(pairs_file)
    decisions, metrics = evaluate_dedup(dict(settings().environ), pairs, _embedder())
    if decisions_out:
        _write_jsonl(
            decisions_out,
            [
                {
                    "index": d.index,
                    "decision": d.decision,
                    "similarity": d.similarity,
                    "target": d.target,
                    "reason": d.reason,
                }
                for d in decisions
            ],
        )
    if as_json:
        emit_json(metrics)
        return
    _table(
        f"dedup on {len(pairs)} pairs (merge = positive)",
        metrics,
        ["precision", "recall", "f1", "false_merge", "n"],
    )


eval_group.add_command(cv_command)
eval_group.add_command(quarantine_command)
eval_group.add_command(supersede_command)

COMMANDS = (eval_group,)
