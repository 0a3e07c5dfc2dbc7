"""Team memory benchmark (issue 13): a large team table, push, incremental pull, remote search.

Run from the repository root::

    .venv/bin/python benchmarks/team_bench.py [--lessons 120000] [--store folder|s3]
        [--changed 1000] [--queries 100] [--keep DIR]

It prints figures beside the issue's wording, it asserts nothing. Steps:

1. **Build** a team table of `--lessons` rows (default 120,000: past `ANN_MIN_ROWS`, so the
   vector index is built, and a few minutes on 2 cores; the issue's size is
   `--lessons 1000000`). Rows are written in 50,000-row appends straight into the product's
   schema (the bulk floor), 1,000 lessons per skill, with clustered random 384-d unit vectors
   (no model: see index_bench.py). Then `TeamTable.maintain()` builds what the product
   builds (BTree on skill, IVF-SQ on the vector), timed.
2. **Push**: one home with `--changed` lessons in 10 skills of the table, half of them
   new and half restating team lessons (merged into their rows), runs the product's
   `push()` (redaction, rules screen, dedup against the skill's rows, compare-and-swap
   write). Embedding is excluded (a stand-in embedder looks vectors up).
3. **Pull of the changed lessons**: a home whose pull state is the table before the push
   runs the product's incremental `pull()` (reads only the new fragments, re-screens,
   writes the team layer's markdown, indexes it with the stand-in embedder).
4. **Remote search**: `TeamTable.nearest` (k=10, state prefilter) with the IVF-SQ index the
   table got, next to the same query with the index bypassed (exact) and its recall, and
   next to **local search** (`LessonIndex.search`, k=10) in the pulling home's own index.

`--store folder` (default) keeps the table in a local folder: a moto S3 server holds every
object in one Python process's memory and is far slower than real S3 for a large table.
`--store s3` starts `moto_server` on 127.0.0.1 and runs the same steps against it.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("LANCEDB_LOG", "error")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import argparse
import contextlib
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from index_bench import (
    DIM,
    TOPICS,
    ClusteredVectors,
    Latency,
    LookupEmbedder,
    load_note,
    measure,
    write_home,
)
from index_bench import SkillLessons as SkillCorpus
from index_bench import lesson_text as make_text

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
from fireworks_skill_memory.memory.retrieval.ranking import lesson_embedding_texts
from fireworks_skill_memory.memory.screen import RULES_SCREEN
from fireworks_skill_memory.memory.store.lesson import Lesson, lesson_id
from fireworks_skill_memory.memory.team.layer import update_state
from fireworks_skill_memory.memory.team.pull import pull
from fireworks_skill_memory.memory.team.push import push
from fireworks_skill_memory.memory.team.remote import (
    ANN_MIN_ROWS,
    TeamTable,
)

PER_SKILL = 1_000
BATCH = 50_000
PUSH_SKILLS = 10
MODEL_ID = LookupEmbedder.model_id


def say(text: str = "") -> None:
    print(text, flush=True)


# ---- the store --------------------------------------------------------------------------
@contextlib.contextmanager
def store(kind: str, scratch: str) -> Iterator[tuple[str, dict[str, str]]]:
    """The team URI and its storage environment (a moto server on loopback for s3)."""
    if kind == "folder":
        yield os.path.join(scratch, "team-store"), {}
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    server = shutil.which("moto_server") or os.path.join(
        os.path.dirname(sys.executable), "moto_server"
    )
    process = subprocess.Popen(
        [server, "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    environ = {
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
        "AWS_ACCESS_KEY_ID": "bench",
        "AWS_SECRET_ACCESS_KEY": "bench",
        "AWS_REGION": "us-east-1",
        "AWS_ALLOW_HTTP": "true",
    }
    try:
        import boto3

        client = boto3.client(
            "s3",
            endpoint_url=environ["AWS_ENDPOINT_URL"],
            aws_access_key_id="bench",
            aws_secret_access_key="bench",
            region_name="us-east-1",
        )
        for _ in range(100):
            try:
                client.create_bucket(Bucket="team-bench")
                break
            except Exception:  # noqa: BLE001 - the server is still starting
                time.sleep(0.1)
        yield "s3://team-bench/memory", environ
    finally:
        process.terminate()
        process.wait(10)


def home(folder: str, uri: str, storage: dict[str, str], author: str) -> Settings:
    return Settings(
        {
            "AI_MEMORY_HOME": folder,
            "HOME": folder,
            "SKILLS_KNOWLEDGE_DIR": os.path.join(folder, "no-legacy-skills"),
            "SKILL_MEMORY_TEAM_URI": uri,
            "SKILL_MEMORY_AUTHOR": author,
            **storage,
        }
    )


# ---- the corpus -------------------------------------------------------------------------
def skill_names(count: int) -> list[str]:
    topics = list(TOPICS)
    return [
        topics[i % len(topics)] + ("" if i < len(topics) else f"-{i // len(topics) + 1}")
        for i in range(count)
    ]


def unique_texts(rnd: random.Random, terms: Sequence[str], count: int) -> list[str]:
    texts: dict[str, None] = {}
    while len(texts) < count:
        texts[make_text(rnd, terms)] = None
    return list(texts)


def build(
    table: TeamTable, total: int, vectors: ClusteredVectors, rnd: random.Random
) -> dict[str, list[str]]:
    """Append `total` team rows (PER_SKILL per skill); the texts by skill."""
    import pyarrow as pa

    names = skill_names(max(1, total // PER_SKILL))
    texts: dict[str, list[str]] = {}
    pending: list[dict[str, Any]] = []
    arrow = table.table(create=True)
    assert arrow is not None
    schema = table._schema()

    def flush() -> None:
        if pending:
            arrow.add(pa.Table.from_pylist(pending, schema=schema))
            pending.clear()

    written = 0
    for number, skill in enumerate(names):
        count = PER_SKILL if number < len(names) - 1 else total - written
        topic = TOPICS[skill.rsplit("-", 1)[0] if skill not in TOPICS else skill]
        texts[skill] = unique_texts(rnd, topic, count)
        sample = vectors.sample(skill, count)
        for text, vector in zip(texts[skill], sample, strict=True):
            author = f"dev{rnd.randrange(50)}@example.com"
            pending.append(
                {
                    "id": lesson_id(skill, text), "skill": skill, "tag": "Bench", "text": text,
                    "month": "2026-06", "hits": 1, "contributions": f'{{"{author}\\u001fx": 1}}',
                    "author": author, "provenance": "{}", "state": "knowledge", "rev": 1,
                    "expect": 0, "changed": "2026-06-01T00:00:00Z", "vector": vector,
                }
            )  # fmt: skip
        written += count
        if len(pending) >= BATCH:
            flush()
    flush()
    return texts


# ---- steps ------------------------------------------------------------------------------
def max_fragment(table: TeamTable) -> int:
    arrow = table.table(create=False)
    found = arrow.search().select(["id"]).with_row_id(True).limit(None).to_arrow()
    return int(max(found.column("_rowid").to_pylist())) >> 32


def pushing_home(
    folder: str, settings: Settings, texts: dict[str, list[str]], changed: int, rnd: random.Random
) -> tuple[list[SkillCorpus], int]:
    """A home with `changed` lessons in PUSH_SKILLS skills: half new, half team restatements."""
    skills = list(texts)[:PUSH_SKILLS]
    per = max(1, changed // len(skills))
    corpus = []
    for skill in skills:
        topic = TOPICS[skill.rsplit("-", 1)[0] if skill not in TOPICS else skill]
        known = set(texts[skill])
        fresh = [t for t in unique_texts(rnd, topic, per * 2) if t not in known][: per - per // 2]
        same = rnd.sample(texts[skill], per // 2)
        lessons = [Lesson(t, "Bench", "2026-07", 2, skill) for t in [*fresh, *same]]
        corpus.append(SkillCorpus(skill, topic, lessons))
    write_home(settings, corpus)
    return corpus, sum(len(c.lessons) for c in corpus)


def stand_in(
    corpus: Sequence[SkillCorpus], vectors: ClusteredVectors, team_vectors: dict[str, np.ndarray]
) -> LookupEmbedder:
    """Vectors for every string the push, the pull and the local index embed."""
    table: dict[str, Any] = {}
    for scope in corpus:
        for lesson in scope.lessons:
            strings = lesson_embedding_texts(lesson.tag or "", lesson.text)
            base = team_vectors.get(lesson.text)
            fresh = vectors.sample(scope.skill, len(strings))
            for i, text in enumerate(strings):
                table[text] = base if base is not None else fresh[i]
    return FallbackEmbedder(table, vectors)


class FallbackEmbedder(LookupEmbedder):
    """Looked-up vectors; a string nobody prepared (a pulled row's other wording) gets one."""

    def __init__(self, table: dict[str, Any], vectors: ClusteredVectors) -> None:
        super().__init__(table)
        self.source = vectors

    def embed_batch(self, texts: Sequence[str]) -> Any:
        for text in texts:
            if text not in self.vectors:
                self.vectors[text] = self.source.sample(None, 1)[0]
        return super().embed_batch(texts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lessons", type=int, default=120_000, help="team table size")
    parser.add_argument("--store", choices=("folder", "s3"), default="folder")
    parser.add_argument("--changed", type=int, default=1_000, help="lessons pushed, then pulled")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--keep", help="keep the homes and the folder store here")
    args = parser.parse_args(argv)

    scratch = args.keep or tempfile.mkdtemp(prefix="team-bench-")
    os.makedirs(scratch, exist_ok=True)
    rnd = random.Random(13)
    vectors = ClusteredVectors(13)
    say(f"team_bench: {args.lessons} lessons, store {args.store}, {load_note()}")
    if args.store == "folder":
        say("  store: a local folder URI (moto keeps every object in one Python process's memory,")
        say("  too slow for a table this size here); --store s3 runs the same steps on moto")
    try:
        with store(args.store, scratch) as (uri, storage):
            run(args, scratch, uri, storage, rnd, vectors)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


def run(  # noqa: PLR0915 - one straight sequence of steps, printed as it goes
    args: argparse.Namespace,
    scratch: str,
    uri: str,
    storage: dict[str, str],
    rnd: random.Random,
    vectors: ClusteredVectors,
) -> None:
    builder = home(os.path.join(scratch, "builder"), uri, storage, "bench@example.com")
    table = TeamTable(builder, MODEL_ID, DIM)

    start = time.perf_counter()
    texts = build(table, args.lessons, vectors, rnd)
    say(f"   (built in {time.perf_counter() - start:.1f} s)")
    build_s = time.perf_counter() - start
    start = time.perf_counter()
    table.maintain()
    maintain_s = time.perf_counter() - start
    indexes = table.indexes()
    say(f"\n1. build: {args.lessons} rows in {len(texts)} skills, {build_s:.1f} s "
        f"({args.lessons / build_s:,.0f} rows/s bulk append, 50k-row commits)")  # fmt: skip
    say(f"   maintain(): {maintain_s:.1f} s, indexes {indexes} "
        f"(vector index from {ANN_MIN_ROWS:,} rows)")  # fmt: skip

    # the pulling home is up to date with the table as built
    reader = home(os.path.join(scratch, "reader"), uri, storage, "reader@example.com")
    update_state(reader, uri=uri, version=table.version(), max_fragment=max_fragment(table))

    pusher = home(os.path.join(scratch, "pusher"), uri, storage, "pusher@example.com")
    corpus, offered = pushing_home(pusher.home, pusher, texts, args.changed, rnd)
    team_vectors = {}
    arrow = table.table(create=False)
    restated = [lesson.text for scope in corpus for lesson in scope.lessons]
    for skill in {scope.skill for scope in corpus}:
        found = arrow.search().where(f"skill = '{skill}'").select(["text", "vector"]).limit(None)
        for item in found.to_arrow().to_pylist():
            if item["text"] in restated:
                team_vectors[item["text"]] = np.asarray(item["vector"], dtype=np.float32)
    embedder = stand_in(corpus, vectors, team_vectors)
    start = time.perf_counter()
    report = push(pusher, embedder, RULES_SCREEN)
    push_s = time.perf_counter() - start
    say(f"\n2. push: {offered} lessons in {len(corpus)} skills -> {report.added} added, "
        f"{report.merged} merged: {push_s:.2f} s = {offered / push_s:,.0f} lessons/s "
        "(embedding excluded)")  # fmt: skip

    start = time.perf_counter()
    pulled = pull(reader, embedder, RULES_SCREEN)
    pull_s = time.perf_counter() - start
    say(f"\n3. pull: {pulled.rows_read} rows read ({'full' if pulled.full else 'incremental'}), "
        f"{pulled.updated} written to the team layer and indexed: {pull_s:.2f} s")  # fmt: skip

    queries = []
    for _ in range(args.queries + 10):
        skill = rnd.choice(list(texts))
        queries.append(vectors.sample(skill, 1)[0])
    q = [np.asarray(v, dtype=np.float32) for v in queries]
    remote = measure(lambda i: table.nearest(q[i], 10), args.queries)

    def exact(i: int) -> list[str]:
        query = arrow.search(q[i].tolist()).metric("cosine").bypass_vector_index()
        found = query.where("state = 'knowledge'", prefilter=True).limit(10).to_arrow()
        return [str(x) for x in found.column("id").to_pylist()]

    flat = measure(exact, min(args.queries, 30), warmup=2)
    recall = np.mean(
        [
            len({r.id for r in table.nearest(q[i], 10)} & set(exact(i))) / 10
            for i in range(min(args.queries, 30))
        ]
    )
    plan = arrow.search(q[0].tolist()).metric("cosine").limit(10).explain_plan(True)
    uses_index = "ANNSubIndex" in plan
    local = MemoryIndex(reader, embedder).index
    local_rows = local.count()
    local_search = measure(lambda i: local.search(q[i], 10), args.queries)
    say("\n4. search (k=10)")
    line(f"remote TeamTable.nearest, {args.lessons} rows, IVF-SQ used: {uses_index}", remote)
    line(f"remote exact (index bypassed), recall@10 of IVF-SQ {recall:.2f}", flat)
    line(f"local LessonIndex.search, {local_rows} rows (the pulled layer)", local_search)

    say("\nissue 13 wording -> figure")
    say(
        f"  'a 1,000,000-lesson team table'          -> {args.lessons:,} lessons, "
        f"{args.store} store"
    )
    say(f"  'push throughput'                        -> {offered / push_s:,.0f} lessons/s "
        f"({offered} lessons); bulk append {args.lessons / build_s:,.0f} rows/s")  # fmt: skip
    say(f"  'pull time for 1,000 changed lessons'    -> {pull_s:.2f} s for {pulled.rows_read}")
    say(f"  'remote search latency'                  -> p50 {remote.p50:.1f} ms (IVF-SQ), "
        f"exact {flat.p50:.1f} ms")  # fmt: skip
    say(f"  'next to local search'                   -> p50 {local_search.p50:.2f} ms")
    say(f"  [{load_note()}]")


def line(label: str, stats: Latency) -> None:
    say(f"   {label:<66} p50 {stats.p50:8.2f}  p95 {stats.p95:8.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
