"""`skill-memory hooks ...`: install, remove and inspect the Claude Code hooks."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fireworks_skill_memory.cli.common import emit_json, json_option

if TYPE_CHECKING:
    from fireworks_skill_memory.hooks.install import Change
    from fireworks_skill_memory.hooks.mcp_install import McpChange

F = TypeVar("F", bound=Callable[..., Any])


def _target_options(func: F) -> F:
    """`--scope user|project` and `--settings PATH`."""
    func = click.option(
        "--settings",
        "settings_file",
        type=click.Path(dir_okay=False),
        help="Edit this settings.json instead of the scope's one.",
    )(func)
    func = click.option(
        "--scope",
        type=click.Choice(["user", "project"]),
        default="user",
        show_default=True,
        help="user: $CLAUDE_CONFIG_DIR/settings.json; project: ./.claude/settings.json.",
    )(func)
    return func


def _write_options(func: F) -> F:
    func = json_option(func)
    func = click.option(
        "--dry-run", is_flag=True, help="Print what would change (a diff); write nothing."
    )(func)
    return _target_options(func)


@click.group("hooks")
def hooks_group() -> None:
    """Install, remove or inspect the Claude Code hooks."""


def _mcp_option(func: F) -> F:
    return click.option(
        "--mcp/--no-mcp",
        default=True,
        show_default=True,
        help="Also register (or remove) the MCP server (the memory tools) for the scope: "
        "~/.claude.json (user) or ./.mcp.json (project).",
    )(func)


@hooks_group.command("install")
@_write_options
@_mcp_option
def install_command(
    scope: str, settings_file: str | None, dry_run: bool, as_json: bool, mcp: bool
) -> None:
    """Add the hooks to a Claude Code settings.json (replacing earlier ones of ours).

    Every other key and foreign hook is kept; the previous file is backed up beside it.
    With --mcp (the default) the memory's MCP server is registered too.
    """
    from fireworks_skill_memory.hooks import install, mcp_install

    path = install.target_path(scope, settings_file)
    change = install.install(path, dry_run=dry_run)
    server = mcp_install.register(mcp_install.target_path(scope), dry_run=dry_run) if mcp else None
    _report(change, as_json, server)


@hooks_group.command("uninstall")
@_write_options
@_mcp_option
def uninstall_command(
    scope: str, settings_file: str | None, dry_run: bool, as_json: bool, mcp: bool
) -> None:
    """Remove exactly our hooks (and, with --mcp, our MCP server) from Claude Code's files."""
    from fireworks_skill_memory.hooks import install, mcp_install

    path = install.target_path(scope, settings_file)
    change = install.uninstall(path, dry_run=dry_run)
    server = (
        mcp_install.unregister(mcp_install.target_path(scope), dry_run=dry_run) if mcp else None
    )
    _report(change, as_json, server)


@hooks_group.command("status")
@click.option("--scope", type=click.Choice(["user", "project"]), help="Only this scope's file.")
@click.option(
    "--settings", "settings_file", type=click.Path(dir_okay=False), help="Only this file."
)
@json_option
def status_command(scope: str | None, settings_file: str | None, as_json: bool) -> None:
    """Where the hooks are installed, from which interpreter, and whether the service answers.

    Without --scope or --settings: the user, project and project-local settings, and
    every file an earlier install recorded.
    """
    from fireworks_skill_memory.hooks import install

    targets = None
    if scope or settings_file:
        path = install.target_path(scope or "user", settings_file)
        targets = [(path, "explicit" if settings_file else str(scope))]
    report = install.status(targets)
    if as_json:
        emit_json(report)
        return
    for line in _status_lines(report):
        click.echo(line)


def _report(change: Change, as_json: bool, server: McpChange | None = None) -> None:
    """Print an install/uninstall outcome."""
    if as_json:
        emit_json({**change.as_json(), "mcp": None if server is None else server.as_json()})
        return
    if change.dry_run:
        click.echo(change.diff() or f"no change to {change.path}", nl=not change.diff())
    else:
        click.echo(_summary(change))
    if server is not None:
        click.echo(_mcp_summary(server))


def _mcp_summary(server: McpChange) -> str:
    """One line saying what happened to the MCP server's registration."""
    name = "MCP server `skill-memory`"
    if server.dry_run:
        verb = "would register" if server.action == "register" else "would remove"
        return f"{verb} the {name} in {server.path}" if server.changed else f"{name}: no change"
    if not server.changed:
        state = "already registered in" if server.action == "register" else "not registered in"
        return f"{name} {state} {server.path} (unchanged)"
    verb = "registered the" if server.action == "register" else "removed the"
    backup = f" (previous file: {server.backup})" if server.backup else ""
    return f"{verb} {name} in {server.path}{backup}"


def _summary(change: Change) -> str:
    """One line saying what happened to the file."""
    if not change.changed:
        if change.action == "install":
            return f"already installed in {change.path} (unchanged)"
        return f"no hooks of ours in {change.path} (unchanged)"
    if change.removed_file:
        return f"removed {len(change.events)} hooks and the file we created: {change.path}"
    verb = "installed" if change.action == "install" else "removed"
    backup = f" (previous file: {change.backup})" if change.backup else ""
    return f"{verb} {len(change.events)} hooks in {change.path}{backup}"


def _status_lines(report: dict[str, Any]) -> list[str]:
    """Human-readable status."""
    lines = [f"interpreter: {report['python']}", f"shims:       {report['shims']}"]
    for entry in report["files"]:
        lines.extend(_file_lines(entry))
    service = report["service"]
    if service.get("running"):
        state = "ready" if service.get("ready") else "warming up"
        lines.append(f"service: running (pid {service.get('pid')}, {state}) for {service['home']}")
    else:
        lines.append(f"service: not running for {service['home']} (SessionStart starts it)")
    script = report.get("console_script")
    lines.append(f"skill-memory-hook on PATH: {script or 'no (the plugin needs it)'}")
    return lines


def _file_lines(entry: dict[str, Any]) -> list[str]:
    head = f"{entry['path']} ({entry['scope']})"
    if entry.get("error"):
        return [f"{head}: error: {entry['error']}"]
    if not entry["exists"]:
        return [f"{head}: no such file"]
    events = entry.get("events", {})
    count = len(events)
    lines = [f"{head}: {count}/{count + len(entry['missing'])} events installed"]
    for event, handlers in events.items():
        for handler in handlers:
            matcher = f" [{handler['matcher']}]" if handler.get("matcher") else ""
            health = "ok" if handler["paths_exist"] else "MISSING PATH"
            origin = "" if handler["this_installation"] else " (another installation)"
            origin += "" if handler["up_to_date"] else " (an earlier version's command: reinstall)"
            lines.append(f"  {event}{matcher}: {handler['script']} {health}{origin}")
    if entry["missing"] and events:
        lines.append(f"  missing: {', '.join(entry['missing'])}")
    return lines
