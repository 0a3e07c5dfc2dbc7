"""Commands on the semantic index: search, reindex, stats."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

from fireworks_skill_memory.cli.common import (
    emit_json,
    json_option,
    settings,
    store,
    via_service,
    with_provenance,
)
from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.retrieval.records import Hit
from fireworks_skill_memory.memory.store.skill_names import validate_skill

if TYPE_CHECKING:
    from fireworks_skill_memory.memory.retrieval.indexing import IndexNotice, Repair
    from fireworks_skill_memory.memory.retrieval.retriever import Retriever
    from fireworks_skill_memory.memory.retrieval.token_stats import TokenStats

RESULT_KEYS = ("id", "skill", "tag", "text", "score")


def echo_notices(notices: Iterable[IndexNotice]) -> None:
    """One line on stderr per index problem an answer worked around."""
    for notice in notices:
        click.echo(f"warning: {notice.line()}", err=True)


def echo_repair(repair: Repair | None) -> None:
    """Say on stderr where a damaged table was moved."""
    from fireworks_skill_memory.memory.retrieval.indexing import IndexNotice

    if repair is not None:
        echo_notices([IndexNotice.repaired(repair)])


def _result_json(hit: Hit) -> dict[str, object]:
    lesson = hit.lesson
    return {
        "id": lesson.id,
        "skill": lesson.skill,
        "tag": lesson.tag,
        "text": lesson.text,
        "score": round(hit.score, 4),
        "origin": hit.origin,
        "author": hit.author,
    }


def _read_queries(path: str) -> list[dict[str, Any]]:
    queries = []
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror}") from None
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                query = json.loads(line)
            except ValueError:
                raise InvalidInput(f"{path}:{number}: not a JSON object") from None
            text = query.get("task") or query.get("query") if isinstance(query, dict) else None
            if not isinstance(text, str) or not text.strip():
                raise InvalidInput(f"{path}:{number}: needs a non-empty 'task' or 'query'")
            skill = query.get("skill")
            if skill is not None:
                validate_skill(skill)
            queries.append({"qid": query.get("qid", number), "text": text, "skill": skill})
    return queries


@click.command()
@click.argument("query", required=False)
@click.option("--skill", "-s", help="Search one skill only (default: every skill and global).")
@click.option("--top", default=10, show_default=True, type=click.IntRange(1, 100))
@click.option(
    "--queries",
    "queries_file",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Batch mode: a JSONL file of {qid, task or query, skill}; one JSON line out per query.",
)
@json_option
def search(
    query: str | None, skill: str | None, top: int, queries_file: str | None, as_json: bool
) -> None:
    """Find the stored lessons nearest in meaning to QUERY."""
    if (query is None) == (queries_file is None):
        raise click.UsageError("give a QUERY or --queries FILE")
    if query is not None and not query.strip():
        raise click.BadParameter("is empty: give some words to search for", param_hint="QUERY")
    if skill is not None:
        validate_skill(skill)
    retriever: Retriever | None = None
    shown: set[IndexNotice] = set()  # a batch states each index problem once

    def answer(text: str, scope: str | None) -> list[dict[str, object]]:
        nonlocal retriever
        if retriever is None:
            reply = via_service("search", {"query": text, "skill": scope, "top": top}, warm=True)
            results = reply.get("results") if reply is not None else None
            if isinstance(results, list):
                return [{key: r[key] for key in RESULT_KEYS} for r in results]
            # imported only here: numpy and LanceDB cost a warm search a third of its time
            from fireworks_skill_memory.memory.retrieval.retriever import Retriever

            retriever = Retriever(settings(), cold=True)
        hits = retriever.search(text, skill=scope, top=top)
        notices = [notice for notice in retriever.take_notices() if notice not in shown]
        shown.update(notices)
        echo_notices(notices)
        return [_result_json(hit) for hit in hits]

    if queries_file is not None:
        for item in _read_queries(queries_file):
            line = {"qid": item["qid"], "results": answer(item["text"], item["skill"])}
            click.echo(json.dumps(line, ensure_ascii=False))
        return
    results = answer(query or "", skill)
    if as_json:
        emit_json({"query": query, "skill": skill, "results": with_provenance(results)})
        return
    if not results:
        click.echo(_no_results(skill))
    for r in results:
        click.echo(
            f"{r['score']:6.3f}  {r['id']}  {r['skill'] or 'global'}  [{r['tag']}] {r['text']}"
        )


def _no_results(skill: str | None) -> str:
    if skill is None:
        return "no lessons stored yet"
    return f"no lessons stored for {skill}"


@click.command()
@json_option
def reindex(as_json: bool) -> None:
    """Rebuild the vector index from the markdown files."""
    from fireworks_skill_memory.memory.embedding import embedder_for
    from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex

    cfg = settings()
    reply = via_service("reindex", {})
    if reply is not None:
        if as_json:
            emit_json(reply)
        else:
            click.echo(
                f"indexed {reply['rows']} lessons from {reply['files']} files (by the service)"
            )
        return
    memory = MemoryIndex(cfg, embedder_for(cfg))
    bar: Any = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if as_json:
            return
        if bar is None:
            bar = click.progressbar(length=total, label="embedding", file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)

    try:
        report = memory.reindex(progress)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    echo_repair(report.repaired)
    if as_json:
        emit_json(report.as_json())
    else:
        click.echo(
            f"indexed {report.rows} lessons from {report.files_changed} files "
            f"({report.embedded} embedded) with {memory.embedder.model_id}"
        )


@click.command()
@json_option
def stats(as_json: bool) -> None:
    """Skills, lessons, index size and model, how often lessons were injected, the tokens
    injected per skill and per day (UTC), and the share of sessions where an injected lesson
    was rated helped (by the distiller).

    \b
    Examples:
      skill-memory stats
      skill-memory stats --json | jq .tokens.tokens_per_day
    """
    from fireworks_skill_memory.index.errors import IndexUnavailable
    from fireworks_skill_memory.index.table import LessonIndex
    from fireworks_skill_memory.memory.retrieval.token_stats import token_stats
    from fireworks_skill_memory.memory.retrieval.usage import read_injection_counts

    cfg = settings()
    memory_store = store()
    infos = memory_store.skills()
    problem = None
    try:
        index = LessonIndex.existing(cfg.index_dir)
        stored = (index.model_id, index.dimension) if index is not None else None
        rows = index.count() if index is not None else 0
    except IndexUnavailable as error:
        index, stored, rows, problem = None, None, 0, str(error)
    counts = read_injection_counts(cfg)
    figures = token_stats(cfg)
    top = sorted(counts.items(), key=lambda item: -item[1])[:10]
    data = {
        "home": cfg.home,
        "skills": len(infos),
        "lessons": sum(info.lessons for info in infos),
        "global_lessons": len(memory_store.lessons(None)),
        "index": {
            "path": cfg.index_dir,
            "exists": stored is not None,
            "model": stored[0] if stored else None,
            "dimension": stored[1] if stored else None,
            "rows": rows,
            "bytes": LessonIndex(cfg.index_dir, "", 0).disk_bytes(),
            "problem": problem,
        },
        "configured_model": cfg.embed_model,
        "injections": {"total": sum(counts.values()), "top": dict(top)},
        "tokens": figures.as_json(),
    }
    if as_json:
        emit_json(data)
        return
    idx: dict[str, Any] = data["index"]  # type: ignore[assignment]
    click.echo(f"home      {cfg.home}")
    click.echo(
        f"skills    {data['skills']}  lessons {data['lessons']}  global {data['global_lessons']}"
    )
    if problem is not None:
        click.echo(f"index     damaged: {problem} (fix: skill-memory reindex)")
    elif idx["exists"]:
        click.echo(
            f"index     {idx['rows']} rows, {idx['bytes'] / 1e6:.1f} MB, "
            f"{idx['model']} ({idx['dimension']} dims)"
        )
    else:
        click.echo(
            "index     not built yet (built on first inject/search, or `skill-memory reindex`)"
        )
    click.echo(f"injected  {data['injections']['total']} times")  # type: ignore[index]
    for lesson_id, count in top:
        click.echo(f"          {count:>5}  {lesson_id}")
    _echo_tokens(figures)


def _echo_tokens(figures: TokenStats) -> None:
    untracked = f" ({figures.untracked} older ones not counted)" if figures.untracked else ""
    click.echo(f"tokens    {figures.tokens} in {figures.injections} injected blocks{untracked}")
    for skill, tokens in figures.per_skill.items():
        click.echo(f"  by skill {tokens:>7}  {skill}")
    for day, tokens in figures.per_day.items():
        click.echo(f"  by day   {tokens:>7}  {day}")
    share = figures.helped_share
    if share is None:
        click.echo("helped    no session with an injection yet")
    else:
        click.echo(
            f"helped    {figures.sessions_helped} of {figures.sessions} sessions with an "
            f"injection rated one helped ({share:.0%})"
        )


COMMANDS = (search, reindex, stats)
