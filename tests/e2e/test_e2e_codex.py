"""End to end with the real Codex CLI (npm `@openai/codex`), offline against local fakes.

One Codex home for the module: `skill-memory codex install --trust` writes the hooks and
records their trust the way `/hooks` does (the hashes come from `codex app-server`), and the
real warm service runs for the memory home Codex's hooks resolve
(`$CODEX_HOME/memories/fireworks-skill-memory`), so ranking is semantic.

1. The scripted model `cat`s the skill's SKILL.md twice: the next request carries the
   relevant lesson as a developer message (once), and never the irrelevant one.
2. The model runs a failing command and then the fix; `flush --session latest --distill`
   (distiller pointed at a fake Messages server) stores the lesson it proposes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.retrieval.usage import injections_log
from fireworks_skill_memory.memory.screen.judge import SCHEMA_NAME as SCREEN_SCHEMA
from tests.conftest import FIXTURES
from tests.e2e_support import codex_hook_inventory, require_codex, run_codex
from tests.fakes.messages_server import FakeMessagesServer, tool_use_reply
from tests.fakes.responses_server import (
    FakeOpenAIServer,
    codex_steps_script,
    function_call_outputs,
    function_calls,
)

pytestmark = [pytest.mark.e2e, pytest.mark.real_model, pytest.mark.slow]

SKILL = "python-imports"
RELEVANT = "PYTHONPATH=lib"
IRRELEVANT = "PyPI refuses to overwrite"
HEADER = f"## Past experience with the `{SKILL}` skill"
SKILL_MD = (
    "---\nname: python-imports\ndescription: Fix Python ImportError / ModuleNotFoundError "
    "problems in this project.\n---\n\n# Python imports\n\n1. Reproduce the failing import "
    'with `python3 -c "import <module>"`.\n2. Make the fix, then import again.\n'
)
PROMPT = (
    "Use the python-imports skill: python3 -c 'import nosuchmod' fails with "
    "ModuleNotFoundError even though nosuchmod.py is in our lib folder. Make the import work."
)
FAILING = 'python3 -c "import nosuchmodule_xyz"'
FIXING = (
    "mkdir -p lib && printf 'VALUE = 42\\n' > lib/nosuchmodule_xyz.py && "
    'PYTHONPATH=lib python3 -c "import nosuchmodule_xyz; print(nosuchmodule_xyz.VALUE)"'
)
NEW_LESSON = (
    "A module created as lib/<name>.py imports only with lib on the path; check it with "
    '`PYTHONPATH=lib python3 -c "import <name>"` before editing anything else.'
)
SKILL_MEMORY = str(Path(sys.executable).parent / "skill-memory")
CLEARED = ("AI_MEMORY_", "SKILL_MEMORY_", "SKILLS_", "CODEX_HOME", "ANTHROPIC_", "OPENAI_")
READY_TIMEOUT = 180.0


@dataclass(frozen=True)
class CodexSetup:
    """The module's Codex home, project, memory home and environment."""

    root: Path
    codex_bin: Path
    codex_home: Path
    project: Path
    skill_md: Path
    memory_home: Path
    env: dict[str, str]  # for skill-memory commands (same memory home as the hooks)

    def skill_memory(
        self, *args: str, env: Mapping[str, str] | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [SKILL_MEMORY, *args],
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"skill-memory {args} exited {done.returncode}: {done.stderr}")
        return done

    def codex(self, tmp: Path, prompt: str, api_base: str) -> Any:
        return run_codex(
            tmp,
            prompt,
            base_url=api_base,
            codex_home=self.codex_home,
            cwd=self.project,
            codex_bin=self.codex_bin,
            extra_env={
                # Wait for the warm service instead of the 150 ms budget: the machine running
                # the tests may be loaded, and this test is about the semantic path.
                "SKILL_MEMORY_HOOK_BUDGET_MS": "20000",
                "SKILLS_DISTILLER_BACKEND": "null",  # the Stop hook's detached distiller
                "HF_HUB_OFFLINE": "1",
            },
            timeout=180,
        )


def clean_environ(root: Path, codex_home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(CLEARED)}
    node = shutil.which("node")
    path = env.get("PATH", "/usr/local/bin:/usr/bin:/bin")
    if node:
        path = f"{os.path.dirname(node)}:{path}"
    return {
        **env,
        "PATH": path,
        "HOME": str(root / "home"),
        "CODEX_HOME": str(codex_home),
        "SKILLS_DISTILLER_BACKEND": "null",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CodexSetup]:
    codex_bin = require_codex()
    root = tmp_path_factory.mktemp("e2e-codex")
    codex_home = root / "home" / ".codex"
    codex_home.mkdir(parents=True)
    project = root / "proj"
    skill_md = project / ".codex" / "skills" / SKILL / "SKILL.md"
    skill_md.parent.mkdir(parents=True)
    skill_md.write_text(SKILL_MD, encoding="utf-8")
    env = clean_environ(root, codex_home)
    memory_home = Path(load_settings(env).home)
    assert memory_home == codex_home / "memories" / "fireworks-skill-memory"
    shutil.copytree(FIXTURES / "codex_store" / "skills", memory_home / "skills")
    ctx = CodexSetup(root, codex_bin, codex_home, project, skill_md, memory_home, env)
    started = time.monotonic()
    installed = json.loads(
        ctx.skill_memory(
            "codex", "install", "--codex-home", str(codex_home), "--trust",
            "--codex-bin", str(codex_bin), "--json",
        ).stdout
    )  # fmt: skip
    assert len(installed["trusted"]) == 4
    print(f"\n[e2e] codex install --trust: {time.monotonic() - started:.1f}s")
    service = start_service(ctx)
    try:
        yield ctx
    finally:
        stop_service(ctx, service)


def start_service(ctx: CodexSetup) -> subprocess.Popen[bytes]:
    started = time.monotonic()
    log = open(ctx.root / "service.log", "ab")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "fireworks_skill_memory.cli.service_main"],
        env=ctx.env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    log.close()
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        done = ctx.skill_memory("service", "status", "--json", check=False)
        if done.returncode == 0 and json.loads(done.stdout).get("ready"):
            print(f"[e2e] service ready: {time.monotonic() - started:.1f}s")
            return proc
        if proc.poll() is not None:
            break
        time.sleep(0.5)
    proc.kill()
    raise AssertionError(f"service not ready: {(ctx.root / 'service.log').read_text()[-2000:]}")


def stop_service(ctx: CodexSetup, proc: subprocess.Popen[bytes]) -> None:
    ctx.skill_memory("service", "stop", check=False)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def responses_bodies(server: FakeOpenAIServer) -> list[dict[str, Any]]:
    return [r.body for r in server.requests if r.path.endswith("/responses")]


def developer_texts(body: Mapping[str, Any]) -> list[str]:
    texts = []
    for item in body.get("input", []):
        if item.get("type") == "message" and item.get("role") == "developer":
            texts += [part.get("text", "") for part in item.get("content", [])]
    return texts


def test_codex_hooks_are_trusted_without_the_bypass_flag(setup: CodexSetup) -> None:
    hooks = codex_hook_inventory(setup.codex_home, setup.project, codex_bin=setup.codex_bin)
    ours = [h for h in hooks if "# fireworks-skill-memory" in h["command"]]
    assert sorted(h["eventName"] for h in ours) == sorted(
        ["sessionStart", "userPromptSubmit", "postToolUse", "stop"]
    )
    assert {h["trustStatus"] for h in ours} == {"trusted"}
    status = json.loads(
        setup.skill_memory("codex", "status", "--codex-bin", str(setup.codex_bin), "--json").stdout
    )
    assert status["trusted"] is True and status["agents_block"] is True
    assert status["service"]["running"] is True


def test_skill_md_read_injects_the_relevant_lesson_into_the_next_request(
    setup: CodexSetup,
) -> None:
    read = f"cat {setup.skill_md}"
    with FakeOpenAIServer(codex_steps_script([read, read], "Import fixed.")) as server:
        run = setup.codex(setup.root / "run-inject", PROMPT, server.api_base)
        print(f"[e2e] codex exec (2 SKILL.md reads): {run.duration:.1f}s")
        run.check()
        bodies = responses_bodies(server)
    assert not any(item.get("type") == "error" for item in run.items())  # no bypass warnings
    first_input = json.dumps(bodies[0]["input"])
    assert "## Skill memory (fireworks-skill-memory)" in first_input  # $CODEX_HOME/AGENTS.md
    assert f"{SKILL_MEMORY} inject --skill <name> --task" in first_input
    after_read = next(b for b in bodies if len(function_calls(b)) == 1)
    assert SKILL_MD.splitlines()[1] in function_call_outputs(after_read)[0]["output"]
    injected = [text for text in developer_texts(after_read) if text.startswith(HEADER)]
    assert len(injected) == 1, developer_texts(after_read)
    assert RELEVANT in injected[0]
    assert all(IRRELEVANT not in json.dumps(body) for body in bodies)
    final = bodies[-1]
    assert len(function_calls(final)) == 2
    assert sum(text.startswith(HEADER) for text in developer_texts(final)) == 1  # once
    log = Path(injections_log(load_settings(setup.env))).read_text(encoding="utf-8")
    sources = [json.loads(line)["by"] for line in log.splitlines()]
    assert sources == ["PostToolUse:SKILL.md"]  # ranked by the warm service, not the fallback


def test_failure_then_fix_is_distilled_by_flush_session_latest(setup: CodexSetup) -> None:
    steps = [f"cat {setup.skill_md}", FAILING, FIXING]
    prompt = "Use the python-imports skill to make `import nosuchmodule_xyz` work."
    with FakeOpenAIServer(codex_steps_script(steps, "Fixed with PYTHONPATH=lib.")) as server:
        run = setup.codex(setup.root / "run-distill", prompt, server.api_base)
        print(f"[e2e] codex exec (fail, fix): {run.duration:.1f}s")
        run.check()
    codes = [item.get("exit_code") for item in run.items("command_execution")]
    assert codes == [0, 1, 0]
    lesson = {"skill": SKILL, "tag": "Local modules", "text": NEW_LESSON, "evidence": "E1"}

    def distiller(body: dict[str, Any], index: int) -> Any:
        name = (body.get("tool_choice") or {}).get("name")
        if name == "record_lessons":
            return tool_use_reply(name, {"lessons": [lesson], "global": []})
        if name == SCREEN_SCHEMA:  # the screen's judge sees every lesson that asks for an action
            return tool_use_reply(name, {"verdicts": [{"index": 0, "poisoned": False}]})
        return tool_use_reply(name or "same_lesson", {"same": False, "reason": "different"})

    started = time.monotonic()
    with FakeMessagesServer(distiller) as messages:
        done = setup.skill_memory(
            "flush", "--skill", SKILL, "--session", "latest", "--distill", "--json",
            env={
                "SKILLS_DISTILLER_BACKEND": "anthropic",
                "ANTHROPIC_API_KEY": "sk-ant-test",
                "ANTHROPIC_BASE_URL": messages.base_url,
            },
        )  # fmt: skip
        requests = [r.body for r in messages.requests if r.path.startswith("/v1/messages")]
    print(f"[e2e] flush --session latest --distill: {time.monotonic() - started:.1f}s")
    result = json.loads(done.stdout)
    assert result["status"] == "stored"
    assert [(s["action"], s["lesson"]["text"]) for s in result["stored"]] == [("added", NEW_LESSON)]
    asked = json.dumps(requests[0]["messages"])
    assert "nosuchmodule_xyz" in asked and "ModuleNotFoundError" in asked  # this rollout
    knowledge = (setup.memory_home / "skills" / SKILL / "KNOWLEDGE.md").read_text("utf-8")
    assert NEW_LESSON in knowledge
