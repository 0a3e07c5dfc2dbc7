"""The Codex integration: installer, uninstaller, status, and Codex payloads through the shims."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.codex import install as codex_install
from fireworks_skill_memory.codex.install import (
    BLOCK_BEGIN,
    BLOCK_END,
    EVENTS,
    STATE_DIR,
    install,
    our_commands,
    status,
    uninstall,
)
from fireworks_skill_memory.codex.trust import parse_toml, remove_trust, set_trust, trust_state
from fireworks_skill_memory.hooks.hook_table import MARKER, SHIM_DIR
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import InvalidInput
from tests.conftest import FIXTURES, CliInvoker

CODEX_HOOKS = FIXTURES / "sessions" / "codex_hooks.jsonl"
CODEX_STORE = FIXTURES / "codex_store"
SKILL = "python-imports"
RELEVANT = "PYTHONPATH=lib"
IRRELEVANT = "PyPI refuses to overwrite"
DESCRIPTIVE_PROMPT = (
    "Use the python-imports skill: python3 -c 'import nosuchmod' fails with "
    "ModuleNotFoundError even though nosuchmod.py is in our lib folder. Make the import work."
)
# Compact, unusual formatting: a rewrite would not reproduce these bytes by accident.
FOREIGN_HOOKS = (
    b'{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command",'
    b'"command":"/usr/local/bin/audit.sh"}]}],\n "PreToolUse":[{"matcher":"*","hooks":'
    b'[{"type":"command","command":"echo pre"}]}]},"x-note":"kept"}'
)
FOREIGN_AGENTS = b"# House rules\n\nAlways run the tests before committing.\n"


@pytest.fixture
def codex_home(tmp_path: Path) -> Path:
    home = tmp_path / "codex-home"
    home.mkdir()
    return home


def hooks_data(home: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((home / "hooks.json").read_text(encoding="utf-8"))
    return data


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative path -> bytes)."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


# ----------------------------------------------------------------------------- install


def test_install_twice_leaves_one_copy_of_each_hook_and_one_block(
    cli: CliInvoker, codex_home: Path
) -> None:
    first = cli("codex", "install", "--codex-home", str(codex_home))
    assert first.exit_code == 0, first.output
    assert "/hooks" in first.output  # tells the user how to trust them
    after_first = snapshot(codex_home)
    second = cli("codex", "install", "--codex-home", str(codex_home), "--json")
    assert second.exit_code == 0, second.output
    report = json.loads(second.output)
    assert [f["action"] for f in report["files"]] == ["unchanged", "unchanged", "unchanged"]
    assert report["backups"] == []
    assert snapshot(codex_home) == after_first
    found = our_commands(hooks_data(codex_home))
    assert sorted(found) == sorted(EVENTS)
    assert all(len(commands) == 1 for commands in found.values())
    agents = (codex_home / "AGENTS.md").read_text(encoding="utf-8")
    assert agents.count(BLOCK_BEGIN) == agents.count(BLOCK_END) == 1


def test_concurrent_installs_leave_one_copy(codex_home: Path) -> None:
    (codex_home / "hooks.json").write_bytes(FOREIGN_HOOKS)
    code = (
        "import sys; from fireworks_skill_memory.codex.install import install; "
        f"install({str(codex_home)!r}, python=sys.argv[1])"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, f"/venv{n}/bin/python"]) for n in range(4)
    ]
    assert [proc.wait(timeout=60) for proc in procs] == [0, 0, 0, 0]
    found = our_commands(hooks_data(codex_home))
    assert sorted(found) == sorted(EVENTS)
    assert all(len(commands) == 1 for commands in found.values())
    agents = (codex_home / "AGENTS.md").read_text(encoding="utf-8")
    assert agents.count(BLOCK_BEGIN) == 1
    uninstall(str(codex_home))
    assert (codex_home / "hooks.json").read_bytes() == FOREIGN_HOOKS
    assert not (codex_home / "AGENTS.md").exists()


def test_hook_commands_use_this_interpreter_and_the_shared_shims(codex_home: Path) -> None:
    install(str(codex_home))
    table = hooks_data(codex_home)["hooks"]
    shims = Path(SHIM_DIR)
    for event, groups in table.items():
        (group,) = groups
        (handler,) = group["hooks"]
        assert handler["type"] == "command"
        assert handler["command"].endswith(MARKER)
        assert handler["command"].startswith(sys.executable + " ")
        flag, shim = handler["command"].split()[1:3]
        assert flag == "-E"  # PYTHONPATH cannot shadow the shims' imports
        assert Path(shim).is_file() and Path(shim).parent == shims
        assert group.get("matcher") == ("*" if event == "PostToolUse" else None)


def test_agents_block_names_the_absolute_skill_memory_script(codex_home: Path) -> None:
    report = install(str(codex_home))
    block = (codex_home / "AGENTS.md").read_text(encoding="utf-8")
    script = report.agents_command
    assert os.path.isabs(script) and os.access(script, os.X_OK)
    for call in ("inject --skill <name> --task", "checkpoint --skill <name> --note"):
        assert f"{script} {call}" in block
    assert f"{script} flush --skill <name> --session latest --distill" in block
    assert len(block) < 1500  # short: it is in every Codex prompt


@pytest.mark.parametrize("agents", [FOREIGN_AGENTS, FOREIGN_AGENTS.rstrip(b"\n"), b""])
def test_uninstall_restores_foreign_files_byte_for_byte(
    cli: CliInvoker, codex_home: Path, agents: bytes
) -> None:
    (codex_home / "hooks.json").write_bytes(FOREIGN_HOOKS)
    (codex_home / "AGENTS.md").write_bytes(agents)
    before = snapshot(codex_home)
    assert cli("codex", "install", "--codex-home", str(codex_home)).exit_code == 0
    data = hooks_data(codex_home)
    assert data["x-note"] == "kept"
    assert data["hooks"]["PostToolUse"][0]["hooks"][0]["command"] == "/usr/local/bin/audit.sh"
    assert data["hooks"]["PreToolUse"] == json.loads(FOREIGN_HOOKS)["hooks"]["PreToolUse"]
    assert (codex_home / "AGENTS.md").read_bytes().startswith(agents.rstrip(b"\n"))
    backups = list((codex_home / STATE_DIR / "backups").iterdir())
    assert sorted(p.read_bytes() for p in backups) == sorted([FOREIGN_HOOKS, agents])
    assert cli("codex", "install", "--codex-home", str(codex_home)).exit_code == 0
    result = cli("codex", "uninstall", "--codex-home", str(codex_home))
    assert result.exit_code == 0, result.output
    after = snapshot(codex_home)
    assert {k: v for k, v in after.items() if not k.startswith(STATE_DIR)} == before
    assert not (codex_home / STATE_DIR / "install.json").exists()


def test_uninstall_deletes_files_that_did_not_exist(cli: CliInvoker, codex_home: Path) -> None:
    assert cli("codex", "install", "--codex-home", str(codex_home)).exit_code == 0
    assert (codex_home / "hooks.json").exists() and (codex_home / "AGENTS.md").exists()
    result = cli("codex", "uninstall", "--codex-home", str(codex_home), "--json")
    assert result.exit_code == 0, result.output
    files = json.loads(result.output)["files"]
    assert [f["action"] for f in files] == ["delete", "delete", "delete"]  # and config.toml
    assert list(codex_home.iterdir()) == []


def test_dry_run_writes_nothing(cli: CliInvoker, codex_home: Path) -> None:
    result = cli("codex", "install", "--codex-home", str(codex_home), "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    files = json.loads(result.output)["files"]
    assert [f["action"] for f in files] == ["create", "create", "create"]  # and config.toml
    assert list(codex_home.iterdir()) == []
    (codex_home / "hooks.json").write_bytes(FOREIGN_HOOKS)
    before = snapshot(codex_home)
    assert cli("codex", "install", "--codex-home", str(codex_home), "--dry-run").exit_code == 0
    assert snapshot(codex_home) == before
    assert cli("codex", "install", "--codex-home", str(codex_home)).exit_code == 0
    installed = snapshot(codex_home)
    out = cli("codex", "uninstall", "--codex-home", str(codex_home), "--dry-run")
    assert out.exit_code == 0 and "would update" in out.output and "would delete" in out.output
    assert snapshot(codex_home) == installed


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"hooks": {"Stop": [', "is not valid JSON"),
        (b'{"hooks": []}', '"hooks" is not an object'),
        (b'{"hooks": {"Stop": {"command": "x"}}}', '"hooks.Stop" is not a list'),
        (b"[1, 2]", "expected a JSON object"),
    ],
)
def test_malformed_hooks_json_is_a_one_line_error_and_left_untouched(
    cli: CliInvoker, codex_home: Path, content: bytes, message: str
) -> None:
    (codex_home / "hooks.json").write_bytes(content)
    for command in ("install", "uninstall"):
        result = cli("codex", command, "--codex-home", str(codex_home))
        assert result.exit_code == 1
        assert message in result.output
        assert len(result.output.strip().splitlines()) == 1
        assert snapshot(codex_home) == {"hooks.json": content}


def test_reinstall_updates_our_entry_in_place(codex_home: Path) -> None:
    install(str(codex_home), python="/old/venv/bin/python")
    data = hooks_data(codex_home)
    foreign = {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo later"}]}
    data["hooks"]["PostToolUse"].append(foreign)
    (codex_home / "hooks.json").write_text(json.dumps(data), encoding="utf-8")
    report = install(str(codex_home))
    assert report.changes[0].action == "update"
    groups = hooks_data(codex_home)["hooks"]["PostToolUse"]
    assert groups[1] == foreign  # positions (and so Codex trust keys) stay put
    assert groups[0]["hooks"][0]["command"].startswith(sys.executable + " ")
    assert all(len(v) == 1 for v in our_commands(hooks_data(codex_home)).values())
    assert len(report.backups) == 1  # the file held a foreign hook: backed up before the change


def test_our_handler_inside_a_foreign_group_keeps_its_trust_position(codex_home: Path) -> None:
    foreign = {"type": "command", "command": "notify-send done"}
    old = {"type": "command", "command": f"/old/python /old/stop.py {MARKER}", "timeout": 10}
    stray = {"type": "command", "command": f"/old/python -E /old/stop.py {MARKER}"}
    data = {"hooks": {"Stop": [{"hooks": [foreign, old, stray]}]}}
    (codex_home / "hooks.json").write_text(json.dumps(data), encoding="utf-8")
    install(str(codex_home))
    (stop,) = [spec for spec in codex_install.HOOK_SPECS if spec.event == "Stop"]
    (group,) = hooks_data(codex_home)["hooks"]["Stop"]
    assert group["hooks"] == [
        foreign,
        {"type": "command", "command": codex_install.hook_command(stop), "timeout": 10},
    ]  # still `stop:0:1`, the key Codex trusts it by


def test_reinstall_replaces_an_outdated_block(codex_home: Path) -> None:
    block, extra = f"{BLOCK_BEGIN}\nold advice\n{BLOCK_END}", f"{BLOCK_BEGIN}\nx\n{BLOCK_END}"
    old = f"intro\n\n{block}\n\noutro\n{extra}\n"
    (codex_home / "AGENTS.md").write_text(old, encoding="utf-8")
    install(str(codex_home))
    text = (codex_home / "AGENTS.md").read_text(encoding="utf-8")
    assert text.count(BLOCK_BEGIN) == 1 and "old advice" not in text
    assert text.startswith("intro\n\n" + BLOCK_BEGIN) and text.rstrip().endswith("outro")


def test_uninstall_keeps_edits_made_after_install(codex_home: Path) -> None:
    (codex_home / "hooks.json").write_bytes(FOREIGN_HOOKS)
    install(str(codex_home))
    data = hooks_data(codex_home)
    data["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "notify-send done"}]})
    (codex_home / "hooks.json").write_text(json.dumps(data, indent=4), encoding="utf-8")
    with (codex_home / "AGENTS.md").open("a", encoding="utf-8") as handle:
        handle.write("\nMy own rule.\n")
    report = uninstall(str(codex_home))
    assert [change.action for change in report.changes] == ["update", "update"]
    left = hooks_data(codex_home)
    assert our_commands(left) == {}
    assert left["hooks"]["Stop"] == [
        {"hooks": [{"type": "command", "command": "notify-send done"}]}
    ]
    assert left["hooks"]["PostToolUse"] == json.loads(FOREIGN_HOOKS)["hooks"]["PostToolUse"]
    assert (codex_home / "AGENTS.md").read_text(encoding="utf-8").strip() == "My own rule."
    assert len(report.backups) == 2


def test_uninstall_without_the_state_file_still_removes_our_parts(codex_home: Path) -> None:
    (codex_home / "AGENTS.md").write_bytes(FOREIGN_AGENTS)
    install(str(codex_home))
    shutil.rmtree(codex_home / STATE_DIR)
    uninstall(str(codex_home))
    assert not (codex_home / "hooks.json").exists()
    assert (codex_home / "AGENTS.md").read_bytes() == FOREIGN_AGENTS


def test_codex_home_defaults_to_env_then_dot_codex(tmp_path: Path) -> None:
    assert codex_install.default_codex_home({"CODEX_HOME": str(tmp_path / "c")}) == str(
        tmp_path / "c"
    )
    assert codex_install.default_codex_home({"HOME": str(tmp_path)}) == str(tmp_path / ".codex")


def test_codex_home_that_is_a_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(InvalidInput, match="not a directory"):
        install(str(target))


# ----------------------------------------------------------------------------- trust


def fake_inventory(codex_home: Path) -> list[dict[str, Any]]:
    """What `codex app-server` hooks/list reports, with a stand-in hash of each handler."""
    path = str(codex_home / "hooks.json")
    hooks = []
    for event, groups in hooks_data(codex_home)["hooks"].items():
        snake = "".join("_" + c.lower() if c.isupper() else c for c in event).lstrip("_")
        for g, group in enumerate(groups):
            for h, handler in enumerate(group["hooks"]):
                spec = json.dumps([event, group.get("matcher"), handler], sort_keys=True)
                hooks.append(
                    {
                        "key": f"{path}:{snake}:{g}:{h}",
                        "eventName": event[0].lower() + event[1:],
                        "command": handler["command"],
                        "currentHash": "sha256:" + hashlib.sha256(spec.encode()).hexdigest(),
                        "trustStatus": "untrusted",
                        "sourcePath": path,
                    }
                )
    return hooks


@pytest.fixture
def fake_codex(monkeypatch: pytest.MonkeyPatch, codex_home: Path) -> None:
    monkeypatch.setattr(
        "fireworks_skill_memory.codex.trust.find_codex", lambda explicit=None: "/fake/codex"
    )

    def inventory(codex_bin: str, home: str, timeout: float = 30.0) -> list[dict[str, Any]]:
        return fake_inventory(Path(home))

    monkeypatch.setattr("fireworks_skill_memory.codex.trust.hook_inventory", inventory)


def test_trust_records_our_hashes_and_uninstall_restores_config(
    codex_home: Path, fake_codex: None
) -> None:
    config = b'model = "gpt-5.5"\n\n[model_providers.x]\nname = "x"\n'
    (codex_home / "config.toml").write_bytes(config)
    (codex_home / "hooks.json").write_bytes(FOREIGN_HOOKS)
    report = install(str(codex_home), trust=True)
    assert report.trusted is not None and len(report.trusted) == len(EVENTS)
    state = trust_state(parse_toml((codex_home / "config.toml").read_text(), "config.toml"))
    inventory = fake_inventory(codex_home)
    ours = {h["key"]: h["currentHash"] for h in inventory if MARKER in h["command"]}
    assert {key: table["trusted_hash"] for key, table in state.items()} == ours  # not foreign ones
    again = snapshot(codex_home)
    install(str(codex_home), trust=True)
    assert snapshot(codex_home) == again
    uninstall(str(codex_home))
    assert (codex_home / "config.toml").read_bytes() == config
    assert (codex_home / "hooks.json").read_bytes() == FOREIGN_HOOKS


def test_trust_into_a_missing_config_is_removed_with_it(codex_home: Path, fake_codex: None) -> None:
    install(str(codex_home), trust=True)
    assert (codex_home / "config.toml").exists()
    uninstall(str(codex_home))
    assert list(codex_home.iterdir()) == []


def test_set_trust_replaces_a_stale_hash_and_keeps_the_rest() -> None:
    text = '# mine\n[hooks.state."/h.json:stop:0:0"]\ntrusted_hash = "sha256:old"\nenabled = true\n'
    updated = set_trust(text, {"/h.json:stop:0:0": "sha256:new"}, "config.toml")
    assert updated == text.replace("sha256:old", "sha256:new")
    assert remove_trust(updated, {"/h.json:stop:0:0": "sha256:new"}) == updated  # edited: kept
    added = set_trust("", {"/h.json:stop:0:0": "sha256:a"}, "config.toml")
    assert remove_trust(added, {"/h.json:stop:0:0": "sha256:a"}) == ""


def test_set_trust_refuses_a_form_it_does_not_edit() -> None:
    inline = '[hooks.state]\n"/h.json:stop:0:0" = { trusted_hash = "sha256:old" }\n'
    with pytest.raises(InvalidInput, match="/hooks"):
        set_trust(inline, {"/h.json:stop:0:0": "sha256:new"}, "config.toml")
    with pytest.raises(InvalidInput, match="not valid TOML"):
        set_trust("[broken", {"k": "v"}, "config.toml")


# ----------------------------------------------------------------------------- status


def test_status_reports_hooks_block_trust_and_service(cli: CliInvoker, codex_home: Path) -> None:
    missing = cli("codex", "status", "--codex-home", str(codex_home), "--json")
    assert missing.exit_code == 0, missing.output
    assert json.loads(missing.output)["hooks_installed"] is False
    install(str(codex_home))
    result = cli(
        "codex", "status", "--codex-home", str(codex_home), "--codex-bin", "/nonexistent/codex",
        "--json",
    )  # fmt: skip
    report = json.loads(result.output)
    assert report["hooks_installed"] and report["hooks_current"] and report["agents_block"]
    assert report["trusted"] is None and "/nonexistent/codex" in report["trust_error"]
    assert {hook["trust"] for hook in report["hooks"]} == {"unknown"}
    assert report["service"]["running"] is False
    text = cli("codex", "status", "--codex-home", str(codex_home), "--codex-bin", "/nonexistent")
    assert "AGENTS.md block: present" in text.output and "service: not running" in text.output


def test_status_flags_hooks_of_another_installation(codex_home: Path, fake_codex: None) -> None:
    install(str(codex_home), python="/old/venv/bin/python")
    report = status(str(codex_home))
    assert all(hook.installed and not hook.current for hook in report.hooks)
    assert {hook.trust for hook in report.hooks} == {"untrusted"} and report.trusted is False


# ----------------------------------------------------------------------------- hooks in Codex


def seed_store(settings: Settings) -> None:
    shutil.copytree(CODEX_STORE / "skills", settings.skills_dir)
    # A fresh spawn stamp: the hooks then rank in-process instead of starting a service.
    os.makedirs(settings.run_dir, exist_ok=True)
    Path(settings.run_dir, "spawn.stamp").write_text("test")


def recorded_codex_payloads() -> list[tuple[str, dict[str, Any]]]:
    records = [json.loads(line) for line in CODEX_HOOKS.read_text(encoding="utf-8").splitlines()]
    return [(r["event"], r["stdin"]) for r in records if r["event"] in EVENTS]


def run_hook(command: str, payload: Mapping[str, Any], env: Mapping[str, str]) -> str:
    """Run an installed hook command the way Codex does: through a shell, payload on stdin."""
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**env, "SKILL_MEMORY_DISTILLER_CHILD": "1"},  # Stop: no detached distiller
        timeout=60,
        check=True,
    )
    assert done.stderr == ""
    return done.stdout


def test_recorded_codex_session_injects_once_per_session(
    codex_home: Path, settings: Settings, env: dict[str, str]
) -> None:
    seed_store(settings)
    install(str(codex_home))
    commands = {event: found[0] for event, found in our_commands(hooks_data(codex_home)).items()}
    outputs = []
    skill_reads = []
    for event, payload in recorded_codex_payloads():
        if event == "UserPromptSubmit":  # the recorded prompt is too terse to match any lesson
            payload = {**payload, "prompt": DESCRIPTIVE_PROMPT}
        out = run_hook(commands[event], payload, env)
        outputs.append((event, payload.get("tool_input", {}).get("command", ""), out))
        if "SKILL.md" in str(payload.get("tool_input")):
            skill_reads.append(payload)
    printed = [(event, command, out) for event, command, out in outputs if out]
    assert len(printed) == 1
    event, command, out = printed[0]
    assert event == "PostToolUse" and command.startswith("cat ") and "SKILL.md" in command
    reply = json.loads(out)
    assert set(reply) == {"hookSpecificOutput"}
    assert reply["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    context = reply["hookSpecificOutput"]["additionalContext"]
    assert context.startswith(f"## Past experience with the `{SKILL}` skill")
    assert RELEVANT in context and IRRELEVANT not in context
    # A second read of the same SKILL.md in the same session injects nothing more ...
    assert run_hook(commands["PostToolUse"], skill_reads[0], env) == ""
    # ... while another session gets the lessons again.
    other = {**skill_reads[0], "session_id": "01a228c7-0000-7000-8000-000000000001"}
    assert RELEVANT in run_hook(commands["PostToolUse"], other, env)


def test_recorded_codex_session_keeps_the_error_seed(
    codex_home: Path, settings: Settings, env: dict[str, str]
) -> None:
    seed_store(settings)
    install(str(codex_home))
    commands = {event: found[0] for event, found in our_commands(hooks_data(codex_home)).items()}
    session = ""
    for event, payload in recorded_codex_payloads():
        run_hook(commands[event], payload, env)
        session = payload["session_id"]
    seeds = Path(settings.sessions_dir, session, "seeds.jsonl").read_text(encoding="utf-8")
    assert "ModuleNotFoundError: No module named 'nosuchmod'" in seeds
    prompts = Path(settings.sessions_dir, session, "prompts.jsonl").read_text(encoding="utf-8")
    assert "python-imports skill" in prompts


@pytest.mark.parametrize(
    ("command", "cwd"),
    [
        ("cat /repo/.codex/skills/python-imports/SKILL.md", "/repo"),
        ("sed -n '1,120p' .codex/skills/python-imports/SKILL.md", "/repo"),
        ("cat /home/u/.codex/skills/python-imports/SKILL.md", "/tmp"),
        ("head -n 50 ~/.agents/skills/python-imports/SKILL.md", "/repo"),
        ("cd .agents/skills/python-imports && cat SKILL.md", "/repo"),
        ("/bin/bash -lc 'cat /repo/.agents/skills/python-imports/SKILL.md'", "/repo"),
    ],
)
def test_codex_skill_roots_are_recognised(command: str, cwd: str) -> None:
    from fireworks_skill_memory.hooks.post_tool_use import skills_read

    assert skills_read("Bash", {"command": command}, cwd) == [SKILL]


# ----------------------------------------------------------------------------- explicit flow


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("task", "expected"),
    [
        (
            "python says there is no module named helpers although helpers.py sits right there "
            "in my lib folder",
            "PYTHONPATH=lib",
        ),
        (
            "two of my modules import each other and now python can't import a name from one "
            "of them",
            "circular import",
        ),
        (
            "executing a file from inside my package directly complains that the relative "
            "import has no parent package",
            "python -m package.module",
        ),
    ],
)
def test_inject_paraphrased_task_puts_that_lesson_first(
    cli_real: CliInvoker, settings: Settings, task: str, expected: str
) -> None:
    seed_store(settings)
    data = json.loads(cli_real("inject", "--skill", SKILL, "--task", task, "--json").output)
    assert data["ranker"] == "semantic"
    assert expected in data["lessons"][0]["text"]
    assert all(IRRELEVANT not in lesson["text"] for lesson in data["lessons"])
    pasted = cli_real("inject", "--skill", SKILL, "--task", task).output
    assert pasted.startswith(f"## Past experience with the `{SKILL}` skill")
    assert pasted.splitlines()[3].endswith(data["lessons"][0]["text"])
