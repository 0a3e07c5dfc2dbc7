"""One distribution, one import namespace: the wheel installs only `fireworks_skill_memory`.

Another distribution with top-level `models` and `cli` packages (common in research code)
installs beside it in the same environment, and both keep working.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
NAMESPACE = "fireworks_skill_memory"
FOLDERS = ("memory", "index", "models", "hooks", "codex", "mcpserver", "cli", "viewer")
IGNORED = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis")


def setuptools_table() -> dict[str, object]:
    with open(REPO / "pyproject.toml", "rb") as handle:
        table = tomllib.load(handle)["tool"]["setuptools"]
    assert isinstance(table, dict)
    return table


def test_every_package_folder_is_mapped_into_the_namespace() -> None:
    folders = sorted(
        path.parent.relative_to(REPO).as_posix()
        for folder in FOLDERS
        for path in (REPO / folder).rglob("__init__.py")
    )
    table = setuptools_table()
    expected = {f"{NAMESPACE}.{folder.replace('/', '.')}": folder for folder in folders}
    assert table["package-dir"] == {NAMESPACE: NAMESPACE, **expected}
    assert sorted(table["packages"]) == sorted([NAMESPACE, *expected])  # type: ignore[arg-type]


def run(*args: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(arg) for arg in args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def build_wheel(project: Path, out: Path) -> Path:
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "--disable-pip-version-check",
        "-w",
        out,
        project,
    )
    (wheel,) = out.glob("*.whl")
    return wheel


def top_level_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name.split("/")[0] for name in archive.namelist() if ".dist-info/" not in name}


def other_distribution(root: Path) -> Path:
    """`research_tools`: a distribution whose packages are plain `models` and `cli`."""
    project = root / "research_tools"
    for package in ("models", "cli"):
        (project / package).mkdir(parents=True)
        (project / package / "__init__.py").write_text(f"OWNER = 'research-tools {package}'\n")
    (project / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [build-system]
            requires = ["setuptools>=69"]
            build-backend = "setuptools.build_meta"
            [project]
            name = "research_tools"
            version = "1.0"
            [tool.setuptools]
            packages = ["models", "cli"]
            """
        )
    )
    return project


@pytest.mark.slow
def test_the_wheel_installs_only_the_namespace_beside_other_models_and_cli(
    tmp_path: Path,
) -> None:
    # from a copy: setuptools' build/ folder could otherwise carry stale files into the wheel
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*IGNORED))
    ours = build_wheel(source, tmp_path / "ours")
    assert top_level_names(ours) == {NAMESPACE}
    with zipfile.ZipFile(ours) as archive:
        names = set(archive.namelist())
    assert f"{NAMESPACE}/hooks/bin/pre_tool_use.py" in names  # the shims ship too
    assert f"{NAMESPACE}/hooks/hooks.json" in names
    theirs = build_wheel(other_distribution(tmp_path), tmp_path / "theirs")
    assert top_level_names(theirs) == {"models", "cli"}

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    pip = [python, "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check"]
    run(*pip, theirs)
    run(*pip, ours)
    probe = (
        "import models, cli; "
        "import fireworks_skill_memory.memory.store.lesson as lesson; "
        "import fireworks_skill_memory.memory.config as config; "
        "print(models.OWNER, '|', cli.OWNER, '|', lesson.__name__, config.__name__)"
    )
    out = run(python, "-c", probe, cwd=tmp_path)
    assert out.split(" | ") == [
        "research-tools models",
        "research-tools cli",
        "fireworks_skill_memory.memory.store.lesson fireworks_skill_memory.memory.config\n",
    ]
    run(python, "-m", "pip", "uninstall", "--yes", "--quiet", "fireworks-skill-memory")
    assert run(python, "-c", "import models, cli; print(models.OWNER)", cwd=tmp_path).strip() == (
        "research-tools models"
    )


# What a process loaded: no module of ours under a bare folder name, and no file loaded twice.
MODULES_PROBE = """
import collections, json, os, sys
ours = {n: getattr(m, "__file__", None) for n, m in list(sys.modules.items())
        if n.split(".")[0] in {"fireworks_skill_memory", "memory", "index", "models", "hooks",
                                "codex", "cli"}}
files = collections.Counter(os.path.realpath(f) for f in ours.values() if f)
print(json.dumps({"bare": sorted(n for n in ours if not n.startswith("fireworks_skill_memory")),
                  "twice": sorted(f for f, count in files.items() if count > 1),
                  "count": len(ours)}))
"""


def loaded_modules(*args: str, cwd: Path, env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run_then_probe(code: str) -> str:
    return f"try:\n    {code}\nexcept SystemExit:\n    pass\n{MODULES_PROBE}"


@pytest.mark.parametrize(
    ("flags", "code"),
    [
        # a hook shim exactly as the installers run it (-E, the script's folder first on the path)
        (
            ["-E"],
            "import runpy; runpy.run_path(SHIM, run_name='__main__')",
        ),
        # a detached child (python -I -m ...): the distill worker and the service entry point
        (
            ["-I"],
            "import fireworks_skill_memory.memory.distill.worker, "
            "fireworks_skill_memory.cli.service_main",
        ),
        # the console scripts, loaded through their entry points
        (
            [],
            "from importlib.metadata import entry_points; "
            "[e.load() for e in entry_points(group='console_scripts') "
            "if e.name.startswith('skill-memory')]",
        ),
    ],
    ids=["hook-shim", "isolated-child", "console-scripts"],
)
def test_each_entry_point_loads_every_module_once_under_the_namespace(
    tmp_path: Path, env: dict[str, str], flags: list[str], code: str
) -> None:
    shim = REPO / "hooks" / "bin" / "session_start.py"
    source = run_then_probe(code.replace("SHIM", repr(str(shim))))
    # a hostile `memory.py` in the working folder must not be what gets imported
    (tmp_path / "memory.py").write_text("raise ImportError('hostile')\n")
    result = loaded_modules(*flags, "-c", source, cwd=tmp_path, env=env)
    assert result["bare"] == [] and result["twice"] == []
    assert isinstance(result["count"], int) and result["count"] > 3


def test_the_test_process_loads_every_module_once_under_the_namespace() -> None:
    import collections
    import os

    ours = {
        name: getattr(module, "__file__", None)
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in {NAMESPACE, *FOLDERS}
    }
    assert [name for name in ours if not name.startswith(NAMESPACE)] == []
    files = collections.Counter(os.path.realpath(f) for f in ours.values() if f)
    assert [f for f, count in files.items() if count > 1] == []
