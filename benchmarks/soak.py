"""Soak benchmark (issue 26): the memory under sustained mixed load, with faults.

Run from the repository root::

    .venv/bin/python benchmarks/soak.py --minutes 10 [--rate 1.0] [--seed 7] [--json] [--keep]

It prints figures, it asserts nothing. Steps:

1. A throwaway memory home of 2,000 lessons (20 skills x 100, benchmarks/hook_bench.py's
   generator), its index built, the hooks installed into a settings.json (the commands are
   run as Claude Code runs them, `/bin/sh -c <command>`), and on loopback: a moto S3 server
   (the team store), the fake Anthropic Messages server (the distiller's model) and the
   MCP server (`python -I -m fireworks_skill_memory.mcpserver`). The warm service is started
   and waited for.
2. For `--minutes`, traffic at fixed rates (per minute at `--rate 1`, each kind from its own
   driver, calls of one kind overlapping when one runs late), every call a real process:
   agent sessions of UserPromptSubmit, PreToolUse(Skill) and two PostToolUse(Bash) hooks
   (one with an error) at 12 sessions; `search` 6; `add` 4 (each a new, distinct lesson);
   MCP `search_lessons` 6 and `record_lesson` 3; a Stop hook handing a recorded transcript
   to a distill worker 0.75 (the fake server answers with a new lesson each time);
   `team push --skill S` and `team pull` 0.33 each; a bare interpreter start
   (`/bin/sh -c "<python> -c pass"`) 6, the reference for hook latency.
3. Every 30-90 s (`--fault-every`) one fault: the service killed (SIGKILL) or stopped
   (SIGSTOP for 2-6 s, then SIGCONT), or a running distill worker killed or stopped likewise.
4. Then the drivers stop, in-flight calls and distill workers finish, and the home is checked:
   every add acknowledged by `add`, `record_lesson` or the distill log (added, merged or
   quarantined) is still in its skill's markdown (KNOWLEDGE.md, or ARCHIVE.md after an
   eviction, or QUARANTINE.md); every markdown file decodes as UTF-8 and each of its lesson
   lines parses.
5. The figures: requests done per kind, hook exits other than 0, hook latency p50/p95/p99 as
   a ratio to the bare start's median (the warm goal: <= 1.3x at p50, <= 2.0x at p99),
   acknowledged adds lost, unparsable markdown files, service restarts, the service's peak
   memory (VmHWM), faults injected, and the load average (start, mean and max while running,
   end) beside them. `--json` prints the same as one JSON document.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the test support (fake servers, MCP client, moto) is reused
sys.path.insert(0, str(REPO / "benchmarks"))

from hook_bench import (  # noqa: E402
    DOMAINS,
    PROMPTS,
    bash_payload,
    build_home,
    compile_packages,
    failing_bash_payload,
    pre_tool_use_payload,
    prompt_payload,
)

TARGET_P50 = 1.3
TARGET_P99 = 2.0
SKILL_MEMORY = str(Path(sys.executable).with_name("skill-memory"))
TRANSCRIPT = REPO / "tests" / "fixtures" / "sessions" / "claude_transcript.jsonl"
DISTILL_SKILL = "python-imports"  # the skill the recorded transcript uses
# calls per minute at --rate 1
RATES = {
    "session": 12.0,  # UserPromptSubmit + PreToolUse + 2 PostToolUse
    "search": 6.0,
    "add": 4.0,
    "mcp_search": 6.0,
    "mcp_record": 3.0,
    "distill": 0.75,
    "team_push": 1 / 3,
    "team_pull": 1 / 3,
    "bare": 6.0,
}
WORKERS = {"session": 4, "bare": 1}  # calls of one kind in flight at once (default 2)
HOOK_EVENTS = ("UserPromptSubmit", "PreToolUse", "PostToolUse")
VERBS = ("Restart", "Pin", "Flush", "Rotate", "Rebuild", "Drain", "Re-sign", "Compact", "Vacuum")
OBJECTS = (
    "socket pool",
    "lockfile",
    "cert bundle",
    "worker queue",
    "cache shard",
    "token",
    "replica set",
    "build matrix",
    "schema dump",
    "audit trail",
    "render farm",
)
WHEN = (
    "after a failover",
    "before tagging",
    "when the clock skews",
    "on a cold start",
    "after a kernel update",
    "when disk usage passes 80%",
    "before a schema change",
)


# ---- records --------------------------------------------------------------------------------
@dataclass
class Ack:
    """One add the memory acknowledged: where it went and what must still be there."""

    via: str  # cli, mcp or distill
    skill: str
    decision: str
    token: str  # a part of its text no other lesson has
    lesson_id: str | None
    merged_into: str | None


@dataclass
class Figures:
    """Everything the drivers, the monitor and the checks record (lock-guarded lists)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    done: dict[str, int] = field(default_factory=dict)
    failed: dict[str, list[str]] = field(default_factory=dict)
    latency: dict[str, list[float]] = field(default_factory=dict)
    hook_exits: dict[int, int] = field(default_factory=dict)
    acks: list[Ack] = field(default_factory=list)
    faults: list[tuple[float, str]] = field(default_factory=list)
    service_pids: list[int] = field(default_factory=list)
    peak_kb: int = 0
    loads: list[float] = field(default_factory=list)
    late: dict[str, int] = field(default_factory=dict)

    def count(self, kind: str, ok: bool, why: str = "") -> None:
        with self.lock:
            self.done[kind] = self.done.get(kind, 0) + 1
            if not ok:
                self.failed.setdefault(kind, []).append(why[-300:])

    def timing(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latency.setdefault(kind, []).append(seconds)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# ---- the environment ------------------------------------------------------------------------
class Soak:
    """One soak run in a temporary folder."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.rng = random.Random(options.seed)
        self.root = Path(tempfile.mkdtemp(prefix="soak-"))
        self.home = self.root / "memory"
        self.transcripts = self.root / "transcripts"
        self.transcripts.mkdir()
        (self.root / "user").mkdir()
        self.figures = Figures()
        self.stop = threading.Event()
        self.commands: dict[str, str] = {}
        self.env: dict[str, str] = {}
        self.cleanup: list[Callable[[], None]] = []
        self.mcp: Any = None
        self.mcp_lock = threading.Lock()
        self.stopped: set[int] = set()  # pids this run has SIGSTOPped and not yet continued

    def say(self, text: str) -> None:
        if not self.options.json:
            print(text, file=sys.stderr, flush=True)

    # -- setup
    def prepare(self) -> None:
        from fireworks_skill_memory.hooks import install as installer
        from tests.fakes.messages_server import FakeMessagesServer
        from tests.team_support import CREDENTIALS, S3

        started = time.monotonic()
        build_home(self.home, self.options.per_skill)
        compile_packages(sys.executable)
        s3 = S3()
        self.cleanup.append(s3.stop)
        fake = FakeMessagesServer(self.distiller()).start()
        self.cleanup.append(fake.stop)
        self.env = {
            k: v for k, v in os.environ.items() if not k.startswith(("AI_MEMORY_", "SKILL_MEMORY_"))
        }
        self.env.update(
            AI_MEMORY_HOME=str(self.home),
            HOME=str(self.root / "user"),
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
            TOKENIZERS_PARALLELISM="false",
            SKILLS_DISTILLER_BACKEND="anthropic",
            ANTHROPIC_API_KEY="test-key",
            ANTHROPIC_BASE_URL=fake.base_url,
            MIN_TOOL_CALLS="2",
            SKILL_MEMORY_TEAM_URI=f"s3://{s3.bucket()}/memory",
            SKILL_MEMORY_TEAM_PULL_EVERY="86400",
            AWS_ENDPOINT_URL=s3.endpoint,
            SKILL_MEMORY_AUTHOR="soak@example.com",
            **CREDENTIALS,
        )
        settings_file = self.root / "settings.json"
        installer.install(str(settings_file), python=sys.executable, home=str(self.home))
        table = json.loads(settings_file.read_text())["hooks"]
        self.commands = {event: groups[0]["hooks"][0]["command"] for event, groups in table.items()}
        self.cli("reindex", extra={"SKILL_MEMORY_NO_SERVICE": "1"}, timeout=1800)
        self.cli("service", "start")
        self.await_ready(600)
        self.cli("team", "push", "--skill", DOMAINS[0][0], timeout=600)  # the team table exists
        self.start_mcp()
        self.say(f"prepared in {time.monotonic() - started:.0f} s: {self.root}")

    def distiller(self) -> Callable[[dict[str, Any], int], Any]:
        """The fake model: a new lesson for the transcript's skill on each distillation."""
        from fireworks_skill_memory.memory.distill.request import JUDGE_SCHEMA_NAME, SCHEMA_NAME
        from tests.fakes.messages_server import offered_tool_names, tool_use_reply

        def responder(body: dict[str, Any], call_index: int) -> Any:
            if JUDGE_SCHEMA_NAME in offered_tool_names(body):
                return tool_use_reply(JUDGE_SCHEMA_NAME, {"same": False, "reason": "soak"})
            text = self.lesson_text(f"distill-{call_index}")
            lesson = {"skill": DISTILL_SKILL, "tag": "Soak", "text": text, "evidence": "E1"}
            return tool_use_reply(SCHEMA_NAME, {"lessons": [lesson], "global": []})

        return responder

    def start_mcp(self) -> None:
        from tests.mcp_support import McpProcess

        self.mcp = McpProcess(self.env, ["--agent", "claude-code", "--wait", "10"])
        self.mcp.initialize()
        self.cleanup.append(self.mcp.close)

    def cli(
        self, *args: str, extra: dict[str, str] | None = None, timeout: float = 300
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [SKILL_MEMORY, *args],
            env={**self.env, **(extra or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def await_ready(self, seconds: float) -> None:
        from fireworks_skill_memory.memory.service.client import READY, probe

        deadline = time.monotonic() + seconds
        while probe(str(self.home), 2.0).state != READY:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the service was not ready within {seconds:.0f} s")
            time.sleep(1.0)

    def lesson_text(self, token: str) -> str:
        pick = self.rng.choice
        return f"{pick(VERBS)} the {pick(OBJECTS)} {pick(WHEN)}, or the next run stalls ({token})"

    # -- traffic
    def drive(self, kind: str, call: Callable[[int], None]) -> None:
        """Start `call` at a fixed rate until the run ends (overlapping when one runs late)."""
        rate = RATES[kind] * self.options.rate
        if rate <= 0:
            return
        interval = 60.0 / rate
        pool = ThreadPoolExecutor(max_workers=WORKERS.get(kind, 2), thread_name_prefix=kind)
        in_flight = threading.Semaphore(WORKERS.get(kind, 2))
        due = time.monotonic() + self.rng.uniform(0, min(interval, 5.0))
        number = 0

        def run(index: int) -> None:
            try:
                call(index)
            except Exception as error:  # noqa: BLE001 - a driver failing is a failed request
                self.figures.count(kind, False, f"{type(error).__name__}: {error}")
            finally:
                in_flight.release()

        while not self.stop.wait(max(0.0, due - time.monotonic())):
            if not in_flight.acquire(timeout=0):
                with self.figures.lock:
                    self.figures.late[kind] = self.figures.late.get(kind, 0) + 1
                in_flight.acquire()
            pool.submit(run, number)
            number += 1
            due += interval
        pool.shutdown(wait=True)

    def hook(self, event: str, payload: bytes) -> None:
        started = time.perf_counter()
        done = subprocess.run(
            ["/bin/sh", "-c", self.commands[event]],
            input=payload,
            env=self.env,
            capture_output=True,
            timeout=120,
            check=False,
        )
        self.figures.timing(event, time.perf_counter() - started)
        with self.figures.lock:
            self.figures.hook_exits[done.returncode] = (
                self.figures.hook_exits.get(done.returncode, 0) + 1
            )
        ok = done.returncode == 0 and _valid_hook_output(done.stdout)
        self.figures.count(event, ok, done.stderr.decode(errors="replace") or "bad output")

    def session(self, index: int) -> None:
        session = f"soak-{index}-{uuid.uuid4().hex[:6]}"
        domain = DOMAINS[index % len(DOMAINS)]
        names = dict(zip("abcd", domain, strict=True))
        prompt = PROMPTS[index % len(PROMPTS)].format(**names) + f" (soak {index})"
        self.hook("UserPromptSubmit", prompt_payload(session, prompt))
        self.hook("PreToolUse", pre_tool_use_payload(session, domain[0]))
        self.hook("PostToolUse", bash_payload(session))
        self.hook("PostToolUse", failing_bash_payload(session, index))

    def bare(self, index: int) -> None:
        command = shlex.join([sys.executable, "-c", "pass"])
        started = time.perf_counter()
        done = subprocess.run(["/bin/sh", "-c", command], capture_output=True, check=False)
        self.figures.timing("bare", time.perf_counter() - started)
        self.figures.count("bare", done.returncode == 0)

    def search(self, index: int) -> None:
        domain = DOMAINS[index % len(DOMAINS)]
        query = f"the {domain[1]} of the {domain[0]} {domain[2]} keeps failing"
        started = time.perf_counter()
        done = self.cli("search", query, "--top", "5")
        self.figures.timing("search", time.perf_counter() - started)
        self.figures.count("search", done.returncode == 0 and bool(done.stdout), done.stderr)

    def add(self, index: int) -> None:
        skill = DOMAINS[index % len(DOMAINS)][0]
        token = f"soak-add-{uuid.uuid4().hex[:10]}"
        done = self.cli("add", "--skill", skill, "--tag", "Soak", "--json", self.lesson_text(token))
        if done.returncode != 0:
            self.figures.count("add", False, done.stderr)
            return
        reply = json.loads(done.stdout)
        lesson = reply.get("lesson") or {}
        self.figures.count("add", True)
        self.acknowledge(
            Ack(
                "cli",
                skill,
                str(reply.get("action")),
                token,
                lesson.get("id"),
                reply.get("merged_into"),
            )
        )

    def acknowledge(self, ack: Ack) -> None:
        with self.figures.lock:
            self.figures.acks.append(ack)

    def mcp_call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        with self.mcp_lock:  # one JSON-RPC exchange at a time on the one stdio pipe
            result: dict[str, Any] = self.mcp.call(tool, **arguments)
            return result

    def mcp_search(self, index: int) -> None:
        domain = DOMAINS[index % len(DOMAINS)]
        started = time.perf_counter()
        result = self.mcp_call("search_lessons", query=f"{domain[0]} {domain[2]} is slow")
        self.figures.timing("mcp_search", time.perf_counter() - started)
        self.figures.count("mcp_search", not result.get("isError"), _text(result))

    def mcp_record(self, index: int) -> None:
        skill = DOMAINS[(index * 7) % len(DOMAINS)][0]
        token = f"soak-mcp-{uuid.uuid4().hex[:10]}"
        result = self.mcp_call(
            "record_lesson", skill=skill, text=self.lesson_text(token), tag="Soak"
        )
        self.figures.count("mcp_record", not result.get("isError"), _text(result))
        data = result.get("structuredContent") or {}
        if not result.get("isError") and data.get("decision"):
            self.acknowledge(
                Ack(
                    "mcp",
                    skill,
                    str(data["decision"]),
                    token,
                    data.get("id"),
                    data.get("merged_into"),
                )
            )

    def distill(self, index: int) -> None:
        """A Stop hook for a new session: it hands the transcript to a detached worker."""
        session = f"soak-distill-{index}-{uuid.uuid4().hex[:6]}"
        transcript = self.transcripts / f"{session}.jsonl"
        shutil.copyfile(TRANSCRIPT, transcript)
        payload = {
            "session_id": session,
            "transcript_path": str(transcript),
            "cwd": str(self.root),
            "hook_event_name": "Stop",
            "stop_hook_active": False,
        }
        started = time.perf_counter()
        done = subprocess.run(
            ["/bin/sh", "-c", self.commands["Stop"]],
            input=json.dumps(payload).encode(),
            env=self.env,
            capture_output=True,
            timeout=120,
            check=False,
        )
        self.figures.timing("Stop", time.perf_counter() - started)
        with self.figures.lock:
            self.figures.hook_exits[done.returncode] = (
                self.figures.hook_exits.get(done.returncode, 0) + 1
            )
        self.figures.count("distill", done.returncode == 0, done.stderr.decode(errors="replace"))

    def team_push(self, index: int) -> None:
        skill = DOMAINS[index % len(DOMAINS)][0]
        done = self.cli("team", "push", "--skill", skill, timeout=900)
        self.figures.count("team_push", done.returncode == 0, done.stderr)

    def team_pull(self, index: int) -> None:
        done = self.cli("team", "pull", timeout=900)
        self.figures.count("team_pull", done.returncode == 0, done.stderr)

    # -- faults and monitoring
    def service_pid(self) -> int | None:
        from fireworks_skill_memory.memory.service.client import lock_owner

        held, pid = lock_owner(str(self.home))
        return pid if held else None

    def distill_workers(self) -> list[int]:
        """Pids of the distill workers of this run (their command line names our transcripts)."""
        found = []
        marker = str(self.transcripts).encode()
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                cmdline = Path(entry.path, "cmdline").read_bytes()
                if b"memory.distill.worker" in cmdline and marker in cmdline:
                    found.append(int(entry.name))
        return found

    def faults(self) -> None:
        low, high = self.options.fault_every
        while not self.stop.wait(self.rng.uniform(low, high)):
            self.figures.faults.append((time.monotonic(), self.one_fault()))

    def one_fault(self) -> str:
        workers = self.distill_workers()
        kinds = ["kill service", "stop service"] + (
            ["kill distill worker", "stop distill worker"] if workers else []
        )
        kind = self.rng.choice(kinds)
        pid = self.service_pid() if "service" in kind else self.rng.choice(workers)
        if pid is None:
            return f"{kind}: none running"
        with contextlib.suppress(ProcessLookupError):
            if kind.startswith("kill"):
                os.kill(pid, signal.SIGKILL)
                return f"{kind} (pid {pid})"
            seconds = self.rng.uniform(2.0, 6.0)
            os.kill(pid, signal.SIGSTOP)
            self.stopped.add(pid)
            self.stop.wait(seconds)
            os.kill(pid, signal.SIGCONT)
            self.stopped.discard(pid)
            return f"{kind} for {seconds:.1f} s (pid {pid})"
        return f"{kind}: pid {pid} already gone"

    def monitor(self) -> None:
        last_load = 0.0
        while not self.stop.wait(1.0):
            pid = self.service_pid()
            if pid is not None:
                with self.figures.lock:
                    if pid not in self.figures.service_pids:
                        self.figures.service_pids.append(pid)
                    self.figures.peak_kb = max(self.figures.peak_kb, _peak_kb(pid))
            if time.monotonic() - last_load >= 10:
                self.figures.loads.append(os.getloadavg()[0])
                last_load = time.monotonic()

    # -- the run
    def run(self) -> dict[str, Any]:
        load_start = os.getloadavg()
        self.prepare()
        self.figures.service_pids[:0] = [p for p in [self.service_pid()] if p is not None]
        calls: dict[str, Callable[[int], None]] = {
            "session": self.session,
            "bare": self.bare,
            "search": self.search,
            "add": self.add,
            "mcp_search": self.mcp_search,
            "mcp_record": self.mcp_record,
            "distill": self.distill,
            "team_push": self.team_push,
            "team_pull": self.team_pull,
        }
        threads = [
            threading.Thread(target=self.drive, args=item, name=item[0]) for item in calls.items()
        ]
        threads += [
            threading.Thread(target=self.faults, name="faults"),
            threading.Thread(target=self.monitor, name="monitor"),
        ]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        self.say(f"running {self.options.minutes:g} min at rate x{self.options.rate:g}")
        with contextlib.suppress(KeyboardInterrupt):
            self.stop.wait(self.options.minutes * 60)
        self.stop.set()
        for pid in list(self.stopped):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        settle = time.monotonic() + 300
        while self.distill_workers() and time.monotonic() < settle:
            time.sleep(1.0)
        self.distilled()
        return self.report(elapsed, load_start)

    def distilled(self) -> None:
        """The distill workers' stored lessons (from the distill log) are acknowledged adds too."""
        from fireworks_skill_memory.memory.config import load_settings

        path = Path(load_settings(self.env).distill_log)
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        for line in lines:
            record = json.loads(line)
            with self.figures.lock:
                status = f"distill_{record.get('status')}"
                self.figures.done[status] = self.figures.done.get(status, 0) + 1
            for outcome in record.get("outcomes") or []:
                if outcome.get("skill") and outcome.get("action") in ("added", "merged"):
                    self.acknowledge(
                        Ack(
                            "distill",
                            outcome["skill"],
                            outcome["action"],
                            outcome.get("text", ""),
                            outcome.get("id"),
                            None,
                        )
                    )

    def close(self) -> None:
        self.cli("service", "stop", "--timeout", "20")
        for step in reversed(self.cleanup):
            with contextlib.suppress(Exception):
                step()
        if not self.options.keep:
            shutil.rmtree(self.root, ignore_errors=True)

    # -- the checks and the report
    def lost_acks(self) -> list[Ack]:
        from fireworks_skill_memory.memory.config import load_settings
        from fireworks_skill_memory.memory.store.archive import (
            ARCHIVE_FILE,
            QUARANTINE_FILE,
            read_archive,
        )
        from fireworks_skill_memory.memory.store.markdown_store import Store

        settings = load_settings(self.env)
        store = Store(settings)
        lost = []
        for ack in self.figures.acks:
            kept = {lesson.id: lesson.text for lesson in store.lessons(ack.skill)}
            for shelf in (ARCHIVE_FILE, QUARANTINE_FILE):
                kept.update(
                    {a.lesson.id: a.lesson.text for a in read_archive(settings, ack.skill, shelf)}
                )
            found = any(ack.token in text for text in kept.values())
            if not found and not (ack.merged_into in kept or ack.lesson_id in kept):
                lost.append(ack)
        return lost

    def unparsable(self) -> list[str]:
        from fireworks_skill_memory.memory.store.lesson import parse_entry

        bad = []
        for path in sorted(self.home.rglob("*.md")):
            if path.name not in ("KNOWLEDGE.md", "ARCHIVE.md", "QUARANTINE.md"):
                continue
            try:
                text = path.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError) as error:
                bad.append(f"{path}: {error}")
                continue
            for number, line in enumerate(text.splitlines(), 1):
                if line.startswith("- [") and parse_entry(line) is None:
                    bad.append(f"{path}:{number}: {line[:120]}")
                    break
        return bad

    def report(self, elapsed: float, load_start: tuple[float, ...]) -> dict[str, Any]:
        figures = self.figures
        bare = statistics.median(figures.latency.get("bare") or [float("nan")])
        hooks: dict[str, dict[str, float]] = {}
        every_hook: list[float] = []
        for event in HOOK_EVENTS:
            values = figures.latency.get(event, [])
            every_hook += values
            hooks[event] = _ratios(values, bare)
        hooks["all hooks"] = _ratios(every_hook, bare)
        lost = self.lost_acks()
        unparsable = self.unparsable()
        strays = [str(p) for p in self.home.rglob("*.tmp")]
        restarts = max(0, len(figures.service_pids) - 1)
        loads = figures.loads or [float("nan")]
        return {
            "minutes": self.options.minutes,
            "wall_minutes": round(elapsed / 60, 2),
            "rate": self.options.rate,
            "cpus": os.cpu_count(),
            "load": {
                "start": round(load_start[0], 2),
                "mean": round(statistics.fmean(loads), 2),
                "max": round(max(loads), 2),
                "end": round(os.getloadavg()[0], 2),
            },
            "requests": dict(sorted(figures.done.items())),
            "failed": {kind: len(why) for kind, why in sorted(figures.failed.items())},
            "failure_samples": {kind: why[:3] for kind, why in sorted(figures.failed.items())},
            "late_starts": dict(sorted(figures.late.items())),
            "hook_exits_nonzero": sum(n for code, n in figures.hook_exits.items() if code != 0),
            "bare_start_ms": round(bare * 1000, 1),
            "hook_latency": hooks,
            "targets": {"p50": TARGET_P50, "p99": TARGET_P99},
            "acknowledged_adds": len(figures.acks),
            "acknowledged_by_decision": _decisions(figures.acks),
            "acknowledged_adds_lost": len(lost),
            "lost_samples": [ack.__dict__ for ack in lost[:5]],
            "markdown_unparsable": len(unparsable),
            "unparsable_samples": unparsable[:5],
            "stray_temp_files": len(strays),
            "service_restarts": restarts,
            "service_peak_rss_mb": round(figures.peak_kb / 1024, 1),
            "faults": [what for _, what in figures.faults],
        }


def _ratios(values: list[float], bare: float) -> dict[str, float]:
    if not values:
        return {"n": 0}
    p50, p95, p99 = (percentile(values, q) for q in (0.5, 0.95, 0.99))
    return {
        "n": len(values),
        "p50_ms": round(p50 * 1000, 1),
        "p95_ms": round(p95 * 1000, 1),
        "p99_ms": round(p99 * 1000, 1),
        "p50_x": round(p50 / bare, 2),
        "p95_x": round(p95 / bare, 2),
        "p99_x": round(p99 / bare, 2),
    }


def _decisions(acks: list[Ack]) -> dict[str, int]:
    found: dict[str, int] = {}
    for ack in acks:
        found[ack.decision] = found.get(ack.decision, 0) + 1
    return found


def _valid_hook_output(stdout: bytes) -> bool:
    """Empty, or one JSON document (what Claude Code accepts from a hook)."""
    if not stdout.strip():
        return True
    try:
        json.loads(stdout)
    except ValueError:
        return False
    return True


def _text(result: dict[str, Any]) -> str:
    return " ".join(str(part.get("text", "")) for part in result.get("content", []))


def _peak_kb(pid: int) -> int:
    """The process's peak resident set (VmHWM, kB); 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return 0
    return 0


# ---- output ---------------------------------------------------------------------------------
def print_table(report: dict[str, Any]) -> None:
    load = report["load"]
    print(
        f"soak: {report['minutes']} min at rate x{report['rate']}, {report['cpus']} CPUs, "
        f"load {load['start']} at start, mean {load['mean']}, max {load['max']}, "
        f"{load['end']} at end"
    )
    print("\nrequests (failed)")
    for kind, count in report["requests"].items():
        failed = report["failed"].get(kind, 0)
        late = report["late_starts"].get(kind, 0)
        extra = f"  {late} started late" if late else ""
        print(f"  {kind:<18} {count:>6}  ({failed}){extra}")
    print(f"\nbare interpreter start (median): {report['bare_start_ms']} ms")
    print("hook latency          n    p50 ms  p95 ms  p99 ms   p50/bare  p95/bare  p99/bare")
    for name, row in report["hook_latency"].items():
        if not row.get("n"):
            continue
        print(
            f"  {name:<18} {row['n']:>5}  {row['p50_ms']:>7} {row['p95_ms']:>7} "
            f"{row['p99_ms']:>7}   {row['p50_x']:>7}x {row['p95_x']:>7}x {row['p99_x']:>7}x"
        )
    every = report["hook_latency"]["all hooks"]
    targets = report["targets"]
    rows = [
        ("hook exits other than 0", report["hook_exits_nonzero"], "0"),
        ("hook p50 / bare start", f"{every.get('p50_x')}x", f"<= {targets['p50']}x (warm goal)"),
        ("hook p99 / bare start", f"{every.get('p99_x')}x", f"<= {targets['p99']}x (warm goal)"),
        ("acknowledged adds", report["acknowledged_adds"], str(report["acknowledged_by_decision"])),
        ("acknowledged adds lost", report["acknowledged_adds_lost"], "0"),
        ("markdown files unparsable", report["markdown_unparsable"], "0"),
        ("stray temp files", report["stray_temp_files"], "(left by killed writers)"),
        ("service restarts", report["service_restarts"], ""),
        ("service peak memory", f"{report['service_peak_rss_mb']} MB", "(VmHWM)"),
        ("faults injected", len(report["faults"]), ""),
    ]
    print()
    for name, value, want in rows:
        print(f"  {name:<28} {value!s:>10}   {want}")
    print("  faults: " + "; ".join(report["faults"]))
    for kind, samples in report["failure_samples"].items():
        print(f"  failed {kind}: {samples[0]!r}")
    for sample in report["lost_samples"] + report["unparsable_samples"]:
        print(f"  !! {sample}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=1.0, help="Multiplies every traffic rate.")
    parser.add_argument(
        "--fault-every",
        type=float,
        nargs=2,
        default=(30.0, 90.0),
        metavar=("MIN", "MAX"),
        help="Seconds between faults (uniform).",
    )
    parser.add_argument(
        "--per-skill",
        type=int,
        default=100,
        help="Lessons per skill of the 20 (default 100: 2,000 lessons).",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="Keep the temporary folder.")
    parser.add_argument("--json", action="store_true", help="Print JSON instead of a table.")
    options = parser.parse_args()
    soak = Soak(options)
    try:
        report = soak.run()
    finally:
        soak.close()
    if options.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
