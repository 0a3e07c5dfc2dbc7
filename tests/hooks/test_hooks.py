"""Every hook driven with real recorded payloads: in-process (service down) and through the service.

In-process tests call each hook module's `main(stdin, stdout)` with the payloads Claude Code
2.1.197 and Codex 0.171.0 really sent (tests/fixtures/hooks/) and compare the exact stdout.
No service runs for them, so each hook takes its in-process path (lexical ranking); spawning
the service and the distill worker is recorded instead of done.

The `slow` tests start the real service (`python -m cli.service_main`, the real model) and
run the hook commands exactly as `skill-memory hooks install` writes them.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.hooks import install as installer
from fireworks_skill_memory.hooks import (
    post_tool_use,
    post_tool_use_failure,
    pre_tool_use,
    session_start,
    stop,
    user_prompt_expansion,
    user_prompt_submit,
)
from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.hook_support import (
    block,
    claude_sample,
    cli,
    context_json,
    injections,
    run_command,
    run_main,
    running_service,
    service_env,
    service_status,
    session_payload,
    start_service,
    stop_process,
    wait_ready,
    wait_until,
)
from tests.secret_corpus import CASES

DEMO = [
    (
        "Build cache",
        "Copy the dependency manifest before the source tree so the docker build cache survives",
    ),
    ("Tests", "Run pytest with -x to stop at the first failing test"),
    ("Release", "Tag the release only after the changelog is merged"),
]
IMPORTS = [
    ("PYTHONPATH", "When an import fails for a local module, check the folder layout first"),
    ("Packaging", "Editable installs need a pyproject.toml with a build backend"),
    (
        "Imports",
        "To make a failing import work, put the module's folder on PYTHONPATH and re-run"
        " python -c 'import <module>'",
    ),
]


# ---- fixtures ---------------------------------------------------------------------------
class Spawns:
    """Calls that would have started a process, recorded instead."""

    def __init__(self) -> None:
        self.services: list[tuple[str, str]] = []
        self.workers: list[tuple[str, str, str | None]] = []


@pytest.fixture
def spawns(monkeypatch: pytest.MonkeyPatch) -> Spawns:
    """Record service and distill-worker spawns instead of starting processes."""
    record = Spawns()

    def start_detached(home: str, module: str, python: str | None = None, **_: object) -> int:
        record.services.append((home, module))
        return 4242

    monkeypatch.setattr(
        "fireworks_skill_memory.memory.service.client.start_detached", start_detached
    )
    try:
        import fireworks_skill_memory.memory.distill.spawn  # noqa: F401 - written by the distillation work
    except ImportError:
        return record

    def spawn_worker(
        settings: Settings, transcript: str, session_id: str, agent: str | None, **_: Any
    ) -> int:
        record.workers.append((transcript, session_id, agent))
        return 4243

    monkeypatch.setattr("fireworks_skill_memory.memory.distill.spawn.spawn_worker", spawn_worker)
    return record


@pytest.fixture
def lessons(settings: Settings, spawns: Spawns) -> dict[str, list[str]]:
    """Three lessons for `demo` and three for `python-imports`; their ids by skill."""
    store = Store(settings)
    ids: dict[str, list[str]] = {}
    for skill, entries in (("demo", DEMO), ("python-imports", IMPORTS)):
        for tag, text in entries:
            ids.setdefault(skill, []).append(
                add_lesson(store, skill, text, tag, matcher=None).lesson.id
            )
    return ids


def bullet(lesson_id: str, tag: str, text: str) -> str:
    """The injected line of a lesson; its `<` and `>` are shown as `‹` and `›` (quoted data)."""
    return f"- ({lesson_id}) [{tag}] {text}".replace("<", "\u2039").replace(">", "\u203a")


def demo_bullets(ids: list[str], which: list[int]) -> list[str]:
    return [bullet(ids[i], *DEMO[i]) for i in which]


def session_dir(settings: Settings, session_id: str) -> Path:
    return Path(settings.sessions_dir) / session_id


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def without_time(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in record.items() if k != "t"} for record in records]


def skill_md(root: Path, skill: str) -> str:
    path = root / "proj" / ".claude" / "skills" / skill / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {skill}\ndescription: test skill\n---\nBody.\n", encoding="utf-8")
    return str(path)


# ---- PreToolUse -------------------------------------------------------------------------
def test_pre_tool_use_skill_injects_the_framed_block(
    tmp_path: Path, lessons: dict[str, list[str]], settings: Settings
) -> None:
    payload = claude_sample("PreToolUse(Skill)", tmp_path)
    code, out = run_main(pre_tool_use, payload)
    text = block("demo", demo_bullets(lessons["demo"], [0, 1, 2]), ranked=False)
    assert (code, out) == (0, context_json("PreToolUse", text))
    assert injections(Path(settings.home))[-1]["by"] == "PreToolUse:Skill:fallback"
    assert (session_dir(settings, payload["session_id"]) / "injected" / "demo").exists()


def test_pre_tool_use_other_tools_and_unknown_skills_print_nothing(
    tmp_path: Path, lessons: dict[str, list[str]]
) -> None:
    bash = session_payload("claude", tmp_path, "PreToolUse", 1)
    assert bash["tool_name"] == "Bash"
    assert run_main(pre_tool_use, bash) == (0, "")
    unknown = claude_sample("PreToolUse(Skill)", tmp_path)
    unknown["tool_input"] = {"skill": "no-lessons-here"}
    assert run_main(pre_tool_use, unknown) == (0, "")


def test_user_prompt_submit_records_the_task_used_by_pre_tool_use(
    tmp_path: Path, lessons: dict[str, list[str]], settings: Settings
) -> None:
    secret = CASES[0]
    prompt = claude_sample("UserPromptSubmit", tmp_path)
    prompt["prompt"] = f"why does the docker build cache miss every time? key {secret.text}"
    assert run_main(user_prompt_submit, prompt) == (0, "")
    recorded = jsonl(session_dir(settings, prompt["session_id"]) / "prompts.jsonl")
    assert without_time(recorded) == [{"prompt": redact(prompt["prompt"])}]
    assert secret.core not in json.dumps(recorded)

    code, out = run_main(pre_tool_use, claude_sample("PreToolUse(Skill)", tmp_path))
    text = block("demo", demo_bullets(lessons["demo"], [0]), ranked=True)
    assert (code, out) == (0, context_json("PreToolUse", text))


def test_user_prompt_submit_ignores_empty_prompts(tmp_path: Path, settings: Settings) -> None:
    prompt = claude_sample("UserPromptSubmit", tmp_path)
    prompt["prompt"] = "   "
    assert run_main(user_prompt_submit, prompt) == (0, "")
    assert not (session_dir(settings, prompt["session_id"]) / "prompts.jsonl").exists()


# ---- PostToolUse: SKILL.md reads --------------------------------------------------------
def test_reading_a_project_skill_md_injects_once(
    tmp_path: Path, lessons: dict[str, list[str]], settings: Settings
) -> None:
    read = claude_sample("PostToolUse(Read)", tmp_path)
    read["tool_input"] = {"file_path": skill_md(tmp_path, "demo")}
    read["tool_response"]["file"]["filePath"] = read["tool_input"]["file_path"]
    code, out = run_main(post_tool_use, read)
    text = block("demo", demo_bullets(lessons["demo"], [0, 1, 2]), ranked=False)
    assert (code, out) == (0, context_json("PostToolUse", text))
    assert injections(Path(settings.home))[-1]["by"] == "PostToolUse:SKILL.md:fallback"
    assert run_main(post_tool_use, read) == (0, "")


def test_skill_md_read_after_the_skill_tool_does_not_repeat(
    tmp_path: Path, lessons: dict[str, list[str]]
) -> None:
    assert run_main(pre_tool_use, claude_sample("PreToolUse(Skill)", tmp_path))[1]
    read = claude_sample("PostToolUse(Read)", tmp_path)
    read["tool_input"] = {"file_path": skill_md(tmp_path, "demo")}
    assert run_main(post_tool_use, read) == (0, "")


def test_ordinary_tool_calls_print_nothing_and_write_nothing(
    tmp_path: Path, lessons: dict[str, list[str]], settings: Settings
) -> None:
    # (PostToolUse(Skill) marks the skill active for failure injection: test_failure_hooks)
    for payload in (
        claude_sample("PostToolUse(Read)", tmp_path),
        session_payload("claude", tmp_path, "PostToolUse", 1),  # Bash that printed 42
        session_payload("codex", tmp_path, "PostToolUse", 2),  # the fixing command
    ):
        assert run_main(post_tool_use, payload) == (0, "")
    assert not Path(settings.sessions_dir).exists()


def test_codex_shell_read_of_skill_md_injects_for_the_prompt(
    tmp_path: Path, lessons: dict[str, list[str]], settings: Settings
) -> None:
    prompt = session_payload("codex", tmp_path, "UserPromptSubmit")
    assert run_main(user_prompt_submit, prompt) == (0, "")
    cat = session_payload("codex", tmp_path, "PostToolUse", 0)
    assert cat["tool_name"] == "Bash" and cat["tool_input"]["command"].startswith("cat ")
    code, out = run_main(post_tool_use, cat)
    text = block("python-imports", [bullet(lessons["python-imports"][2], *IMPORTS[2])], ranked=True)
    assert (code, out) == (0, context_json("PostToolUse", text))
    assert run_main(post_tool_use, cat) == (0, "")


# ---- error seeds ------------------------------------------------------------------------
def test_failing_codex_bash_output_becomes_a_seed(
    tmp_path: Path, lessons: dict[str, list[str]], settings: Settings
) -> None:
    failing = session_payload("codex", tmp_path, "PostToolUse", 1)
    assert run_main(post_tool_use, failing) == (0, "")
    seeds = jsonl(session_dir(settings, failing["session_id"]) / "seeds.jsonl")
    assert without_time(seeds) == [{"tool": "Bash", "text": failing["tool_response"].strip()}]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_secrets_in_failing_bash_output_are_redacted_in_seeds(
    tmp_path: Path, settings: Settings, spawns: Spawns, case: Any
) -> None:
    failing = session_payload("codex", tmp_path, "PostToolUse", 1)
    failing["tool_response"] = (
        f"Traceback (most recent call last):\nRuntimeError: deploy failed with {case.text}\n"
    )
    assert run_main(post_tool_use, failing) == (0, "")
    seeds = jsonl(session_dir(settings, failing["session_id"]) / "seeds.jsonl")
    assert len(seeds) == 1 and seeds[0]["tool"] == "Bash"
    assert case.core not in seeds[0]["text"]
    assert "[REDACTED:" in seeds[0]["text"]


def test_post_tool_use_failure_records_command_and_error(
    tmp_path: Path, settings: Settings, spawns: Spawns
) -> None:
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    assert run_main(post_tool_use_failure, failure) == (0, "")
    seeds = jsonl(session_dir(settings, failure["session_id"]) / "seeds.jsonl")
    expected = f"{failure['tool_input']['command']}\n{failure['error']}"
    assert without_time(seeds) == [{"tool": "Bash", "text": expected}]


def test_post_tool_use_failure_redacts_and_skips_interrupts(
    tmp_path: Path, settings: Settings, spawns: Spawns
) -> None:
    failure = session_payload("claude", tmp_path, "PostToolUseFailure")
    secrets = [case for case in CASES if len(case.text) < 200][:10]
    failure["error"] = "Exit code 1\n" + "\n".join(f"token {case.text}" for case in secrets)
    assert run_main(post_tool_use_failure, failure) == (0, "")
    interrupted = {**failure, "session_id": "interrupted", "is_interrupt": True}
    assert run_main(post_tool_use_failure, interrupted) == (0, "")
    text = jsonl(session_dir(settings, failure["session_id"]) / "seeds.jsonl")[0]["text"]
    assert not [case.name for case in secrets if case.core in text]
    assert not session_dir(settings, "interrupted").exists()


# ---- UserPromptExpansion ----------------------------------------------------------------
def test_user_prompt_expansion_injects_for_the_command(
    tmp_path: Path, lessons: dict[str, list[str]], settings: Settings
) -> None:
    expansion = claude_sample("UserPromptExpansion(/demo args)", tmp_path)
    expansion["command_args"] = "fix the docker build cache"
    expansion["prompt"] = "/demo fix the docker build cache"
    code, out = run_main(user_prompt_expansion, expansion)
    text = block("demo", demo_bullets(lessons["demo"], [0]), ranked=True)
    assert (code, out) == (0, context_json("UserPromptExpansion", text))
    submit = {**claude_sample("UserPromptSubmit", tmp_path), "prompt": expansion["prompt"]}
    submit["session_id"] = expansion["session_id"]
    assert run_main(user_prompt_submit, submit) == (0, "")
    prompts = jsonl(session_dir(settings, expansion["session_id"]) / "prompts.jsonl")
    assert [p["prompt"] for p in prompts] == [expansion["prompt"]]
    read = {**claude_sample("PostToolUse(Read)", tmp_path), "session_id": expansion["session_id"]}
    read["tool_input"] = {"file_path": skill_md(tmp_path, "demo")}
    assert run_main(post_tool_use, read) == (0, "")


# ---- SessionStart, Stop, SessionEnd -----------------------------------------------------
def test_session_start_starts_the_service_and_prints_nothing(
    tmp_path: Path, settings: Settings, spawns: Spawns
) -> None:
    payload = claude_sample("SessionStart", tmp_path)
    assert run_main(session_start, payload) == (0, "")
    assert spawns.services == [(settings.home, "fireworks_skill_memory.cli.service_main")]
    assert run_main(session_start, payload) == (0, "")  # started moments ago: not again
    assert len(spawns.services) == 1


def _require_distill_spawn() -> None:
    try:
        import fireworks_skill_memory.memory.distill.spawn  # noqa: F401
    except ImportError:
        pytest.skip("memory.distill.spawn (the distillation teammate's module) is missing")


def test_stop_and_session_end_hand_the_session_to_the_distiller(
    tmp_path: Path, settings: Settings, spawns: Spawns
) -> None:
    _require_distill_spawn()
    stop_payload = claude_sample("Stop", tmp_path)
    end = claude_sample("SessionEnd", tmp_path)
    assert run_main(stop, stop_payload) == (0, "")
    assert run_main(stop, stop_payload) == (0, "")  # within the cooldown
    assert run_main(stop, {**stop_payload, "stop_hook_active": True}) == (0, "")
    assert run_main(stop, end) == (0, "")
    expected = (stop_payload["transcript_path"], stop_payload["session_id"], "claude")
    assert spawns.workers == [expected, expected]


def test_codex_stop_is_handed_over_as_codex(
    tmp_path: Path, settings: Settings, spawns: Spawns
) -> None:
    _require_distill_spawn()
    payload = session_payload("codex", tmp_path, "Stop")
    assert run_main(stop, payload) == (0, "")
    assert spawns.workers == [(payload["transcript_path"], payload["session_id"], "codex")]


def test_dispatch_runs_the_named_hook(
    tmp_path: Path, lessons: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from fireworks_skill_memory.hooks import dispatch

    raw = json.dumps(claude_sample("PreToolUse(Skill)", tmp_path)).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert dispatch.main(["PreToolUse"]) == 0
    assert json.loads(out.getvalue())["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    assert dispatch.main(["NoSuchEvent"]) == 0


def test_installed_shim_without_service_prints_what_main_prints(
    tmp_path: Path, lessons: dict[str, list[str]], env: dict[str, str], settings: Settings
) -> None:
    """The installed command as a subprocess, service down: the in-process answer, exactly."""
    command = installer.hook_command(installer.HOOKS[0])
    payload = claude_sample("PreToolUse(Skill)", tmp_path)
    stamp = Path(settings.run_dir) / "spawn.stamp"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text("test: no service spawn")  # inside the spawn cooldown
    done = run_command(command, payload, env, tmp_path)
    text = block("demo", demo_bullets(lessons["demo"], [0, 1, 2]), ranked=False)
    assert (done.returncode, done.stdout.decode(), done.stderr) == (
        0,
        context_json("PreToolUse", text),
        b"",
    )


# ---- through the real service -----------------------------------------------------------
DEPLOY = [
    ("Migrations", "Run the database migrations before switching traffic to the new release"),
    ("Images", "Pin the base image digest so a rollback rebuilds exactly the same image"),
    ("Secrets", "Rotate the deploy token when a team member leaves the project"),
    ("DNS", "Lower the DNS TTL a day before moving the service to a new load balancer"),
    ("Logging", "Keep request logs for thirty days so incidents can be traced afterwards"),
    ("Lunch", "The office cafeteria serves vegetarian lasagna on Fridays"),
]
RELEVANT, IRRELEVANT = DEPLOY[0][1], DEPLOY[5][1]


class Warm:
    """A running service for a home with the `deploy-checks` lessons."""

    def __init__(self, root: Path, env: dict[str, str], process: subprocess.Popen[bytes]) -> None:
        self.root = root
        self.env = env
        self.process = process
        self.home = Path(env["AI_MEMORY_HOME"])
        settings_file = root / "settings.json"
        installer.install(str(settings_file), home=str(self.home))
        data = json.loads(settings_file.read_text())
        self.commands = {
            event: groups[0]["hooks"][0]["command"] for event, groups in data["hooks"].items()
        }

    def hook(self, event: str, payload: dict[str, Any], **env: str) -> str:
        done = run_command(self.commands[event], payload, {**self.env, **env}, self.root)
        assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
        return done.stdout.decode()


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    """One real service (real model) for the module; ready before the first test."""
    root = tmp_path_factory.mktemp("warm")
    env = service_env(root / "memory", root / "user", SKILL_MEMORY_HOOK_BUDGET_MS="30000")
    (root / "user").mkdir()
    store = Store(load_settings(env))
    for tag, text in DEPLOY:
        add_lesson(store, "deploy-checks", text, tag, matcher=None)
    process = start_service(env)
    try:
        wait_ready(env, process)
        yield Warm(root, env, process)
    finally:
        cli(env, "service", "stop", "--timeout", "20")
        stop_process(process)


def deploy_payloads(root: Path, session: str, prompt: str) -> tuple[dict[str, Any], ...]:
    submit = {**claude_sample("UserPromptSubmit", root), "session_id": session, "prompt": prompt}
    pre = claude_sample("PreToolUse(Skill)", root)
    pre.update(session_id=session, tool_input={"skill": "deploy-checks"})
    return submit, pre


@pytest.mark.slow
@pytest.mark.real_model
def test_installed_hook_gets_the_semantic_injection_from_the_service(warm: Warm) -> None:
    prompt = "Deploy release 2.4 to production: the database schema changed"
    submit, pre = deploy_payloads(warm.root, "semantic-1", prompt)
    assert warm.hook("UserPromptSubmit", submit) == ""
    out = warm.hook("PreToolUse", pre)
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert RELEVANT in context and IRRELEVANT not in context
    assert "ranked for the current task" in context
    assert injections(warm.home)[-1]["by"] == "PreToolUse:Skill"  # not ":fallback"


@pytest.mark.slow
@pytest.mark.real_model
def test_service_status_socket_and_run_dir_permissions(warm: Warm) -> None:
    code, report = service_status(warm.env)
    assert code == 0 and report["ready"] is True and report["pid"] == warm.process.pid
    run_dir = warm.home / "run"
    assert stat.S_IMODE(os.stat(run_dir).st_mode) == 0o700
    sock = run_dir / "service.sock"
    assert stat.S_ISSOCK(os.stat(sock).st_mode)
    assert stat.S_IMODE(os.stat(sock).st_mode) == 0o600


@pytest.mark.slow
@pytest.mark.real_model
def test_a_second_service_for_the_same_home_exits_at_once(warm: Warm) -> None:
    started = time.monotonic()
    second = start_service(warm.env)
    try:
        assert second.wait(timeout=60) == 0
    finally:
        stop_process(second)
    assert time.monotonic() - started < 30
    assert service_status(warm.env)[1]["pid"] == warm.process.pid


@pytest.mark.slow
@pytest.mark.real_model
def test_a_frame_of_another_version_gets_err_version(warm: Warm) -> None:
    payload = json.dumps(claude_sample("PreToolUse(Skill)", warm.root)).encode()
    frame = f"HOOK 0.0.0/0 PreToolUse {len(payload)} 1000\n".encode() + payload
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(warm.home / "run" / "service.sock"))
        sock.sendall(frame)
        assert sock.recv(100) == b"ERR version\n"


@pytest.mark.slow
@pytest.mark.real_model
def test_markdown_edited_by_another_process_is_picked_up(warm: Warm) -> None:
    lesson = "Drain the websocket connections before restarting the gateway pods"
    path = warm.home / "skills" / "deploy-checks" / "KNOWLEDGE.md"
    line = f"- [2026-11] [Gateway] {lesson}  [HIT:1]\n"
    script = "import sys; open(sys.argv[1], 'a', encoding='utf-8').write(sys.argv[2])"
    subprocess.run([sys.executable, "-c", script, str(path), line], check=True)
    prompt = "Restart the gateway pods without dropping the websocket clients"
    submit, pre = deploy_payloads(warm.root, "edited-1", prompt)
    assert warm.hook("UserPromptSubmit", submit) == ""
    context = json.loads(warm.hook("PreToolUse", pre))["hookSpecificOutput"]["additionalContext"]
    assert lesson in context
    assert injections(warm.home)[-1]["by"] == "PreToolUse:Skill"


@pytest.mark.slow
def test_a_stale_version_is_retired_and_the_hook_falls_back(
    tmp_path: Path,
    lessons: dict[str, list[str]],
    env: dict[str, str],
    settings: Settings,
    spawns: Spawns,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A service of another version answers `ERR version`: the hook retires it, ranks itself."""
    child_env = service_env(Path(settings.home), tmp_path / "user")
    with running_service(child_env, ready=False) as process:
        monkeypatch.setattr("fireworks_skill_memory.memory.service.protocol.VERSION", "0.0.0/0")
        code, out = run_main(pre_tool_use, claude_sample("PreToolUse(Skill)", tmp_path))
        text = block("demo", demo_bullets(lessons["demo"], [0, 1, 2]), ranked=False)
        assert (code, out) == (0, context_json("PreToolUse", text))
        assert injections(Path(settings.home))[-1]["by"] == "PreToolUse:Skill:fallback"
        assert process.wait(timeout=30) == 0  # retired by the hook's STOP


@pytest.mark.slow
def test_service_stop_then_status_exits_3(tmp_path: Path) -> None:
    env = service_env(tmp_path / "memory", tmp_path)
    with running_service(env, ready=False) as process:
        assert service_status(env)[0] in (0, 4)  # ready, or still loading
        stopped = cli(env, "service", "stop", "--json")
        assert stopped.returncode == 0 and json.loads(stopped.stdout)["stopped"] is True
        assert process.wait(timeout=30) == 0
        assert service_status(env)[0] == 3


@pytest.mark.slow
def test_idle_service_exits_by_itself(tmp_path: Path) -> None:
    env = service_env(tmp_path / "memory", tmp_path, SKILL_MEMORY_SERVICE_IDLE="2")
    sock = tmp_path / "memory" / "run" / "service.sock"
    started = time.monotonic()
    process = start_service(env)
    try:
        wait_until(sock.exists, 60, "socket bound", process)  # no request: it stays idle
        assert process.wait(timeout=60) == 0
    finally:
        stop_process(process)
    assert time.monotonic() - started < 60
    assert not sock.exists()
    assert service_status(env)[0] == 3
