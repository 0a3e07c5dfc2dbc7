"""`skill-memory codex ...`: install and remove the Codex hooks and AGENTS.md block."""

from __future__ import annotations

from typing import Any

import click

from fireworks_skill_memory.cli.common import emit_json, json_option
from fireworks_skill_memory.codex.install import (
    EVENTS,
    CodexStatus,
    FileChange,
    InstallReport,
    UninstallReport,
)

TRUST_HINT = (
    "Codex runs new or changed hooks only once you trust them; until then `codex exec` "
    "silently skips them.\nTrust them: open `codex`, type /hooks and trust the {n} "
    "fireworks-skill-memory hooks (or run `skill-memory codex install --trust`, which records "
    "the hashes Codex reports, as /hooks does)."
)


def _codex_home_option(func: Any) -> Any:
    return click.option(
        "--codex-home",
        type=click.Path(file_okay=False),
        help="Codex home [default: $CODEX_HOME, else ~/.codex].",
    )(func)


def _codex_bin_option(func: Any) -> Any:
    return click.option(
        "--codex-bin", help="The codex executable used to read hook trust [default: on PATH]."
    )(func)


@click.group("codex")
def codex_group() -> None:
    """Install or remove the Codex CLI integration (hooks and AGENTS.md block)."""


@codex_group.command("install")
@_codex_home_option
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option(
    "--trust",
    is_flag=True,
    help="Also record trust for our hooks in config.toml (asks `codex app-server` for the hashes).",
)
@_codex_bin_option
@click.option(
    "--mcp/--no-mcp",
    default=True,
    show_default=True,
    help="Also register the MCP server (the memory tools) in config.toml [mcp_servers].",
)
@json_option
def install_command(
    codex_home: str | None,
    dry_run: bool,
    trust: bool,
    codex_bin: str | None,
    mcp: bool,
    as_json: bool,
) -> None:
    """Add the hooks to $CODEX_HOME/hooks.json and the instructions block to AGENTS.md.

    Safe to run again: our entries are updated in place, other hooks are kept, and a file
    that held anything else is backed up first.
    """
    from fireworks_skill_memory.codex.install import install

    report = install(codex_home, dry_run=dry_run, trust=trust, codex_bin=codex_bin, mcp=mcp)
    if as_json:
        emit_json(report.as_json())
        return
    _print_install(report)


def _print_install(report: InstallReport) -> None:
    click.echo(f"Codex home: {report.codex_home}")
    for change in report.changes:
        click.echo(f"  {_verb(change, report.dry_run)} {change.path}")
    click.echo("Hooks: " + ", ".join(EVENTS))
    for event, command in report.commands.items():
        click.echo(f"  {event}: {command}")
    click.echo(f"AGENTS.md tells the agent to run: {report.agents_command} inject|checkpoint|flush")
    if report.mcp:
        click.echo("MCP server: [mcp_servers.skill-memory] in config.toml (the memory tools)")
    for path in report.backups:
        click.echo(f"backup: {path}")
    if report.trusted is not None:
        click.echo(f"trusted {len(report.trusted)} hooks in config.toml")
    elif not report.dry_run:
        click.echo(TRUST_HINT.format(n=len(report.commands)))


def _verb(change: FileChange, dry_run: bool) -> str:
    if dry_run:
        return (
            "(dry run) would leave"
            if change.action == "unchanged"
            else f"(dry run) would {change.action}"
        )
    return {"unchanged": "unchanged", "create": "created", "update": "updated"}.get(
        change.action, "deleted"
    )


@codex_group.command("uninstall")
@_codex_home_option
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@json_option
def uninstall_command(codex_home: str | None, dry_run: bool, as_json: bool) -> None:
    """Remove our hooks and AGENTS.md block, restoring the files as they were before."""
    from fireworks_skill_memory.codex.install import uninstall

    report = uninstall(codex_home, dry_run=dry_run)
    if as_json:
        emit_json(report.as_json())
        return
    _print_uninstall(report)


def _print_uninstall(report: UninstallReport) -> None:
    click.echo(f"Codex home: {report.codex_home}")
    for change in report.changes:
        click.echo(f"  {_verb(change, report.dry_run)} {change.path}")
    for path in report.backups:
        click.echo(f"backup: {path}")


@codex_group.command("status")
@_codex_home_option
@_codex_bin_option
@json_option
def status_command(codex_home: str | None, codex_bin: str | None, as_json: bool) -> None:
    """Are the hooks installed and trusted, is the AGENTS.md block there, is the service up?"""
    from fireworks_skill_memory.codex.install import status

    report = status(codex_home, codex_bin=codex_bin)
    service = _service_state()
    if as_json:
        emit_json({**report.as_json(), "service": service})
        return
    _print_status(report, service)


def _service_state() -> dict[str, Any]:
    from fireworks_skill_memory.cli.common import settings
    from fireworks_skill_memory.memory.service import client

    home = settings().home
    reply = client.try_call(home, "ping", timeout=1.0)
    if reply is None:
        return {"running": False, "memory_home": home}
    return {"running": True, "memory_home": home, **reply}


def _print_status(report: CodexStatus, service: dict[str, Any]) -> None:
    click.echo(f"Codex home: {report.codex_home}")
    for hook in report.hooks:
        where = "missing" if not hook.installed else "installed"
        if hook.installed and not hook.current:
            where += " (points elsewhere; run `skill-memory codex install`)"
        click.echo(f"  hook {hook.event:<16} {where}, {hook.trust}")
    if report.trust_error:
        click.echo(f"  trust unknown: {report.trust_error}")
    elif report.trusted is False and any(hook.installed for hook in report.hooks):
        click.echo("  " + TRUST_HINT.format(n=len(report.hooks)).replace("\n", "\n  "))
    block = "present" if report.agents_block else "missing"
    click.echo(f"AGENTS.md block: {block} ({report.agents_file})")
    if service["running"]:
        state = "ready" if service.get("ready") else "warming up"
        pid = service.get("pid")
        click.echo(f"service: running (pid {pid}, {state}) for {service['memory_home']}")
    else:
        click.echo(
            f"service: not running for {service['memory_home']} (the SessionStart hook starts it)"
        )
