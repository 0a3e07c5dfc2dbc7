"""`skill-memory hooks install|uninstall|status` and the plugin layout."""

from __future__ import annotations

import json
import os
import shlex
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.codex import install as codex_install
from fireworks_skill_memory.hooks import hook_table
from fireworks_skill_memory.hooks import install as installer
from fireworks_skill_memory.hooks.dispatch import MODULES
from fireworks_skill_memory.hooks.hook_table import MARKER
from fireworks_skill_memory.memory import __version__
from tests.conftest import REPO, CliInvoker

FOREIGN_PRE = {
    "matcher": "Bash",
    "hooks": [{"type": "command", "command": "/usr/local/bin/audit-bash", "timeout": 3}],
}
FOREIGN_STOP = {"hooks": [{"type": "command", "command": "notify-send done"}]}
ORIGINAL: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "permissions": {"allow": ["Bash(git status)"], "deny": []},
    "hooks": {
        "PreToolUse": [FOREIGN_PRE],
        "Notification": [{"matcher": "", "hooks": [{"type": "command", "command": "bell"}]}],
        "Stop": [FOREIGN_STOP],
    },
    "env": {"FOO": "bär"},
}


def write(path: Path, data: Any, **dump: Any) -> bytes:
    raw = json.dumps(data, **dump).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    return raw


def ours(data: dict[str, Any], event: str) -> list[dict[str, Any]]:
    return [
        handler
        for group in data["hooks"].get(event, [])
        for handler in group["hooks"]
        if installer.is_ours(handler)
    ]


def backups(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.bak"))


# ---- what is written --------------------------------------------------------------------
def test_install_creates_the_user_settings_with_every_hook(
    cli: CliInvoker, tmp_path: Path, env: dict[str, str]
) -> None:
    config = tmp_path / "claude-config"
    cli.env["CLAUDE_CONFIG_DIR"] = str(config)
    result = cli("hooks", "install")
    assert result.exit_code == 0, result.output
    path = config / "settings.json"
    assert result.output.startswith(f"installed 8 hooks in {path}\nregistered the MCP server")
    data = json.loads(path.read_text())
    assert list(data) == ["hooks"]
    assert list(data["hooks"]) == list(installer.EVENTS)
    for spec in installer.HOOKS:
        (group,) = data["hooks"][spec.event]
        assert group.get("matcher") == spec.matcher
        shim = str(REPO / "hooks" / "bin" / spec.script)
        command = f"{shlex.quote(sys.executable)} -E {shlex.quote(shim)} # fireworks-skill-memory"
        assert group["hooks"] == [{"type": "command", "command": command, "timeout": spec.timeout}]
        assert Path(shim).is_file()
    assert data["hooks"]["PreToolUse"][0]["matcher"] == "Skill"
    assert data["hooks"]["SessionEnd"][0]["hooks"][0]["command"].endswith(
        "/stop.py " + "# " + ("fireworks-skill-memory")
    )


def test_install_keeps_every_foreign_hook_and_key_in_order(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write(path, ORIGINAL, indent=2)
    change = installer.install(str(path), home=str(tmp_path / "home"))
    assert change.changed and change.written
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data) == ["model", "permissions", "hooks", "env"]
    assert data["env"] == {"FOO": "bär"} and data["permissions"] == ORIGINAL["permissions"]
    assert data["hooks"]["PreToolUse"][0] == FOREIGN_PRE
    assert data["hooks"]["Stop"][0] == FOREIGN_STOP
    assert data["hooks"]["Notification"] == ORIGINAL["hooks"]["Notification"]
    assert list(data["hooks"])[:3] == ["PreToolUse", "Notification", "Stop"]
    for event in installer.EVENTS:
        assert len(ours(data, event)) == 1


def test_reinstall_changes_nothing_and_makes_no_backup(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write(path, ORIGINAL, indent=2)
    installer.install(str(path), home=str(tmp_path / "home"))
    first = path.read_bytes()
    assert len(backups(tmp_path)) == 1
    again = installer.install(str(path), home=str(tmp_path / "home"))
    assert not again.changed and not again.written and again.backup is None
    assert path.read_bytes() == first
    assert len(backups(tmp_path)) == 1


def test_reinstall_from_another_path_replaces_our_entries_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    write(path, ORIGINAL, indent=2)
    monkeypatch.setattr(hook_table, "SHIM_DIR", "/old venv/lib/site-packages/hooks/bin")
    installer.install(str(path), python="/old venv/bin/python3", home=str(tmp_path / "home"))
    old = json.loads(path.read_text())
    assert "'/old venv/bin/python3'" in ours(old, "PreToolUse")[0]["command"]
    monkeypatch.undo()
    installer.install(str(path), home=str(tmp_path / "home"))
    new = json.loads(path.read_text())
    for event in installer.EVENTS:
        (handler,) = ours(new, event)
        python, script = installer.parse_command(handler["command"])
        assert (python, os.path.dirname(str(script))) == (sys.executable, installer.SHIM_DIR)
    assert [list(g) for g in new["hooks"]["PreToolUse"]] == [
        list(g) for g in old["hooks"]["PreToolUse"]
    ]
    assert list(new["hooks"]) == list(old["hooks"])


def test_our_handler_inside_a_foreign_group_is_taken_out(tmp_path: Path) -> None:
    mixed = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Skill",
                    "hooks": [
                        {"type": "command", "command": "x.py # fireworks-skill-memory"},
                        {"type": "command", "command": "keep-me"},
                    ],
                }
            ]
        }
    }
    path = tmp_path / "settings.json"
    write(path, mixed, indent=2)
    installer.install(str(path), home=str(tmp_path))
    groups = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert groups[0]["hooks"] == [{"type": "command", "command": "keep-me"}]
    assert len(groups) == 2 and installer.is_ours(groups[1]["hooks"][0])


def test_marker_recognition() -> None:
    assert installer.is_ours(
        {"command": "'/a b/python' '/x/pre_tool_use.py' # fireworks-skill-memory"}
    )
    assert installer.is_ours({"command": "python x.py #fireworks-skill-memory v2"})
    assert not installer.is_ours({"command": "echo fireworks-skill-memory"})
    assert not installer.is_ours({"command": "x # fireworks-skill-memoryless"})
    assert not installer.is_ours({"command": ["# fireworks-skill-memory"]})
    assert not installer.is_ours("# fireworks-skill-memory")
    assert installer.parse_command("'/a b/py' '/c d/s.py' # fireworks-skill-memory") == (
        "/a b/py",
        "/c d/s.py",
    )
    assert installer.parse_command("'/a b/py' -E '/c d/s.py' # fireworks-skill-memory") == (
        "/a b/py",
        "/c d/s.py",
    )


@pytest.mark.parametrize(
    "command",
    [
        "'/old venv/bin/python3' '/old venv/hooks/bin/stop.py' # fireworks-skill-memory",
        "/usr/bin/python3 -E /opt/fsm/hooks/bin/stop.py # fireworks-skill-memory",
        "python -I stop.py #fireworks-skill-memory",
        "python stop.py # fireworks-skill-memory v2",
    ],
    ids=["no-E", "with-E", "other-flag", "suffix"],
)
def test_every_form_an_earlier_version_wrote_is_ours_for_both_agents(command: str) -> None:
    assert installer.is_ours is codex_install.is_ours is hook_table.is_ours
    assert hook_table.is_ours({"type": "command", "command": command})
    assert hook_table.parse_command(command)[1] is not None


@pytest.mark.parametrize(
    "command",
    [
        "echo '# fireworks-skill-memory'",
        "x.py#fireworks-skill-memory",
        "x # fireworks-skill-memory2",
    ],
)
def test_a_marker_that_is_not_a_shell_comment_word_is_not_ours(command: str) -> None:
    assert not hook_table.is_ours({"command": command})


def previous_version_table(specs: tuple[hook_table.HookSpec, ...]) -> dict[str, Any]:
    """The hooks an install before `-E` wrote (same shim folder), and a foreign group."""
    table: dict[str, Any] = {}
    for spec in specs:
        old = f"{shlex.quote(sys.executable)} {shlex.quote(installer.shim_path(spec))} {MARKER}"
        table[spec.event] = [hook_table.hook_group(spec, old)]
    table[specs[0].event].append(FOREIGN_STOP)
    return {"hooks": table}


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_install_upgrades_the_previous_versions_hooks_in_place(
    cli: CliInvoker, tmp_path: Path, agent: hook_table.Agent
) -> None:
    specs = hook_table.hooks_for(agent)
    before = previous_version_table(specs)
    if agent == "claude":
        path = tmp_path / "settings.json"
        args = ["hooks", "install", "--settings", str(path)]
    else:
        path = tmp_path / "codex" / "hooks.json"
        args = ["codex", "install", "--codex-home", str(path.parent)]
    write(path, before, indent=2)
    assert cli(*args).exit_code == 0
    after = json.loads(path.read_text(encoding="utf-8"))
    assert list(after["hooks"]) == list(before["hooks"])
    for spec in specs:
        groups = after["hooks"][spec.event]
        assert len(groups) == len(before["hooks"][spec.event])  # nothing added or duplicated
        assert groups[0]["hooks"][0]["command"] == hook_table.hook_command(spec)
        assert [h for g in groups for h in g["hooks"] if hook_table.is_ours(h)] == [
            groups[0]["hooks"][0]
        ]
    assert after["hooks"][specs[0].event][1] == FOREIGN_STOP
    upgraded = path.read_bytes()
    assert cli(*args).exit_code == 0
    assert path.read_bytes() == upgraded  # installing again changes nothing


# ---- uninstall and the byte-for-byte round trip -----------------------------------------
STYLES: dict[str, dict[str, Any]] = {
    "indent2": {"indent": 2},
    "indent4": {"indent": 4},
    "indent1": {"indent": 1},
    "tabs": {"indent": "\t"},
    "compact-default": {},
    "compact-tight": {"separators": (",", ":")},
    "ascii-escaped": {"indent": 2, "ensure_ascii": True},
    "unicode": {"indent": 2, "ensure_ascii": False},
}


@pytest.mark.parametrize("newline", [True, False], ids=["newline", "no-newline"])
@pytest.mark.parametrize("style", list(STYLES), ids=list(STYLES))
def test_install_then_uninstall_restores_the_bytes(
    tmp_path: Path, style: str, newline: bool
) -> None:
    path = tmp_path / "settings.json"
    raw = write(path, ORIGINAL, **STYLES[style]) + (b"\n" if newline else b"")
    path.write_bytes(raw)
    installer.install(str(path), home=str(tmp_path / "home"))
    assert path.read_bytes() != raw
    change = installer.uninstall(str(path), home=str(tmp_path / "home"))
    assert change.changed and sorted(change.events) == sorted(installer.EVENTS)
    assert path.read_bytes() == raw


@pytest.mark.parametrize(
    "original",
    [
        {},
        {"hooks": {}},
        {"hooks": {"Stop": [], "PreToolUse": []}},
        {"hooks": {"PreToolUse": [{"matcher": "Skill", "hooks": []}]}},
        {"a": [], "hooks": {"Weird": "not a list", "Stop": [{"hooks": "nope"}]}},
    ],
    ids=["empty-object", "empty-hooks", "empty-events", "empty-group", "odd-shapes"],
)
def test_empty_containers_that_were_there_before_stay(tmp_path: Path, original: Any) -> None:
    path = tmp_path / "settings.json"
    raw = write(path, original, indent=2) + b"\n"
    path.write_bytes(raw)
    installer.install(str(path), home=str(tmp_path / "home"))
    installer.install(str(path), home=str(tmp_path / "home"))  # a reinstall keeps the facts
    installer.uninstall(str(path), home=str(tmp_path / "home"))
    assert path.read_bytes() == raw


def test_crlf_and_bom_survive_a_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    raw = ("\ufeff" + json.dumps(ORIGINAL, indent=2).replace("\n", "\r\n") + "\r\n").encode()
    path.write_bytes(raw)
    installer.install(str(path), home=str(tmp_path))
    assert b"\r\n" in path.read_bytes() and path.read_bytes().startswith("\ufeff".encode())
    installer.uninstall(str(path), home=str(tmp_path))
    assert path.read_bytes() == raw


def test_uninstall_deletes_a_file_it_created_only_when_nothing_else_remains(
    tmp_path: Path,
) -> None:
    home = str(tmp_path / "home")
    alone = tmp_path / "a" / "settings.json"
    installer.install(str(alone), home=home)
    change = installer.uninstall(str(alone), home=home)
    assert change.removed_file and not alone.exists()
    assert list(alone.parent.iterdir()) == []  # no backup, no lock file left

    shared = tmp_path / "b" / "settings.json"
    installer.install(str(shared), home=home)
    data = json.loads(shared.read_text())
    data["model"] = "opus"
    shared.write_text(json.dumps(data, indent=2) + "\n")
    change = installer.uninstall(str(shared), home=home)
    assert not change.removed_file
    assert shared.read_text() == '{\n  "model": "opus"\n}\n'


def test_uninstall_without_our_hooks_or_file_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    change = installer.uninstall(str(path), home=str(tmp_path))
    assert not change.changed and not path.exists() and not list(tmp_path.iterdir())
    raw = write(path, ORIGINAL, indent=2)
    assert not installer.uninstall(str(path), home=str(tmp_path)).changed
    assert path.read_bytes() == raw and backups(tmp_path) == []


JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
HANDLERS = st.fixed_dictionaries(
    {"type": st.just("command"), "command": st.text(min_size=1, max_size=12)}
)
GROUPS = st.fixed_dictionaries(
    {"hooks": st.lists(HANDLERS, min_size=1, max_size=2)},
    optional={"matcher": st.sampled_from(["Skill", "*", "Bash", ""])},
)
HOOK_TABLES = st.dictionaries(
    st.sampled_from([*installer.EVENTS, "Notification", "PreCompact"]),
    st.lists(GROUPS, min_size=1, max_size=2),
    max_size=4,
)


@pytest.mark.slow
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rest=st.dictionaries(
        st.text(max_size=8).filter(lambda k: k != "hooks"), JSON_VALUES, max_size=4
    ),
    table=st.none() | HOOK_TABLES,
    indent=st.sampled_from([None, 1, 2, 4, "\t"]),
    ensure_ascii=st.booleans(),
    newline=st.booleans(),
)
def test_round_trip_property(
    tmp_path: Path,
    rest: dict[str, Any],
    table: dict[str, Any] | None,
    indent: int | str | None,
    ensure_ascii: bool,
    newline: bool,
) -> None:
    original = dict(rest) if table is None else {**rest, "hooks": table}
    raw = (json.dumps(original, indent=indent, ensure_ascii=ensure_ascii) + "\n" * newline).encode()
    path = tmp_path / "prop" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(raw)
    home = str(tmp_path / "prop-home")
    installer.install(str(path), home=home)
    installed = path.read_bytes()
    assert not installer.install(str(path), home=home).changed
    assert path.read_bytes() == installed
    installer.uninstall(str(path), home=home)
    assert path.read_bytes() == raw
    for leftover in path.parent.glob("*.bak"):
        leftover.unlink()


# ---- safety -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"hooks": {', "not valid JSON (Expecting property name enclosed in double quotes"),
        (b"[1, 2]", "the top level is not a JSON object"),
        (b'{"hooks": []}', '"hooks" is not a JSON object'),
        (b'{"hooks": {"PreToolUse": {}}}', '"hooks.PreToolUse" is not a JSON array'),
        (b"\xff\xfe{}", "not UTF-8 text"),
    ],
    ids=["truncated", "array", "hooks-array", "event-object", "not-utf8"],
)
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_a_malformed_settings_file_is_an_error_and_left_untouched(
    cli: CliInvoker, tmp_path: Path, content: bytes, message: str, command: str
) -> None:
    path = tmp_path / "cfg" / "settings.json"
    path.parent.mkdir()
    path.write_bytes(content)
    result = cli("hooks", command, "--settings", str(path))
    if command == "uninstall" and message.startswith('"hooks'):
        assert result.exit_code == 0  # nothing of ours to remove: a no-op is fine
    else:
        assert result.exit_code == 1
        assert result.output.count("\n") == 1 and message in result.output
        assert result.output.startswith(f"Error: {path}: ")
    assert path.read_bytes() == content
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_dry_run_writes_nothing(cli: CliInvoker, tmp_path: Path) -> None:
    path = tmp_path / "new" / "settings.json"
    result = cli("hooks", "install", "--settings", str(path), "--dry-run")
    assert result.exit_code == 0
    assert result.output.startswith(f"--- {path}\n+++ {path} (install)\n")
    assert '+        "matcher": "Skill",\n' in result.output
    assert not path.parent.exists()
    result = cli("hooks", "install", "--settings", str(path), "--dry-run", "--json")
    report = json.loads(result.output)
    assert report["dry_run"] and report["changed"] and not report["written"]
    assert list(report["settings"]["hooks"]) == list(installer.EVENTS)
    assert not path.parent.exists()
    write(path, ORIGINAL, indent=2)
    cli("hooks", "install", "--settings", str(path))
    raw = path.read_bytes()
    result = cli("hooks", "uninstall", "--settings", str(path), "--dry-run", "--json")
    assert json.loads(result.output)["settings"] == ORIGINAL
    assert path.read_bytes() == raw


def test_backup_holds_the_previous_bytes_and_mode_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    raw = write(path, ORIGINAL, indent=4)
    path.chmod(0o600)
    change = installer.install(str(path), home=str(tmp_path / "home"))
    assert change.backup is not None
    assert Path(change.backup).read_bytes() == raw
    assert Path(change.backup).name.startswith("settings.json.skill-memory-")
    assert (path.stat().st_mode & 0o777) == 0o600


def test_a_symlinked_settings_file_stays_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "claude-settings.json"
    raw = write(real, ORIGINAL, indent=2)
    link = tmp_path / "claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(real)
    installer.install(str(link), home=str(tmp_path / "home"))
    assert link.is_symlink() and ours(json.loads(real.read_text()), "Stop")
    installer.uninstall(str(link), home=str(tmp_path / "home"))
    assert link.is_symlink() and real.read_bytes() == raw


def test_concurrent_installs_leave_one_set(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write(path, ORIGINAL, indent=2)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            installer.install(str(path), home=str(tmp_path / "home"))
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    data = json.loads(path.read_text())
    assert all(len(ours(data, event)) == 1 for event in installer.EVENTS)


def test_project_scope_writes_into_the_working_directory(
    cli: CliInvoker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    assert cli("hooks", "install", "--scope", "project").exit_code == 0
    assert ours(json.loads((project / ".claude" / "settings.json").read_text()), "PreToolUse")


# ---- status -----------------------------------------------------------------------------
def test_status_reports_events_paths_and_the_service(
    cli: CliInvoker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cli.env["CLAUDE_CONFIG_DIR"] = str(tmp_path / "cfg")
    custom = tmp_path / "custom.json"
    assert cli("hooks", "install", "--settings", str(custom)).exit_code == 0
    report = json.loads(cli("hooks", "status", "--json").output)
    by_scope = {entry["scope"]: entry for entry in report["files"]}
    assert set(by_scope) == {"user", "project", "project-local", "recorded"}
    recorded = by_scope["recorded"]
    assert recorded["path"] == str(custom) and recorded["complete"] and recorded["current"]
    assert recorded["missing"] == [] and recorded["foreign_handlers"] == 0
    pre = recorded["events"]["PreToolUse"][0]
    assert pre["matcher"] == "Skill" and pre["timeout"] == 10
    assert pre["python"] == sys.executable and pre["paths_exist"] and pre["this_installation"]
    assert not by_scope["user"]["exists"]
    assert report["service"]["running"] is False
    text = cli("hooks", "status", "--settings", str(custom)).output
    assert f"{custom} (explicit): 8/8 events installed" in text
    assert "service: not running" in text


def test_status_flags_missing_paths_and_other_installations(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    installer.install(str(path), python="/gone/bin/python", home=str(tmp_path))
    entry = installer.inspect_file(str(path), "explicit")
    pre = entry["events"]["PreToolUse"][0]
    assert not pre["python_exists"] and not pre["paths_exist"] and not pre["this_installation"]
    assert entry["complete"] and not entry["current"]
    path.write_text("{oops")
    assert "not valid JSON" in installer.inspect_file(str(path), "explicit")["error"]


# ---- the plugin -------------------------------------------------------------------------
def test_plugin_manifest_and_hooks_match_the_installer() -> None:
    manifest = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "fireworks-skill-memory"
    assert manifest["version"] == __version__ and manifest["description"]
    document = json.loads((REPO / "hooks" / "hooks.json").read_text())
    assert set(document) == {"description", "hooks"}
    table = document["hooks"]
    assert list(table) == list(installer.EVENTS)
    for spec in installer.HOOKS:
        (group,) = table[spec.event]
        assert group.get("matcher") == spec.matcher
        assert group["hooks"] == [
            {
                "type": "command",
                "command": f"PYTHONPATH= skill-memory-hook {spec.event}",
                "timeout": spec.timeout,
            }
        ]
        assert spec.event in MODULES


def test_the_plugin_hooks_json_is_generated_from_the_table() -> None:
    committed = (REPO / "hooks" / "hooks.json").read_text(encoding="utf-8")
    assert committed == hook_table.plugin_hooks_text(), (
        "regenerate: python -m fireworks_skill_memory.hooks.hook_table > hooks/hooks.json"
    )


def test_the_table_gives_each_agent_existing_shims_and_dispatched_events() -> None:
    shims = {path.name for path in (REPO / "hooks" / "bin").glob("*.py")}
    assert {script for script, _ in hook_table.SHIMS.values()} == shims
    assert set(hook_table.SHIMS) == set(MODULES)
    for agent in ("claude", "codex"):
        specs = hook_table.hooks_for(agent)
        assert len({spec.event for spec in specs}) == len(specs)
    assert [spec.event for spec in codex_install.HOOK_SPECS] == list(codex_install.EVENTS)
    assert set(codex_install.EVENTS) < set(installer.EVENTS)
