"""`--help` of every command, `list` and `show` never import the heavy libraries."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("torch", "sentence_transformers", "lancedb", "pyarrow", "anthropic", "transformers")

PROBE = f"""
import json, sys
from click.testing import CliRunner
from cli.main import cli
args = json.loads(sys.argv[1])
result = CliRunner().invoke(cli, args, catch_exceptions=False)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})
print(json.dumps({{"code": result.exit_code, "heavy": heavy}}))
"""


def all_command_paths() -> list[list[str]]:
    import click

    from cli.main import cli

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
