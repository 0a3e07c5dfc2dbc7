"""Hook latency benchmark: the installed hook commands against a bare interpreter start.

Run from the repository root::

    .venv/bin/python benchmarks/hook_bench.py [--runs 50] [--keep] [--json]

It prints figures, it asserts nothing. Steps:

1. A throwaway memory home with 2,000 lessons (20 skills x `--per-skill` 100 lessons of
   realistic text; 100 is the default SKILL_MAX, the most one skill holds).
2. `python -m compileall` over the project packages (this environment sets
   PYTHONDONTWRITEBYTECODE=1, so no hook process would ever write the .pyc files itself).
3. `hooks.install.install()` writes a settings.json; the PreToolUse and PostToolUse commands
   are taken from it exactly as Claude Code would run them (`/bin/sh -c <command>`, a recorded
   payload on stdin). Each is also run without the shell (its argv exec'd directly).
4. Timings over `--runs` runs, interleaved round-robin so load drifts hit every series alike:
   - `<python> -c pass` and `<python> -S -c pass` (bare start, for reference);
   - PreToolUse(Skill) with the service warm: every run a new session whose prompt was
     recorded beforehand, so each call embeds a new task; and once more for the same session
     ("task embedded": what a UserPromptSubmit-time pre-embedding would give);
   - the service's own answer time for a forwarded PreToolUse (socket round trip from this
     process, no interpreter start, no budget), new task and embedded task;
   - PostToolUse of an ordinary Bash call (no SKILL.md, no error: the per-tool-call cost);
   - PostToolUse of a Bash call whose output is an error, and PostToolUseFailure (Claude's
     failure payload), each in a new session with one active skill and a new error text,
     so every run ranks that skill's lessons (and the global ones) for a new failure;
   - the same two with the service down (its spawn held off by the spawn cooldown stamp, so
     every run takes the in-process path): PreToolUse reads the skill's lexical cache (written
     by the service, or by the first fallback); once more with that cache deleted before each
     run (the markdown parsed, as after every edit of the skill's file).
   Before each warm run the bench waits until the service is idle (an `embed` request, which
   queues behind any work in flight): a hook that gave up at its budget leaves the service
   computing, and back-to-back runs would otherwise measure that queue, not a Skill call.
   `--service-threads N` sets OMP_NUM_THREADS for the service (torch's intra-op threads);
   `--embed-backend torch|onnx` sets SKILL_MEMORY_EMBED_BACKEND for it (default onnx).
5. Median, p95 and ratios to the bare start, the targets (warm <= 2.0x at the median and
   <= 3x at p95; service down <= 3x at the median), the load average (and the service-down
   figures once more on one line, with the load during that phase), and an `-X importtime`
   profile of each hook path.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fireworks_skill_memory.memory.ingest import add_lesson

REPO = Path(__file__).resolve().parent.parent

PACKAGES = ("memory", "index", "hooks", "codex", "models", "cli", "mcpserver")
SKILLS = 20
PER_SKILL = 100
TARGET_WARM_MEDIAN = 2.0
TARGET_WARM_P95 = 3.0
TARGET_DOWN_MEDIAN = 3.0

DOMAINS = [
    ("docker", "image", "container", "Dockerfile"),
    ("postgres", "query", "index", "migration"),
    ("kubernetes", "pod", "deployment", "namespace"),
    ("terraform", "plan", "state file", "module"),
    ("pytest", "fixture", "test run", "conftest.py"),
    ("git", "rebase", "branch", "commit"),
    ("nginx", "upstream", "location block", "reload"),
    ("react", "component", "hook", "render"),
    ("aws-s3", "bucket", "object key", "presigned URL"),
    ("redis", "cache key", "eviction", "TTL"),
    ("ci-pipeline", "job", "cache", "artifact"),
    ("python-packaging", "wheel", "pyproject.toml", "entry point"),
    ("grafana", "dashboard", "panel", "alert rule"),
    ("kafka", "topic", "consumer group", "offset"),
    ("rust-build", "crate", "feature flag", "cargo build"),
    ("go-modules", "module", "go.sum", "vendor folder"),
    ("ssh", "key", "agent", "known_hosts"),
    ("webpack", "bundle", "loader", "source map"),
    ("sql-reporting", "report", "join", "window function"),
    ("deploy-checks", "release", "rollback", "health check"),
]
PATTERNS = [
    "Check the {b} before touching the {c}; most {a} failures start there",
    "When the {c} looks stale, rebuild it instead of patching the {b}",
    "Pin the {d} version so a {a} rollback gives the same {b}",
    "Run the {a} dry run first and read the {c} diff before applying",
    "A slow {b} usually means the {c} is missing; add it and measure again",
    "Never edit the {d} by hand during a {a} incident; use the CLI",
    "Log the {b} id with every {a} error so traces can be joined later",
    "Delete the local {c} when {a} reports a checksum mismatch on the {d}",
    "Keep one {b} per environment; sharing it across {a} stages caused outages",
    "Set an explicit timeout on every {a} call that touches the {c}",
]
PROMPTS = [
    "the {a} {b} keeps failing after the last change, find out why",
    "make the {a} {c} faster, it takes minutes now",
    "set up a new {d} for the {a} project and explain each step",
    "roll back the broken {a} {b} without losing data",
    "why does the {a} {c} differ between my laptop and CI?",
]


# ---- the memory home --------------------------------------------------------------------
def build_home(home: Path, per_skill: int = PER_SKILL) -> None:
    """20 skills x `per_skill` lessons, written as the product writes them (KNOWLEDGE.md)."""
    from fireworks_skill_memory.memory.config import load_settings
    from fireworks_skill_memory.memory.store.markdown_store import Store

    store = Store(load_settings({"AI_MEMORY_HOME": str(home)}))
    rng = random.Random(7)
    for skill, *words in DOMAINS[:SKILLS]:
        names = dict(zip("abcd", (skill, *words), strict=True))
        for index in range(per_skill):
            text = PATTERNS[index % len(PATTERNS)].format(**names)
            text += f" (seen in {rng.choice(['staging', 'prod', 'CI', 'local'])} #{index})"
            add_lesson(store, skill, text, words[index % 3].title(), matcher=None)


def compile_packages(python: str) -> float:
    started = time.perf_counter()
    subprocess.run([python, "-m", "compileall", "-q", *PACKAGES], cwd=REPO, check=True)
    return time.perf_counter() - started


# ---- payloads ---------------------------------------------------------------------------
def recorded(name: str) -> dict[str, Any]:
    samples = REPO / "tests" / "fixtures" / "hooks" / "claude_samples.json"
    payload: dict[str, Any] = json.loads(samples.read_text(encoding="utf-8"))[name]
    return payload


def pre_tool_use_payload(session: str, skill: str) -> bytes:
    payload = recorded("PreToolUse(Skill)")
    payload.update(session_id=session, tool_input={"skill": skill})
    return json.dumps(payload).encode()


def prompt_payload(session: str, prompt: str) -> bytes:
    payload = recorded("UserPromptSubmit")
    payload.update(session_id=session, prompt=prompt)
    return json.dumps(payload).encode()


def bash_payload(session: str) -> bytes:
    payload = recorded("PostToolUse(Read)")
    payload.update(
        session_id=session,
        tool_name="Bash",
        tool_input={"command": "ls -la src", "description": "List the sources"},
        tool_response={
            "stdout": "total 16\ndrwxr-xr-x 2 u u 4096 app.py\n-rw-r--r-- 1 u u 812 util.py\n",
            "stderr": "",
            "interrupted": False,
            "isImage": False,
            "noOutputExpected": False,
        },
    )
    return json.dumps(payload).encode()


ERRORS = [
    'Traceback (most recent call last):\n  File "/home/dev/{a}/main.py", line {n}, in <module>\n'
    "RuntimeError: the {a} {c} failed: connection refused by {b} on port 54{n:02d}",
    "npm ERR! code ELIFECYCLE\nnpm ERR! {a}@1.0.{n} build: `{a} {c}`\nnpm ERR! Exit status 1\n"
    "Error: {b} {d} is missing for the {a} {c}",
    "error[E0382]: borrow of moved value: `{b}_{n}`\n --> src/{a}.rs:{n}:9\n"
    "error: could not compile `{a}` due to 1 previous error ({c})",
]


def failing_bash_payload(session: str, index: int) -> bytes:
    """PostToolUse of a Bash call whose output looks like an error (a new text per run)."""
    payload = json.loads(bash_payload(session))
    payload["tool_response"]["stderr"] = error_text(index)
    payload["tool_input"] = {"command": "make build", "description": "Build"}
    return json.dumps(payload).encode()


def failure_payload(session: str, index: int) -> bytes:
    """PostToolUseFailure, the shape Claude Code sends (`error`, `is_interrupt`, ...)."""
    payload = recorded("PostToolUse(Read)")
    for key in ("tool_response",):
        payload.pop(key, None)
    payload.update(
        session_id=session,
        hook_event_name="PostToolUseFailure",
        tool_name="Bash",
        tool_input={"command": "make build", "description": "Build"},
        tool_use_id=f"toolu_bench_{index}",
        error="Exit code 1\n" + error_text(index),
        is_interrupt=False,
        duration_ms=812,
    )
    return json.dumps(payload).encode()


def error_text(index: int) -> str:
    domain = DOMAINS[index % len(DOMAINS)]
    names = dict(zip("abcd", domain, strict=True))
    return ERRORS[index % len(ERRORS)].format(n=index % 97, **names)


# ---- timing -----------------------------------------------------------------------------
def timed(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{argv} exited {done.returncode}: {done.stderr[-500:]!r}")
    return elapsed


def shell(command: str) -> list[str]:
    return ["/bin/sh", "-c", command]


def direct(command: str) -> list[str]:
    return shlex.split(command, comments=True)


Series = dict[str, list[float]]


def measure(cases: dict[str, Callable[[int], float]], runs: int) -> Series:
    """Round-robin: run i of every case, then run i + 1 of every case."""
    results: Series = {name: [] for name in cases}
    for case in cases.values():  # warm the page cache and the service, untimed
        case(-1)
    for index in range(runs):
        for name, case in cases.items():
            results[name].append(case(index))
    return results


def stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "median_ms": statistics.median(ordered) * 1000,
        "p95_ms": p95 * 1000,
        "mean_ms": statistics.fmean(ordered) * 1000,
        "min_ms": ordered[0] * 1000,
    }


# ---- the service ------------------------------------------------------------------------
def start_service(
    python: str, env: dict[str, str], home: Path, threads: int | None = None
) -> subprocess.Popen[bytes]:
    from fireworks_skill_memory.memory.service.client import try_call

    if threads:
        env = {**env, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    process = subprocess.Popen(
        [python, "-I", "-m", "fireworks_skill_memory.cli.service_main"],
        cwd=home,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 1500
    while time.monotonic() < deadline:
        reply = try_call(str(home), "ping", timeout=1.0)
        # warm = loaded, and the failure glossary's explanations embedded (first start only)
        if reply and reply.get("ready") and reply.get("glossary_ready"):
            return process
        if process.poll() is not None:
            raise RuntimeError("the service exited during warm-up (see its logs)")
        time.sleep(0.5)
    raise RuntimeError("the service was not ready within 1500 s")


def stop_service(process: subprocess.Popen[bytes], home: Path) -> None:
    from fireworks_skill_memory.memory.service.client import try_call

    try_call(str(home), "shutdown", timeout=2.0)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def hold_off_spawn(home: Path) -> None:
    """Refresh the spawn cooldown stamp: a hook that finds no service will not start one."""
    stamp = home / "run" / "spawn.stamp"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text("hook_bench: service down on purpose")


# ---- profile ----------------------------------------------------------------------------
def import_profile(command: str, stdin: bytes, env: dict[str, str], top: int = 8) -> list[str]:
    """The slowest imports of one hook run (`-X importtime`, cumulative microseconds)."""
    argv = direct(command)
    done = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]],
        input=stdin,
        capture_output=True,
        env=env,
        check=False,
    )
    rows = []
    total = 0
    for line in done.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line[len("import time:") :].split("|")
        if len(name) - len(name.lstrip()) == 1:  # a top-level import
            total += int(cumulative)
            rows.append((int(cumulative), name.strip()))
    rows.sort(reverse=True)
    lines = [f"top-level imports {total / 1000:.1f} ms:"]
    lines += [f"  {us / 1000:6.1f} ms  {name}" for us, name in rows[:top]]
    return lines


# ---- report -----------------------------------------------------------------------------
def ratio_lines(series: Series, base: str, rows: list[str]) -> list[str]:
    reference = stats(series[base])
    lines = []
    for name in rows:
        figures = stats(series[name])
        lines.append(
            f"  {name:<38} median {figures['median_ms']:6.1f} ms  p95 {figures['p95_ms']:6.1f} ms"
            f"  x{figures['median_ms'] / reference['median_ms']:.2f} median"
            f"  x{figures['p95_ms'] / reference['median_ms']:.2f} p95/median"
            f"  x{figures['p95_ms'] / reference['p95_ms']:.2f} p95/p95"
        )
    return lines


def verdicts(series: Series, mode: str) -> list[str]:
    bare = stats(series[f"bare ({mode})"])
    warm = stats(series[f"PreToolUse warm, new task ({mode})"])
    down = stats(series[f"PreToolUse service down ({mode})"])
    checks = [
        ("warm median", warm["median_ms"] / bare["median_ms"], TARGET_WARM_MEDIAN),
        ("warm p95", warm["p95_ms"] / bare["median_ms"], TARGET_WARM_P95),
        ("service down median", down["median_ms"] / bare["median_ms"], TARGET_DOWN_MEDIAN),
    ]
    for name, label in (
        (f"PostToolUse Bash error warm ({mode})", "error warm median"),
        (f"PostToolUseFailure warm ({mode})", "failure warm median"),
    ):
        if name in series:
            ratio = stats(series[name])["median_ms"] / bare["median_ms"]
            checks.append((label, ratio, TARGET_WARM_MEDIAN))
    lines = []
    for what, value, limit in checks:
        verdict = "met" if value <= limit else "MISSED"
        lines.append(f"  {what:<20} x{value:.2f} (target <= {limit:.1f}x): {verdict}")
    return lines


class Bench:
    """One benchmark run in a temporary folder."""

    def __init__(
        self,
        runs: int,
        service_threads: int | None = None,
        per_skill: int = PER_SKILL,
        embed_backend: str = "onnx",
    ) -> None:
        self.runs = runs
        self.per_skill = per_skill
        self.service_threads = service_threads
        self.python = sys.executable
        self.root = Path(tempfile.mkdtemp(prefix="hook-bench-"))
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
            SKILL_MEMORY_EMBED_BACKEND=embed_backend,
        )
        self.lines: list[str] = []
        self.commands: dict[str, str] = {}
        self.sessions: dict[tuple[str, int], tuple[str, str]] = {}
        self.series: Series = {}
        self.profiles: dict[str, list[str]] = {}
        self.served = self.fallback = 0
        self.down_load: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
        self.down_injected = 0

    def say(self, line: str = "") -> None:
        self.lines.append(line)

    # -- phases
    def prepare(self) -> None:
        started = time.perf_counter()
        build_home(self.home, self.per_skill)
        self.say(
            f"memory home: {SKILLS * self.per_skill} lessons, {time.perf_counter() - started:.1f} s"
        )
        self.say(f"compileall: {compile_packages(self.python):.1f} s")
        from fireworks_skill_memory.hooks import install as installer

        settings_file = self.root / "settings.json"
        installer.install(str(settings_file), python=self.python, home=str(self.home))
        table = json.loads(settings_file.read_text())["hooks"]
        self.commands = {event: groups[0]["hooks"][0]["command"] for event, groups in table.items()}
        self.say(f"PreToolUse command:  {self.commands['PreToolUse']}")
        self.say(f"PostToolUse command: {self.commands['PostToolUse']}")

    def record_prompts(self, series: str) -> None:
        """One session per run of a series, its own prompt recorded through the service."""
        from fireworks_skill_memory.hooks.fast import forward

        for index in range(-1, self.runs):
            domain = DOMAINS[index % len(DOMAINS)]
            names = dict(zip("abcd", domain, strict=True))
            prompt = PROMPTS[index % len(PROMPTS)].format(**names) + f" ({series} run {index})"
            session = f"bench-{series}-{index + 1}"
            payload = prompt_payload(session, prompt)
            if forward("UserPromptSubmit", payload, str(self.home), 30.0) is None:
                raise RuntimeError("the service did not record a prompt")
            self.sessions[(series, index)] = (session, domain[0])

    def pre(
        self,
        series: str,
        mode: Callable[[str], list[str]],
        hold: bool = False,
        drop_cache: bool = False,
    ) -> Callable[[int], float]:
        def run(index: int) -> float:
            if hold:
                hold_off_spawn(self.home)
            else:
                self.idle()
            session, skill = self.sessions[(series, index)]
            if drop_cache:
                (self.home / "index" / "lexical" / f"{skill}.bin").unlink(missing_ok=True)
            payload = pre_tool_use_payload(session, skill)
            return timed(mode(self.commands["PreToolUse"]), payload, self.env)

        return run

    def idle(self) -> None:
        """Wait until the service has finished earlier work (a hook that gave up at its
        budget leaves the service computing; real Skill calls are seconds apart)."""
        from fireworks_skill_memory.memory.service.client import try_call

        try_call(str(self.home), "embed", {"task": ""}, timeout=30.0)

    def answer(self, series: str) -> Callable[[int], float]:
        """The service's own time for a forwarded PreToolUse (no process start, no budget)."""
        from fireworks_skill_memory.hooks.fast import forward

        def run(index: int) -> float:
            self.idle()
            payload = pre_tool_use_payload(*self.sessions[(series, index)])
            started = time.perf_counter()
            if forward("PreToolUse", payload, str(self.home), 30.0) is None:
                raise RuntimeError("the service did not answer")
            return time.perf_counter() - started

        return run

    def post(self, mode: Callable[[str], list[str]], hold: bool = False) -> Callable[[int], float]:
        def run(index: int) -> float:
            if hold:
                hold_off_spawn(self.home)
            else:
                self.idle()
            payload = bash_payload(f"bench-post-{index}-{hold}")
            return timed(mode(self.commands["PostToolUse"]), payload, self.env)

        return run

    def failed(self, mode: Callable[[str], list[str]], event: str) -> Callable[[int], float]:
        """A failed Bash call (PostToolUse with error output, or PostToolUseFailure) in a new
        session whose one active skill is ranked for the new error."""
        from fireworks_skill_memory.hooks.state import SessionState
        from fireworks_skill_memory.memory.config import load_settings

        settings = load_settings({"AI_MEMORY_HOME": str(self.home)})
        make = failure_payload if event == "PostToolUseFailure" else failing_bash_payload
        count = iter(range(1_000_000))
        name = getattr(mode, "__name__", "service")

        def run(index: int) -> float:
            from fireworks_skill_memory.hooks.fast import forward

            self.idle()
            number = next(count)
            session = f"bench-{event}-{name}-{number}"
            SessionState(settings.sessions_dir, session).mark_active(
                DOMAINS[number % len(DOMAINS)][0]
            )
            if mode != self.in_service:
                return timed(mode(self.commands[event]), make(session, number), self.env)
            started = time.perf_counter()
            if forward(event, make(session, number), str(self.home), 30.0) is None:
                raise RuntimeError("the service did not answer")
            return time.perf_counter() - started

        return run

    def in_service(self, command: str) -> list[str]:
        """A marker mode for `failed`: forward from this process, no interpreter start."""
        return []

    def bare(self, flags: list[str], mode: str) -> Callable[[int], float]:
        argv = [self.python, *flags, "-c", "pass"]
        command = shell(shlex.join(argv)) if mode == "shell" else argv
        return lambda index: timed(command, b"", self.env)

    def warm_phase(self) -> None:
        started = time.perf_counter()
        service = start_service(self.python, self.env, self.home, self.service_threads)
        self.say(f"service ready in {time.perf_counter() - started:.1f} s")
        try:
            for series in ("shell", "exec", "service"):
                self.record_prompts(series)
            cases: dict[str, Callable[[int], float]] = {}
            for mode, spawn in (("shell", shell), ("exec", direct)):
                cases[f"bare ({mode})"] = self.bare([], mode)
                cases[f"bare -S ({mode})"] = self.bare(["-S"], mode)
                cases[f"PreToolUse warm, new task ({mode})"] = self.pre(mode, spawn)
                cases[f"PostToolUse Bash warm ({mode})"] = self.post(spawn)
                cases[f"PostToolUse Bash error warm ({mode})"] = self.failed(spawn, "PostToolUse")
                cases[f"PostToolUseFailure warm ({mode})"] = self.failed(
                    spawn, "PostToolUseFailure"
                )
            cases["PreToolUse warm, task embedded (exec)"] = self.pre("exec", direct)
            cases["service answer, new task (service)"] = self.answer("service")
            cases["service answer, task embedded (service)"] = self.answer("service")
            cases["service answer, PostToolUseFailure (service)"] = self.failed(
                self.in_service, "PostToolUseFailure"
            )
            self.series.update(measure(cases, self.runs))
            log = (self.home / "run" / "injections.log").read_text().splitlines()
            self.served = sum(1 for line in log if '"by": "PreToolUse:Skill"' in line)
            self.fallback = sum(1 for line in log if "fallback" in line)
            first = pre_tool_use_payload(*self.sessions[("exec", self.runs - 1)])
            self.idle()  # the last exec run embedded that task: the profile shows the warm path
            self.profiles["PreToolUse warm"] = import_profile(
                self.commands["PreToolUse"], first, self.env
            )
            self.profiles["PostToolUse Bash"] = import_profile(
                self.commands["PostToolUse"], bash_payload("bench-profile"), self.env
            )
        finally:
            stop_service(service, self.home)

    def down_phase(self) -> None:
        hold_off_spawn(self.home)
        cases: dict[str, Callable[[int], float]] = {}
        for mode, spawn in (("shell", shell), ("exec", direct)):
            cases[f"bare ({mode})"] = self.bare([], mode)
            cases[f"PreToolUse service down ({mode})"] = self.pre(mode, spawn, hold=True)
            cases[f"PostToolUse Bash service down ({mode})"] = self.post(spawn, hold=True)
        cases["PreToolUse service down, no lexical cache (exec)"] = self.pre(
            "exec", direct, hold=True, drop_cache=True
        )
        before = os.getloadavg()
        injected = self.fallback_injections()
        down = measure(cases, self.runs)
        self.down_load = (before, os.getloadavg())
        self.down_injected = self.fallback_injections() - injected
        for mode in ("shell", "exec"):
            self.series[f"bare ({mode})"] += down.pop(f"bare ({mode})")
        self.series.update(down)
        hold_off_spawn(self.home)
        payload = pre_tool_use_payload(*self.sessions[("exec", 1)])
        timed(direct(self.commands["PreToolUse"]), payload, self.env)  # its cache, rewritten
        self.profiles["PreToolUse service down"] = import_profile(
            self.commands["PreToolUse"], payload, self.env
        )

    def report(self, load_before: tuple[float, float, float]) -> None:
        after = os.getloadavg()
        self.say()
        self.say(f"python {sys.version.split()[0]} at {self.python}; {os.cpu_count()} CPUs")
        threads = self.service_threads or "torch default"
        self.say(f"service torch threads: {threads}; hook budget: default (150 ms)")
        self.say(
            "load average before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(
                *load_before, *after
            )
        )
        self.say(
            f"{self.runs} runs per series (bare: {2 * self.runs}); warm PreToolUse answered by"
            f" the service {self.served}x, by the in-process fallback {self.fallback}x"
        )
        titles = {
            "shell": "spawned as /bin/sh -c <command> (as Claude Code runs it)",
            "exec": "spawned directly (argv, no shell)",
        }
        for mode, title in titles.items():
            self.say()
            self.say(f"{title}:")
            rows = [name for name in self.series if name.endswith(f"({mode})")]
            self.lines.extend(ratio_lines(self.series, f"bare ({mode})", rows))
            self.say("targets:")
            self.lines.extend(verdicts(self.series, mode))
        self.say()
        self.say(
            "inside the service (a forwarded PreToolUse timed from this process, vs bare exec):"
        )
        rows = [name for name in self.series if name.endswith("(service)")]
        self.lines.extend(ratio_lines(self.series, "bare (exec)", rows))
        self.say()
        self.lines.extend(self.down_summary())
        for name, profile in self.profiles.items():
            self.say()
            self.say(f"profile, {name}: {profile[0]}")
            self.lines.extend(profile[1:])

    def fallback_injections(self) -> int:
        """PreToolUse injections ranked in-process so far (lines of the injection log)."""
        log = self.home / "run" / "injections.log"
        lines = log.read_text().splitlines() if log.exists() else []
        return sum(1 for line in lines if '"by": "PreToolUse:Skill:fallback"' in line)

    def down_summary(self) -> list[str]:
        """The service-down PreToolUse figures on one line each, beside the 3.0x target."""
        before, after = self.down_load
        runs = 3 * (self.runs + 1)  # shell, exec and no-cache series, with their warm-up runs
        lines = [
            "service down, PreToolUse(Skill) ranked in-process (load average during the phase"
            " {:.2f} {:.2f} {:.2f} -> {:.2f} {:.2f} {:.2f}; the lexical fallback injected in"
            " {} of {} runs):".format(*before, *after, self.down_injected, runs)
        ]
        for mode in ("shell", "exec"):
            bare = stats(self.series[f"bare ({mode})"])
            down = stats(self.series[f"PreToolUse service down ({mode})"])
            ratio = down["median_ms"] / bare["median_ms"]
            verdict = "met" if ratio <= TARGET_DOWN_MEDIAN else "MISSED"
            lines.append(
                f"  {mode:<5} median {down['median_ms']:.1f} ms, p95 {down['p95_ms']:.1f} ms,"
                f" bare start {bare['median_ms']:.1f} ms: x{ratio:.2f}"
                f" (target <= {TARGET_DOWN_MEDIAN:.1f}x: {verdict})"
            )
        return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument(
        "--per-skill", type=int, default=PER_SKILL, help="Lessons per skill (20 skills)."
    )
    parser.add_argument("--keep", action="store_true", help="Keep the temporary folder.")
    parser.add_argument("--json", action="store_true", help="Also print the figures as JSON.")
    parser.add_argument(
        "--service-threads",
        type=int,
        help="OMP_NUM_THREADS for the service (default: torch's own choice, every core).",
    )
    parser.add_argument(
        "--embed-backend",
        choices=("onnx", "torch"),
        default="onnx",
        help="SKILL_MEMORY_EMBED_BACKEND for the service (onnx: the export is made at its "
        "first start, in the bench's home).",
    )
    args = parser.parse_args()
    bench = Bench(args.runs, args.service_threads, args.per_skill, args.embed_backend)
    load_before = os.getloadavg()
    try:
        bench.prepare()
        bench.warm_phase()
        bench.down_phase()
        bench.report(load_before)
        print("\n".join(bench.lines))
        if args.json:
            figures = {name: stats(values) for name, values in bench.series.items()}
            print(json.dumps(figures, indent=2))
    finally:
        if args.keep:
            print(f"kept {bench.root}")
        else:
            shutil.rmtree(bench.root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
