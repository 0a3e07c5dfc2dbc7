"""Register the MCP server (`skill-memory mcp`) with Claude Code, and remove it again.

User scope is the `mcpServers` table of `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`
when that is set), project scope the project's `.mcp.json`: the two files Claude Code
documents. The entry runs this installation's interpreter by absolute path on the server
module (`python -I -m fireworks_skill_memory.mcpserver --agent claude-code`). Editing is a
merge like the hooks' (other keys and servers stay, the file keeps its JSON style, a backup
is written first); `<home>/run/mcp-install.json` remembers whether the file or its
`mcpServers` table existed, so uninstall gives back what was there. The Codex installer
builds its `[mcp_servers.skill-memory]` table from the same `server_command`.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fireworks_skill_memory.hooks.install import SettingsError, read_settings

SERVER_NAME = "skill-memory"
SERVER_MODULE = "fireworks_skill_memory.mcpserver"
RECORD_NAME = "mcp-install.json"
PROJECT_FILE = ".mcp.json"
USER_FILE = ".claude.json"


def server_command(agent: str, python: str | None = None) -> tuple[str, list[str]]:
    """(command, args) starting this installation's MCP server for `agent`.

    The interpreter runs the server module directly (`-m`), not the `skill-memory` script:
    the click CLI would add its own start-up to every agent session's MCP start. `-I` keeps
    the agent's working directory off `sys.path` (a project's own `mcp/` folder would
    otherwise shadow the SDK), as for the service.
    """
    exe = os.path.abspath(python or sys.executable)
    return exe, ["-I", "-m", SERVER_MODULE, "--agent", agent]


def is_ours(entry: object) -> bool:
    """True for a server entry an installer of this project wrote (whatever its paths), the
    `skill-memory mcp --agent A` form of earlier versions included."""
    if not isinstance(entry, Mapping):
        return False
    args = entry.get("args")
    if not isinstance(args, list) or "--agent" not in args:
        return False
    return SERVER_MODULE in args or "mcp" in args


def target_path(
    scope: str = "user", env: Mapping[str, str] | None = None, cwd: str | None = None
) -> str:
    """The file Claude Code reads MCP servers from for `scope` (user or project)."""
    env = os.environ if env is None else env
    if scope == "project":
        return os.path.join(os.path.abspath(cwd or os.getcwd()), PROJECT_FILE)
    if scope != "user":
        raise SettingsError(f"unknown scope {scope!r} (expected user or project)")
    folder = env.get("CLAUDE_CONFIG_DIR") or env.get("HOME") or os.path.expanduser("~")
    return os.path.join(os.path.abspath(os.path.expanduser(folder)), USER_FILE)


@dataclass(frozen=True)
class McpChange:
    """What registering or removing the server did (or, on a dry run, would do) to a file."""

    action: str  # register | unregister
    path: str
    changed: bool
    dry_run: bool
    written: bool = False
    removed_file: bool = False
    backup: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "path": self.path,
            "name": SERVER_NAME,
            "changed": self.changed,
            "dry_run": self.dry_run,
            "written": self.written,
            "removed_file": self.removed_file,
            "backup": self.backup,
        }


def register(
    path: str, *, python: str | None = None, dry_run: bool = False, home: str | None = None
) -> McpChange:
    """Add (or update) our server in the `mcpServers` table of the file at `path`."""
    from fireworks_skill_memory.memory.store.files import locked

    command, args = server_command("claude-code", python)
    entry = {"type": "stdio", "command": command, "args": args, "env": {}}
    current = read_settings(path)
    servers = _servers(current.data, current.path)
    existing = servers.get(SERVER_NAME)
    if existing is not None and not is_ours(existing):
        raise SettingsError(
            f"{current.path}: an MCP server named {SERVER_NAME!r} that is not ours is "
            "registered; remove it first (or install with --no-mcp)"
        )
    if existing == entry or dry_run:
        return McpChange("register", current.path, existing != entry, dry_run)
    with locked(current.path):
        current = read_settings(path)
        servers = _servers(current.data, current.path)
        if SERVER_NAME not in servers:
            _remember(home, current.path, not current.exists, "mcpServers" in current.data)
        data = {**current.data, "mcpServers": {**servers, SERVER_NAME: entry}}
        backup = _write(current, data)
    return McpChange("register", current.path, True, False, written=True, backup=backup)


def unregister(path: str, *, dry_run: bool = False, home: str | None = None) -> McpChange:
    """Remove our server; the table, or the file, goes too when the install brought it."""
    from fireworks_skill_memory.memory.store.files import lock_path, locked

    current = read_settings(path)
    if not is_ours(_servers(current.data, current.path).get(SERVER_NAME)) or dry_run:
        changed = is_ours(_servers(current.data, current.path).get(SERVER_NAME))
        return McpChange("unregister", current.path, changed, dry_run)
    with locked(current.path):
        current = read_settings(path)
        record = _records(home).get(current.path, {})
        servers = dict(_servers(current.data, current.path))
        servers.pop(SERVER_NAME, None)
        data = {**current.data, "mcpServers": servers}
        if not servers and record.get("had_servers") is False:
            del data["mcpServers"]
        if not data and record.get("created") is True:
            os.unlink(current.path)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(lock_path(current.path))
            change = McpChange("unregister", current.path, True, False, True, removed_file=True)
        else:
            backup = _write(current, data)
            change = McpChange("unregister", current.path, True, False, True, backup=backup)
        _forget(home, current.path)
    return change


def registered(path: str) -> dict[str, Any] | None:
    """Our server's entry in the file at `path` (None: not registered, or no such file)."""
    try:
        current = read_settings(path)
        entry = _servers(current.data, current.path).get(SERVER_NAME)
    except (SettingsError, OSError):
        return None
    return dict(entry) if isinstance(entry, dict) and is_ours(entry) else None


def _servers(data: Mapping[str, Any], path: str) -> dict[str, Any]:
    servers = data.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise SettingsError(f'{path}: "mcpServers" is not an object; left untouched')
    return servers


def _write(current: Any, data: dict[str, Any]) -> str | None:
    from fireworks_skill_memory.hooks.install import _backup
    from fireworks_skill_memory.memory.store.files import write_atomic

    backup = _backup(current)
    write_atomic(current.path, current.style.render(data).encode("utf-8"), mode=current.mode)
    return backup


# ---- what was there before the first install --------------------------------------------
def _record_path(home: str | None) -> str:
    from fireworks_skill_memory.memory.config import resolve_home

    return os.path.join(home or resolve_home(os.environ), "run", RECORD_NAME)


def _records(home: str | None) -> dict[str, dict[str, Any]]:
    try:
        with open(_record_path(home), encoding="utf-8") as handle:
            files = json.load(handle)
    except (OSError, ValueError):
        return {}
    return (
        {str(k): v for k, v in files.items() if isinstance(v, dict)}
        if isinstance(files, dict)
        else {}
    )


def _remember(home: str | None, path: str, created: bool, had_servers: bool) -> None:
    _update(
        home,
        lambda records: records.setdefault(path, {"created": created, "had_servers": had_servers}),
    )


def _forget(home: str | None, path: str) -> None:
    _update(home, lambda records: records.pop(path, None))


def _update(home: str | None, edit: Callable[[dict[str, dict[str, Any]]], object]) -> None:
    from fireworks_skill_memory.memory.store.files import locked, write_atomic

    target = _record_path(home)
    os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
    with locked(target):
        records = _records(home)
        edit(records)
        text = json.dumps(records, indent=2, ensure_ascii=False) + "\n"
        write_atomic(target, text.encode("utf-8"), mode=0o600)
