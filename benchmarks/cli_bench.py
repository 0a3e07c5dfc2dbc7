"""The CLI warms itself (issue 26): `search` in a fresh shell, with no service running.

Run from the repository root::

    .venv/bin/python benchmarks/cli_bench.py [--per-skill 100] [--calls 3] [--pause 0] [--json]

It prints figures, it asserts nothing. Steps:

1. A throwaway memory home (20 skills x `--per-skill` lessons, as benchmarks/hook_bench.py
   writes them) and its index, built with SKILL_MEMORY_NO_SERVICE=1 (untimed).
2. No service running: `skill-memory search "container logs vanish after restart"` run
   `--calls` times in a row, each a new process (the console script, as a shell runs it),
   `--pause` seconds apart (0: back to back; a person typing the next command takes a few);
   wall time of each, and the service's state just before it (probed from this process).
3. The same on the same home with SKILL_MEMORY_NO_SERVICE=1 (the service stopped first):
   every call answers in-process and no service starts.
4. The target beside the figures: the second call <= 0.3 s; the load average beside each.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hook_bench import PER_SKILL, SKILLS, build_home

QUERY = "container logs vanish after restart"
TARGET_SECOND = 0.3
SKILL_MEMORY = str(Path(sys.executable).with_name("skill-memory"))


def run(env: dict[str, str], *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SKILL_MEMORY, *args], env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def service_state(env: dict[str, str]) -> str:
    """The home's service state, from this process (milliseconds: no CLI start between calls)."""
    from fireworks_skill_memory.memory.service.client import probe

    return probe(env["AI_MEMORY_HOME"], 1.0).state


def timed_searches(env: dict[str, str], calls: int, pause: float) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for number in range(1, calls + 1):
        if number > 1:
            time.sleep(pause)
        before = service_state(env)
        load = os.getloadavg()[0]
        started = time.perf_counter()
        done = run(env, "search", QUERY, "--top", "3")
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"search exited {done.returncode}: {done.stderr[-400:]}")
        rows.append(
            {"call": number, "seconds": round(seconds, 3), "service_before": before, "load": load}
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-skill", type=int, default=PER_SKILL)
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.0, help="Seconds between the calls.")
    parser.add_argument("--json", action="store_true", help="Print JSON instead of text.")
    options = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="cli-bench-"))
    home = root / "memory"
    (root / "user").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AI_MEMORY_", "SKILL_MEMORY_"))}
    env.update(
        AI_MEMORY_HOME=str(home),
        HOME=str(root / "user"),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        SKILLS_DISTILLER_BACKEND="null",
    )
    quiet = {**env, "SKILL_MEMORY_NO_SERVICE": "1"}
    try:
        build_home(home, options.per_skill)
        if run(quiet, "reindex").returncode != 0:
            raise RuntimeError("reindex failed")
        run(env, "service", "stop")
        warm = timed_searches(env, options.calls, options.pause)
        started_by = json.loads(run(env, "service", "status", "--json").stdout or "{}")
        run(env, "service", "stop")
        cold = timed_searches(quiet, options.calls, options.pause)
        after = service_state(quiet)
    finally:
        run(env, "service", "stop")
        shutil.rmtree(root, ignore_errors=True)
    second = float(warm[1]["seconds"]) if len(warm) > 1 else float("nan")  # type: ignore[arg-type]
    report = {
        "lessons": SKILLS * options.per_skill,
        "warming": warm,
        "service_after_warming": {
            "state": started_by.get("state"),
            "started_by": started_by.get("started_by"),
        },
        "no_service": cold,
        "service_after_no_service": after,
        "pause_s": options.pause,
        "second_call_s": second,
        "target_second_call_s": TARGET_SECOND,
        "met": second <= TARGET_SECOND,
    }
    if options.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"home: {report['lessons']} lessons; query {QUERY!r}; cpus {os.cpu_count()}; "
        f"{options.pause:g} s between calls"
    )
    for title, rows in (("no service running", warm), ("SKILL_MEMORY_NO_SERVICE=1", cold)):
        print(title)
        for row in rows:
            print(
                f"  search #{row['call']}: {row['seconds']:7.3f} s"
                f"  (service before: {row['service_before']}, load {row['load']:.2f})"
            )
    print(
        f"service after the first series: {started_by.get('state')}, "
        f"started_by {started_by.get('started_by')}"
    )
    print(f"service after the NO_SERVICE series: {after} (want not_running)")
    verdict = "met" if report["met"] else "MISSED"
    print(f"second search {second:.3f} s (target <= {TARGET_SECOND} s): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
