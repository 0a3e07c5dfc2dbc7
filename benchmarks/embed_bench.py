"""Embedding backend benchmark: the warm service and a cold CLI call, torch against onnx.

Run from the repository root::

    .venv/bin/python benchmarks/embed_bench.py [--corpus ../shared/eval/corpus]
        [--backends torch,onnx] [--runs 5] [--no-parity] [--json]

It prints figures, it asserts nothing. For each backend (`SKILL_MEMORY_EMBED_BACKEND`):

1. A throwaway memory home holding the corpus's skills (`<corpus>/skills`: 70 skills,
   1,927 lessons), with its own models folder (so onnx starts with no export).
2. First start of `python -m fireworks_skill_memory.cli.service_main`: seconds until the
   ping says ready and the failure glossary is embedded. It builds the index (and, for onnx,
   makes the export in a child process, which loads torch once; the service never does).
3. Second start (index and export in place): seconds to ready, the service's VmRSS and
   VmHWM when ready and after `--searches` searches over all skills.
4. A third start under `-X importtime`: which of torch, sentence_transformers,
   transformers, onnxruntime, tokenizers and lancedb the service imports.
5. Cold `skill-memory search QUERY` with no service (in-process: model load and query),
   wall time of `--runs` runs, median.

Then, once: onnxruntime with 1 and 2 intra-op threads (a short task, a 260-word task, and
the throughput over 512 corpus lessons), and parity over every corpus lesson (both strings
each lesson is indexed by): the cosine of the onnx vector with sentence-transformers'.

Targets (issue 27): ready service <= 300 MB resident, ready <= 5 s on a second start, no
torch imported by the service, cold search <= 1.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "eval" / "corpus"
TARGET_RSS_MB = 300
TARGET_READY_S = 5.0
TARGET_COLD_SEARCH_S = 1.5
WATCHED = ("torch", "sentence_transformers", "transformers", "onnxruntime", "tokenizers", "lancedb")
QUERIES = (
    "my react component re-renders on every keystroke",
    "the browser click hits a different element than the one I found",
    "how should I name database migrations in a rails app",
    "tests pass alone but fail when the whole suite runs",
    "which python type hints to use for a function returning json",
)
SHORT_TASK = "fix the failing pytest fixture when the docker compose service times out"


def load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def memory_mb(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM (peak resident) of a process, in MB."""
    figures: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            figures[name] = round(int(value.split()[0]) / 1024, 1)
    return figures


class Home:
    """A throwaway memory home with the corpus's skills, for one backend."""

    def __init__(self, root: Path, corpus: Path, backend: str) -> None:
        self.path = root / f"home-{backend}"
        self.ready_s = 0.0
        shutil.copytree(corpus / "skills", self.path / "skills")
        (root / f"user-{backend}").mkdir()
        self.env = {
            k: v for k, v in os.environ.items() if not k.startswith(("AI_MEMORY_", "SKILL_MEMORY_"))
        }
        self.env.update(
            AI_MEMORY_HOME=str(self.path),
            HOME=str(root / f"user-{backend}"),
            SKILL_MEMORY_EMBED_BACKEND=backend,
            SKILLS_DISTILLER_BACKEND="null",
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
            TOKENIZERS_PARALLELISM="false",
        )

    def start(self, *flags: str, stderr: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, *flags, "-m", "fireworks_skill_memory.cli.service_main"],
            cwd=self.path,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,
        )

    def wait_ready(self, process: subprocess.Popen[bytes], timeout: float = 900) -> float:
        """Seconds from now until the service is ready and its glossary embedded
        (`self.ready_s` keeps the seconds until the ping first said ready)."""
        from fireworks_skill_memory.memory.service.client import try_call

        started = time.monotonic()
        self.ready_s = 0.0
        while time.monotonic() - started < timeout:
            reply = try_call(str(self.path), "ping", timeout=1.0)
            if reply and reply.get("ready") and not self.ready_s:
                self.ready_s = time.monotonic() - started
            if reply and reply.get("ready") and reply.get("glossary_ready"):
                return time.monotonic() - started
            if process.poll() is not None:
                raise RuntimeError("the service exited while loading (see its logs)")
            time.sleep(0.05)
        raise RuntimeError(f"the service was not ready within {timeout:.0f} s")

    def stop(self, process: subprocess.Popen[bytes]) -> None:
        from fireworks_skill_memory.memory.service.client import try_call

        try_call(str(self.path), "shutdown", timeout=2.0)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def search(self, query: str) -> None:
        from fireworks_skill_memory.memory.service.client import call

        call(str(self.path), "search", {"query": query, "top": 10}, timeout=30)


def service_phase(home: Home, searches: int) -> dict[str, Any]:
    from fireworks_skill_memory.memory.service.client import try_call

    figures: dict[str, Any] = {}
    process = home.start()
    figures["first_start_s"] = round(home.wait_ready(process), 2)
    figures["first_start_memory"] = memory_mb(process.pid)
    home.stop(process)

    process = home.start()
    figures["second_start_glossary_s"] = round(home.wait_ready(process), 2)
    figures["second_start_s"] = round(home.ready_s, 2)
    figures["ready_memory"] = memory_mb(process.pid)
    ping = try_call(str(home.path), "ping", timeout=2.0) or {}
    figures["backend"] = ping.get("backend")
    for index in range(searches):
        home.search(QUERIES[index % len(QUERIES)])
    figures["after_searches_memory"] = memory_mb(process.pid)
    home.stop(process)

    log = home.path / "importtime.txt"
    with open(log, "w") as handle:
        process = home.start("-X", "importtime", stderr=handle)
        home.wait_ready(process)
        home.search(QUERIES[0])
        home.stop(process)
    imported = {
        line.split("|")[-1].strip()
        for line in log.read_text().splitlines()
        if line.startswith("import time:")
    }
    figures["imports"] = {name: name in imported for name in WATCHED}
    return figures


def cold_search(home: Home, runs: int) -> dict[str, float]:
    """Wall time of `skill-memory search` with no service (the index exists)."""
    exe = str(Path(sys.executable).with_name("skill-memory"))
    times = []
    for index in range(runs):
        started = time.monotonic()
        subprocess.run(
            [exe, "search", QUERIES[index % len(QUERIES)], "--json"],
            env=home.env,
            cwd=home.path,
            capture_output=True,
            check=True,
        )
        times.append(time.monotonic() - started)
    return {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)}


def corpus_strings(corpus: Path) -> list[str]:
    from fireworks_skill_memory.memory.retrieval.ranking import lesson_embedding_texts

    strings: list[str] = []
    with open(corpus / "lessons.jsonl", encoding="utf-8") as handle:
        for line in handle:
            lesson = json.loads(line)
            strings.extend(lesson_embedding_texts(lesson.get("tag") or "", lesson["text"]))
    return strings


def threads_phase(models_dir: Path, strings: list[str]) -> dict[str, Any]:
    """onnxruntime with 1 and 2 intra-op threads, in this process."""
    from fireworks_skill_memory.models.bundled import bundled_model_dir
    from fireworks_skill_memory.models.onnx_embedder import OnnxModel
    from fireworks_skill_memory.models.onnx_store import ensure_export

    found = ensure_export(bundled_model_dir(), str(models_dir))
    assert found.manifest is not None
    long_task = " ".join([SHORT_TASK] * 20)  # ~260 words: truncated at 256 tokens
    figures: dict[str, Any] = {}
    for threads in (1, 2):
        model = OnnxModel(found.folder, found.manifest, threads=threads)
        model.embed(["warm up"])
        short = []
        for _ in range(50):
            started = time.perf_counter()
            model.embed([SHORT_TASK])
            short.append((time.perf_counter() - started) * 1000)
        longer = []
        for _ in range(10):
            started = time.perf_counter()
            model.embed([long_task])
            longer.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        model.embed(strings[:512])
        rate = 512 / (time.perf_counter() - started)
        figures[f"threads_{threads}"] = {
            "short_task_ms": round(statistics.median(short), 1),
            "long_task_ms": round(statistics.median(longer), 1),
            "strings_per_s": round(rate, 1),
            "load": load(),
        }
    return figures


def parity_phase(models_dir: Path, strings: list[str]) -> dict[str, Any]:
    import numpy as np

    from fireworks_skill_memory.models.embedders import SentenceTransformerEmbedder, load_embedder

    onnx = load_embedder(models_dir=str(models_dir))
    ours = onnx.embed_batch(strings)
    reference = SentenceTransformerEmbedder().embed_batch(strings)
    cosines = np.sum(ours * reference, axis=1)
    return {
        "strings": len(strings),
        "backend": onnx.backend,
        "min_cosine": round(float(cosines.min()), 7),
        "mean_cosine": round(float(cosines.mean()), 7),
        "max_abs_difference": float(np.abs(ours - reference).max()),
    }


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(results: dict[str, Any]) -> list[str]:
    lines = [
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"load at start {results['load_start']}, at end {results['load_end']}"
    ]
    for backend, figures in results["backends"].items():
        ready = figures["ready_memory"]
        after = figures["after_searches_memory"]
        first_peak = figures["first_start_memory"]["VmHWM"]
        second = figures["second_start_s"]
        heavy = [name for name, seen in figures["imports"].items() if seen]
        lines += [
            f"\n{backend} (service says it embeds with {figures['backend']}):",
            f"  first start (index built{', export made' if backend == 'onnx' else ''}): "
            f"ready in {figures['first_start_s']} s, VmHWM {first_peak} MB",
            f"  second start: ready in {second} s "
            f"(target <= {TARGET_READY_S} s: {verdict(second <= TARGET_READY_S)}), "
            f"glossary too in {figures['second_start_glossary_s']} s",
            f"  ready: VmRSS {ready['VmRSS']} MB, VmHWM {ready['VmHWM']} MB; after searches: "
            f"VmRSS {after['VmRSS']} MB, VmHWM {after['VmHWM']} MB "
            f"(target <= {TARGET_RSS_MB} MB: {verdict(after['VmHWM'] <= TARGET_RSS_MB)})",
            f"  imported by the service: {', '.join(heavy)} "
            f"(no torch: {verdict(not figures['imports']['torch'])})",
            f"  cold CLI search: median {figures['cold_search']['median_s']} s, "
            f"max {figures['cold_search']['max_s']} s "
            f"(target <= {TARGET_COLD_SEARCH_S} s: "
            f"{verdict(figures['cold_search']['median_s'] <= TARGET_COLD_SEARCH_S)})",
            f"  load during this backend: {figures['load']}",
        ]
    for name, figures in results.get("threads", {}).items():
        lines.append(
            f"\nonnxruntime {name.replace('_', ' ')}: short task {figures['short_task_ms']} ms, "
            f"260-word task {figures['long_task_ms']} ms, {figures['strings_per_s']} strings/s "
            f"(load {figures['load']})"
        )
    parity = results.get("parity")
    if parity:
        lines.append(
            f"\nparity on {parity['strings']} corpus strings ({parity['backend']} against torch): "
            f"min cosine {parity['min_cosine']}, mean {parity['mean_cosine']}, "
            f"max |difference| {parity['max_abs_difference']:.2e}"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--backends", default="torch,onnx")
    parser.add_argument("--runs", type=int, default=5, help="Cold CLI searches per backend.")
    parser.add_argument("--searches", type=int, default=20, help="Searches before the RSS.")
    parser.add_argument("--no-parity", action="store_true", help="Skip threads and parity.")
    parser.add_argument("--keep", action="store_true", help="Keep the temporary folder.")
    parser.add_argument("--json", action="store_true", help="Also print the figures as JSON.")
    args = parser.parse_args()
    if not (args.corpus / "skills").is_dir():
        parser.error(f"{args.corpus} has no skills folder")
    root = Path(tempfile.mkdtemp(prefix="embed-bench-"))
    results: dict[str, Any] = {"load_start": load(), "backends": {}}
    try:
        for backend in args.backends.split(","):
            home = Home(root, args.corpus, backend)
            figures = service_phase(home, args.searches)
            figures["cold_search"] = cold_search(home, args.runs)
            figures["load"] = load()
            results["backends"][backend] = figures
            print(f"{backend}: done (load {load()})", file=sys.stderr)
        if not args.no_parity:
            strings = corpus_strings(args.corpus)
            models = root / "home-onnx" / "models"
            results["threads"] = threads_phase(models, strings)
            results["parity"] = parity_phase(models, strings)
        results["load_end"] = load()
        print("\n".join(report(results)))
        if args.json:
            print(json.dumps(results, indent=2))
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
