"""End to end with the real `claude` CLI: a failed Bash call gets the lesson that explains it.

A memory home holds `build-tools` lessons; the real service (real model) runs for it. The
scripted model loads the skill, then runs a Bash command that fails; the request after the
failure must carry the failure block with the lesson that explains the error, and a failure
no lesson explains must carry nothing. Skipped, with the reason, when npm or the package is
missing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval.failure import FAILURE_HEADING
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.e2e_support import require_claude, run_claude
from tests.fakes.messages_server import FakeMessagesServer, tool_steps_script, tool_uses
from tests.hook_support import cli, injections, service_env, start_service, stop_process, wait_ready

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.real_model]

SKILL = "build-tools"
LESSONS = [
    (
        "Disk",
        "npm ERR! ENOSPC: no space left on device during a build means the disk is full:"
        " prune old docker images and build caches (docker system prune) before retrying",
    ),
    ("Caching", "Copy the lock file before the sources so the dependency layer stays cached"),
    ("Releases", "Tag a release only after the changelog entry is merged"),
    ("Lint", "Run the formatter before the linter so style fixes do not hide real warnings"),
]
EXPLAINS = LESSONS[0][1]
PROMPT = "Use build-tools to build the project"
# the scripts the agent runs (their output is what the hook sees, not the command line)
SCRIPTS = {
    "build.sh": "echo 'npm ERR! code ENOSPC' >&2\n"
    "echo 'npm ERR! ENOSPC: no space left on device, write' >&2\nexit 1\n",
    "crash.sh": "echo 'Segmentation fault in libfoo at frame 3' >&2\nexit 139\n",
}
FAILING, UNEXPLAINED = "sh build.sh", "sh crash.sh"
BUDGET_MS = "5000"  # a shared, loaded machine: this test is about the path, not latency


@pytest.fixture(scope="module")
def claude() -> Path:
    return require_claude()


@pytest.fixture(scope="module")
def home(claude: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Lessons, the warm service, and a project holding `.claude/skills/build-tools`."""
    root = tmp_path_factory.mktemp("e2e-failure")
    (root / "user").mkdir()
    env = service_env(root / "memory", root / "user")
    store = Store(load_settings(env))
    for tag, text in LESSONS:
        add_lesson(store, SKILL, text, tag, matcher=None)
    project = root / "proj"
    skill_md = project / ".claude" / "skills" / SKILL / "SKILL.md"
    skill_md.parent.mkdir(parents=True)
    skill_md.write_text(
        f"---\nname: {SKILL}\ndescription: Building and packaging the project\n---\n"
        "# Build tools\n\nBuild with npm.\n",
        encoding="utf-8",
    )
    for name, body in SCRIPTS.items():
        (project / name).write_text(body, encoding="utf-8")
    process = start_service(env)
    try:
        wait_ready(env, process)
        yield {"env": env, "project": project, "home": root / "memory"}
    finally:
        cli(env, "service", "stop", "--timeout", "20")
        stop_process(process)


def _install(env: dict[str, str], settings: Path) -> None:
    script = Path(sys.executable).with_name("skill-memory")
    done = subprocess.run(
        [str(script), "hooks", "install", "--settings", str(settings)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _run(home: dict[str, Any], claude: Path, tmp_path: Path, command: str) -> list[Any]:
    settings = tmp_path / "settings.json"
    _install(home["env"], settings)
    steps = [("Skill", {"skill": SKILL}), ("Bash", {"command": command, "description": "build"})]
    with FakeMessagesServer(tool_steps_script(steps, "Built.")) as server:
        run = run_claude(
            tmp_path,
            PROMPT,
            base_url=server.base_url,
            cwd=home["project"],
            extra_args=["--settings", str(settings)],
            extra_env={
                "AI_MEMORY_HOME": str(home["home"]),
                "SKILL_MEMORY_HOOK_BUDGET_MS": BUDGET_MS,
                "SKILLS_DISTILLER_BACKEND": "null",
                "HF_HUB_OFFLINE": "1",
            },
            permission_mode="bypassPermissions",
            claude_bin=claude,
        )
        bodies = server.bodies()
    run.check()
    return bodies


def _after_bash(bodies: list[Any]) -> str:
    for body in bodies:
        if "Bash" in [use.get("name") for use in tool_uses(body)]:
            return json.dumps(body["messages"], ensure_ascii=False)
    raise AssertionError("no request after the Bash call")


def test_a_failure_a_lesson_explains_carries_that_lesson(
    home: dict[str, Any], claude: Path, tmp_path: Path
) -> None:
    after = _after_bash(_run(home, claude, tmp_path, FAILING))
    assert FAILURE_HEADING in after
    failure_block = after[after.index(FAILURE_HEADING) :]
    assert EXPLAINS in failure_block
    assert not any(text in failure_block for _, text in LESSONS[1:])
    assert any(i["by"] == "PostToolUseFailure" for i in injections(home["home"]))


def test_a_failure_no_lesson_explains_carries_nothing(
    home: dict[str, Any], claude: Path, tmp_path: Path
) -> None:
    before = len(injections(home["home"]))
    after = _after_bash(_run(home, claude, tmp_path, UNEXPLAINED))
    assert FAILURE_HEADING not in after
    new = injections(home["home"])[before:]
    assert not [i for i in new if i["by"] in ("PostToolUseFailure", "PostToolUse")]
