"""The `skill-memory` command: a thin click layer over the core packages.

Domain errors become one-line `click.ClickException`s (exit 1); bad options are
`click.BadParameter`/usage errors (exit 2). Heavy libraries are never imported here.
"""

from __future__ import annotations

from typing import Any

import click

from fireworks_skill_memory.cli import (
    doctor,
    evaluate,
    lessons,
    mcp,
    model,
    portable,
    promote,
    review,
    search,
    service,
    team,
    ui,
)
from fireworks_skill_memory.cli.codex import codex_group
from fireworks_skill_memory.cli.hooks import hooks_group
from fireworks_skill_memory.memory import __version__ as VERSION
from fireworks_skill_memory.memory.errors import SkillMemoryError


def _domain_errors() -> tuple[type[BaseException], ...]:
    from fireworks_skill_memory.index.errors import IndexStoreError
    from fireworks_skill_memory.models.errors import ModelError

    return (SkillMemoryError, IndexStoreError, ModelError)


class MemoryGroup(click.Group):
    """A click group that turns domain errors into one clean line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except _domain_errors() as error:
            raise click.ClickException(str(error)) from error
        except BrokenPipeError:
            raise  # the reader went away (`| head`): click exits quietly
        except OSError as error:
            raise click.ClickException(
                f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")
            ) from error


@click.group(cls=MemoryGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(VERSION, prog_name="skill-memory")
def cli() -> None:
    """Task-aware memory of lessons per skill, for Claude Code and Codex.

    Lessons live in markdown under the memory home ($AI_MEMORY_HOME, else
    $CODEX_HOME/memories/fireworks-skill-memory, else ~/.ai-memory); a LanceDB
    index beside them is derived and can always be rebuilt. Run
    `skill-memory config` for every setting and its environment variable.
    """


for command in (
    *lessons.COMMANDS,
    *review.COMMANDS,
    *promote.COMMANDS,
    *portable.COMMANDS,
    *search.COMMANDS,
    *evaluate.COMMANDS,
    *service.COMMANDS,
    *ui.COMMANDS,
    *doctor.COMMANDS,
    *model.COMMANDS,
    *mcp.COMMANDS,
    *team.COMMANDS,
    hooks_group,
    codex_group,
):
    cli.add_command(command)


def main() -> None:
    """Console-script entry point."""
    try:
        cli(prog_name="skill-memory")
    except SystemExit as done:
        _end_now_if_a_store_hangs(done.code)
        raise


def _end_now_if_a_store_hangs(code: object) -> None:
    """Exit at once when a team command gave up on a store that never answered.

    The storage client's threads still waiting on that store would hold the interpreter's
    exit until their own request timeouts; nothing of ours runs in them (no local write),
    and the command has printed its one line.
    """
    import os
    import sys

    remote = sys.modules.get("fireworks_skill_memory.memory.team.remote")
    if remote is None or not remote.left_waiting():
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else 1)
