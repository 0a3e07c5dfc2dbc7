"""Index benchmark: indexing throughput against the raw model, and search latency by table size.

Run from the repository root::

    .venv/bin/python benchmarks/index_bench.py [--sizes 1000,10000,100000] [--queries 200] [--json]

It prints figures, it asserts nothing. Three parts:

1. **Indexing throughput.** The raw encode rate of the real model
   (`SentenceTransformerEmbedder().embed_batch` over the strings `lesson_embedding_texts` gives
   for each lesson, in `EMBED_CHUNK` batches as `embed_lessons` sends them), then a full
   `MemoryIndex.reindex()` of a memory home holding the same lessons as KNOWLEDGE.md files,
   with the time of every phase (parse, hashing, LanceDB writes, optimize). Also the time to
   embed one task (short and long) with the real model.
2. **Search latency** at each size, in a warm process with the table open: the all-skills
   candidate step (`LessonIndex.search`, k=100), the skill-scoped fetch (`scope_rows`),
   `Retriever.search` and `Retriever.inject` with pre-embedded task vectors, and `rank()` +
   `gate()` alone. The tables are written without the model: a stand-in embedder hands out
   random unit vectors (clustered per skill, like real embeddings) and the product's own
   `MemoryIndex.sync` writes the rows through `LessonIndex.replace_sources`, so the sync state
   on disk is what the product would have; `LessonIndex.optimize()` then builds the BTree and
   (from `ANN_MIN_ROWS` rows) the IVF-SQ vector index.
3. **Where the search time goes** at the largest size (every phase of `Retriever.search` and
   `Retriever.inject`), and variants of the candidate query timed interleaved on the same
   queries, each with its recall against exact search: the index flag cached,
   `read_consistency_interval=None`, refine_factor off, IVF-SQ instead of IVF-PQ (built on a
   copy of the table), LanceDB's async API, IVF-HNSW-SQ (`--hnsw`, minutes to build), a flat
   scan, and two in-memory searches (exact numpy; nearest skill centroids, then exact).

With `--json` the human-readable report goes to stderr and a JSON document to stdout.
`--keep DIR` keeps the generated homes; with `--reuse` a later run searches them again
instead of rebuilding (building 100k lessons includes the vector index training). The
machine is usually shared: the CPU count and load average are printed with the figures.
"""

from __future__ import annotations

import os

# Thread counts must be fixed before numpy / torch are imported. One BLAS thread is what the
# ranking module asks of latency-sensitive processes; torch gets every core (set below).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("LANCE_LOG", "error")
os.environ.setdefault("LANCEDB_LOG", "error")  # lancedb 0.40 reads this one, not LANCE_LOG
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import argparse
import asyncio
import contextlib
import functools
import gc
import json
import math
import platform
import random
import shutil
import sys
import tempfile
import time
import types
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO
from unittest import mock

import numpy as np
import numpy.typing as npt

from fireworks_skill_memory.index import table as index_table
from fireworks_skill_memory.index.table import LessonIndex
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.retrieval import indexing, lexical, ranking
from fireworks_skill_memory.memory.retrieval.indexing import (
    EMBED_CHUNK,
    MemoryIndex,
    SyncReport,
)
from fireworks_skill_memory.memory.retrieval.ranking import (
    ALL_SKILLS_CANDIDATES,
    lesson_embedding_texts,
    task_embedding_texts,
)
from fireworks_skill_memory.memory.retrieval.retriever import Retriever
from fireworks_skill_memory.memory.store.knowledge_doc import Entry, KnowledgeDoc
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.models.embedders import EmbeddingModel

DIM = 384  # all-MiniLM-L6-v2
TODAY = "2026-11-15"
LESSONS_PER_SKILL = 100  # SKILL_MAX: the search homes fill every skill (and global) to it
SEARCH_TARGET_MS = 10.0
SQ_MIN_ROWS = 5_000  # the IVF-SQ variant is tried from this size on
SMALL_PARTITIONS = 1_000  # rows per IVF partition in the small-partition variant
SKILL_PROBE = 20  # skills searched exactly by the in-memory variant
BUILD_FILE = "benchmark-build.json"  # beside a kept home: what building it cost
REINDEX_TARGET = 0.85
FloatArray = npt.NDArray[np.float32]

# ---------------------------------------------------------------------------------------------
# Synthetic lessons and tasks
# ---------------------------------------------------------------------------------------------

TOPICS: dict[str, tuple[str, ...]] = {
    "docker": ("image", "layer", "compose", "volume", "bridge network", "buildx", "entrypoint"),
    "pytest": ("fixture", "parametrize", "conftest", "monkeypatch", "tmp_path", "xdist", "marker"),
    "postgres-migrations": ("migration", "index", "lock", "vacuum", "sequence", "schema", "enum"),
    "browser-automation": ("selector", "page", "iframe", "download", "viewport", "headless"),
    "kubernetes": ("pod", "deployment", "probe", "configmap", "namespace", "ingress", "HPA"),
    "terraform": ("state", "module", "provider", "workspace", "plan", "backend", "data source"),
    "react-forms": ("form state", "controlled input", "validation", "useEffect", "reducer"),
    "git-workflow": ("rebase", "submodule", "hook", "worktree", "merge base", "stash", "tag"),
    "aws-lambda": ("cold start", "layer", "handler", "timeout", "IAM role", "event source"),
    "rust-cargo": ("crate", "feature flag", "workspace", "lifetime", "build script", "clippy"),
    "python-packaging": ("wheel", "entry point", "pyproject", "sdist", "extra", "editable install"),
    "ci-github-actions": ("runner", "matrix", "cache key", "artifact", "secret", "workflow"),
    "data-pandas": ("dataframe", "dtype", "groupby", "merge", "index", "timezone", "parquet"),
    "nginx": ("upstream", "location block", "proxy header", "TLS certificate", "buffer"),
    "redis": ("key expiry", "pipeline", "pub/sub channel", "eviction policy", "cluster slot"),
    "typescript": ("type guard", "generic", "tsconfig", "declaration file", "strict mode"),
    "go-modules": ("goroutine", "context", "module proxy", "interface", "race detector"),
    "ml-training": ("learning rate", "checkpoint", "data loader", "gradient", "mixed precision"),
    "api-design": ("pagination", "idempotency key", "rate limit", "status code", "webhook"),
    "shell-scripting": ("quoting", "exit status", "pipefail", "heredoc", "trap", "subshell"),
    "sql-queries": ("join", "query plan", "CTE", "window function", "NULL handling", "index"),
    "security-review": ("token", "CSRF", "secret", "input validation", "permission", "audit log"),
    "frontend-css": ("flexbox", "grid", "z-index", "media query", "specificity", "font loading"),
    "observability": ("trace", "metric", "log level", "span", "alert", "dashboard", "sampling"),
}
CODE = (
    "`--no-cache`",
    "`set -euo pipefail`",
    "`PGOPTIONS`",
    "`--platform linux/amd64`",
    "`pytest -x`",
    "`ALTER TABLE`",
    "`git rebase --onto`",
    "`kubectl describe`",
    "`terraform import`",
    "`npm ci`",
    "`--frozen-lockfile`",
    "`CONCURRENTLY`",
)
VERBS = (
    "pin", "cache", "retry", "validate", "quote", "restart", "rebuild", "invalidate", "log",
    "check", "set", "wrap", "split", "batch", "limit", "mock", "isolate", "name", "version",
    "document", "measure", "reset", "lock", "stream", "compress", "rotate", "prefetch",
)  # fmt: skip
NOUNS = (
    "lockfile", "connection pool", "environment variables", "timeout", "retry budget",
    "health check", "service account", "default branch", "build cache", "config file",
    "base image", "test data", "error message", "exit code", "log output", "schema version",
    "feature flag", "dependency pin", "temporary directory", "worker count", "file handle",
    "request header", "memory limit", "cleanup step", "seed value", "trace id",
)  # fmt: skip
CONTEXTS = (
    "before running the suite", "on CI runners", "inside the container", "when the schema changes",
    "after a failed deploy", "on the first run", "in production only", "on Apple silicon",
    "under load", "when the cache is cold", "across time zones", "behind the corporate proxy",
    "in a fresh checkout", "when two jobs run at once", "after upgrading the library",
    "on a read-only file system", "with a large input", "when the network is flaky",
)  # fmt: skip
SYMPTOMS = (
    "hangs forever", "fails intermittently", "times out", "returns stale data",
    "leaks memory", "silently drops rows", "deadlocks", "passes locally but fails",
    "is much slower than expected", "reports a permission error", "crashes on start-up",
)  # fmt: skip
REASONS = (
    "otherwise the job hangs for minutes",
    "because the default is far too low",
    "so stale layers are never reused",
    "since the error only shows up later",
    "or the next run sees half-written state",
    "which keeps the failure reproducible",
    "because the tool swallows the real error",
    "so reviewers can see what changed",
    "otherwise retries multiply the load",
)
TAGS = (
    "Build cache", "Networking", "Permissions", "Performance", "Testing", "Config", "Debugging",
    "Security", "Deploy", "Data", "Concurrency", "Tooling", "Compatibility", "Cleanup", "Logging",
)  # fmt: skip


def _sentence(rnd: random.Random, terms: Sequence[str]) -> str:
    """One lesson-like sentence about a skill's terms."""
    term, other = rnd.choice(terms), rnd.choice(terms)
    verb, noun = rnd.choice(VERBS), rnd.choice(NOUNS)
    form = rnd.randrange(5)
    if form == 0:
        text = f"{verb.capitalize()} the {term} {noun} {rnd.choice(CONTEXTS)}"
        text += f", {rnd.choice(REASONS)}"
    elif form == 1:
        text = f"When the {term} {rnd.choice(SYMPTOMS)}, {verb} the {noun} {rnd.choice(CONTEXTS)}"
    elif form == 2:
        text = (
            f"The {term} {rnd.choice(SYMPTOMS)} {rnd.choice(CONTEXTS)}; "
            f"{verb} the {other} {noun} instead"
        )
    elif form == 3:
        text = f"Never {verb} the {term} {noun} {rnd.choice(CONTEXTS)}: {rnd.choice(REASONS)}"
    else:
        text = f"Use {rnd.choice(CODE)} to {verb} the {term} {noun} {rnd.choice(CONTEXTS)}"
    return text + "."


def lesson_text(rnd: random.Random, terms: Sequence[str]) -> str:
    """A lesson of 60-200 characters."""
    while True:
        text = _sentence(rnd, terms)
        if len(text) < 60:
            text = f"{text[:-1]}, {rnd.choice(REASONS)}."
        if 60 <= len(text) <= 200:
            return text


def task_text(rnd: random.Random, terms: Sequence[str], long: bool = False) -> str:
    """An agent task: one short request, or a long multi-sentence description (chunked)."""
    term = rnd.choice(terms)
    short = (
        f"The {term} {rnd.choice(NOUNS)} {rnd.choice(SYMPTOMS)} {rnd.choice(CONTEXTS)}, "
        f"how do I {rnd.choice(VERBS)} it?"
    )
    if not long:
        return short
    sentences = [short] + [_sentence(rnd, terms) for _ in range(rnd.randint(14, 20))]
    return " ".join(sentences)


@dataclass
class SkillLessons:
    """The lessons of one scope (skill None: the global file) and their topic vocabulary."""

    skill: str | None
    terms: tuple[str, ...]
    lessons: list[Lesson]


def make_corpus(rnd: random.Random, sizes: Sequence[int], global_count: int) -> list[SkillLessons]:
    """Skills with the given lesson counts (named after topics), plus the global file."""
    topics = list(TOPICS)
    scopes: list[SkillLessons] = []
    all_terms = tuple(t for terms in TOPICS.values() for t in terms)
    for number, count in enumerate([global_count, *sizes]):
        if number == 0:
            skill, terms = None, all_terms
        else:
            topic = topics[(number - 1) % len(topics)]
            round_ = (number - 1) // len(topics)
            skill = topic if round_ == 0 else f"{topic}-{round_ + 1}"
            terms = TOPICS[topic]
        texts: set[str] = set()
        lessons: list[Lesson] = []
        while len(lessons) < count:
            text = lesson_text(rnd, terms)
            if text in texts:
                continue
            texts.add(text)
            lessons.append(
                Lesson(
                    text=text,
                    tag=rnd.choice(TAGS) if rnd.random() < 0.9 else None,
                    month=f"{rnd.choice((2024, 2025, 2026))}-{rnd.randint(1, 11):02d}",
                    hits=rnd.randint(0, 25) if rnd.random() < 0.85 else None,
                    skill=skill,
                )
            )
        scopes.append(SkillLessons(skill, terms, lessons))
    return scopes


def write_home(settings: Settings, corpus: Sequence[SkillLessons]) -> None:
    """Write one KNOWLEDGE.md per scope, in the product's format."""
    store = Store(settings)
    for scope in corpus:
        doc = KnowledgeDoc.new(scope.skill, TODAY)
        doc.lines.extend(Entry(lesson) for lesson in scope.lessons)
        path = store.knowledge_path(scope.skill)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(doc.render())


def home_settings(home: str) -> Settings:
    """Settings for a throwaway memory home (no legacy folder, defaults otherwise)."""
    return Settings(
        {
            "AI_MEMORY_HOME": home,
            "HOME": home,
            "SKILLS_KNOWLEDGE_DIR": os.path.join(home, "no-legacy-skills"),
        }
    )


def lesson_strings(lesson: Lesson) -> list[str]:
    return lesson_embedding_texts(lesson.tag or "", lesson.text)


# ---------------------------------------------------------------------------------------------
# Vectors without the model
# ---------------------------------------------------------------------------------------------

# A vector is SHARED * s + CENTER * c_skill + NOISE * n (unit parts, nearly orthogonal in 384-d):
# cosine ~0.1 across skills and ~0.4 within a skill, about what all-MiniLM-L6-v2 gives lessons.
SHARED, CENTER, NOISE = math.sqrt(0.1), math.sqrt(0.3), math.sqrt(0.6)


def _unit(matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    result: npt.NDArray[np.float64] = matrix / np.linalg.norm(matrix, axis=-1, keepdims=True)
    return result


class ClusteredVectors:
    """Random unit vectors clustered per skill."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.shared = _unit(self.rng.standard_normal(DIM))
        self.centers: dict[str | None, npt.NDArray[np.float64]] = {}

    def sample(self, skill: str | None, count: int) -> FloatArray:
        center = self.centers.get(skill)
        if center is None:
            center = self.centers[skill] = _unit(self.rng.standard_normal(DIM))
        noise = _unit(self.rng.standard_normal((count, DIM)))
        return _unit(SHARED * self.shared + CENTER * center + NOISE * noise).astype(np.float32)


class LookupEmbedder(EmbeddingModel):
    """A stand-in embedder: precomputed vectors for known strings (no model, no torch)."""

    model_id = "benchmark/clustered-random-384"

    def __init__(self, vectors: dict[str, FloatArray]) -> None:
        self.vectors = vectors

    @property
    def dimension(self) -> int:
        return DIM

    def embed_batch(self, texts: Sequence[str]) -> FloatArray:
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        return np.stack([self.vectors[text] for text in texts])


def lookup_embedder(corpus: Sequence[SkillLessons], vectors: ClusteredVectors) -> LookupEmbedder:
    table: dict[str, FloatArray] = {}
    for scope in corpus:
        strings = [s for lesson in scope.lessons for s in lesson_strings(lesson)]
        for text, vector in zip(strings, vectors.sample(scope.skill, len(strings)), strict=True):
            table[text] = vector
    return LookupEmbedder(table)


class PreEmbeddedRetriever(Retriever):
    """The product's Retriever with task vectors looked up instead of encoded."""

    def __init__(
        self, settings: Settings, embedder: EmbeddingModel, tasks: dict[str, FloatArray]
    ) -> None:
        super().__init__(settings, embedder)
        self.task_vectors = tasks

    def task_vector(self, task: str | Sequence[str]) -> FloatArray:
        # the Retriever passes a task as a text or as its parts (`retriever.task_list`)
        return self.task_vectors[task if isinstance(task, str) else "\n".join(task)]


# ---------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------


@dataclass
class Latency:
    """Percentiles of one measured operation, in milliseconds."""

    n: int
    p50: float
    p95: float
    p99: float
    mean: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Latency:
        ms = np.asarray(seconds) * 1000.0
        p50, p95, p99 = (float(x) for x in np.percentile(ms, [50, 95, 99]))
        return cls(len(ms), p50, p95, p99, float(ms.mean()))


def measure(
    call: Callable[[int], object], count: int, warmup: int = 10, budget: float = 60.0
) -> Latency:
    """Call `call(0)` .. `call(warmup - 1)` untimed, then the next `count` indices timed (fewer,
    but at least 20, once the timed calls took over `budget` seconds)."""
    for i in range(warmup):
        call(i)
    gc.collect()
    times: list[float] = []
    for i in range(warmup, warmup + count):
        start = time.perf_counter()
        call(i)
        times.append(time.perf_counter() - start)
        if len(times) >= 20 and sum(times) > budget:
            break
    return Latency.of(times)


class PhaseTimer:
    """Self time per phase: wrap functions, nested wrapped calls are charged to their own phase."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._children: list[float] = []

    def wrap(self, function: Callable[..., Any], phase: str) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._children.append(0.0)
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                self.seconds[phase] += elapsed - self._children.pop()
                self.calls[phase] += 1
                if self._children:
                    self._children[-1] += elapsed

        return timed

    @contextlib.contextmanager
    def patched(self, targets: Sequence[tuple[object, str, str]]) -> Iterator[PhaseTimer]:
        """Time every (owner, attribute, phase) while the block runs."""
        with contextlib.ExitStack() as stack:
            for owner, name, phase in targets:
                original = getattr(owner, name)
                stack.enter_context(mock.patch.object(owner, name, self.wrap(original, phase)))
            yield self


def disk_bytes(folder: str) -> int:
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.path.getsize(os.path.join(root, name))
    return total


def load_note() -> str:
    one, five, _ = os.getloadavg()
    cpus = os.cpu_count() or 1
    note = f"load {one:.2f}/{five:.2f} (1/5 min) on {cpus} CPUs"
    return note + ("  ** LOADED: figures inflated **" if one > 0.75 * cpus else "")


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


@dataclass
class Report:
    machine: dict[str, Any] = field(default_factory=dict)
    indexing: dict[str, Any] = field(default_factory=dict)
    encode: dict[str, Any] = field(default_factory=dict)
    search: list[dict[str, Any]] = field(default_factory=list)
    investigation: dict[str, Any] = field(default_factory=dict)


class Printer:
    def __init__(self, out: TextIO) -> None:
        self.out = out

    def line(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def heading(self, text: str) -> None:
        self.line()
        self.line(text)
        self.line("-" * len(text))

    def latency(self, label: str, stats: Latency, target: float | None = None) -> None:
        mark = ""
        if target is not None:
            mark = "  ok" if stats.p50 <= target else f"  MISSES {target:g} ms"
        self.line(
            f"  {label:<64} p50 {stats.p50:8.2f}  p95 {stats.p95:8.2f}  p99 {stats.p99:8.2f}"
            f"  mean {stats.mean:8.2f} ms{mark}"
        )

    def phases(self, timer: PhaseTimer, total: float, per: int = 1, unit: str = "s") -> None:
        scale = 1000.0 / per if unit == "ms" else 1.0
        accounted = 0.0
        for phase, seconds in sorted(timer.seconds.items(), key=lambda item: -item[1]):
            accounted += seconds
            self.line(
                f"    {phase:<52} {seconds * scale:9.3f} {unit}  {100 * seconds / total:5.1f}%"
                f"  ({timer.calls[phase] / per:g} calls)"
            )
        rest = total - accounted
        self.line(f"    {'other (glue, not wrapped)':<52} {rest * scale:9.3f} {unit}  "
                  f"{100 * rest / total:5.1f}%")  # fmt: skip


def phases_dict(timer: PhaseTimer, total: float, per: int = 1) -> dict[str, Any]:
    return {
        "total_s": total / per,
        "phases_s": {phase: seconds / per for phase, seconds in timer.seconds.items()},
        "calls": {phase: count / per for phase, count in timer.calls.items()},
    }


# ---------------------------------------------------------------------------------------------
# Part 1: indexing throughput against the raw encode rate
# ---------------------------------------------------------------------------------------------

ENCODE_PHASE = "model encode (embed_batch)"
REINDEX_PHASES: list[tuple[object, str, str]] = [
    (MemoryIndex, "stale_sources", "scan: list + stat files, parse each to count lessons"),
    (indexing, "read_text", "read KNOWLEDGE.md files"),
    (indexing, "lesson_embedding_texts", "lesson strings"),
    (indexing, "content_hash", "content hashes"),
    (indexing, "embed_lessons", "pooling (embed_lessons minus encode)"),
    (LessonIndex, "drop", "LanceDB: drop table"),
    (LessonIndex, "table", "LanceDB: open / create table"),
    (LessonIndex, "vectors_by_hash", "LanceDB: look up reusable vectors"),
    (LessonIndex, "_arrow", "Arrow conversion of rows"),
    (LessonIndex, "replace_sources", "LanceDB: delete + add rows"),
    (LessonIndex, "optimize", "LanceDB: compaction + cleanup"),
    (LessonIndex, "ensure_indexes", "LanceDB: build BTree / vector indexes"),
    (LessonIndex, "load_state", "sync state read"),
    (LessonIndex, "save_state", "sync state write"),
]


def timed_reindex(
    settings: Settings, embedder: EmbeddingModel
) -> tuple[float, PhaseTimer, SyncReport]:
    """`MemoryIndex.reindex()` with the time of each phase."""
    timer = PhaseTimer()
    memory_index = MemoryIndex(settings, embedder)
    gc.collect()
    targets = [*REINDEX_PHASES, (embedder, "embed_batch", ENCODE_PHASE)]
    # `indexing` calls `KnowledgeDoc.parse(...)`: time that call only (not the parses
    # `Store.skills()` does inside the scan, which stay in the scan's phase)
    parser = types.SimpleNamespace(
        parse=timer.wrap(KnowledgeDoc.parse, "parse markdown (KnowledgeDoc.parse)")
    )
    with timer.patched(targets), mock.patch.object(indexing, "KnowledgeDoc", parser):
        start = time.perf_counter()
        sync = memory_index.reindex()
        total = time.perf_counter() - start
    return total, timer, sync


def bench_indexing(
    report: Report, out: Printer, lesson_count: int, repeats: int, encode_queries: int
) -> None:
    import torch

    from fireworks_skill_memory.models.embedders import SentenceTransformerEmbedder

    out.heading(f"1. Indexing throughput ({lesson_count} lessons, real model)")
    rnd = random.Random(1)
    sizes: list[int] = []
    while sum(sizes) + 50 < lesson_count:
        sizes.append(min(rnd.randint(50, 100), lesson_count - 50 - sum(sizes)))
    corpus = make_corpus(rnd, sizes, global_count=50)
    lessons = [lesson for scope in corpus for lesson in scope.lessons]
    strings = [s for lesson in lessons for s in lesson_strings(lesson)]
    chars = sum(len(lesson.text) for lesson in lessons) / len(lessons)
    out.line(
        f"  corpus: {len(lessons)} lessons in {len(corpus) - 1} skills + global, "
        f"{len(strings)} strings to embed, mean lesson {chars:.0f} chars"
    )

    embedder = SentenceTransformerEmbedder()
    start = time.perf_counter()
    embedder.load()
    load_seconds = time.perf_counter() - start
    embedder.embed_batch(strings[:EMBED_CHUNK])  # warm-up
    out.line(
        f"  model load {load_seconds:.2f} s (once per process, excluded below; lancedb was "
        f"imported at start-up); torch threads {torch.get_num_threads()}"
    )

    raw_runs: list[float] = []
    reindex_runs: list[tuple[float, PhaseTimer, SyncReport]] = []
    with tempfile.TemporaryDirectory(prefix="index-bench-") as home:
        settings = home_settings(home)
        write_home(settings, corpus)
        for run in range(repeats):
            gc.collect()
            start = time.perf_counter()
            for offset in range(0, len(strings), EMBED_CHUNK):
                embedder.embed_batch(strings[offset : offset + EMBED_CHUNK])
            raw_runs.append(time.perf_counter() - start)
            out.line(
                f"  run {run + 1}: raw encode {raw_runs[-1]:.2f} s "
                f"({len(lessons) / raw_runs[-1]:.1f} lessons/s)   [{load_note()}]"
            )
            total, timer, sync = timed_reindex(settings, embedder)
            reindex_runs.append((total, timer, sync))
            out.line(
                f"  run {run + 1}: reindex    {total:.2f} s "
                f"({len(lessons) / total:.1f} lessons/s, {sync.embedded} embedded)"
            )

    raw = min(raw_runs)
    total, timer, sync = min(reindex_runs, key=lambda item: item[0])
    raw_rate, reindex_rate = len(lessons) / raw, len(lessons) / total
    ratio = reindex_rate / raw_rate
    # the model's share of the reindex's own time is measured under the same load, at once
    share = timer.seconds[ENCODE_PHASE] / total
    verdict = "ok" if min(ratio, share) >= REINDEX_TARGET else "MISSED"
    out.line()
    out.line(
        f"  raw model encode : {len(strings) / raw:8.1f} strings/s  {raw_rate:8.1f} lessons/s "
        f"(best of {repeats})"
    )
    out.line(
        f"  full reindex     : {reindex_rate:8.1f} lessons/s  = {100 * ratio:.1f}% of raw "
        f"(best of {repeats}); model encode is {100 * share:.1f}% of the reindex's own time "
        f"(target >= {100 * REINDEX_TARGET:.0f}%: {verdict})"
    )
    out.line(f"  where the reindex time goes ({total:.2f} s, best run):")
    out.phases(timer, total)
    report.indexing = {
        "lessons": len(lessons),
        "strings": len(strings),
        "skills": len(corpus) - 1,
        "model_load_s": load_seconds,
        "raw_encode_s": raw_runs,
        "reindex_s": [run[0] for run in reindex_runs],
        "raw_strings_per_s": len(strings) / raw,
        "raw_lessons_per_s": raw_rate,
        "reindex_lessons_per_s": reindex_rate,
        "reindex_vs_raw": ratio,
        "model_share_of_reindex": share,
        "reindex_breakdown": phases_dict(timer, total),
        "embedded": sync.embedded,
    }
    bench_query_encode(report, out, embedder, encode_queries)


def encode_task(retriever: Retriever, tasks: Sequence[str], i: int) -> object:
    return retriever.task_vector(tasks[i])


def bench_query_encode(report: Report, out: Printer, embedder: EmbeddingModel, count: int) -> None:
    """`Retriever.task_vector` with the real model, for fresh short and long tasks, with one
    torch thread (what the warm service uses) and with one per CPU."""
    import torch

    out.heading("Query encode (real model, Retriever.task_vector, cache miss)")
    configured = torch.get_num_threads()
    with tempfile.TemporaryDirectory(prefix="index-bench-") as home:
        for threads in sorted({1, configured}):
            torch.set_num_threads(threads)
            retriever = Retriever(home_settings(home), embedder)  # empty chunk cache
            rnd = random.Random(7 + threads)
            terms = TOPICS["docker"] + TOPICS["pytest"]
            for long in (False, True):
                tasks = [task_text(rnd, terms, long) for _ in range(count + 5)]
                words = float(np.mean([len(t.split()) for t in tasks]))
                chunks = float(np.mean([len(task_embedding_texts(t)) for t in tasks]))
                stats = measure(functools.partial(encode_task, retriever, tasks), count, 5)
                kind = "long" if long else "short"
                label = f"{kind} task ({words:.0f} words, {chunks:.1f} chunks), {threads} thread(s)"
                out.latency(label, stats)
                report.encode[f"{kind}_{threads}_threads"] = {
                    "words": words,
                    "chunks": chunks,
                    "torch_threads": threads,
                    **asdict(stats),
                }
    torch.set_num_threads(configured)
    out.line(f"  [{load_note()}]")


# ---------------------------------------------------------------------------------------------
# Part 2: search latency by table size
# ---------------------------------------------------------------------------------------------


@dataclass
class SearchHome:
    """A memory home of `size` lessons, indexed, with its queries."""

    size: int
    settings: Settings
    corpus: list[SkillLessons]
    embedder: LookupEmbedder
    tasks: list[tuple[str, str]]  # (skill, task text)
    task_vectors: dict[str, FloatArray]
    build: dict[str, Any]


def build_search_home(
    folder: str, size: int, queries: int, out: Printer, reuse: bool = False
) -> SearchHome:
    """Write and index a home of `size` lessons (or reuse one a `--keep` run left in `folder`).

    Everything is seeded by `size`, so a reused home has the same lessons, vectors and tasks.
    """
    rnd = random.Random(size)
    scopes = max(1, size // LESSONS_PER_SKILL)
    counts = [LESSONS_PER_SKILL] * (scopes - 1)
    global_count = size - sum(counts)
    corpus = make_corpus(rnd, counts, global_count)
    settings = home_settings(folder)
    vectors = ClusteredVectors(size)
    embedder = lookup_embedder(corpus, vectors)

    # queries: a task about a random skill, its vector near one of that skill's lessons
    skills = [scope for scope in corpus if scope.skill is not None] or corpus
    tasks: list[tuple[str, str]] = []
    task_vectors: dict[str, FloatArray] = {}
    while len(tasks) < queries:
        scope = rnd.choice(skills)
        task = task_text(rnd, scope.terms)
        if task in task_vectors:
            continue
        near = embedder.vectors[lesson_strings(rnd.choice(scope.lessons))[0]]
        fresh = vectors.sample(scope.skill, 1)[0]
        task_vectors[task] = _unit(0.5 * near + 0.5 * fresh).astype(np.float32)
        tasks.append((scope.skill or "", task))

    saved = os.path.join(folder, BUILD_FILE)
    if reuse and os.path.isfile(saved):
        with open(saved, encoding="utf-8") as handle:
            build: dict[str, Any] = json.load(handle)
        build["reused"] = True
    else:
        shutil.rmtree(folder, ignore_errors=True)
        write_home(settings, corpus)
        build = index_home(settings, embedder)
        with open(saved, "w", encoding="utf-8") as handle:
            json.dump(build, handle)
    out.line(
        f"  {'reused' if build.get('reused') else 'built'}: {build['rows']} rows in "
        f"{len(corpus) - 1} skills + global; sync (parse + replace_sources) "
        f"{build['sync_s']:.1f} s; optimize {build['optimize_s']:.1f} s, of which BTree "
        f"{build['btree_s']:.1f} s and vector index {build['ann_s']:.1f} s; indexes "
        f"{', '.join(build['indexes'])}; on disk {build['index_bytes'] / 2**20:.1f} MiB"
    )
    return SearchHome(size, settings, corpus, embedder, tasks, task_vectors, build)


def index_home(settings: Settings, embedder: EmbeddingModel) -> dict[str, Any]:
    """Sync every file (rows written by `replace_sources`), then optimize: what is built when."""
    timer = PhaseTimer()
    memory_index = MemoryIndex(settings, embedder)
    table_class = type(memory_index.index.table())
    create_index = table_class.create_index

    def timed_create_index(table: Any, column: str, *args: Any, **kwargs: Any) -> Any:
        phase = "ann" if column == "vector" else "btree"
        return timer.wrap(create_index, phase)(table, column, *args, **kwargs)

    with (
        mock.patch.object(table_class, "create_index", timed_create_index),
        timer.patched([(LessonIndex, "replace_sources", "replace_sources")]),
    ):
        start = time.perf_counter()
        sync = memory_index.sync(None)
        sync_seconds = time.perf_counter() - start
        start = time.perf_counter()
        memory_index.index.optimize()
        optimize_seconds = time.perf_counter() - start
    return {
        "rows": sync.rows,
        "sync_s": sync_seconds,
        "write_rows_s": timer.seconds["replace_sources"],
        "optimize_s": optimize_seconds,
        "btree_s": timer.seconds["btree"],
        "ann_s": timer.seconds["ann"],
        "indexes": sorted(idx.name for idx in memory_index.index.table().list_indices()),
        "index_bytes": disk_bytes(settings.index_dir),
        "markdown_bytes": disk_bytes(settings.skills_dir) + disk_bytes(settings.global_file),
        "load_during_build": load_note(),
    }


def bench_search(home: SearchHome, queries: int, out: Printer) -> dict[str, Any]:
    retriever = PreEmbeddedRetriever(home.settings, home.embedder, home.task_vectors)
    index = retriever.memory.index
    tasks = home.tasks
    vectors = [home.task_vectors[task] for _, task in tasks]
    result: dict[str, Any] = {"size": home.size, "build": home.build, "load": load_note()}
    out.line(f"  [{result['load']}]")
    target = SEARCH_TARGET_MS if home.size >= 100_000 else None

    def record(key: str, label: str, stats: Latency, goal: float | None = None) -> None:
        result[key] = asdict(stats)
        out.latency(label, stats, goal)

    n = len(tasks)
    record(
        "lance_search_k100",
        f"(a) LessonIndex.search k={ALL_SKILLS_CANDIDATES}",
        measure(lambda i: index.search(vectors[i % n], ALL_SKILLS_CANDIDATES), queries),
        target,
    )
    record(
        "scope_rows",
        "(b) LessonIndex.scope_rows([skill])",
        measure(lambda i: index.scope_rows([tasks[i % n][0]]), queries),
    )
    record(
        "retriever_search",
        "(c) Retriever.search(task) (all skills)",
        measure(lambda i: retriever.search(tasks[i % n][1]), queries, warmup=3),
        target,
    )
    # warm: every skill's candidates cached by the warm-up pass; cold: cache emptied each call
    warm_skills = max(queries, n)
    record(
        "retriever_inject_warm",
        "(c) Retriever.inject(skill, task), candidates cached",
        measure(lambda i: retriever.inject(tasks[i % n][0], tasks[i % n][1]), queries, warm_skills),
        target,
    )

    def inject_cold(i: int) -> object:
        retriever._scopes.clear()
        return retriever.inject(tasks[i % n][0], tasks[i % n][1])

    record(
        "retriever_inject_cold",
        "(c) Retriever.inject, candidate cache empty",
        measure(inject_cold, queries),
    )
    candidates = retriever.candidates(tasks[0][0])

    def rank_and_gate(i: int) -> object:
        task = tasks[i % n][1]
        similarity = candidates.vectors @ home.task_vectors[task]
        scored = ranking.rank(
            ranking.Candidates(
                texts=[row.text for row in candidates.rows],
                tags=[row.tag for row in candidates.rows],
                hits=np.asarray([row.hits for row in candidates.rows], dtype=float),
                age_months=candidates.ages,
                similarity=similarity,
                hub=candidates.hub,
                tokens=candidates.tokens,
            ),
            task,
            retriever.weights,
        )
        return ranking.gate(scored, retriever.weights)

    record(
        "rank_gate",
        f"(d) rank()+gate(), {len(candidates.rows)}-lesson skill",
        measure(rank_and_gate, queries),
    )
    record(
        "hubness",
        f"    hubness() of a {len(candidates.rows)}-lesson skill (per cache miss)",
        measure(lambda i: ranking.hubness(candidates.vectors, retriever.weights.hub_k), queries),
    )
    record(
        "sync_all_unchanged",
        "    MemoryIndex.sync(None), nothing changed",
        measure(lambda i: retriever.memory.sync(None), min(queries, 50), 3),
    )
    record(
        "load_state",
        "    LessonIndex.load_state() (state.json)",
        measure(lambda i: index.load_state(), queries),
    )
    return result


SEARCH_PHASES: list[tuple[object, str, str]] = [
    (MemoryIndex, "stale_sources", "sync: list + stat + parse every file (stale_sources)"),
    (Store, "sources", "sync: Store.sources()"),
    (Store, "skills", "sync: Store.skills() (parses files to count lessons)"),
    (LessonIndex, "load_state", "state.json read (load_state)"),
    (LessonIndex, "search", "LanceDB vector query (LessonIndex.search)"),
    (LessonIndex, "scope_rows", "LanceDB scope fetch (scope_rows)"),
    (LessonIndex, "_has_vector_index", "list_indices() per query"),
    (index_table, "_rows", "Arrow -> Row objects"),
    (index_table, "_vectors", "Arrow -> numpy vectors"),
    (ranking, "hubness", "hubness"),
    (lexical, "tokenize", "tokenize (candidates + task)"),
    (ranking, "rank", "rank (BM25 + formula)"),
    (ranking, "gate", "gate"),
]


def breakdown(home: SearchHome, queries: int, out: Printer) -> dict[str, Any]:
    """One instrumented pass of Retriever.search and Retriever.inject: time per phase."""
    retriever = PreEmbeddedRetriever(home.settings, home.embedder, home.task_vectors)
    tasks = home.tasks[:queries]
    retriever.search(tasks[0][1])  # opens the table
    for skill, task in tasks:  # fills the candidate caches, as in a warm service
        retriever.inject(skill, task)
    # Retriever.search re-scans every file per query: a few queries are enough when that is slow
    start = time.perf_counter()
    retriever.search(tasks[1][1])
    search_count = len(tasks) if time.perf_counter() - start < 0.1 else min(len(tasks), 20)
    result: dict[str, Any] = {}
    calls: list[tuple[str, Callable[[str, str], object], int]] = [
        ("search", lambda skill, task: retriever.search(task), search_count),
        ("inject", retriever.inject, len(tasks)),
    ]
    for name, call, count in calls:
        timer = PhaseTimer()
        with timer.patched(SEARCH_PHASES):
            start = time.perf_counter()
            for skill, task in tasks[:count]:
                call(skill, task)
            total = time.perf_counter() - start
        out.line(
            f"  Retriever.{name}: {1000 * total / count:.2f} ms per query "
            f"(instrumented, {count} queries)"
        )
        out.phases(timer, total, per=count, unit="ms")
        result[name] = phases_dict(timer, total, per=count)
    return result


# ---------------------------------------------------------------------------------------------
# Part 3: variants of the candidate query
# ---------------------------------------------------------------------------------------------


class CachedFlagIndex(LessonIndex):
    """`_has_vector_index` answered once per table version instead of per query."""

    _flag: tuple[int, bool] | None = None

    def _has_vector_index(self) -> bool:
        version = int(self.table().version)
        if self._flag is None or self._flag[0] != version:
            self._flag = (version, super()._has_vector_index())
        return self._flag[1]


class LazyConsistencyIndex(CachedFlagIndex):
    """Connected with `read_consistency_interval=None`: no version check on each read."""

    def _connect(self) -> Any:
        if self._db is None:
            import lancedb

            self._db = lancedb.connect(self.folder, read_consistency_interval=None)
        return self._db


def query_variant(
    index: LessonIndex, nprobes: int | None, refine: int | None, flat: bool = False
) -> Callable[[FloatArray], list[str]]:
    """`LessonIndex.search` with other ANN parameters (same query, same row conversion)."""

    def search(vector: FloatArray) -> list[str]:
        query = index.table().search(vector).distance_type("cosine").limit(ALL_SKILLS_CANDIDATES)
        if flat:
            query = query.bypass_vector_index()
        if nprobes is not None:
            query = query.nprobes(nprobes)
        if refine is not None:
            query = query.refine_factor(refine)
        found = query.to_arrow()
        index_table._vectors(found)
        return [row.id for row in index_table._rows(found)]

    return search


def product_search(index: LessonIndex) -> Callable[[FloatArray], list[str]]:
    def search(vector: FloatArray) -> list[str]:
        return [row.id for row in index.search(vector, ALL_SKILLS_CANDIDATES)[0]]

    return search


def async_query(
    folder: str, nprobes: int | None, loop: asyncio.AbstractEventLoop
) -> Callable[[FloatArray], list[str]]:
    """The same query through LanceDB's async API (no hand-offs to its background thread)."""
    import lancedb

    async def open_table() -> Any:
        return await (await lancedb.connect_async(folder)).open_table(index_table.TABLE)

    table = loop.run_until_complete(open_table())

    async def query(vector: FloatArray) -> Any:
        builder = table.query().nearest_to(vector).distance_type("cosine")
        builder = builder.limit(ALL_SKILLS_CANDIDATES)
        if nprobes is not None:
            builder = builder.nprobes(nprobes)
        return await builder.to_arrow()

    def search(vector: FloatArray) -> list[str]:
        found = loop.run_until_complete(query(vector))
        index_table._vectors(found)
        return [row.id for row in index_table._rows(found)]

    return search


def skill_probe(
    matrix: FloatArray, ids: npt.NDArray[Any], scopes: Sequence[str], probe: int
) -> Callable[[FloatArray], list[str]]:
    """In memory: the `probe` skills whose mean vector is nearest, then exact search in them
    (an IVF whose partitions are the skills; what a warm service holding vectors could do)."""
    names, inverse = np.unique(np.asarray(scopes), return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(len(names) + 1))
    members = [order[bounds[i] : bounds[i + 1]] for i in range(len(names))]
    centroids = np.stack([matrix[m].mean(axis=0) for m in members]).astype(np.float32)
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    k = ALL_SKILLS_CANDIDATES

    def search(vector: FloatArray) -> list[str]:
        near = centroids @ vector
        chosen = np.argpartition(-near, probe)[:probe] if probe < len(near) else range(len(near))
        rows = np.concatenate([members[i] for i in chosen])
        sims = matrix[rows] @ vector
        best = rows[np.argpartition(-sims, k)[:k]] if len(rows) > k else rows
        return list(ids[best])

    return search


def index_copy(source: str, target: str, config: Any) -> tuple[LessonIndex, float, int]:
    """A copy of the index folder with another vector index: (index, build seconds, bytes)."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    stored = LessonIndex.existing(target)
    assert stored is not None
    index = LazyConsistencyIndex(target, stored.model_id, stored.dimension)
    start = time.perf_counter()
    index.table().create_index("vector", config=config, name="vector_idx", replace=True)
    return index, time.perf_counter() - start, disk_bytes(target)


@dataclass
class Variant:
    label: str
    search: Callable[[FloatArray], list[str]]
    build_s: float | None = None
    index_bytes: int | None = None


def interleaved(
    variants: Sequence[Variant], vectors: Sequence[FloatArray], count: int, budget: float = 120.0
) -> list[Latency]:
    """Time every variant on the same queries, round-robin, so that load changes on a shared
    machine hit them all alike."""
    for variant in variants:
        for vector in vectors[:5]:
            variant.search(vector)
    gc.collect()
    times: list[list[float]] = [[] for _ in variants]
    start_all = time.perf_counter()
    for i in range(count):
        vector = vectors[i % len(vectors)]
        for j in range(len(variants)):
            slot = (i + j) % len(variants)
            start = time.perf_counter()
            variants[slot].search(vector)
            times[slot].append(time.perf_counter() - start)
        if i >= 20 and time.perf_counter() - start_all > budget:
            break
    return [Latency.of(series) for series in times]


def investigate(home: SearchHome, queries: int, hnsw: bool, out: Printer) -> dict[str, Any]:
    """Variants of the all-skills candidate query, timed interleaved, with recall vs exact."""
    with tempfile.TemporaryDirectory(prefix="index-bench-variants-") as scratch:
        return _investigate(home, queries, scratch, hnsw, out)


def lance_variants(home: SearchHome, scratch: str, hnsw: bool) -> list[Variant]:
    """The product query, with each recommended change, and on copies with other indexes."""
    from lancedb.index import IvfHnswSq, IvfSq

    folder = home.settings.index_dir
    product = LessonIndex.existing(folder)
    assert product is not None
    model, dim = product.model_id, product.dimension
    lazy = LazyConsistencyIndex(folder, model, dim)
    has_ann = "vector_idx" in home.build["indexes"]
    variants = [
        Variant("product LessonIndex.search", product_search(product)),
        Variant(
            "+ vector-index flag cached per version",
            product_search(CachedFlagIndex(folder, model, dim)),
        ),
        Variant("+ read_consistency_interval=None", product_search(lazy)),
    ]
    if has_ann:
        variants += [
            Variant("+ refine_factor off (IVF-PQ, nprobes 20)", query_variant(lazy, 20, None)),
            Variant("+ refine_factor off, nprobes 8", query_variant(lazy, 8, None)),
        ]
    if home.size >= SQ_MIN_ROWS:  # also below ANN_MIN_ROWS: is flat search fast enough there?
        sq, seconds, size = index_copy(folder, os.path.join(scratch, "ivf-sq"), IvfSq("cosine"))
        loop = asyncio.new_event_loop()
        variants += [
            Variant(
                "IVF-SQ index, nprobes 20, no refine", query_variant(sq, 20, None), seconds, size
            ),
            Variant(
                "IVF-SQ index, nprobes 8, no refine", query_variant(sq, 8, None), seconds, size
            ),
            Variant(
                "IVF-SQ, nprobes 20, async API", async_query(sq.folder, 20, loop), seconds, size
            ),
        ]
        # smaller partitions (~1,000 rows instead of LanceDB's default ~8,000): fewer comparisons
        small, seconds, size = index_copy(
            folder,
            os.path.join(scratch, "ivf-sq-small"),
            IvfSq("cosine", target_partition_size=SMALL_PARTITIONS),
        )
        variants.append(
            Variant(
                f"IVF-SQ, {SMALL_PARTITIONS}-row partitions, nprobes 10",
                query_variant(small, 10, None),
                seconds,
                size,
            )
        )
    if hnsw and has_ann:
        hn, seconds, size = index_copy(
            folder, os.path.join(scratch, "ivf-hnsw-sq"), IvfHnswSq("cosine")
        )
        variants.append(
            Variant("IVF-HNSW-SQ index, nprobes 8", query_variant(hn, 8, None), seconds, size)
        )
    variants.append(
        Variant("flat scan (bypass_vector_index)", query_variant(lazy, None, None, True))
    )
    return variants


def _investigate(
    home: SearchHome, queries: int, scratch: str, hnsw: bool, out: Printer
) -> dict[str, Any]:
    folder = home.settings.index_dir
    product = LessonIndex.existing(folder)
    assert product is not None
    lazy = LazyConsistencyIndex(folder, product.model_id, product.dimension)
    vectors = [home.task_vectors[task] for _, task in home.tasks]
    variants = lance_variants(home, scratch, hnsw)

    # exact neighbours from the stored vectors, for recall
    stored = lazy.table().search().select(["id", "scope", "vector"]).limit(None).to_arrow()
    ids = np.asarray(stored.column("id").to_pylist())
    matrix = index_table._vectors(stored)
    k = ALL_SKILLS_CANDIDATES

    def numpy_exact(vector: FloatArray) -> list[str]:
        return list(ids[np.argpartition(-(matrix @ vector), k)[:k]])

    variants.append(Variant("numpy exact top-100, in-memory matrix", numpy_exact))
    scopes = stored.column("scope").to_pylist()
    variants.append(
        Variant(
            f"in memory: nearest {SKILL_PROBE} skill centroids, then exact",
            skill_probe(matrix, ids, scopes, SKILL_PROBE),
        )
    )
    probe = vectors[:50]
    exact = [set(numpy_exact(v)) for v in probe]
    exact10 = [set(ids[np.argsort(-(matrix @ v))[:10]]) for v in probe]

    out.line(f"  candidate query (k={k}) variants, interleaved on the same queries:")
    result: dict[str, Any] = {"size": home.size, "variants": []}
    for variant, stats in zip(variants, interleaved(variants, vectors, queries), strict=True):
        found = [set(variant.search(v)) for v in probe]
        at100 = float(np.mean([len(f & e) / len(e) for f, e in zip(found, exact, strict=True)]))
        at10 = float(np.mean([len(f & e) / len(e) for f, e in zip(found, exact10, strict=True)]))
        built = "" if variant.build_s is None else f", built in {variant.build_s:.1f} s"
        out.latency(f"{variant.label} (recall {at100:.3f}/{at10:.2f}{built})", stats)
        result["variants"].append(
            {
                "variant": variant.label,
                "recall_at_100": at100,
                "exact_top10_in_candidates": at10,
                "build_s": variant.build_s,
                "index_bytes": variant.index_bytes,
                **asdict(stats),
            }
        )
    out.line("    (recall: share of the exact top-100 found / share of the exact top-10 found)")
    table = lazy.table()
    refresh = measure(lambda i: table.checkout_latest(), 50, 3)
    result["checkout_latest"] = asdict(refresh)
    out.latency("table.checkout_latest() (refresh with interval None)", refresh)
    flag = measure(lambda i: product._has_vector_index(), queries)
    result["has_vector_index"] = asdict(flag)
    out.latency("LessonIndex._has_vector_index() (list_indices)", flag)
    return result


def cheap_scan(settings: Settings) -> Callable[[int], object]:
    """What a stale check needs at least: list the skill folders, stat each file, read state."""
    index = LessonIndex(settings.index_dir, "", 0)

    def scan(_: int) -> object:
        state = index.load_state()
        stats = [os.stat(settings.global_file)]
        with os.scandir(settings.skills_dir) as entries:
            for entry in entries:
                with contextlib.suppress(FileNotFoundError):
                    stats.append(os.stat(os.path.join(entry.path, "KNOWLEDGE.md")))
        return state, stats

    return scan


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def machine(torch_threads: int | None) -> dict[str, Any]:
    info: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "loadavg_start": os.getloadavg(),
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
    }
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as handle:
        info["cpu"] = next((ln.split(":", 1)[1].strip() for ln in handle if "model name" in ln), "")
    with contextlib.suppress(ImportError):
        from threadpoolctl import threadpool_info

        info["blas"] = [
            f"{pool.get('internal_api')} {pool.get('num_threads')} threads"
            for pool in threadpool_info()
        ]
    if torch_threads is not None:
        import torch

        torch.set_num_threads(torch_threads)
        info["torch_threads"] = torch.get_num_threads()
        info["torch_interop_threads"] = torch.get_num_interop_threads()
    start = time.perf_counter()
    import lancedb
    import pyarrow

    info["lancedb_import_s"] = time.perf_counter() - start
    info["lancedb"] = lancedb.__version__
    info["pyarrow"] = pyarrow.__version__
    info["LANCE_CPU_THREADS"] = os.environ.get("LANCE_CPU_THREADS", "(default: one per CPU)")
    return info


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", default="1000,10000,100000", help="lesson counts to search")
    parser.add_argument("--queries", type=int, default=200, help="timed queries per measurement")
    parser.add_argument("--index-lessons", type=int, default=3000, help="lessons to reindex")
    parser.add_argument("--repeats", type=int, default=2, help="raw/reindex runs (best is kept)")
    parser.add_argument("--encode-queries", type=int, default=30, help="tasks to encode per kind")
    parser.add_argument("--torch-threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-indexing", action="store_true", help="no real-model part")
    parser.add_argument("--skip-investigation", action="store_true")
    parser.add_argument(
        "--hnsw", action="store_true", help="also try an IVF-HNSW-SQ index (minutes to build)"
    )
    parser.add_argument("--keep", metavar="DIR", help="build the homes under DIR and keep them")
    parser.add_argument(
        "--reuse", action="store_true", help="with --keep: reuse homes a previous run built"
    )
    parser.add_argument("--json", action="store_true", help="JSON on stdout, report on stderr")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    out = Printer(sys.stderr if args.json else sys.stdout)
    report = Report()
    report.machine = machine(None if args.skip_indexing else args.torch_threads)
    m = report.machine
    out.line(f"index benchmark: {m.get('cpu', '?')}, {m['cpus']} CPUs, Python {m['python']}")
    out.line(
        f"  threads: torch {m.get('torch_threads', '-')} (interop "
        f"{m.get('torch_interop_threads', '-')}), OPENBLAS_NUM_THREADS="
        f"{m['OPENBLAS_NUM_THREADS']} ({'; '.join(m.get('blas', []))}), "
        f"lance {m['LANCE_CPU_THREADS']}"
    )
    out.line(
        f"  lancedb {m['lancedb']} (import {m['lancedb_import_s']:.2f} s), pyarrow {m['pyarrow']}; "
        f"{load_note()}"
    )

    if not args.skip_indexing:
        bench_indexing(report, out, args.index_lessons, args.repeats, args.encode_queries)

    root = args.keep or tempfile.mkdtemp(prefix="index-bench-")
    try:
        homes: list[SearchHome] = []
        for size in sizes:
            out.heading(f"2. Search latency, {size} lessons (warm process, table open)")
            folder = os.path.join(root, f"home-{size}")
            home = build_search_home(folder, size, max(args.queries, 50), out, args.reuse)
            report.search.append(bench_search(home, args.queries, out))
            homes.append(home)
        if homes and not args.skip_investigation:
            home = homes[-1]
            out.heading(f"3. Where the time goes, {home.size} lessons")
            breakdown_result = breakdown(home, min(args.queries, 100), out)
            out.line("  stale check: product sync(None) vs the least it could cost:")
            cheap = measure(cheap_scan(home.settings), min(args.queries, 50), 3)
            out.latency("list folders + stat files + read state.json", cheap)
            report.investigation = {
                "breakdown": breakdown_result,
                "cheap_scan": asdict(cheap),
                "variants": investigate(home, args.queries, args.hnsw, out),
            }
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)

    report.machine["loadavg_end"] = os.getloadavg()
    out.line()
    out.line(f"done; {load_note()}")
    if args.json:
        json.dump(asdict(report), sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
