"""Run the real ``claude`` and ``codex`` CLIs (from npm) offline against fakes.

Install (cached, lock-protected, idempotent)::

    claude = require_claude()          # Path, or pytest.skip(...) with the reason
    codex = require_codex()

Run hermetically (minimal env, temp HOME, only 127.0.0.1 traffic)::

    with FakeMessagesServer(claude_skill_script("demo")) as srv:
        run = run_claude(tmp_path, "use demo", base_url=srv.base_url, cwd=proj,
                         settings={"hooks": {...}})
        run.check()                    # AssertionError with stdout/stderr tail
        assert run.result["subtype"] == "success"

    with FakeOpenAIServer(codex_steps_script(["cat notes.txt"])) as srv:
        run = run_codex(tmp_path, "show notes", base_url=srv.api_base,
                        codex_home=tmp_path / "home" / ".codex", cwd=proj,
                        bypass_hook_trust=True)

Hooks: :class:`HookRecorder` writes a tiny Python hook that logs
``{"event", "stdin"}`` JSON lines and can answer ``additionalContext``;
:func:`hooks_config` builds the ``{"hooks": {...}}`` dict both CLIs accept
(Claude ``--settings``/plugin ``hooks/hooks.json``, Codex ``$CODEX_HOME/hooks.json``).

Codex only runs hooks that are *trusted* (or with
``--dangerously-bypass-hook-trust``). Trust is persisted in
``$CODEX_HOME/config.toml`` as ``[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]``
``trusted_hash = "sha256:..."``, where the hash comes from ``codex app-server``'s
``hooks/list`` (see :func:`codex_hook_inventory` / :func:`trust_codex_hooks`).

Environment: ``SKILL_MEMORY_E2E_CACHE`` overrides the npm cache root
(default ``~/.cache/fireworks-skill-memory/npm``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:  # POSIX only; without it installs are not serialised across processes.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "CLAUDE_PACKAGE",
    "CLAUDE_VERSION",
    "CODEX_PACKAGE",
    "CODEX_VERSION",
    "ClaudeRun",
    "CodexRun",
    "HookRecorder",
    "cache_root",
    "codex_hook_inventory",
    "hooks_config",
    "npm_cli",
    "npm_cli_error",
    "require_claude",
    "require_codex",
    "run_claude",
    "run_codex",
    "trust_codex_hooks",
    "write_codex_config",
]

# The deploy-checks home the Claude and MCP end-to-end tests seed: one relevant lesson for a
# release whose schema changed, four plausible neighbours and one that never fits.
SKILL = "deploy-checks"
LESSONS = [
    ("Migrations", "Run the database migrations before switching traffic to the new release"),
    ("Images", "Pin the base image digest so a rollback rebuilds exactly the same image"),
    ("Secrets", "Rotate the deploy token when a team member leaves the project"),
    ("DNS", "Lower the DNS TTL a day before moving the service to a new load balancer"),
    ("Logging", "Keep request logs for thirty days so incidents can be traced afterwards"),
    ("Lunch", "The office cafeteria serves vegetarian lasagna on Fridays"),
]
RELEVANT, IRRELEVANT = LESSONS[0][1], LESSONS[5][1]

CLAUDE_PACKAGE = "@anthropic-ai/claude-code"
CLAUDE_VERSION = "2.1.197"
CODEX_PACKAGE = "@openai/codex"
CODEX_VERSION = "0.171.0"

_BIN_NAMES = {CLAUDE_PACKAGE: "claude", CODEX_PACKAGE: "codex"}
_PACKAGE_RE = re.compile(r"^(@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*$")
_VERSION_RE = re.compile(r"^[\w.+-]+$")
_INSTALL_TIMEOUT = 600
_BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
_FAKE_KEY_ENV = "FAKE_OPENAI_KEY"
_install_errors: dict[tuple[str, str], str] = {}


# ------------------------------------------------------------------ install
def _real_home() -> Path:
    """The user's home from the password database: immune to tests that
    monkeypatch ``HOME`` (which would otherwise mean one npm install per test)."""
    try:
        import pwd

        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError):
        return _IMPORT_HOME


_IMPORT_HOME = Path.home()
_IMPORT_CACHE_OVERRIDE = os.environ.get("SKILL_MEMORY_E2E_CACHE")


def cache_root() -> Path:
    """``$SKILL_MEMORY_E2E_CACHE`` or ``~/.cache/fireworks-skill-memory/npm``.

    The variable is also read once at import, so fixtures that scrub
    ``SKILL_MEMORY_*`` from the environment do not lose it; ``~`` is the real
    home directory, not ``$HOME``.
    """
    override = os.environ.get("SKILL_MEMORY_E2E_CACHE") or _IMPORT_CACHE_OVERRIDE
    if override:
        return Path(override).expanduser()
    return _real_home() / ".cache" / "fireworks-skill-memory" / "npm"


def npm_cli(package: str, version: str, *, bin_name: str | None = None) -> Path | None:
    """Install ``package@version`` once into the cache; return its bin path.

    The prefix is ``cache_root()/<package>@<version>`` (e.g.
    ``.../npm/@openai/codex@0.171.0``). Installs run under an exclusive file
    lock (safe with pytest-xdist), into a staging dir renamed into place, so a
    killed install never leaves a half-populated prefix. Returns ``None`` when
    npm is missing or the install fails; :func:`npm_cli_error` says why. A
    failure is remembered for the rest of the process (no retry per test).
    ``$SKILL_MEMORY_E2E_NPM_TIMEOUT`` bounds one install (seconds, default 600).
    """
    if not _PACKAGE_RE.match(package) or not _VERSION_RE.match(version):
        raise ValueError(f"suspicious npm package spec {package!r}@{version!r}")
    name = bin_name or _BIN_NAMES.get(package) or package.rsplit("/", 1)[-1]
    prefix = cache_root() / f"{package}@{version}"
    binary = prefix / "node_modules" / ".bin" / name
    if (prefix / ".installed").exists() and binary.exists():
        return binary
    if (package, version) in _install_errors:
        return None
    if shutil.which("npm") is None:
        _install_errors[(package, version)] = "npm is not on PATH"
        return None
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with _file_lock(prefix.parent / f".{prefix.name}.lock"):
        if (prefix / ".installed").exists() and binary.exists():
            return binary
        error = _npm_install(package, version, prefix, name)
    if error:
        _install_errors[(package, version)] = error
        return None
    return binary


def npm_cli_error(package: str, version: str) -> str | None:
    """Why the last :func:`npm_cli` call for this spec returned ``None``."""
    return _install_errors.get((package, version))


def _npm_install(package: str, version: str, prefix: Path, bin_name: str) -> str | None:
    staging = prefix.with_name(f"{prefix.name}.staging-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    cmd = [
        "npm",
        "install",
        "--prefix",
        str(staging),
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--loglevel=error",
        f"{package}@{version}",
    ]
    # npm keeps its own download cache under ~/.npm: use the real home for it.
    env = {**os.environ, "HOME": str(_real_home())}
    try:
        proc = subprocess.run(
            cmd,
            env=env,
            capture_output=True,
            check=False,
            text=True,
            timeout=float(os.environ.get("SKILL_MEMORY_E2E_NPM_TIMEOUT", _INSTALL_TIMEOUT)),
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        shutil.rmtree(staging, ignore_errors=True)
        return f"`{' '.join(cmd)}` failed: {exc}"
    binary = staging / "node_modules" / ".bin" / bin_name
    if proc.returncode != 0 or not binary.exists():
        shutil.rmtree(staging, ignore_errors=True)
        tail = (proc.stderr or proc.stdout).strip()[-800:]
        return f"`npm install {package}@{version}` exited {proc.returncode}: {tail}"
    (staging / ".installed").write_text(f"{package}@{version}\n")
    shutil.rmtree(prefix, ignore_errors=True)
    os.replace(staging, prefix)
    return None


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    with open(path, "a+") as handle:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _require(package: str, version: str) -> Path:
    import pytest

    binary = npm_cli(package, version)
    if binary is None:
        reason = npm_cli_error(package, version) or "unknown error"
        pytest.skip(f"{package}@{version} unavailable: {reason}")
    return binary


def require_claude(version: str = CLAUDE_VERSION) -> Path:
    """The ``claude`` binary, or ``pytest.skip`` with the install failure."""
    return _require(CLAUDE_PACKAGE, version)


def require_codex(version: str = CODEX_VERSION) -> Path:
    """The ``codex`` launcher, or ``pytest.skip`` with the install failure."""
    return _require(CODEX_PACKAGE, version)


# -------------------------------------------------------------------- hooks
_HOOK_SOURCE = """\
import json, sys
event = sys.argv[1]
raw = sys.stdin.read()
try:
    payload = json.loads(raw)
except ValueError:
    payload = raw
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps({{"event": event, "stdin": payload}}) + "\\n")
context = {contexts!r}.get(event)
if context is not None:
    print(json.dumps({{"hookSpecificOutput": {{"hookEventName": event,
                                                 "additionalContext": context}}}}))
"""

#: Events whose matcher is ignored / absent in both CLIs.
_NO_MATCHER_EVENTS = {"UserPromptSubmit", "Stop", "SessionEnd", "SubagentStop"}
#: Events that must not return hookSpecificOutput (see agent-protocols.md A.3).
_NO_CONTEXT_EVENTS = {"Stop", "SessionEnd", "PreCompact", "SubagentStop"}


@dataclass
class HookRecorder:
    """A generated hook script that logs its stdin and may add context.

    ``contexts`` maps event name -> additionalContext text printed as
    ``{"hookSpecificOutput": {"hookEventName": E, "additionalContext": C}}``.
    Stop/SessionEnd/PreCompact/SubagentStop never print (it would loop or fail).
    """

    directory: Path
    contexts: Mapping[str, str] = field(default_factory=dict)
    python: str = sys.executable

    def __post_init__(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.script = self.directory / "record_hook.py"
        self.log = self.directory / "hook_log.jsonl"
        bad = set(self.contexts) & _NO_CONTEXT_EVENTS
        if bad:
            raise ValueError(f"events {sorted(bad)} must not return additionalContext")
        source = _HOOK_SOURCE.format(log=str(self.log), contexts=dict(self.contexts))
        self.script.write_text(source, encoding="utf-8")

    def command(self, event: str) -> str:
        """The shell command line a hook config should run for ``event``."""
        return f"{_shquote(self.python)} {_shquote(str(self.script))} {event}"

    def records(self) -> list[dict[str, Any]]:
        """Logged ``{"event": ..., "stdin": {...}}`` dicts, in firing order."""
        if not self.log.exists():
            return []
        lines = self.log.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def events(self) -> list[str]:
        """Just the event names, in firing order."""
        return [r["event"] for r in self.records()]


def hooks_config(
    recorder: HookRecorder, events: Sequence[str], *, matcher: str = "*"
) -> dict[str, Any]:
    """``{"hooks": {Event: [{"matcher", "hooks": [{"type": "command", ...}]}]}}``.

    The shape works for Claude (``--settings``, settings.json, plugin
    ``hooks/hooks.json``) and Codex (``$CODEX_HOME/hooks.json``).
    """
    table: dict[str, Any] = {}
    for event in events:
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": recorder.command(event)}]}
        if event not in _NO_MATCHER_EVENTS:
            group = {"matcher": matcher, **group}
        table[event] = [group]
    return {"hooks": table}


def _shquote(text: str) -> str:
    import shlex

    return shlex.quote(text)


# ------------------------------------------------------------ process runner
@dataclass
class _Proc:
    returncode: int | None
    stdout: str
    stderr: str
    duration: float
    timed_out: bool


def _run(cmd: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float) -> _Proc:
    """Run in a new session; on timeout kill the whole process group."""
    start = time.monotonic()
    proc = subprocess.Popen(
        list(cmd),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        _killpg(proc)
        out, err = proc.communicate()
        timed_out = True
    return _Proc(proc.returncode, out, err, time.monotonic() - start, timed_out)


def _parse_jsonl(text: str) -> list[dict[str, Any]]:
    events = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line.startswith("{"):
            continue
        with contextlib.suppress(ValueError):
            events.append(json.loads(line))
    return events


def _base_env(tmp_path: Path, home: Path) -> dict[str, str]:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir(parents=True, exist_ok=True)
    node = shutil.which("node")
    path = _BASE_PATH
    if node and os.path.dirname(node) not in path.split(":"):
        path = f"{os.path.dirname(node)}:{path}"
    return {
        "PATH": path,
        "HOME": str(home),
        "TMPDIR": str(tmpdir),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
    }


@dataclass
class _CLIRun:
    returncode: int | None
    stdout: str
    stderr: str
    events: list[dict[str, Any]]
    duration: float
    timed_out: bool
    argv: list[str]
    env: dict[str, str]

    @property
    def ok(self) -> bool:
        """Exited 0 within the timeout."""
        return not self.timed_out and self.returncode == 0

    def check(self) -> None:
        """Raise AssertionError with the argv and output tails unless ``ok``."""
        if not self.ok:
            raise AssertionError(
                f"CLI {'timed out' if self.timed_out else f'exited {self.returncode}'}"
                f" after {self.duration:.1f}s\nargv: {self.argv}\n"
                f"--- stdout (tail) ---\n{self.stdout[-4000:]}\n"
                f"--- stderr (tail) ---\n{self.stderr[-4000:]}"
            )


# ------------------------------------------------------------------- claude
@dataclass
class ClaudeRun(_CLIRun):
    """Outcome of :func:`run_claude`.

    ``events`` are the parsed ``--output-format stream-json`` lines;
    ``result`` is the final ``{"type": "result", ...}`` line (or ``None``);
    ``transcript_path`` is ``$CLAUDE_CONFIG_DIR/projects/<munged cwd>/<session>.jsonl``
    when it exists.
    """

    config_dir: Path = Path()
    session_id: str | None = None
    transcript_path: Path | None = None

    @property
    def result(self) -> dict[str, Any] | None:
        """The final ``result`` event."""
        found = [e for e in self.events if e.get("type") == "result"]
        return found[-1] if found else None

    def hook_events(self) -> list[dict[str, Any]]:
        """``system/hook_started`` and ``system/hook_response`` events."""
        return [
            e
            for e in self.events
            if e.get("type") == "system" and e.get("subtype") in ("hook_started", "hook_response")
        ]

    def transcript(self) -> list[dict[str, Any]]:
        """Parsed transcript JSONL lines (empty when not found)."""
        if self.transcript_path is None or not self.transcript_path.exists():
            return []
        return _parse_jsonl(self.transcript_path.read_text(encoding="utf-8"))


def run_claude(
    tmp_path: Path,
    prompt: str,
    *,
    base_url: str,
    cwd: Path,
    settings: Mapping[str, Any] | None = None,
    plugin_dir: Path | None = None,
    extra_env: Mapping[str, str] | None = None,
    extra_args: Sequence[str] = (),
    permission_mode: str | None = None,
    timeout: float = 60,
    claude_bin: Path | None = None,
) -> ClaudeRun:
    """Run ``claude -p PROMPT --output-format stream-json --verbose --include-hook-events``.

    Hermetic env: ``HOME=<tmp>/home``, ``CLAUDE_CONFIG_DIR=<tmp>/home/.claude``,
    ``CLAUDE_CODE_TMPDIR``/``TMPDIR`` in ``<tmp>``, ``ANTHROPIC_BASE_URL=base_url``,
    a fake ``ANTHROPIC_API_KEY``, and the non-essential-traffic / telemetry /
    error-reporting / autoupdater switches; nothing else is inherited (PATH is
    ``/usr/local/bin:/usr/bin:/bin`` plus node's dir). ``settings`` is written
    to ``<tmp>/claude-settings.json`` and passed with ``--settings``.
    ``permission_mode`` (e.g. ``"bypassPermissions"``) adds ``--permission-mode``
    and, when running as root, ``IS_SANDBOX=1`` (required there).
    ``claude_bin`` defaults to :func:`require_claude` (skips if unavailable).
    Calling it again with the same ``tmp_path`` reuses the home (``--resume`` works).
    """
    binary = claude_bin or require_claude()
    tmp_path = Path(tmp_path).resolve()
    cwd = Path(cwd).resolve()
    home = tmp_path / "home"
    config_dir = home / ".claude"
    config_dir.mkdir(parents=True, exist_ok=True)
    cctmp = tmp_path / "cctmp"
    cctmp.mkdir(parents=True, exist_ok=True)
    env = _base_env(tmp_path, home)
    env.update(
        {
            "CLAUDE_CONFIG_DIR": str(config_dir),
            "CLAUDE_CODE_TMPDIR": str(cctmp),
            "TMPDIR": str(cctmp),
            "ANTHROPIC_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": "sk-ant-e2e-fake-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
    )
    argv = [str(binary), "-p", prompt, "--output-format", "stream-json", "--verbose"]
    argv.append("--include-hook-events")
    if settings is not None:
        settings_file = tmp_path / "claude-settings.json"
        settings_file.write_text(json.dumps(settings, indent=1), encoding="utf-8")
        argv += ["--settings", str(settings_file)]
    if plugin_dir is not None:
        argv += ["--plugin-dir", str(plugin_dir)]
    if permission_mode is not None:
        argv += ["--permission-mode", permission_mode]
        if permission_mode == "bypassPermissions" and hasattr(os, "geteuid") and os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"
    argv += list(extra_args)
    env.update(extra_env or {})
    proc = _run(argv, cwd=cwd, env=env, timeout=timeout)
    events = _parse_jsonl(proc.stdout)
    session_id = next((e.get("session_id") for e in events if e.get("session_id")), None)
    return ClaudeRun(
        returncode=proc.returncode,
        stdout=proc.stdout,
        stderr=proc.stderr,
        events=events,
        duration=proc.duration,
        timed_out=proc.timed_out,
        argv=argv,
        env=env,
        config_dir=config_dir,
        session_id=session_id,
        transcript_path=_find_claude_transcript(config_dir, session_id),
    )


def _find_claude_transcript(config_dir: Path, session_id: str | None) -> Path | None:
    if not session_id:
        return None
    matches = sorted((config_dir / "projects").glob(f"*/{session_id}.jsonl"))
    return matches[0] if matches else None


# -------------------------------------------------------------------- codex
@dataclass
class CodexRun(_CLIRun):
    """Outcome of :func:`run_codex`.

    ``events`` are the parsed ``codex exec --json`` lines (``thread.started``,
    ``turn.started``, ``item.started``/``item.completed`` with
    ``command_execution`` / ``agent_message`` / ``error`` items, ``turn.completed``).
    ``rollout_path`` is ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<thread_id>.jsonl``.
    """

    codex_home: Path = Path()
    thread_id: str | None = None
    rollout_path: Path | None = None

    def items(self, item_type: str | None = None) -> list[dict[str, Any]]:
        """Completed items, optionally of one type (e.g. ``command_execution``)."""
        found = [e["item"] for e in self.events if e.get("type") == "item.completed"]
        return [i for i in found if item_type is None or i.get("type") == item_type]

    @property
    def final_message(self) -> str | None:
        """Text of the last ``agent_message`` item."""
        messages = self.items("agent_message")
        return messages[-1].get("text") if messages else None

    def rollout(self) -> list[dict[str, Any]]:
        """Parsed rollout JSONL lines (empty when not found)."""
        if self.rollout_path is None or not self.rollout_path.exists():
            return []
        return _parse_jsonl(self.rollout_path.read_text(encoding="utf-8"))


_CODEX_BEGIN = "# >>> e2e_support fake provider >>>"
_CODEX_END = "# <<< e2e_support fake provider <<<"


def write_codex_config(
    codex_home: Path, api_base: str, *, model: str = "gpt-5.5", extra_config: str = ""
) -> Path:
    """Write/refresh the fake-provider block of ``$CODEX_HOME/config.toml``.

    The managed block (top-level ``model``/``model_provider`` and
    ``[model_providers.e2e_fake]`` with ``wire_api = "responses"`` and no
    retries) is put first; any other existing content (``[hooks]``,
    ``[hooks.state...]`` trust entries, ``notify``...) is kept after it, so it
    must not set ``model``/``model_provider`` itself. ``extra_config`` is
    appended once per call at the end (as TOML text).
    """
    codex_home.mkdir(parents=True, exist_ok=True)
    path = codex_home / "config.toml"
    rest = path.read_text(encoding="utf-8") if path.exists() else ""
    rest = re.sub(
        re.escape(_CODEX_BEGIN) + r".*?" + re.escape(_CODEX_END) + r"\n?", "", rest, flags=re.S
    )
    block = "\n".join(
        [
            _CODEX_BEGIN,
            f"model = {json.dumps(model)}",
            'model_provider = "e2e_fake"',
            "[model_providers.e2e_fake]",
            'name = "e2e_fake"',
            f"base_url = {json.dumps(api_base)}",
            'wire_api = "responses"',
            f'env_key = "{_FAKE_KEY_ENV}"',
            "request_max_retries = 0",
            "stream_max_retries = 0",
            _CODEX_END,
            "",
        ]
    )
    # Tables in the block would swallow top-level keys that follow, so keys
    # the caller left at top level must stay before any table: put them first.
    head, tail = _split_toplevel(rest)
    text = head + block + tail
    if extra_config:
        text = text.rstrip("\n") + "\n" + extra_config.strip("\n") + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def _split_toplevel(text: str) -> tuple[str, str]:
    """Split TOML text into (top-level key lines, everything from the first table)."""
    match = re.search(r"^\[", text, flags=re.M)
    if match is None:
        return text, ""
    return text[: match.start()], text[match.start() :]


def run_codex(
    tmp_path: Path,
    prompt: str,
    *,
    base_url: str,
    codex_home: Path,
    cwd: Path,
    extra_env: Mapping[str, str] | None = None,
    extra_args: Sequence[str] = (),
    bypass_hook_trust: bool = False,
    hermetic: bool = True,
    model: str = "gpt-5.5",
    extra_config: str = "",
    timeout: float = 60,
    codex_bin: Path | None = None,
) -> CodexRun:
    """Run ``codex exec --json --skip-git-repo-check -s danger-full-access PROMPT``.

    ``base_url`` is the fake's API base; ``/v1`` is appended when missing (so
    ``FakeOpenAIServer.base_url`` and ``.api_base`` both work). The fake
    provider is written into ``codex_home/config.toml`` (see
    :func:`write_codex_config`). Env: ``HOME=<tmp>/home``, ``CODEX_HOME``,
    ``TMPDIR`` in ``<tmp>``, ``FAKE_OPENAI_KEY``; nothing else is inherited.
    ``bypass_hook_trust`` adds ``--dangerously-bypass-hook-trust``; otherwise
    only hooks trusted in config.toml run (see :func:`trust_codex_hooks`).
    ``hermetic`` adds ``-c analytics.enabled=false --disable plugins``: without
    them Codex 0.171.0 does DNS lookups of api.github.com, chatgpt.com and
    ab.chatgpt.com (they fail offline, harmlessly); pass ``False`` to test plugins.
    ``codex_bin`` defaults to :func:`require_codex` (skips if unavailable).
    """
    binary = codex_bin or require_codex()
    tmp_path = Path(tmp_path).resolve()
    cwd = Path(cwd).resolve()
    codex_home = Path(codex_home).resolve()
    api_base = base_url.rstrip("/")
    if not api_base.endswith("/v1"):
        api_base += "/v1"
    write_codex_config(codex_home, api_base, model=model, extra_config=extra_config)
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = _base_env(tmp_path, home)
    env.update({"CODEX_HOME": str(codex_home), _FAKE_KEY_ENV: "sk-e2e-fake-key"})
    env.update(extra_env or {})
    argv = [str(binary), "exec", "--json", "--skip-git-repo-check", "-s", "danger-full-access"]
    if bypass_hook_trust:
        argv.append("--dangerously-bypass-hook-trust")
    if hermetic:
        argv += ["-c", "analytics.enabled=false", "--disable", "plugins"]
    argv += [*extra_args, prompt]
    proc = _run(argv, cwd=cwd, env=env, timeout=timeout)
    events = _parse_jsonl(proc.stdout)
    thread_id = next(
        (e.get("thread_id") for e in events if e.get("type") == "thread.started"), None
    )
    return CodexRun(
        returncode=proc.returncode,
        stdout=proc.stdout,
        stderr=proc.stderr,
        events=events,
        duration=proc.duration,
        timed_out=proc.timed_out,
        argv=argv,
        env=env,
        codex_home=codex_home,
        thread_id=thread_id,
        rollout_path=_find_codex_rollout(codex_home, thread_id),
    )


def _find_codex_rollout(codex_home: Path, thread_id: str | None) -> Path | None:
    if not thread_id:
        return None
    matches = sorted((codex_home / "sessions").glob(f"*/*/*/rollout-*{thread_id}.jsonl"))
    return matches[-1] if matches else None


# -------------------------------------------------------------- codex trust
def codex_hook_inventory(
    codex_home: Path,
    cwd: Path,
    *,
    codex_bin: Path | None = None,
    extra_env: Mapping[str, str] | None = None,
    timeout: float = 30,
) -> list[dict[str, Any]]:
    """Codex's own view of the configured hooks (``codex app-server`` ``hooks/list``).

    Each entry has ``key`` (``"<source file>:<event_snake>:<group>:<handler>"``),
    ``eventName``, ``command``, ``matcher``, ``currentHash`` (``"sha256:..."``),
    ``trustStatus`` (``"untrusted"``/``"trusted"``/...), ``source``...
    The hash covers the handler definition (event, matcher, command, timeout),
    so any edit to a hook makes it untrusted again. Runs with
    ``HOME=codex_home.parent`` and the same offline switches as :func:`run_codex`.
    """
    binary = codex_bin or require_codex()
    codex_home = Path(codex_home).resolve()
    env = {
        "PATH": _base_env(codex_home.parent, codex_home.parent)["PATH"],
        "HOME": str(codex_home.parent),
        "CODEX_HOME": str(codex_home),
        **dict(extra_env or {}),
    }
    requests = [
        {
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "e2e", "version": "1"}},
        },
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [str(Path(cwd).resolve())]}},
    ]
    proc = subprocess.Popen(
        [str(binary), "-c", "analytics.enabled=false", "--disable", "plugins", "app-server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
        start_new_session=True,
    )
    # A watchdog kills the server if it never answers, which ends the read loop.
    watchdog = threading.Timer(timeout, _killpg, args=(proc,))
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
            proc.stdin.flush()
        for line in proc.stdout:
            reply = _json_or_none(line)
            if reply and reply.get("id") == 2:
                if "error" in reply:
                    raise RuntimeError(f"hooks/list failed: {reply['error']}")
                return [h for entry in reply["result"]["data"] for h in entry.get("hooks", [])]
        raise RuntimeError(
            f"codex app-server exited ({proc.poll()}) or timed out ({timeout}s) "
            "without answering hooks/list"
        )
    finally:
        watchdog.cancel()
        _killpg(proc)
        proc.wait()


def _killpg(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def trust_codex_hooks(
    codex_home: Path, cwd: Path, *, codex_bin: Path | None = None
) -> list[dict[str, Any]]:
    """Mark every untrusted hook as trusted, the way ``/hooks`` persists it.

    Appends ``[hooks.state."<key>"]`` / ``trusted_hash = "<currentHash>"`` to
    ``$CODEX_HOME/config.toml`` and returns the hooks it trusted.
    """
    hooks = codex_hook_inventory(codex_home, cwd, codex_bin=codex_bin)
    pending = [h for h in hooks if h.get("trustStatus") != "trusted" and h.get("currentHash")]
    if pending:
        path = Path(codex_home).resolve() / "config.toml"
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        lines = [
            f"[hooks.state.{json.dumps(h['key'])}]\ntrusted_hash = {json.dumps(h['currentHash'])}\n"
            for h in pending
        ]
        path.write_text(text.rstrip("\n") + "\n\n" + "".join(lines), encoding="utf-8")
    return pending


def _json_or_none(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
