"""End to end with the real `claude` CLI (npm, offline) and the real service.

A memory home holds six `deploy-checks` lessons on different topics; the real service
(real model) is started for it first, so ranking is semantic. The hooks are installed with
`skill-memory hooks install` in a subprocess (the venv's interpreter) and handed to the CLI.
A fake Messages API scripts the model; the tests look for the lessons in the requests the
CLI sends after the hooks ran. Skipped, with the reason, when npm or the package is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.retrieval.usage import injected_in_session
from fireworks_skill_memory.memory.store.ledger import read_ledger
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.conftest import REPO
from tests.e2e_support import (
    IRRELEVANT,
    LESSONS,
    RELEVANT,
    SKILL,
    ClaudeRun,
    require_claude,
    run_claude,
)
from tests.fakes.messages_server import (
    FakeMessagesServer,
    claude_skill_script,
    forced_tool_script,
    record_lessons_reply,
    tool_steps_script,
    tool_uses,
)
from tests.hook_support import (
    cli,
    injections,
    service_env,
    start_service,
    stop_process,
    wait_ready,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.real_model]

PROMPT = "Use deploy-checks: deploy release 2.4, the database schema changed"
HEADER = f"Past experience with the `{SKILL}` skill"
# The machine running the suite is shared and loaded; the default 150 ms budget is about
# production latency, this test is about the path, so it waits longer for the service.
BUDGET_MS = "5000"


class Setup:
    """The memory home, its running service and a project with the skill."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root = root
        self.env = env
        self.home = Path(env["AI_MEMORY_HOME"])
        self.project = root / "proj"
        self.skill_md = self.project / ".claude" / "skills" / SKILL / "SKILL.md"

    def hook_env(self, **extra: str) -> dict[str, str]:
        """What the CLI passes on to the hooks besides its own variables."""
        return {
            "AI_MEMORY_HOME": str(self.home),
            "SKILL_MEMORY_HOOK_BUDGET_MS": BUDGET_MS,
            "SKILLS_DISTILLER_BACKEND": "null",
            "HF_HUB_OFFLINE": "1",
            **extra,
        }


@pytest.fixture(scope="module")
def claude() -> Path:
    return require_claude()


@pytest.fixture(scope="module")
def setup(claude: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    """Lessons, the warm service, and a project holding `.claude/skills/deploy-checks`."""
    root = tmp_path_factory.mktemp("e2e-claude")
    (root / "user").mkdir()
    env = service_env(root / "memory", root / "user")
    store = Store(load_settings(env))
    for tag, text in LESSONS:
        add_lesson(store, SKILL, text, tag, matcher=None)
    done = Setup(root, env)
    done.skill_md.parent.mkdir(parents=True)
    done.skill_md.write_text(
        f"---\nname: {SKILL}\ndescription: Checks to run before deploying a release\n---\n"
        "# Deploy checks\n\nWalk through the checklist before every release.\n",
        encoding="utf-8",
    )
    process = start_service(env)
    try:
        wait_ready(env, process)
        yield done
    finally:
        cli(env, "service", "stop", "--timeout", "20")
        stop_process(process)


def install_hooks(setup: Setup, *args: str, **env: str) -> None:
    """`skill-memory hooks install ARGS` through the venv's console script."""
    script = Path(sys.executable).with_name("skill-memory")
    argv = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-m", "fireworks_skill_memory.cli.main"]
    )
    import subprocess

    done = subprocess.run(
        [*argv, "hooks", "install", *args],
        env={**setup.env, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("installed 8 hooks in "), done.stdout


def messages_text(body: dict[str, Any]) -> str:
    return json.dumps(body["messages"], ensure_ascii=False)


def first_request_after(bodies: list[dict[str, Any]], tool: str) -> dict[str, Any]:
    """The first request whose history holds a call of `tool` (what the hooks fed)."""
    for body in bodies:
        if tool in [use.get("name") for use in tool_uses(body)]:
            return body
    raise AssertionError(f"no request after a {tool} call")


def report(name: str, run: ClaudeRun) -> None:
    hooks = [e for e in run.hook_events() if e.get("subtype") == "hook_response"]
    print(f"\n{name}: claude ran {run.duration:.2f} s, {len(hooks)} hook responses")


def test_skill_call_injects_the_relevant_lesson_only(
    setup: Setup, claude: Path, tmp_path: Path
) -> None:
    settings = tmp_path / "settings.json"
    install_hooks(setup, "--settings", str(settings))
    with FakeMessagesServer(claude_skill_script(SKILL)) as server:
        run = run_claude(
            tmp_path,
            PROMPT,
            base_url=server.base_url,
            cwd=setup.project,
            extra_args=["--settings", str(settings)],
            extra_env=setup.hook_env(),
            claude_bin=claude,
        )
        bodies = server.bodies()
    run.check()
    report("Skill", run)
    after = messages_text(first_request_after(bodies, "Skill"))
    assert HEADER in after and RELEVANT in after
    assert not [body for body in bodies if IRRELEVANT in messages_text(body)]
    assert [i["by"] for i in injections(setup.home) if i["skill"] == SKILL][-1] == (
        "PreToolUse:Skill"
    )


def test_reading_the_skill_md_injects_once_with_user_scope_hooks(
    setup: Setup, claude: Path, tmp_path: Path
) -> None:
    config_dir = tmp_path / "home" / ".claude"  # run_claude's CLAUDE_CONFIG_DIR
    install_hooks(setup, "--scope", "user", CLAUDE_CONFIG_DIR=str(config_dir))
    assert (config_dir / "settings.json").exists()
    read = ("Read", {"file_path": str(setup.skill_md)})
    with FakeMessagesServer(tool_steps_script([read, read], "Checked.")) as server:
        run = run_claude(
            tmp_path,
            PROMPT,
            base_url=server.base_url,
            cwd=setup.project,
            extra_env=setup.hook_env(),
            claude_bin=claude,
        )
        bodies = server.bodies()
    run.check()
    report("Read SKILL.md", run)
    final = messages_text(bodies[-1])
    assert len(tool_uses(bodies[-1])) == 2
    assert final.count(HEADER) == 1 and RELEVANT in final and IRRELEVANT not in final
    assert HEADER in messages_text(first_request_after(bodies, "Read"))


def test_plugin_dir_loads_the_hooks(setup: Setup, claude: Path, tmp_path: Path) -> None:
    """`claude --plugin-dir <repo>` with the venv's `skill-memory-hook` on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    console = Path(sys.executable).with_name("skill-memory-hook")
    if not console.exists():
        pytest.skip("the skill-memory-hook console script is not installed in this venv")
    (bin_dir / "skill-memory-hook").symlink_to(console)
    node = shutil.which("node")
    path = ":".join(
        p for p in (str(bin_dir), os.path.dirname(node) if node else "", "/usr/bin:/bin") if p
    )
    with FakeMessagesServer(claude_skill_script(SKILL)) as server:
        run = run_claude(
            tmp_path,
            PROMPT,
            base_url=server.base_url,
            cwd=setup.project,
            plugin_dir=REPO,
            extra_env=setup.hook_env(PATH=path),
            claude_bin=claude,
        )
        bodies = server.bodies()
    run.check()
    report("plugin", run)
    init = next(e for e in run.events if e.get("subtype") == "init")
    assert "fireworks-skill-memory" in json.dumps(init.get("plugins"))
    commands = {e.get("command") for e in run.hook_events() if e.get("command")}
    hooks = run.hook_events()
    assert any("PreToolUse" in str(e.get("hook_name")) for e in hooks), commands
    after = messages_text(first_request_after(bodies, "Skill"))
    assert HEADER in after and RELEVANT in after and IRRELEVANT not in after


FEEDBACK_SKILL = "db-migrations"
FEEDBACK_TASK = "add a plan column to the users table and run the database migration"
DRY_RUN = "Run the database migration with --dry-run first to review the SQL it will execute"
NOT_NULL = "Add a new column to the users table as NOT NULL without a default value"
DISTILL_WAIT = 240.0  # the detached worker, on a shared and loaded machine


def wait_for_distillation(setup: Setup, session_id: str) -> dict[str, Any]:
    """The distill log's `stored` record of the session, once the detached worker wrote it."""
    log = Path(load_settings(setup.env).distill_log)
    deadline = time.monotonic() + DISTILL_WAIT
    records: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
        records = [r for r in map(json.loads, lines) if r.get("session") == session_id]
        stored = [r for r in records if r.get("status") == "stored"]
        if stored:
            return stored[0]
        time.sleep(0.5)
    out = setup.home / "logs" / "distill.out"
    raise AssertionError(
        f"no stored distillation of {session_id}: {records}\n"
        + (out.read_text(encoding="utf-8")[-3000:] if out.exists() else "")
    )


def test_distillation_rates_the_injected_lessons(
    setup: Setup, claude: Path, tmp_path: Path
) -> None:
    """The session's Stop hook hands it to the real worker, whose distiller (the fake
    Messages server) rates the lessons the Skill call injected: `helped` adds a HIT,
    `wrong` leaves the lesson disputed with the evidence, listed by `review --json`."""
    settings = load_settings(setup.env)
    store = Store(settings)
    helped = add_lesson(store, FEEDBACK_SKILL, DRY_RUN, "Dry run", matcher=None).lesson
    wrong = add_lesson(store, FEEDBACK_SKILL, NOT_NULL, "Columns", matcher=None).lesson
    skill_md = setup.project / ".claude" / "skills" / FEEDBACK_SKILL / "SKILL.md"
    skill_md.parent.mkdir(parents=True, exist_ok=True)
    skill_md.write_text(
        f"---\nname: {FEEDBACK_SKILL}\ndescription: Database schema migrations\n---\n"
        "# Migrations\n\nWrite and run schema migrations.\n",
        encoding="utf-8",
    )
    hooks = tmp_path / "settings.json"
    install_hooks(setup, "--settings", str(hooks))
    evidence = 'E1: the migration failed: column "plan" of relation "users" contains null values'
    ratings = [
        {"id": helped.id, "rating": "helped", "evidence": "the dry run showed the SQL first"},
        {"id": wrong.id, "rating": "wrong", "evidence": evidence},
        {"id": "0123456789", "rating": "wrong", "evidence": "an id the model made up"},
    ]
    agent = claude_skill_script(FEEDBACK_SKILL, args=FEEDBACK_TASK)
    script = forced_tool_script({"record_lessons": record_lessons_reply(ratings=ratings)}, agent)
    distiller = {"SKILLS_DISTILLER_BACKEND": "anthropic", "MIN_TOOL_CALLS": "1"}
    with FakeMessagesServer(script) as server:
        run = run_claude(
            tmp_path,
            f"Use {FEEDBACK_SKILL}: {FEEDBACK_TASK}",
            base_url=server.base_url,
            cwd=setup.project,
            extra_args=["--settings", str(hooks)],
            extra_env=setup.hook_env(**distiller),
            claude_bin=claude,
        )
        run.check()
        assert run.session_id is not None
        record = wait_for_distillation(setup, run.session_id)
        bodies = server.bodies()
    report("feedback", run)
    injected = injected_in_session(settings, run.session_id)
    assert {(FEEDBACK_SKILL, helped.id), (FEEDBACK_SKILL, wrong.id)} <= set(injected)
    asked = [b for b in bodies if (b.get("tool_choice") or {}).get("name") == "record_lessons"]
    assert asked and f"id={wrong.id}" in messages_text(asked[0])
    assert [(r["id"], r["rating"], r["applied"]) for r in record["ratings"]] == [
        (helped.id, "helped", True),
        (wrong.id, "wrong", True),
    ]
    shown = json.loads(cli(setup.env, "show", "--skill", FEEDBACK_SKILL, "--json").stdout)
    hits = {lesson["id"]: lesson["hits"] for lesson in shown["lessons"]}
    assert hits == {helped.id: 2, wrong.id: 1}
    review = json.loads(cli(setup.env, "review", "--json").stdout)
    (item,) = [i for i in review["items"] if i["skill"] == FEEDBACK_SKILL]
    assert (item["id"], item["status"]) == (wrong.id, "disputed")
    assert [d["note"] for d in item["disputes"]] == [evidence]
    ledger = read_ledger(settings, FEEDBACK_SKILL).get(wrong.id)
    assert ledger is not None and [d.source for d in ledger.disputes] == ["distill"]
