"""MCP server benchmark: warm tool-call latency and cold start, beside the issue's targets.

Run from the repository root::

    .venv/bin/python benchmarks/mcp_bench.py [--runs 60] [--cold-runs 10] [--keep] [--json]

It prints figures, it asserts nothing. Steps:

1. A throwaway memory home with 20 skills x `--per-skill` 50 lessons of realistic text, and
   `python -m compileall` over the project packages (this environment sets
   PYTHONDONTWRITEBYTECODE=1, so the server would otherwise compile its modules every start).
2. The warm service started for that home and waited for (model loaded).
3. Warm tool calls: one MCP server started exactly as the installer registers it, then
   `--runs` calls each of `search_lessons` (across all skills) and `lessons_for_skill` (one
   skill), every call a new query, interleaved, timed from request written to reply read.
   Beside them, the service's own answer to the same `search` request over its socket
   (no MCP in between), to show what the MCP hop adds.
4. Cold start: `--cold-runs` fresh processes of the registered command, each timed from
   spawn to the `tools/list` reply (`initialize`, `notifications/initialized`, `tools/list`).
   For reference, interleaved round-robin so load drifts hit every series alike: the
   `skill-memory mcp` click command; the same with the whole SDK imported first (its package
   `__init__`s: client side, FastMCP), which is how the server started before
   `mcpserver.sdk`; and a bare `python -c pass`.
5. Median and p95 of each series beside the targets (warm call <= 50 ms p50; cold
   initialize + tools/list <= 1 s) and the load average before and after each phase (two
   cores shared with other work make every figure move with it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# the same memory home and round-robin timing as the hook benchmark (run from this folder)
from hook_bench import DOMAINS, build_home, compile_packages, measure

REPO = Path(__file__).resolve().parent.parent
PER_SKILL = 50
TARGET_WARM_P50_MS = 50.0
TARGET_COLD_MS = 1000.0
PROTOCOL_VERSION = "2025-06-18"

QUERIES = [
    "the {a} {b} keeps failing after the last change, find out why ({n})",
    "make the {a} {c} faster, it takes minutes now ({n})",
    "set up a new {d} for the {a} project ({n})",
    "roll back the broken {a} {b} without losing data ({n})",
    "why does the {a} {c} differ between my laptop and CI? ({n})",
]


# ---- the memory home --------------------------------------------------------------------
def query(index: int, series: str) -> tuple[str, str]:
    """(skill, a task in that skill's words) for run `index` of `series`: never asked before,
    so the service embeds every one (it caches the vectors of recent texts)."""
    skill, *words = DOMAINS[index % len(DOMAINS)]
    names = dict(zip("abcd", (skill, *words), strict=True))
    return skill, QUERIES[index % len(QUERIES)].format(**names, n=f"{series} {index}")


# ---- a bare MCP client ------------------------------------------------------------------
class McpClient:
    """One MCP server process driven over JSON-RPC lines (replies read in order)."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            list(argv),
            env=env,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the server closed stdout before answering {method}")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply["result"]
                return result

    def start_session(self) -> None:
        """initialize, initialized, tools/list: what an agent does at start."""
        self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "mcp-bench", "version": "0"},
            },
        )
        self.send({"method": "notifications/initialized"})
        tools = self.request("tools/list", {})["tools"]
        if len(tools) != 5:
            raise RuntimeError(f"expected 5 tools, got {[tool['name'] for tool in tools]}")

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(f"{tool} failed: {result['content']}")
        return result

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---- statistics -------------------------------------------------------------------------
Series = dict[str, list[float]]


def stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "p50_ms": statistics.median(ordered) * 1000,
        "p95_ms": p95 * 1000,
        "min_ms": ordered[0] * 1000,
        "max_ms": ordered[-1] * 1000,
    }


def load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


# ---- the bench --------------------------------------------------------------------------
class Bench:
    """One benchmark run in a temporary folder."""

    def __init__(self, runs: int, cold_runs: int, per_skill: int) -> None:
        self.runs = runs
        self.cold_runs = cold_runs
        self.per_skill = per_skill
        self.python = sys.executable
        self.root = Path(tempfile.mkdtemp(prefix="mcp-bench-"))
        self.home = self.root / "memory"
        (self.root / "user").mkdir()
        self.env = {
            k: v for k, v in os.environ.items() if not k.startswith(("AI_MEMORY_", "SKILL_MEMORY_"))
        }
        self.env.update(
            AI_MEMORY_HOME=str(self.home),
            HOME=str(self.root / "user"),
            SKILLS_DISTILLER_BACKEND="null",
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
            TOKENIZERS_PARALLELISM="false",
        )
        self.lines: list[str] = []
        self.series: Series = {}
        self.service: subprocess.Popen[bytes] | None = None

    def say(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)

    def registered(self) -> list[str]:
        """The MCP server command exactly as `hooks install` registers it."""
        from fireworks_skill_memory.hooks.mcp_install import server_command

        command, args = server_command("claude-code", self.python)
        return [command, *args]

    def prepare(self) -> None:
        started = time.perf_counter()
        build_home(self.home, self.per_skill)
        lessons = len(DOMAINS) * self.per_skill
        self.say(f"memory home: {lessons} lessons, {time.perf_counter() - started:.1f} s")
        self.say(f"compileall: {compile_packages(self.python):.1f} s")
        started = time.perf_counter()
        self.service = self.start_service()
        self.say(f"service ready in {time.perf_counter() - started:.1f} s")
        self.say(f"registered command: {' '.join(self.registered())}")

    def start_service(self) -> subprocess.Popen[bytes]:
        from fireworks_skill_memory.memory.service.client import try_call

        process = subprocess.Popen(
            [self.python, "-I", "-m", "fireworks_skill_memory.cli.service_main"],
            cwd=self.home,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            reply = try_call(str(self.home), "ping", timeout=1.0)
            if reply and reply.get("ready"):
                return process
            if process.poll() is not None:
                raise RuntimeError("the service exited during warm-up (see its logs)")
            time.sleep(0.5)
        raise RuntimeError("the service was not ready within 300 s")

    def stop_service(self) -> None:
        from fireworks_skill_memory.memory.service.client import try_call

        if self.service is None:
            return
        try_call(str(self.home), "shutdown", timeout=2.0)
        try:
            self.service.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.service.kill()
            self.service.wait()

    # -- warm tool calls
    def warm_phase(self) -> None:
        from fireworks_skill_memory.memory.service.client import call

        before = load()
        client = McpClient(self.registered(), self.env, self.root)
        try:
            client.start_session()

            def search(index: int) -> float:
                _, task = query(index, "search")
                started = time.perf_counter()
                client.call("search_lessons", {"query": task})
                return time.perf_counter() - started

            def for_skill(index: int) -> float:
                skill, task = query(index, "skill")
                started = time.perf_counter()
                client.call("lessons_for_skill", {"skill": skill, "task": task})
                return time.perf_counter() - started

            def service_only(index: int) -> float:
                _, task = query(index, "service")
                payload = {"query": task, "skill": None, "top": 5}
                started = time.perf_counter()
                call(str(self.home), "search", payload, timeout=20.0)
                return time.perf_counter() - started

            self.series.update(
                measure(
                    {
                        "search_lessons (MCP)": search,
                        "lessons_for_skill (MCP)": for_skill,
                        "service search, no MCP": service_only,
                    },
                    self.runs,
                )
            )
        finally:
            client.close()
        self.say()
        self.say(f"warm tool calls, {self.runs} each (load average {before} -> {load()}):")
        for name in ("search_lessons (MCP)", "lessons_for_skill (MCP)", "service search, no MCP"):
            figures = stats(self.series[name])
            target = "" if "no MCP" in name else self.verdict(figures, TARGET_WARM_P50_MS)
            self.say(
                f"  {name:<26} p50 {figures['p50_ms']:6.1f} ms  p95 {figures['p95_ms']:6.1f} ms"
                f"{target}"
            )
        hop = stats(self.series["search_lessons (MCP)"])["p50_ms"]
        hop -= stats(self.series["service search, no MCP"])["p50_ms"]
        self.say(f"  the MCP hop adds {hop:.1f} ms at the median (search, same request)")

    # -- cold start
    def cold_phase(self) -> None:
        cli = [str(Path(self.python).parent / "skill-memory"), "mcp", "--agent", "claude-code"]

        def started(argv: list[str]) -> Callable[[int], float]:
            def run(index: int) -> float:
                began = time.perf_counter()
                client = McpClient(argv, self.env, self.root)
                try:
                    client.start_session()
                    return time.perf_counter() - began
                finally:
                    client.close()

            return run

        def bare(index: int) -> float:
            began = time.perf_counter()
            subprocess.run([self.python, "-c", "pass"], check=True)
            return time.perf_counter() - began

        whole_sdk = [
            self.python,
            "-I",
            "-c",
            "import mcp, mcp.server; from fireworks_skill_memory.cli.main import main; main()",
            "mcp",
            "--agent",
            "claude-code",
        ]
        cases = {
            "registered command": started(self.registered()),
            "skill-memory mcp (click)": started(cli),
            "click + whole SDK (before)": started(whole_sdk),
            "bare python -c pass": bare,
        }
        before = load()
        self.series.update(measure(cases, self.cold_runs))
        self.say()
        self.say(
            f"cold start, spawn -> tools/list reply, {self.cold_runs} each "
            f"(load average {before} -> {load()}):"
        )
        for name in cases:
            figures = stats(self.series[name])
            target = self.verdict(figures, TARGET_COLD_MS) if name == "registered command" else ""
            self.say(
                f"  {name:<26} p50 {figures['p50_ms']:6.0f} ms  p95 {figures['p95_ms']:6.0f} ms"
                f"{target}"
            )

    @staticmethod
    def verdict(figures: dict[str, float], target_ms: float) -> str:
        met = "met" if figures["p50_ms"] <= target_ms else "MISSED"
        return f"   (target p50 <= {target_ms:.0f} ms: {met})"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=60, help="Warm calls per tool.")
    parser.add_argument("--cold-runs", type=int, default=10, help="Cold starts per command.")
    parser.add_argument(
        "--per-skill", type=int, default=PER_SKILL, help="Lessons per skill (20 skills)."
    )
    parser.add_argument("--keep", action="store_true", help="Keep the temporary folder.")
    parser.add_argument("--json", action="store_true", help="Also print the figures as JSON.")
    args = parser.parse_args()
    bench = Bench(args.runs, args.cold_runs, args.per_skill)
    try:
        bench.say(f"load average at start: {load()} ({os.cpu_count()} cores)")
        bench.prepare()
        bench.warm_phase()
        bench.cold_phase()
        if args.json:
            figures = {name: stats(values) for name, values in bench.series.items()}
            print(json.dumps(figures, indent=2))
    finally:
        bench.stop_service()
        if args.keep:
            print(f"kept {bench.root}")
        else:
            shutil.rmtree(bench.root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
