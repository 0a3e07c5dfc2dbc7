"""memory.sessions.skill_paths: skill names from SKILL.md paths, shell commands and tool calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fireworks_skill_memory.memory.sessions.skill_paths import (
    skill_from_skill_md,
    skill_from_tool_call,
    skills_in_shell_command,
    valid_skill_name,
)
from tests.conftest import REPO

SESSIONS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions"


def make_plugin(root: Path, manifest: object | None, skill: str = "plugskill") -> Path:
    """A Claude plugin tree at `root`; returns the path of its skill's SKILL.md."""
    if manifest is not None:
        (root / ".claude-plugin").mkdir(parents=True)
        text = manifest if isinstance(manifest, str) else json.dumps(manifest)
        (root / ".claude-plugin" / "plugin.json").write_text(text, encoding="utf-8")
    skill_md = root / "skills" / skill / "SKILL.md"
    skill_md.parent.mkdir(parents=True)
    skill_md.write_text("---\nname: plugskill\n---\n", encoding="utf-8")
    return skill_md


# ----------------------------------------------------------------------------- roots


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/home/u/.claude/skills/pdf/SKILL.md", "pdf"),  # ~/.claude/skills
        ("/cfg/claude/skills/pdf/SKILL.md", "pdf"),  # $CLAUDE_CONFIG_DIR/skills
        ("/work/proj/.claude/skills/python-imports/SKILL.md", "python-imports"),
        ("/home/u/.agents/skills/notes/SKILL.md", "notes"),  # ~/.agents/skills
        ("/work/repo/.agents/skills/repo-notes/SKILL.md", "repo-notes"),
        ("/home/u/.codex/skills/python-imports/SKILL.md", "python-imports"),
        ("/opt/codex-home/skills/lint/SKILL.md", "lint"),  # $CODEX_HOME/skills
        ("/opt/codex-home/skills/.system/imagegen/SKILL.md", "imagegen"),
        ("/work/repo/.codex/skills/deploy/SKILL.md", "deploy"),
        ("/anything/else/skills/generic/SKILL.md", "generic"),  # the original's */skills/*/
        ("/work/repo/.claude/skills/a/../b/SKILL.md", "b"),  # normalised: the file read
    ],
)
def test_skill_roots(path: str, expected: str) -> None:
    assert skill_from_skill_md(path) == expected


def test_tilde_is_expanded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert skill_from_skill_md("~/.claude/skills/pdf/SKILL.md") == "pdf"
    assert skill_from_skill_md("~/.codex/skills/.system/skill-creator/SKILL.md") == (
        "skill-creator"
    )


@pytest.mark.parametrize(
    ("path", "cwd", "expected"),
    [
        ("SKILL.md", "/work/proj/.claude/skills/pdf", "pdf"),
        ("pdf/SKILL.md", "/work/proj/.claude/skills", "pdf"),
        (".claude/skills/pdf/SKILL.md", "/work/proj", "pdf"),
        ("./.agents/skills/notes/SKILL.md", "/work/repo", "notes"),
        ("../skills/pdf/SKILL.md", "/work/proj/.claude/other", "pdf"),
        ("skills/pdf/SKILL.md", None, "pdf"),  # relative, no cwd: the path itself decides
        ("SKILL.md", None, None),
        ("SKILL.md", "/work/proj", None),
    ],
)
def test_relative_paths(path: str, cwd: str | None, expected: str | None) -> None:
    assert skill_from_skill_md(path, cwd) == expected


@pytest.mark.parametrize(
    "path",
    [
        "/work/proj/README.md",
        "/work/proj/.claude/skills/pdf/README.md",
        "/work/proj/.claude/skills/pdf/SKILL.md.bak",
        "/work/proj/.claude/skills/pdf/skill.md",  # the file name is case-sensitive
        "/work/proj/.claude/skills/pdf/docs/SKILL.md",  # not directly under skills/<name>/
        "/work/proj/.claude/skills/SKILL.md",
        "/work/skills/../etc/SKILL.md",
        "skills/../etc/SKILL.md",
        "/work/proj/.claude/skills/a__b/SKILL.md",  # '__' is reserved
        "/work/proj/.claude/skills/.hidden/SKILL.md",
        "/work/proj/.claude/skills/*/SKILL.md",  # an unexpanded glob
        "/work/proj/.claude/skills/$NAME/SKILL.md",
        "/work/proj/.claude/skills/a\x01b/SKILL.md",
        "",
    ],
)
def test_not_a_skill(path: str) -> None:
    assert skill_from_skill_md(path) is None


@pytest.mark.parametrize("value", [None, 3, b"/x/skills/pdf/SKILL.md", ["a"], {"a": 1}])
def test_wrong_types_give_nothing(value: object) -> None:
    assert skill_from_skill_md(value) is None  # type: ignore[arg-type]
    assert skills_in_shell_command(value) == []  # type: ignore[arg-type]
    assert skill_from_tool_call("Read", value) == []
    read = {"file_path": "/x/skills/pdf/SKILL.md"}
    assert skill_from_tool_call(value, read) == []  # type: ignore[arg-type]
    assert valid_skill_name(value) is None
    # A wrong cwd is ignored: absolute paths still work, relative ones stand alone.
    assert skill_from_skill_md("/x/skills/pdf/SKILL.md", value) == "pdf"  # type: ignore[arg-type]
    assert skill_from_skill_md("SKILL.md", value) is None  # type: ignore[arg-type]
    assert skills_in_shell_command("cat skills/a/SKILL.md", value) == ["a"]  # type: ignore[arg-type]
    assert skill_from_tool_call("Read", {"file_path": "skills/a/SKILL.md"}, value) == ["a"]  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- plugins


def test_plugin_skill_is_named_after_the_manifest(tmp_path: Path) -> None:
    skill_md = make_plugin(tmp_path / "vendor" / "plugin-dir", {"name": "e2eplug"})
    assert skill_from_skill_md(str(skill_md)) == "e2eplug:plugskill"
    relative = os.path.join("vendor", "plugin-dir", "skills", "plugskill", "SKILL.md")
    assert skill_from_skill_md(relative, str(tmp_path)) == "e2eplug:plugskill"


@pytest.mark.parametrize(
    "manifest", [{"version": "1.0.0"}, {"name": ""}, {"name": 7}, "{not json", "[1, 2]"]
)
def test_plugin_without_a_usable_name_falls_back_to_its_directory(
    tmp_path: Path, manifest: object
) -> None:
    skill_md = make_plugin(tmp_path / "my-plugin", manifest)
    assert skill_from_skill_md(str(skill_md)) == "my-plugin:plugskill"


def test_plugin_with_an_invalid_name_is_rejected(tmp_path: Path) -> None:
    skill_md = make_plugin(tmp_path / "p", {"name": "a:b"})  # would give a:b:plugskill
    assert skill_from_skill_md(str(skill_md)) is None


def test_no_manifest_means_no_plugin(tmp_path: Path) -> None:
    skill_md = make_plugin(tmp_path / "proj", None)
    assert skill_from_skill_md(str(skill_md)) == "plugskill"


def test_marketplace_plugins_under_claude_plugins(tmp_path: Path) -> None:
    cache = tmp_path / ".claude" / "plugins" / "cache" / "mkt"
    # Installed from a marketplace, with its manifest on disk.
    skill_md = make_plugin(cache / "docs-kit" / "1.2.0", {"name": "docs-kit"}, "write")
    assert skill_from_skill_md(str(skill_md)) == "docs-kit:write"
    # The same layout read from another machine's transcript (no manifest on this disk):
    # the version directory is skipped.
    other = "/home/x/.claude/plugins/cache/mkt/lint-kit/0.3.1/skills/ruff/SKILL.md"
    assert skill_from_skill_md(other) == "lint-kit:ruff"
    clone = "/home/x/.claude/plugins/marketplaces/mkt/plugins/fmt/skills/black/SKILL.md"
    assert skill_from_skill_md(clone) == "fmt:black"


# ----------------------------------------------------------------------------- shell


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat /h/.codex/skills/python-imports/SKILL.md", ["python-imports"]),
        ("sed -n '1,200p' /h/.agents/skills/notes/SKILL.md", ["notes"]),
        ("head -50 /h/.claude/skills/pdf/SKILL.md", ["pdf"]),
        ("tail -n 20 /h/.claude/skills/pdf/SKILL.md", ["pdf"]),
        ("less /h/.claude/skills/pdf/SKILL.md", ["pdf"]),
        ("more /h/.claude/skills/pdf/SKILL.md", ["pdf"]),
        ("bat --plain /h/.claude/skills/pdf/SKILL.md", ["pdf"]),
        ("nl -ba /h/.claude/skills/pdf/SKILL.md", ["pdf"]),
        ("awk 'NR<40' /h/.claude/skills/pdf/SKILL.md", ["pdf"]),
        ("grep -n description /h/.claude/skills/pdf/SKILL.md", ["pdf"]),
        ('cat "/h/my skills/skills/two words/SKILL.md"', ["two words"]),
        ("cat '/h/.claude/skills/pdf/SKILL.md'", ["pdf"]),
        ("cat /h/skills/a/SKILL.md /h/skills/b/SKILL.md /h/skills/a/SKILL.md", ["a", "b"]),
        ("ls /h && cat /h/skills/a/SKILL.md; head /h/skills/b/SKILL.md", ["a", "b"]),
        ("cat /h/skills/a/SKILL.md | head -20 || echo none", ["a"]),
        ("cat /h/skills/a/SKILL.md 2>/dev/null && nl /h/skills/b/SKILL.md", ["a", "b"]),
        ("echo start\ncat /h/skills/a/SKILL.md", ["a"]),
        ('bash -lc "cat /h/.claude/skills/pdf/SKILL.md"', ["pdf"]),
        ("/bin/bash -lc 'sed -n 1,80p /h/skills/a/SKILL.md && ls'", ["a"]),
        ("sh -c 'bash -c \"cat /h/skills/deep/SKILL.md\"'", ["deep"]),
        ("LC_ALL=C sudo cat /h/skills/a/SKILL.md", ["a"]),
        ("env -i cat /h/skills/a/SKILL.md", ["a"]),
        ("cd /h/.claude/skills && cat pdf/SKILL.md", ["pdf"]),
        ("(cd /h/.claude/skills/pdf; cat SKILL.md)", ["pdf"]),
        ("cat 'unbalanced /h/skills/a/SKILL.md", ["a"]),  # shlex fails: plain words
    ],
)
def test_shell_commands_that_read_a_skill(command: str, expected: list[str]) -> None:
    assert skills_in_shell_command(command) == expected


def test_shell_paths_relative_to_cwd_and_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CODEX_HOME", "/opt/codex")
    assert skills_in_shell_command("cat .agents/skills/notes/SKILL.md", "/r") == ["notes"]
    assert skills_in_shell_command("cat ~/.claude/skills/pdf/SKILL.md") == ["pdf"]
    assert skills_in_shell_command('cat "$CODEX_HOME/skills/lint/SKILL.md"') == ["lint"]
    assert skills_in_shell_command("cat ${CODEX_HOME}/skills/.system/x/SKILL.md") == ["x"]


@pytest.mark.parametrize(
    "command",
    [
        "echo SKILL.md",
        "echo /h/.claude/skills/pdf/SKILL.md",
        "cat /h/.claude/skills/pdf/README.md",
        "cat /h/.claude/skills/pdf/SKILL.md.bak",
        "cat /h/skills/../etc/SKILL.md",
        "cat /h/.claude/skills/*/SKILL.md",
        "cp /tmp/x /h/.claude/skills/pdf/SKILL.md",
        "cat draft.md > /h/.claude/skills/pdf/SKILL.md",  # writes it, does not read it
        "vim /h/.claude/skills/pdf/SKILL.md",
        "python3 -c 'open(\"/h/skills/a/SKILL.md\")'",
        "grep --file=/h/skills/a/SKILL.md x",
        "",
        "ls",
    ],
)
def test_shell_commands_that_do_not_read_a_skill(command: str) -> None:
    assert skills_in_shell_command(command) == []


def test_shell_fast_path_imports_nothing() -> None:
    code = (
        "import sys; import fireworks_skill_memory.memory.sessions.skill_paths as s; "
        "before = set(sys.modules); "
        "s.skills_in_shell_command('ls -la && git status'); "
        "s.skill_from_tool_call('Bash', {'command': 'pytest -q'}); "
        "print(sorted(set(sys.modules) - before))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


# ----------------------------------------------------------------------------- tool calls


@pytest.mark.parametrize(
    ("tool", "tool_input", "cwd", "expected"),
    [
        ("Skill", {"skill": "pdf"}, None, ["pdf"]),
        ("Skill", {"skill": "e2eplug:plugskill", "args": "x"}, None, ["e2eplug:plugskill"]),
        ("Skill", {"command": "pdf"}, None, ["pdf"]),  # Claude Code before 2.x
        ("Skill", {"skill": "../etc"}, None, []),
        ("Skill", {"skill": 3}, None, []),
        ("Skill", {}, None, []),
        ("Read", {"file_path": "/p/.claude/skills/pdf/SKILL.md"}, None, ["pdf"]),
        ("View", {"file_path": "skills/pdf/SKILL.md"}, "/p/.claude", ["pdf"]),
        ("Read", {"file_path": "/p/notes.txt"}, None, []),
        ("Read", {"file_path": None}, None, []),
        ("Bash", {"command": "cat /p/skills/a/SKILL.md"}, None, ["a"]),
        ("exec_command", {"cmd": "cat .agents/skills/n/SKILL.md"}, "/r", ["n"]),
        ("exec_command", {"cmd": "cat SKILL.md", "workdir": "/r/.codex/skills/d"}, None, ["d"]),
        ("exec_command", {"cmd": "cat n/SKILL.md", "workdir": ".agents/skills"}, "/r", ["n"]),
        ("shell", {"command": ["bash", "-lc", "cat /p/skills/a/SKILL.md"]}, None, ["a"]),
        ("local_shell", {"command": ["cat", "/p/skills/a b/SKILL.md"]}, None, ["a b"]),
        ("shell", {"command": ["bash", "-lc", 3]}, None, []),
        ("Bash", {"command": 42}, None, []),
        ("Write", {"file_path": "/p/skills/a/SKILL.md"}, None, []),
        ("Edit", {"file_path": "/p/skills/a/SKILL.md"}, None, []),
        ("Bash", "cat /p/skills/a/SKILL.md", None, []),
        ("Bash", ["cat", "/p/skills/a/SKILL.md"], None, []),
        ("Skill", None, None, []),
    ],
)
def test_skill_from_tool_call(
    tool: str, tool_input: object, cwd: str | None, expected: list[str]
) -> None:
    assert skill_from_tool_call(tool, tool_input, cwd) == expected


def hook_payloads(name: str) -> list[dict[str, object]]:
    path = SESSIONS / name
    return [json.loads(x)["stdin"] for x in path.read_text(encoding="utf-8").splitlines() if x]


@pytest.mark.parametrize("name", ["claude_hooks.jsonl", "codex_hooks.jsonl"])
def test_recorded_hook_payloads(name: str) -> None:
    """Real PreToolUse stdin: Claude's Skill call, and Codex's `cat .../SKILL.md` as "Bash"."""
    found = [
        skill_from_tool_call(str(p["tool_name"]), p["tool_input"], str(p["cwd"]))
        for p in hook_payloads(name)
        if p["hook_event_name"] == "PreToolUse"
    ]
    assert found == [["python-imports"], [], []]


# ----------------------------------------------------------------------------- import cost


def test_import_is_light() -> None:
    """Hooks import this on every tool call: no re, shlex, json, typing, dataclasses, pathlib."""
    code = (
        "import sys; before = set(sys.modules); "
        "import fireworks_skill_memory.memory.sessions.skill_paths; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    added = set(out.stdout.split())
    assert added <= {
        "fireworks_skill_memory",
        "fireworks_skill_memory.memory",
        "fireworks_skill_memory.memory.sessions",
        "fireworks_skill_memory.memory.sessions.skill_paths",
        "fireworks_skill_memory.memory.skill_files",  # the skill layout, standard library only
        "__future__",
    }
    for heavy in ("re", "shlex", "json", "typing", "dataclasses", "pathlib", "enum"):
        assert heavy not in added


def test_a_skill_md_is_found_by_name_the_way_the_hooks_name_it(tmp_path: Path) -> None:
    from fireworks_skill_memory.memory.skill_files import skill_md_hash, skill_md_path

    home = tmp_path / "home"
    env = {"HOME": str(home)}
    user = home / ".claude" / "skills" / "pdf" / "SKILL.md"
    system = home / ".codex" / "skills" / ".system" / "imagegen" / "SKILL.md"
    plugin_root = home / ".claude" / "plugins" / "cache" / "market" / "tools"
    plugged = plugin_root / "skills" / "lint" / "SKILL.md"
    for path in (user, system, plugged):
        path.parent.mkdir(parents=True)
        path.write_text(f"# {path.parent.name}\n")
    (plugin_root / ".claude-plugin").mkdir()
    (plugin_root / ".claude-plugin" / "plugin.json").write_text('{"name": "devtools"}')
    assert skill_md_path("pdf", env) == str(user)
    assert skill_md_path("imagegen", env) == str(system)
    assert skill_md_path("devtools:lint", env) == str(plugged)
    assert skill_from_skill_md(str(plugged)) == "devtools:lint"
    assert skill_md_path("tools:lint", env) is None and skill_md_path("nope", env) is None
    before = skill_md_hash("pdf", env)
    user.write_text("# pdf\nchanged\n")
    assert skill_md_hash("pdf", env) != before and skill_md_hash(None, env) is None
