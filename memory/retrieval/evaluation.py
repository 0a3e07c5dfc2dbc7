"""Offline evaluation of retrieval, shipped as `skill-memory eval`.

Retrieval: a corpus laid out like a memory home (`skills/<skill>/KNOWLEDGE.md` plus
`lessons.jsonl` giving each lesson's id) is indexed in a temporary home and every query
is answered the way `inject` answers it. Peers (HIT order, BM25, plain dense cosine)
run on the same corpus and queries so the figures are comparable. A failure query
(`command` and `error` instead of `task`) is answered the way the failure hook answers
it: the task text is `memory.retrieval.failure.failure_task`, and `ours` ranks and gates
with `FAILURE_WEIGHTS` (`memory.retrieval.failure_ranking`).
Dedup is evaluated in `memory.evaluation.dedup_pairs`.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.store.lesson import normalize_for_id

if TYPE_CHECKING:
    from fireworks_skill_memory.models.embedders import EmbeddingModel

RANKERS = ("hits", "bm25", "dense", "ours")
RANKING_DEPTH = 10
PEER_INJECT = 5


# ---- metrics (the definitions of the eval's reference scorer) ----------------------------
def retrieval_metrics(
    queries: Sequence[dict[str, Any]], runs: dict[str, list[str]]
) -> dict[str, dict[str, float]]:
    """Recall@1/@5, best@5, MRR@10, nDCG@5 (gain 2 for the best id) and false injection."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[str, int] = defaultdict(int)
    none_total: dict[str, int] = defaultdict(int)
    none_injected: dict[str, int] = defaultdict(int)
    for query in queries:
        ranked = runs.get(str(query["qid"]), [])
        relevant = list(query["relevant"])
        for kind in ("all", query["kind"]):
            if not relevant:
                none_total[kind] += 1
                none_injected[kind] += bool(ranked)
                continue
            counts[kind] += 1
            m = sums[kind]
            m["recall@1"] += float(bool(set(ranked[:1]) & set(relevant)))
            m["recall@5"] += len(set(ranked[:5]) & set(relevant)) / len(relevant)
            m["best@5"] += float(relevant[0] in ranked[:5])
            m["mrr@10"] += next(
                (1.0 / (i + 1) for i, d in enumerate(ranked[:10]) if d in relevant), 0.0
            )
            gain = {d: (2 if j == 0 else 1) for j, d in enumerate(relevant)}
            dcg = sum(gain.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:5]))
            ideal = sorted(gain.values(), reverse=True)[:5]
            m["ndcg@5"] += dcg / sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    out: dict[str, dict[str, float]] = {}
    for kind in sorted(set(counts) | set(none_total)):
        row = {k: round(v / counts[kind], 4) for k, v in sums[kind].items()} if counts[kind] else {}
        row["n"] = counts[kind]
        if none_total[kind]:
            row["false_injection"] = round(none_injected[kind] / none_total[kind], 4)
            row["n_none"] = none_total[kind]
        out[kind] = row
    return out


# ---- retrieval ----------------------------------------------------------------------------
@dataclass
class RankerResult:
    """One ranker's ranking (top 10, before any gate), run (as injected) and metrics."""

    name: str
    ranking: dict[str, list[str]] = field(default_factory=dict)
    run: dict[str, list[str]] = field(default_factory=dict)
    ranking_metrics: dict[str, dict[str, float]] = field(default_factory=dict)
    run_metrics: dict[str, dict[str, float]] = field(default_factory=dict)


def read_jsonl(path: str) -> list[dict[str, Any]]:
    """Objects of a JSONL file (blank lines skipped); InvalidInput names the bad line."""
    items = []
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if line.strip():
                    try:
                        item = json.loads(line)
                    except ValueError:
                        raise InvalidInput(f"{path}:{number}: not JSON") from None
                    if not isinstance(item, dict):
                        raise InvalidInput(f"{path}:{number}: not a JSON object")
                    items.append(item)
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror}") from None
    return items


@contextmanager
def temporary_home(base_env: dict[str, str] | None = None) -> Iterator[Settings]:
    """Settings for a throwaway memory home (removed afterwards)."""
    folder = tempfile.mkdtemp(prefix="skill-memory-eval-")
    try:
        env = dict(base_env or os.environ)
        for name in ("AI_MEMORY_SKILLS_DIR", "AI_MEMORY_GLOBAL_FILE", "SKILL_MAX"):
            env.pop(name, None)
        env.update(
            {
                "AI_MEMORY_HOME": os.path.join(folder, "home"),
                "SKILLS_KNOWLEDGE_DIR": os.path.join(folder, "no-legacy"),
                "SKILL_MAX": "100000",
            }
        )
        yield Settings(env)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _corpus_ids(corpus_dir: str) -> dict[tuple[str, str], str]:
    lessons = read_jsonl(os.path.join(corpus_dir, "lessons.jsonl"))
    return {
        (str(item["skill"]), normalize_for_id(str(item["text"]))): str(item["id"])
        for item in lessons
    }


def evaluate_retrieval(
    settings_env: dict[str, str],
    corpus_dir: str,
    queries: Sequence[dict[str, Any]],
    embedder: EmbeddingModel,
    rankers: Sequence[str] = RANKERS,
    progress: Callable[[str], None] | None = None,
) -> list[RankerResult]:
    """Index the corpus in a temporary home and answer every query with every ranker."""
    from fireworks_skill_memory.memory.retrieval.retriever import Retriever

    if not os.path.isdir(os.path.join(corpus_dir, "skills")):
        raise InvalidInput(f"{corpus_dir} has no skills/ folder")
    ids = _corpus_ids(corpus_dir)
    results = []
    with temporary_home(settings_env) as settings:
        shutil.copytree(os.path.join(corpus_dir, "skills"), settings.skills_dir)
        retriever = Retriever(settings, embedder)
        if progress:
            progress("indexing the corpus")
        retriever.memory.sync(None)

        def corpus_id(skill: str | None, text: str) -> str:
            return ids.get((skill or "", normalize_for_id(text)), f"?{skill}:{text[:30]}")

        for name in rankers:
            if progress:
                progress(f"ranking with {name}")
            ranker = _PEERS[name](retriever, corpus_id)
            result = RankerResult(name)
            for query in queries:
                qid = str(query["qid"])
                ranking, run = ranker(query)
                result.ranking[qid] = ranking[:RANKING_DEPTH]
                result.run[qid] = run
            result.ranking_metrics = retrieval_metrics(queries, result.ranking)
            result.run_metrics = retrieval_metrics(queries, result.run)
            results.append(result)
    return results


Answer = tuple[list[str], list[str]]
IdOf = Callable[[str | None, str], str]


def is_failure(query: dict[str, Any]) -> bool:
    """True for a failure query (`command` and `error`), False for a task query (`task`)."""
    return "task" not in query and "error" in query


def query_task(query: dict[str, Any]) -> str:
    """The task text of a query: its `task`, or a failure's, built as the failure hook does."""
    if is_failure(query):
        from fireworks_skill_memory.memory.retrieval.failure import failure_task

        return failure_task(str(query.get("command") or ""), str(query["error"]))
    if "task" not in query:
        raise InvalidInput(f"query {query.get('qid')!r} has neither `task` nor `error`")
    return str(query["task"])


def _ours(retriever: Any, corpus_id: IdOf) -> Callable[[dict[str, Any]], Answer]:
    def answer(query: dict[str, Any]) -> Answer:
        skill, task = query.get("skill"), query_task(query)
        if is_failure(query):
            return _failure_answer(retriever, corpus_id, skill, task)
        ranked = retriever.rank_skill(skill, task) if skill else retriever.rank_all(task)
        lessons = ranked.candidates.lessons
        order = [int(i) for i in ranked.result.order]
        ranking = [corpus_id(lessons[i].skill, lessons[i].text) for i in order]
        run = [corpus_id(lessons[i].skill, lessons[i].text) for i in ranked.injected]
        return ranking, run

    return answer


def _failure_answer(retriever: Any, corpus_id: IdOf, skill: str | None, task: str) -> Answer:
    """A failure in `skill` (the session's one active skill), ranked and gated as the hook does."""
    from fireworks_skill_memory.memory.retrieval.failure_ranking import failure_hits, rank_scope

    if not skill:
        raise InvalidInput("a failure query needs the skill that was active when it failed")
    ranking = [
        corpus_id(h.lesson.skill, h.lesson.text) for h in rank_scope(retriever, skill, task).ranked
    ]
    run = [corpus_id(h.lesson.skill, h.lesson.text) for h in failure_hits(retriever, [skill], task)]
    return ranking, run


def _scope_lessons(retriever: Any, skill: str | None) -> list[Any]:
    if skill:
        return list(retriever.store.lessons(skill))
    return [
        lesson
        for info in retriever.store.skills()
        for lesson in retriever.store.lessons(info.skill)
    ]


def _hits(retriever: Any, corpus_id: IdOf) -> Callable[[dict[str, Any]], Answer]:
    from fireworks_skill_memory.memory.retrieval.inject import by_hits_and_age

    def answer(query: dict[str, Any]) -> Answer:
        lessons = _scope_lessons(retriever, query.get("skill"))
        ranking = [
            corpus_id(h.lesson.skill, h.lesson.text)
            for h in by_hits_and_age(lessons, retriever.store.month())
        ]
        return ranking, ranking[:PEER_INJECT]

    return answer


def _bm25(retriever: Any, corpus_id: IdOf) -> Callable[[dict[str, Any]], Answer]:
    from fireworks_skill_memory.memory.retrieval import lexical

    def answer(query: dict[str, Any]) -> Answer:
        lessons = _scope_lessons(retriever, query.get("skill"))
        scores = lexical.bm25_scores(query_task(query), [lesson.text for lesson in lessons])
        order = sorted(range(len(lessons)), key=lambda i: -scores[i])
        ranking = [corpus_id(lessons[i].skill, lessons[i].text) for i in order]
        return ranking, ranking[:PEER_INJECT]

    return answer


def _dense(retriever: Any, corpus_id: IdOf) -> Callable[[dict[str, Any]], Answer]:
    import numpy as np

    cache: dict[str, Any] = {}

    def vectors(lessons: list[Any]) -> Any:
        missing = [lesson.text for lesson in lessons if lesson.text not in cache]
        if missing:
            for text, vector in zip(missing, retriever.embedder.embed_batch(missing), strict=True):
                cache[text] = vector
        return np.stack([cache[lesson.text] for lesson in lessons])

    def answer(query: dict[str, Any]) -> Answer:
        lessons = _scope_lessons(retriever, query.get("skill"))
        if not lessons:
            return [], []
        similarity = vectors(lessons) @ retriever.embedder.embed(query_task(query))
        order = np.argsort(-similarity, kind="stable")
        ranking = [corpus_id(lessons[i].skill, lessons[i].text) for i in order]
        return ranking, ranking[:PEER_INJECT]

    return answer


_PEERS: dict[str, Callable[[Any, IdOf], Callable[[dict[str, Any]], Answer]]] = {
    "hits": _hits,
    "bm25": _bm25,
    "dense": _dense,
    "ours": _ours,
}
