"""Hook commands cannot be shadowed by the agent's project, and reinstalls replace old ones.

A hostile `memory.py`, `hooks.py`, `models.py` and `fireworks_skill_memory.py` (and a `memory/`
package) sit in the hook's working directory and on PYTHONPATH; each writes a marker file and
raises when imported. The commands run exactly as `hooks install`, `codex install` and the
plugin's hooks.json write them, and must answer as usual without ever importing the hostile
modules. A control run without the protection shows the hostile modules do get imported
otherwise.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.codex import install as codex_installer
from fireworks_skill_memory.hooks import install as installer
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.hook_support import REPO, claude_sample, run_command

HOSTILE = """
import pathlib
pathlib.Path(__file__).with_suffix(".ran").write_text(__name__)
raise ImportError("hostile module " + __name__ + " was imported")
"""
LESSON = ("Build cache", "Copy the dependency manifest before the source tree for the cache")
OTHERS = [
    ("Tests", "Run pytest with -x to stop at the first failing test"),
    ("Release", "Tag the release only after the changelog is merged"),
]


def add_lessons(settings: Settings) -> None:
    store = Store(settings)
    for tag, text in [LESSON, *OTHERS]:
        add_lesson(store, "demo", text, tag, matcher=None)


def plant(folder: Path) -> None:
    """Hostile modules that leave `<name>.ran` beside themselves when imported."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("memory", "hooks", "models", "fireworks_skill_memory"):
        (folder / f"{name}.py").write_text(HOSTILE, encoding="utf-8")


def ran(*folders: Path) -> list[str]:
    return sorted(str(p) for folder in folders for p in folder.rglob("*.ran"))


@pytest.fixture
def project(tmp_path: Path, settings: Settings) -> Path:
    """The agent's project folder (the hook's cwd), full of hostile modules; one lesson."""
    add_lessons(settings)
    stamp = Path(settings.run_dir) / "spawn.stamp"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text("test: no service spawn")  # the service stays down: in-process path
    folder = tmp_path / "project"
    plant(folder)
    package = tmp_path / "pythonpath"
    plant(package)
    (package / "memory").mkdir()
    (package / "memory" / "__init__.py").write_text(HOSTILE, encoding="utf-8")
    return folder


def hostile_env(env: dict[str, str], project: Path) -> dict[str, str]:
    pythonpath = os.pathsep.join([str(project.parent / "pythonpath"), str(project), "."])
    return {**env, "PYTHONPATH": pythonpath}


def pre_tool_use(tmp_path: Path) -> dict[str, Any]:
    payload = claude_sample("PreToolUse(Skill)", tmp_path)
    payload["tool_input"] = {"skill": "demo", "args": "speed up the docker build cache"}
    return payload


def injected(done: subprocess.CompletedProcess[bytes]) -> str:
    assert (done.returncode, done.stderr) == (0, b""), done.stderr.decode()
    text: str = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    return text


def test_installed_commands_ignore_hostile_modules(
    tmp_path: Path, env: dict[str, str], project: Path
) -> None:
    hostile = hostile_env(env, project)
    payload = pre_tool_use(tmp_path)
    for spec in installer.HOOKS:
        command = installer.hook_command(spec)
        done = run_command(command, payload, hostile, project)
        assert (done.returncode, done.stderr) == (0, b""), (spec.event, done.stderr)
        if spec.event == "PreToolUse":
            assert LESSON[1] in injected(done)
    assert ran(project, project.parent / "pythonpath") == []


def test_without_the_protection_the_hostile_modules_would_run(
    tmp_path: Path, env: dict[str, str], project: Path
) -> None:
    """Control: the old command form (no -E) imports a `fireworks_skill_memory.py` on the path."""
    shim = installer.shim_path(installer.HOOKS[0])
    old = f"{shlex.quote(sys.executable)} {shlex.quote(shim)} {installer.MARKER}"
    done = run_command(old, pre_tool_use(tmp_path), hostile_env(env, project), project)
    assert done.returncode == 0 and done.stdout == b""  # the shim's guard still exits 0
    assert ran(project.parent / "pythonpath") != []


def test_codex_commands_ignore_hostile_modules(
    tmp_path: Path, env: dict[str, str], project: Path
) -> None:
    hostile = hostile_env(env, project)
    for spec in codex_installer.HOOK_SPECS:
        done = run_command(
            codex_installer.hook_command(spec), pre_tool_use(tmp_path), hostile, project
        )
        assert (done.returncode, done.stderr) == (0, b""), spec.event
    assert ran(project, project.parent / "pythonpath") == []


def plugin_commands() -> dict[str, str]:
    document = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    return {event: groups[0]["hooks"][0]["command"] for event, groups in document["hooks"].items()}


def test_the_plugin_command_ignores_hostile_modules(
    tmp_path: Path, env: dict[str, str], project: Path
) -> None:
    console = Path(sys.executable).with_name("skill-memory-hook")
    if not console.exists():
        pytest.skip("the skill-memory-hook console script is not installed in this venv")
    hostile = hostile_env(env, project)
    hostile["PATH"] = f"{console.parent}{os.pathsep}{env.get('PATH', '')}"
    command = plugin_commands()["PreToolUse"]
    assert LESSON[1] in injected(run_command(command, pre_tool_use(tmp_path), hostile, project))
    assert ran(project, project.parent / "pythonpath") == []
    bare = command.replace("PYTHONPATH= ", "")  # control: the console script alone
    run_command(bare, pre_tool_use(tmp_path), hostile, project)
    assert ran(project.parent / "pythonpath") != []


# ---- pip install --user -----------------------------------------------------------------
def user_site_python(user_home: Path) -> tuple[str, Path] | None:
    """An interpreter with the user site enabled, and its user site under `user_home`."""
    python = getattr(sys, "_base_executable", "") or sys.executable
    probe = "import site; print(site.ENABLE_USER_SITE, site.getusersitepackages())"
    done = subprocess.run(
        [python, "-E", "-c", probe],
        env={"HOME": str(user_home), "PATH": os.environ.get("PATH", "")},
        capture_output=True,
        text=True,
        check=False,
    )
    enabled, _, site_dir = done.stdout.strip().partition(" ")
    if done.returncode != 0 or enabled != "True":
        return None
    return python, Path(site_dir)


def test_a_user_site_install_still_works(tmp_path: Path, env: dict[str, str]) -> None:
    """`-E` keeps the user site (`-I` would not): the packages live only in ~/.local."""
    user_home = tmp_path / "user"
    found = user_site_python(user_home)
    if found is None:
        pytest.skip("no interpreter with the user site enabled")
    python, site_dir = found
    site_dir.mkdir(parents=True)
    namespace = site_dir / "fireworks_skill_memory"  # what `pip install --user` puts there
    namespace.mkdir()
    (namespace / "__init__.py").write_text("")
    for package in ("hooks", "memory"):  # as links to the repository's folders
        (namespace / package).symlink_to(REPO / package, target_is_directory=True)
    settings = Settings({**env, "HOME": str(user_home)})
    add_lessons(settings)
    Path(settings.run_dir).mkdir(parents=True, exist_ok=True)
    Path(settings.run_dir, "spawn.stamp").write_text("test: no service spawn")
    spec = installer.HOOKS[0]
    shim = namespace / "hooks" / "bin" / spec.script
    command = f"{shlex.quote(python)} -E {shlex.quote(str(shim))} {installer.MARKER}"
    assert installer.hook_command(spec, python).split()[1] == "-E"
    clean = {
        "HOME": str(user_home),
        "AI_MEMORY_HOME": settings.home,
        "PATH": os.environ.get("PATH", ""),
    }
    assert LESSON[1] in injected(run_command(command, pre_tool_use(tmp_path), clean, tmp_path))
    isolated = command.replace(" -E ", " -I ")
    done = run_command(isolated, pre_tool_use(tmp_path), clean, tmp_path)
    assert done.stdout == b""  # -I drops the user site: the package is not found


# ---- reinstall over commands written by the previous version ----------------------------
def old_command(python: str, shim: str) -> str:
    """What versions before `-E` wrote: `<python> <shim> # fireworks-skill-memory`."""
    return f"{shlex.quote(python)} {shlex.quote(shim)} # fireworks-skill-memory"


def test_claude_reinstall_replaces_the_previous_versions_commands(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    foreign = {"type": "command", "command": "echo foreign", "timeout": 3}
    table: dict[str, Any] = {}
    for spec in installer.HOOKS:
        handler = {
            "type": "command",
            "command": old_command(sys.executable, installer.shim_path(spec)),
            "timeout": spec.timeout,
        }
        group = {"matcher": spec.matcher} if spec.matcher else {}
        table[spec.event] = [{**group, "hooks": [foreign, handler]}]
    path.write_text(json.dumps({"hooks": table}, indent=2) + "\n", encoding="utf-8")
    before = installer.inspect_file(str(path), "explicit")
    assert before["complete"] and not before["current"]  # installed, but the old form
    old = before["events"]["PreToolUse"][0]
    assert old["this_installation"] and not old["up_to_date"]
    installer.install(str(path), home=str(tmp_path / "home"))
    data = json.loads(path.read_text(encoding="utf-8"))
    for spec in installer.HOOKS:
        handlers = [h for g in data["hooks"][spec.event] for h in g["hooks"]]
        assert handlers.count(foreign) == 1
        ours = [h for h in handlers if installer.is_ours(h)]
        assert [h["command"] for h in ours] == [installer.hook_command(spec)]
    after = installer.inspect_file(str(path), "explicit")
    assert after["complete"] and after["current"]
    assert not installer.install(str(path), home=str(tmp_path / "home")).changed


def codex_status(codex_home: Path) -> tuple[Any, ...]:
    return codex_installer.status(str(codex_home), check_trust=False).hooks


def test_codex_reinstall_replaces_the_previous_versions_commands(tmp_path: Path) -> None:
    codex_home = tmp_path / "codex"
    codex_home.mkdir()
    shims = installer.SHIM_DIR
    table = {
        spec.event: [
            {
                **({"matcher": spec.matcher} if spec.matcher else {}),
                "hooks": [
                    {
                        "type": "command",
                        "command": old_command(sys.executable, os.path.join(shims, spec.script)),
                        "timeout": spec.timeout,
                    }
                ],
            }
        ]
        for spec in codex_installer.HOOK_SPECS
    }
    (codex_home / "hooks.json").write_text(json.dumps({"hooks": table}, indent=2) + "\n")
    assert not any(hook.current for hook in codex_status(codex_home))
    codex_installer.install(str(codex_home))
    data = json.loads((codex_home / "hooks.json").read_text())
    for spec in codex_installer.HOOK_SPECS:
        (group,) = data["hooks"][spec.event]
        assert [h["command"] for h in group["hooks"]] == [codex_installer.hook_command(spec)]
    assert all(hook.current for hook in codex_status(codex_home))


def test_the_plugin_hooks_run_the_console_script_without_pythonpath() -> None:
    for event, command in plugin_commands().items():
        assert command == f"PYTHONPATH= skill-memory-hook {event}"
    assert shutil.which("sh") is not None  # the `VAR= command` form needs a POSIX shell
