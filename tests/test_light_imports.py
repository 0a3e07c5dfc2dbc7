"""`--help` of every command, `list` and `show` never import the heavy libraries, and the
hook's service-down path imports nothing but the standard library's lightest modules."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fireworks_skill_memory.hooks import install as installer
from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store

HEAVY = ("torch", "sentence_transformers", "lancedb", "pyarrow", "anthropic", "transformers")

PROBE = f"""
import json, sys
from click.testing import CliRunner
from fireworks_skill_memory.cli.main import cli
args = json.loads(sys.argv[1])
result = CliRunner().invoke(cli, args, catch_exceptions=False)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})
print(json.dumps({{"code": result.exit_code, "heavy": heavy}}))
"""


def all_command_paths() -> list[list[str]]:
    import click

    from fireworks_skill_memory.cli.main import cli

    paths: list[list[str]] = [[]]

    def walk(group: click.Group, prefix: list[str]) -> None:
        for name, command in group.commands.items():
            paths.append([*prefix, name])
            if isinstance(command, click.Group):
                walk(command, [*prefix, name])

    walk(cli, [])
    return paths


def probe(args: list[str], env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("path", all_command_paths(), ids=lambda p: " ".join(p) or "root")
def test_help_imports_nothing_heavy(path: list[str], env: dict[str, str]) -> None:
    result = probe([*path, "--help"], env)
    assert result == {"code": 0, "heavy": []}


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["list", "--json"],
        ["show", "--skill", "demo"],
        ["show", "--skill", "demo", "--json"],
    ],
)
def test_list_and_show_import_nothing_heavy(args: list[str], env: dict[str, str]) -> None:
    assert probe(args, env) == {"code": 0, "heavy": []}


# ---- the hook's service-down path -------------------------------------------------------
HOOK_FORBIDDEN = (
    *HEAVY,
    "numpy",
    "click",
    "json",
    "re",
    "dataclasses",
    "enum",
    "hashlib",
    "typing",
    "inspect",
    "collections",
)


def imported(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> set[str]:
    """Modules a process imports (`-X importtime` after the interpreter)."""
    done = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]],
        input=stdin,
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    names = set()
    for line in done.stderr.decode(errors="replace").splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def test_the_service_down_hook_imports_nothing_heavy(tmp_path: Path, env: dict[str, str]) -> None:
    """PreToolUse(Skill) ranked in-process from a fresh lexical cache: stdlib and light modules."""
    settings = load_settings(env)
    store = Store(settings)
    for text in (
        "Copy the dependency manifest before the source tree for the build cache",
        "Run pytest with -x to stop at the first failing test",
        "Tag the release only after the changelog is merged",
    ):
        add_lesson(store, "demo", text, "General", matcher=None)
    knowledge = Path(settings.skills_dir) / "demo" / "KNOWLEDGE.md"
    os.utime(knowledge, ns=(10**18, 10**18))  # old enough for its cache to be written
    Path(settings.run_dir).mkdir(parents=True, exist_ok=True)
    Path(settings.run_dir, "spawn.stamp").write_text("test: the service stays down")
    payload = {
        "session_id": "light",
        "hook_event_name": "PreToolUse",
        "tool_name": "Skill",
        "tool_input": {"skill": "demo", "args": "speed up the docker build cache"},
    }
    argv = shlex.split(installer.hook_command(installer.HOOKS[0]), comments=True)
    data = json.dumps(payload).encode()
    first = subprocess.run(argv, input=data, capture_output=True, env=env, check=False)
    assert b"for the build cache" in first.stdout  # injected, and the cache written
    bare = imported([argv[0], "-E", "-c", "pass"], env)
    used = imported(argv, env, data) - bare
    assert sorted(name for name in used if name.split(".")[0] in HOOK_FORBIDDEN) == []
    assert {
        "fireworks_skill_memory.memory.retrieval.lexical_cache",
        "fireworks_skill_memory.memory.retrieval.lexical",
    } <= used
    assert (
        "fireworks_skill_memory.memory.store.knowledge_doc" not in used
    )  # the markdown was not parsed
