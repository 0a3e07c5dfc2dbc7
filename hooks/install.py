"""Install, remove and inspect the Claude Code hooks in a settings.json (no click here).

The hooks, their commands (`'<python>' -E '<shim>' # fireworks-skill-memory`), how our
handlers are recognised and the merge itself come from hooks.hook_table, shared with the Codex
installer and the plugin's hooks.json. What is Claude Code's own lives here: which
settings.json (scope), reading and writing it in its own style, the install record, backups
and status.

Editing is a merge: every other key and every foreign hook stays where it was, and the
file is re-serialised in its own style (indent, separators, ASCII escaping, trailing
newline), so install-then-uninstall gives back the original bytes of a file written by a
JSON dumper. Containers that were empty before the first install (`"hooks": {}`) are
remembered in `<home>/run/hooks-install.json`, with whether the file was created, so
uninstall removes only what the installer added. Writes are atomic, under the file's
lock, after a timestamped backup of the previous content.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import re
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fireworks_skill_memory.hooks import hook_table
from fireworks_skill_memory.hooks.hook_table import (
    MARKER,
    SHIM_DIR,
    MalformedHooks,
    handlers,
    hook_command,
    installed,
    is_ours,
    parse_command,
    shim_path,
)
from fireworks_skill_memory.memory.errors import SkillMemoryError

__all__ = [  # this module's API, with the hook table's names its callers use
    "DEFAULT_INDENT",
    "EVENTS",
    "HOOKS",
    "MARKER",
    "RECORD_NAME",
    "SCOPES",
    "SHIM_DIR",
    "Change",
    "JsonStyle",
    "SettingsError",
    "SettingsFile",
    "default_targets",
    "detect_style",
    "empty_containers",
    "hook_command",
    "inspect_file",
    "install",
    "is_ours",
    "parse_command",
    "read_record",
    "read_settings",
    "record_path",
    "service_status",
    "shim_path",
    "status",
    "target_path",
    "uninstall",
]

RECORD_NAME = "hooks-install.json"
SCOPES = ("user", "project")
DEFAULT_INDENT = 2
HOOKS = hook_table.hooks_for("claude")
EVENTS = tuple(spec.event for spec in HOOKS)


class SettingsError(SkillMemoryError):
    """A settings.json that cannot be read or merged (it is left untouched)."""


# ---- where and what ---------------------------------------------------------------------
def target_path(
    scope: str = "user",
    settings: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
) -> str:
    """The settings.json to edit: `--settings PATH`, else the user or project one."""
    env = os.environ if env is None else env
    if settings:
        return os.path.abspath(os.path.expanduser(settings))
    if scope == "project":
        return os.path.join(os.path.abspath(cwd or os.getcwd()), ".claude", "settings.json")
    if scope != "user":
        raise SettingsError(f"unknown scope {scope!r} (expected user or project)")
    config_dir = env.get("CLAUDE_CONFIG_DIR") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".claude"
    )
    return os.path.join(os.path.abspath(os.path.expanduser(config_dir)), "settings.json")


# ---- reading and writing in the file's own style ----------------------------------------
@dataclass(frozen=True)
class JsonStyle:
    """How a settings file was serialised, so it can be written back the same way."""

    indent: int | str | None = DEFAULT_INDENT
    separators: tuple[str, str] = (",", ": ")
    ensure_ascii: bool = False
    newline: str = "\n"
    trailing_newline: bool = True
    bom: bool = False

    def render(self, data: Mapping[str, Any]) -> str:
        """The document as text in this style."""
        text = json.dumps(
            data, indent=self.indent, separators=self.separators, ensure_ascii=self.ensure_ascii
        )
        if self.trailing_newline:
            text += "\n"
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return ("\ufeff" if self.bom else "") + text


@dataclass
class SettingsFile:
    """A settings.json as read: its path (symlinks resolved), data, style and text."""

    path: str
    exists: bool
    data: dict[str, Any]
    style: JsonStyle
    text: str = ""
    mode: int = 0o644


def read_settings(path: str) -> SettingsFile:
    """Read and parse a settings file (SettingsError, with one line, when it is unusable)."""
    real = os.path.realpath(path)
    try:
        with open(real, "rb") as handle:
            raw = handle.read()
        mode = os.stat(real).st_mode & 0o777
    except FileNotFoundError:
        return SettingsFile(real, False, {}, JsonStyle())
    except IsADirectoryError:
        raise SettingsError(f"{path}: is a directory, not a settings file") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SettingsError(
            f"{path}: not UTF-8 text (byte {error.start}); left untouched"
        ) from None
    body = text[1:] if text.startswith("\ufeff") else text
    if not body.strip():
        return SettingsFile(real, True, {}, JsonStyle(bom=body != text), text, mode)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as error:
        raise SettingsError(
            f"{path}: not valid JSON ({error.msg} at line {error.lineno} column {error.colno});"
            " left untouched"
        ) from None
    except RecursionError:
        raise SettingsError(f"{path}: nested too deeply to parse; left untouched") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: the top level is not a JSON object; left untouched")
    return SettingsFile(real, True, data, detect_style(body, data, body != text), text, mode)


def detect_style(text: str, data: Any, bom: bool = False) -> JsonStyle:
    """The JSON style that reproduces `text` exactly, else the closest guess."""
    newline = "\r\n" if "\r\n" in text else "\n"
    trailing = text.endswith("\n")
    indent = _detect_indent(text)
    separators = [(",", ": "), (", ", ": ")] if indent is not None else [(", ", ": "), (",", ":")]
    for ensure_ascii in (False, True):
        for pair in separators:
            style = JsonStyle(indent, pair, ensure_ascii, newline, trailing, bom)
            if style.render(data) == ("\ufeff" if bom else "") + text:
                return style
    if indent is None:
        pair = (", ", ": ") if '": ' in text else (",", ":")
    else:
        pair = (", ", ": ") if re.search(r", \r?\n", text) else (",", ": ")
    ascii_only = text.isascii() and "\\u" in text
    return JsonStyle(indent, pair, ascii_only, newline, trailing, bom)


def _detect_indent(text: str) -> int | str | None:
    """The indentation unit of a JSON text (None for a single-line document)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and stripped != line:
            lead = line[: len(line) - len(stripped)]
            return len(lead) if set(lead) == {" "} else lead
    return None if "\n" not in text.strip() else 0


# ---- what the merge changes -------------------------------------------------------------
def empty_containers(data: Mapping[str, Any]) -> list[str]:
    """Containers we would fill that are empty now (`hooks`, `hooks.<Event>`)."""
    table = data.get("hooks")
    if not isinstance(table, dict):
        return []
    names = ["hooks"] if not table else []
    names += [f"hooks.{e}" for e in EVENTS if isinstance(table.get(e), list) and not table[e]]
    return names


# ---- install and uninstall --------------------------------------------------------------
@dataclass
class Change:
    """What an install or uninstall did (or, with dry_run, would do) to one file."""

    action: str
    path: str
    changed: bool
    dry_run: bool
    before: str
    after: str | None
    data: dict[str, Any] | None
    written: bool = False
    removed_file: bool = False
    backup: str | None = None
    events: list[str] = field(default_factory=list)

    def diff(self) -> str:
        """A unified diff of the file, before and after."""
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            (self.after or "").splitlines(keepends=True),
            fromfile=self.path,
            tofile=f"{self.path} ({self.action})",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)

    def as_json(self) -> dict[str, Any]:
        """The change for `--json` output."""
        return {
            "action": self.action,
            "path": self.path,
            "changed": self.changed,
            "dry_run": self.dry_run,
            "written": self.written,
            "removed_file": self.removed_file,
            "backup": self.backup,
            "events": self.events,
            "diff": self.diff(),
            "settings": self.data,
        }


def install(
    path: str, python: str | None = None, *, dry_run: bool = False, home: str | None = None
) -> Change:
    """Merge our hooks into the settings file at `path` (created when missing)."""
    current = read_settings(path)
    preview = _install_change(current, python, dry_run=dry_run)  # errors before any write
    if dry_run or not preview.changed:
        return preview
    from fireworks_skill_memory.memory.store.files import locked

    with locked(current.path):
        current = read_settings(path)
        change = _install_change(current, python, dry_run=False)
        record_home = home if home is not None else _home()
        if change.changed:
            _remember(record_home, current)
            change.backup = _backup(current)
            from fireworks_skill_memory.memory.store.files import write_atomic

            write_atomic(current.path, _encode(change.after or ""), mode=current.mode)
            change.written = True
    return change


def _install_change(current: SettingsFile, python: str | None, *, dry_run: bool) -> Change:
    commands = {spec.event: hook_command(spec, python) for spec in HOOKS}
    try:
        data = hook_table.merged(current.data, HOOKS, commands)
    except MalformedHooks as error:
        raise SettingsError(f"{current.path}: {error}") from None
    after = current.style.render(data)
    return Change(
        action="install",
        path=current.path,
        changed=after != current.text,
        dry_run=dry_run,
        before=current.text,
        after=after,
        data=data,
        events=list(EVENTS),
    )


def uninstall(path: str, *, dry_run: bool = False, home: str | None = None) -> Change:
    """Remove our hooks from the settings file at `path` (and the file, if we created it)."""
    record_home = home if home is not None else _home()
    current = read_settings(path)
    preview = _uninstall_change(current, _recorded(record_home, current.path), dry_run=dry_run)
    if dry_run or not preview.changed:
        return preview
    from fireworks_skill_memory.memory.store.files import lock_path, locked, write_atomic

    with locked(current.path):
        current = read_settings(path)
        record = _recorded(record_home, current.path)
        change = _uninstall_change(current, record, dry_run=False)
        if change.removed_file:  # nothing but our hooks: no backup, no lock file left
            os.unlink(current.path)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(lock_path(current.path))
            change.written = True
        elif change.changed:
            change.backup = _backup(current)
            write_atomic(current.path, _encode(change.after or ""), mode=current.mode)
            change.written = True
        if record is not None:
            _forget(record_home, current.path)
    return change


def _uninstall_change(
    current: SettingsFile, record: Mapping[str, Any] | None, *, dry_run: bool
) -> Change:
    kept = frozenset(str(name) for name in (record or {}).get("kept_empty", []))
    data = hook_table.stripped(current.data, kept)
    removed = sorted(installed(current.data))
    created = bool((record or {}).get("created"))
    drop_file = current.exists and bool(removed) and created and not data
    after = None if drop_file else current.style.render(data)
    return Change(
        action="uninstall",
        path=current.path,
        changed=current.exists and bool(removed),
        dry_run=dry_run,
        before=current.text,
        after=after if current.exists else None,
        data=None if drop_file else data,
        removed_file=drop_file,
        events=removed,
    )


def _encode(text: str) -> bytes:
    return text.encode("utf-8")


def _backup(current: SettingsFile) -> str | None:
    """Copy the previous content beside the file; None when there was no file."""
    if not current.exists:
        return None
    from fireworks_skill_memory.memory.store.files import write_atomic

    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{current.path}.skill-memory-{stamp}.bak"
    target, n = base, 1
    while os.path.exists(target):
        target, n = f"{base[: -len('.bak')]}-{n}.bak", n + 1
    write_atomic(target, _encode(current.text), mode=current.mode)
    return target


# ---- the install record (in the memory home) --------------------------------------------
def _home() -> str:
    from fireworks_skill_memory.memory.config import resolve_home

    return resolve_home(os.environ)


def record_path(home: str) -> str:
    """Where the installer remembers which files it created or found with empty containers."""
    return os.path.join(home, "run", RECORD_NAME)


def read_record(home: str) -> dict[str, dict[str, Any]]:
    """Settings files with our hooks -> what was true before the first install."""
    try:
        with open(record_path(home), encoding="utf-8") as handle:
            files = json.load(handle).get("files", {})
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {str(path): entry for path, entry in files.items() if isinstance(entry, dict)}


def _recorded(home: str, path: str) -> dict[str, Any] | None:
    return read_record(home).get(path)


def _remember(home: str, current: SettingsFile) -> None:
    """Note the file's pre-install facts, unless our hooks were already in it."""
    if installed(current.data) and _recorded(home, current.path) is not None:
        return
    entry = {
        "created": not current.exists,
        "kept_empty": empty_containers(current.data),
        "python": os.path.abspath(sys.executable),
        "installed": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    if installed(current.data):  # ours from an unrecorded install: facts unknown
        entry.update(created=False, kept_empty=[])
    _update_record(home, lambda files: files.__setitem__(current.path, entry))


def _forget(home: str, path: str) -> None:
    _update_record(home, lambda files: files.pop(path, None))


def _update_record(home: str, edit: Callable[[dict[str, dict[str, Any]]], object]) -> None:
    from fireworks_skill_memory.memory.store.files import locked, write_atomic

    target = record_path(home)
    os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
    with locked(target):
        files = read_record(home)
        edit(files)
        text = json.dumps({"version": 1, "files": files}, indent=2, ensure_ascii=False) + "\n"
        write_atomic(target, _encode(text), mode=0o600)


# ---- status -----------------------------------------------------------------------------
def inspect_file(path: str, scope: str) -> dict[str, Any]:
    """Which of our hooks one settings file holds, from which interpreter and shims."""
    report: dict[str, Any] = {"path": path, "scope": scope, "exists": False, "error": None}
    try:
        current = read_settings(path)
    except (SettingsError, OSError) as error:
        return {**report, "exists": True, "error": str(error)}
    found = installed(current.data)
    events = {
        event: [_describe(entry, event) for entry in entries] for event, entries in found.items()
    }
    foreign = sum(1 for _, _, handler in handlers(current.data) if not is_ours(handler))
    return {
        **report,
        "path": current.path,
        "exists": current.exists,
        "events": events,
        "missing": [event for event in EVENTS if event not in found],
        "complete": all(event in found for event in EVENTS),
        "current": all(
            entry["this_installation"] and entry["paths_exist"] and entry["up_to_date"]
            for entries in events.values()
            for entry in entries
        )
        and bool(events),
        "foreign_handlers": foreign,
    }


def _describe(entry: Mapping[str, Any], event: str) -> dict[str, Any]:
    command = str(entry.get("command", ""))
    expected = [hook_command(spec) for spec in HOOKS if spec.event == event]
    python, script = parse_command(command)
    python_ok = bool(python) and os.access(str(python), os.X_OK)
    script_ok = bool(script) and os.path.isfile(str(script))
    here = (
        python == os.path.abspath(sys.executable)
        and script is not None
        and (os.path.dirname(script) == hook_table.SHIM_DIR)
    )
    return {
        "matcher": entry.get("matcher"),
        "timeout": entry.get("timeout"),
        "command": command,
        "python": python,
        "script": script,
        "python_exists": python_ok,
        "script_exists": script_ok,
        "paths_exist": python_ok and script_ok,
        "this_installation": here,
        "up_to_date": command in expected,  # False for an earlier version's form (no -E)
    }


def status(
    targets: list[tuple[str, str]] | None = None,
    *,
    home: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
) -> dict[str, Any]:
    """Hooks in each settings file (user, project, recorded ones by default) and the service."""
    record_home = home if home is not None else _home()
    if targets is None:
        targets = default_targets(record_home, env, cwd)
    files = [inspect_file(path, scope) for path, scope in targets]
    return {
        "python": os.path.abspath(sys.executable),
        "shims": hook_table.SHIM_DIR,
        "files": files,
        "service": service_status(record_home),
        "console_script": _which("skill-memory-hook"),
    }


def default_targets(
    home: str, env: Mapping[str, str] | None = None, cwd: str | None = None
) -> list[tuple[str, str]]:
    """The user, project and project-local settings, plus files recorded by earlier installs."""
    project = target_path("project", env=env, cwd=cwd)
    targets = [
        (target_path("user", env=env), "user"),
        (project, "project"),
        (os.path.join(os.path.dirname(project), "settings.local.json"), "project-local"),
    ]
    seen = {os.path.realpath(path) for path, _ in targets}
    for path in read_record(home):
        if os.path.realpath(path) not in seen:
            targets.append((path, "recorded"))
            seen.add(os.path.realpath(path))
    return targets


def service_status(home: str) -> dict[str, Any]:
    """Whether the warm service of this memory home answers `ping`."""
    from fireworks_skill_memory.memory.service.client import try_call

    reply = try_call(home, "ping", timeout=0.5)
    if reply is None:
        return {"home": home, "running": False}
    return {"home": home, "running": True, **reply}


def _which(name: str) -> str | None:
    import shutil

    return shutil.which(name)
