"""`skill-memory team push|pull|status|retract`: share lessons through the team store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from fireworks_skill_memory.cli.common import (
    _embedder,
    emit_json,
    json_option,
    settings,
    skill_option,
)
from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.store.skill_names import validate_skill

F = TypeVar("F", bound=Callable[..., Any])


def timeout_option(func: F) -> F:
    """`--timeout S`: how long to wait for any one answer of the team store."""
    return click.option(
        "--timeout",
        type=click.IntRange(1, 86400),
        help="Seconds to wait for any one answer of the team store before failing "
        "[default: $SKILL_MEMORY_TEAM_TIMEOUT or 60].",
    )(func)


def team_settings(timeout: int | None) -> Settings:
    """This invocation's settings, with `--timeout` in place of SKILL_MEMORY_TEAM_TIMEOUT."""
    config = settings()
    if timeout is None:
        return config
    return load_settings({**config.environ, "SKILL_MEMORY_TEAM_TIMEOUT": str(timeout)})


@click.group("team")
def team_group() -> None:
    """Share lessons with a team through a LanceDB table (SKILL_MEMORY_TEAM_URI).

    Credentials come from the storage's own environment (AWS_ACCESS_KEY_ID, AWS_ENDPOINT_URL,
    AWS_ALLOW_HTTP, GOOGLE_*, AZURE_*); this tool never stores them.
    """


@team_group.command("push")
@skill_option(required=False)
@click.option("--dry-run", is_flag=True, help="Decide everything, write nothing.")
@timeout_option
@json_option
def push_command(skill: str | None, dry_run: bool, timeout: int | None, as_json: bool) -> None:
    """Publish this home's lessons (screened and redacted again) to the team table."""
    from fireworks_skill_memory.memory.screen.screen import screen_for
    from fireworks_skill_memory.memory.team.push import push

    if skill is not None:
        validate_skill(skill)
    embedder = _embedder()
    config = team_settings(timeout)
    report = push(config, embedder, screen_for(config, embedder), skill=skill, dry_run=dry_run)
    if as_json:
        emit_json(report.as_json())
        return
    verb = "would push" if dry_run else "pushed"
    click.echo(
        f"{verb}: {report.added} added, {report.merged} merged into team lessons, "
        f"{report.unchanged} already there, {report.screened_out} stopped by the screen"
    )


@team_group.command("pull")
@timeout_option
@json_option
def pull_command(timeout: int | None, as_json: bool) -> None:
    """Bring the team's lessons into <home>/team/ (read-only) and index them."""
    from fireworks_skill_memory.memory.screen.screen import screen_for
    from fireworks_skill_memory.memory.team.pull import pull

    embedder = _embedder()
    config = team_settings(timeout)
    report = pull(config, embedder, screen_for(config, embedder))
    if as_json:
        emit_json(report.as_json())
        return
    kind = "full" if report.full else "incremental"
    click.echo(
        f"pulled version {report.version} ({kind}, {report.rows_read} rows read): "
        f"{report.updated} updated, {report.removed} removed, "
        f"{report.quarantined} quarantined; {report.lessons} team lessons here"
    )


@team_group.command("status")
@timeout_option
@json_option
def status_command(timeout: int | None, as_json: bool) -> None:
    """The team store: reachable or not, lessons, version, last pull and push, unpushed."""
    from fireworks_skill_memory.memory.team.remote import TeamNotConfigured
    from fireworks_skill_memory.memory.team.status import team_status

    config = team_settings(timeout)
    if not config.team_uri:
        raise TeamNotConfigured("no team store: set SKILL_MEMORY_TEAM_URI")
    status = team_status(config, "", 0)
    if as_json:
        emit_json(status.as_json())
    else:
        for key, value in status.as_json().items():
            click.echo(f"{key}: {'-' if value is None else value}")
    if not status.reachable:
        raise click.ClickException(status.problem or "the team store is not reachable")


@team_group.command("retract")
@click.argument("lesson_id")
@timeout_option
@json_option
def retract_command(lesson_id: str, timeout: int | None, as_json: bool) -> None:
    """Take your own lesson LESSON_ID out of the team table."""
    from fireworks_skill_memory.memory.team.push import retract

    result = retract(team_settings(timeout), _embedder(), lesson_id)
    if as_json:
        emit_json({"id": result.id, "retracted": result.removed})
    elif result.removed:
        click.echo(f"retracted {result.id} from the team table")
    else:
        click.echo(f"removed your copy of {result.id}; teammates' copies keep it")


COMMANDS = (team_group,)
