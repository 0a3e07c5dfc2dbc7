"""Install and remove the Codex CLI integration: hooks in hooks.json, a block in AGENTS.md.

`$CODEX_HOME/hooks.json` gets one handler per event (SessionStart, UserPromptSubmit,
PostToolUse, Stop) running the shared hook shims in `hooks/bin/` with this interpreter and
`-E`. The events, commands, how our handlers are recognised (whatever interpreter, flags or
path wrote them, so a reinstall replaces an earlier version's commands in place) and the merge
come from hooks.hook_table, shared with the Claude Code installer. `$CODEX_HOME/AGENTS.md`
gets a short block between HTML-comment markers telling the agent when to call `inject`,
`checkpoint` and `flush`, and which MCP tools it has. `$CODEX_HOME/config.toml` gets a
`[mcp_servers.skill-memory]` table (between comment markers) starting `skill-memory mcp`.

Install is idempotent and keeps foreign entries (ours are updated in place, so the
`<group>:<handler>` positions that Codex's trust keys name stay put). Every write is atomic
and made under a lock. A file that holds anything besides our own output is backed up with a
timestamp before it changes. The file contents from before the first install are kept in
`$CODEX_HOME/.fireworks-skill-memory/install.json`. Uninstall removes our parts and writes
the original bytes back when the remainder equals them. When a file did not exist before
and holds only our parts, uninstall deletes it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from fireworks_skill_memory.hooks import hook_table
from fireworks_skill_memory.hooks.hook_table import hook_command, is_ours
from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.store.files import locked, write_atomic

BLOCK_BEGIN = "<!-- fireworks-skill-memory:begin -->"
BLOCK_END = "<!-- fireworks-skill-memory:end -->"
HOOKS_FILE = "hooks.json"
AGENTS_FILE = "AGENTS.md"
CONFIG_FILE = "config.toml"
STATE_DIR = ".fireworks-skill-memory"
STATE_FILE = "install.json"
BACKUP_DIR = "backups"
STATE_VERSION = 1
MCP_MARK = "# fireworks-skill-memory:mcp:begin"
MCP_BEGIN = f"{MCP_MARK} (written by `skill-memory codex install`)"
MCP_END = "# fireworks-skill-memory:mcp:end"
MCP_STARTUP_TIMEOUT = 20  # s: the server answers in about a second; a loaded machine is slower
MCP_TOOL_TIMEOUT = 60  # s: a call waits at most ~10 s for a starting service, then ~20 s for it
_MCP_BLOCK = re.compile(
    r"\n*^" + re.escape(MCP_MARK) + r".*?^" + re.escape(MCP_END) + r"[ \t]*\n?",
    re.S | re.M,
)
_BLOCK = re.compile(
    r"\n*" + re.escape(BLOCK_BEGIN) + r".*?" + re.escape(BLOCK_END) + r"[ \t]*\n?", re.S
)


HOOK_SPECS = hook_table.hooks_for("codex")
EVENTS = tuple(spec.event for spec in HOOK_SPECS)


# ----------------------------------------------------------------------------- locations


def default_codex_home(env: Mapping[str, str] | None = None) -> str:
    """`$CODEX_HOME`, else `~/.codex`."""
    env = os.environ if env is None else env
    home = env.get("CODEX_HOME") or os.path.join(env.get("HOME") or "~", ".codex")
    return os.path.abspath(os.path.expanduser(home))


@dataclass(frozen=True)
class CodexPaths:
    """The files of one Codex home that this integration reads or writes."""

    home: str

    @property
    def hooks(self) -> str:
        return os.path.join(self.home, HOOKS_FILE)

    @property
    def agents(self) -> str:
        return os.path.join(self.home, AGENTS_FILE)

    @property
    def config(self) -> str:
        return os.path.join(self.home, CONFIG_FILE)

    @property
    def state_dir(self) -> str:
        return os.path.join(self.home, STATE_DIR)

    @property
    def state(self) -> str:
        return os.path.join(self.state_dir, STATE_FILE)


def codex_paths(codex_home: str | None) -> CodexPaths:
    """The paths of a Codex home (default: `default_codex_home()`); it must be a folder."""
    home = os.path.abspath(os.path.expanduser(codex_home)) if codex_home else default_codex_home()
    if os.path.exists(home) and not os.path.isdir(home):
        raise InvalidInput(f"Codex home {home} is not a directory")
    return CodexPaths(home)


def skill_memory_command(python: str | None = None) -> str:
    """The absolute path of this installation's `skill-memory` script (else the bare name)."""
    beside = os.path.join(os.path.dirname(python or sys.executable), "skill-memory")
    if os.access(beside, os.X_OK):
        return shlex.quote(beside)
    found = shutil.which("skill-memory")
    return shlex.quote(found) if found else "skill-memory"


# ----------------------------------------------------------------------------- hooks.json


def parse_hooks(raw: bytes | None, path: str) -> dict[str, Any]:
    """hooks.json as a dict (`{}` when absent); a one-line InvalidInput when malformed."""
    if raw is None or not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InvalidInput(f"{path} is not UTF-8 text; fix or move it first") from None
    except ValueError as error:
        raise InvalidInput(f"{path} is not valid JSON ({error}); fix or move it first") from None
    problem = _shape_problem(data)
    if problem:
        raise InvalidInput(f"{path}: {problem}; fix or move it first")
    assert isinstance(data, dict)
    return data


def _shape_problem(data: object) -> str | None:
    if not isinstance(data, dict):
        return "expected a JSON object"
    table = data.get("hooks", {})
    if not isinstance(table, dict):
        return '"hooks" is not an object'
    for event, groups in table.items():
        if not isinstance(groups, list):
            return f'"hooks.{event}" is not a list'
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("hooks", []), list):
                return f'"hooks.{event}" holds a group without a "hooks" list'
    return None


def merge_hooks(data: Mapping[str, Any], commands: Mapping[str, str]) -> dict[str, Any]:
    """`data` with exactly one handler of ours per event, updated in place when present."""
    return hook_table.merged(data, HOOK_SPECS, commands, keep_positions=True)


def strip_hooks(data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` without our handlers (and without the groups and events left empty by that)."""
    return hook_table.stripped(data, kept_empty=frozenset({"hooks"}))


def our_commands(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """The commands of our handlers in `data`, per event."""
    found = hook_table.installed(data)
    return {event: [str(entry["command"]) for entry in entries] for event, entries in found.items()}


def render_hooks(data: Mapping[str, Any]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _hooks_empty(data: Mapping[str, Any]) -> bool:
    return set(data) <= {"hooks"} and not data.get("hooks")


# ----------------------------------------------------------------------------- AGENTS.md


def agents_block(command: str, mcp: bool = False) -> str:
    """The managed AGENTS.md block (markers included, no trailing newline)."""
    tools = [
        "",
        "The `skill-memory` MCP server gives you the same memory as tools: `search_lessons`"
        " (have we seen this error or task before?), `lessons_for_skill`, `record_lesson`,"
        " `rate_lesson` (a lesson helped or proved wrong) and `list_skills`.",
    ]
    return "\n".join(
        [
            BLOCK_BEGIN,
            "## Skill memory (fireworks-skill-memory)",
            "",
            "Lessons from earlier sessions are stored per skill. Use them with these commands:",
            "",
            "- Before you use a skill: unless a note headed `Past experience with the <name>"
            " skill` was already added to this conversation, run",
            f'  `{command} inject --skill <name> --task "<what you are about to do>"`'
            " and check its lessons against the situation.",
            "- After a notable failure and the fix that worked, run",
            f'  `{command} checkpoint --skill <name> --note "<what failed, and what fixed it>"`.',
            "- When the task is done, run",
            f"  `{command} flush --skill <name> --session latest --distill --include-checkpoints`",
            "  (or write a summary with a `## Lessons` section and pass"
            " `--summary-file <file>` instead of `--session latest --distill`);"
            " the distiller reads your checkpoint notes, which then move to the archive.",
            "",
            "Each command takes `--json`. Skill names are the folder names under `skills/`.",
            *(tools if mcp else []),
            BLOCK_END,
        ]
    )


def upsert_block(text: str, block: str) -> str:
    """`text` with the managed block replaced, or appended after a blank line."""
    if _BLOCK.search(text):
        seen: list[bool] = []

        def replace(_: re.Match[str]) -> str:
            seen.append(True)
            return "\n\n" + block + "\n" if len(seen) == 1 else "\n"

        return _BLOCK.sub(replace, text).lstrip("\n")
    if not text.strip():
        return block + "\n"
    return text.rstrip("\n") + "\n\n" + block + "\n"


def remove_block(text: str) -> str:
    """`text` without the managed block (a trailing newline is kept when there was one)."""
    stripped = _BLOCK.sub("\n", text)
    return stripped.lstrip("\n") if not text.startswith("\n") else stripped


def has_block(text: str | None) -> bool:
    """True when `text` holds the managed block."""
    return bool(text) and _BLOCK.search(text or "") is not None


# ----------------------------------------------------------------------------- config.toml


def mcp_block(memory_home: str, python: str | None = None) -> str:
    """The managed `[mcp_servers.skill-memory]` table of config.toml (markers included)."""
    from fireworks_skill_memory.hooks.mcp_install import SERVER_NAME, server_command

    command, args = server_command("codex", python)
    return "\n".join(
        [
            MCP_BEGIN,
            f"[mcp_servers.{SERVER_NAME}]",
            f"command = {json.dumps(command)}",
            f"args = {json.dumps(args)}",
            f"startup_timeout_sec = {MCP_STARTUP_TIMEOUT}",
            f"tool_timeout_sec = {MCP_TOOL_TIMEOUT}",
            "",
            f"[mcp_servers.{SERVER_NAME}.env]",
            # Codex passes a server only a few variables: name the memory home the hooks use
            f"AI_MEMORY_HOME = {json.dumps(memory_home)}",
            MCP_END,
        ]
    )


def upsert_mcp_block(text: str, block: str, path: str) -> str:
    """`text` with our MCP table replaced, or appended; InvalidInput when a foreign one exists."""
    from fireworks_skill_memory.codex.trust import parse_toml
    from fireworks_skill_memory.hooks.mcp_install import SERVER_NAME

    rest = remove_mcp_block(text)
    servers = parse_toml(rest, path).get("mcp_servers")
    if isinstance(servers, dict) and SERVER_NAME in servers:
        raise InvalidInput(
            f"{path} already defines [mcp_servers.{SERVER_NAME}]; remove it first "
            "(or install with --no-mcp)"
        )
    result = (rest.rstrip("\n") + "\n\n" if rest.strip() else "") + block + "\n"
    parse_toml(result, path)  # never write a file Codex cannot read
    return result


def remove_mcp_block(text: str) -> str:
    """`text` without our MCP table."""
    return _MCP_BLOCK.sub("\n", text).lstrip("\n") if _MCP_BLOCK.search(text) else text


# ----------------------------------------------------------------------------- state


@dataclass
class InstallState:
    """What `install.json` remembers: each file's bytes before the first install and the
    bytes we last wrote (by digest), and the trust entries written by `--trust`."""

    originals: dict[str, bytes | None] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)
    trusted: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "originals": {
                name: None if raw is None else base64.b64encode(raw).decode("ascii")
                for name, raw in self.originals.items()
            },
            "written": self.written,
            "trusted": self.trusted,
        }


def load_state(paths: CodexPaths) -> InstallState:
    """The saved state (empty when absent or unreadable: uninstall then works structurally)."""
    try:
        with open(paths.state, encoding="utf-8") as handle:
            data = json.load(handle)
        originals = {
            str(name): None if raw is None else base64.b64decode(raw)
            for name, raw in data.get("originals", {}).items()
        }
        return InstallState(originals, dict(data.get("written", {})), dict(data.get("trusted", {})))
    except (OSError, ValueError, TypeError, AttributeError):
        return InstallState()


def digest(raw: bytes | None) -> str | None:
    return None if raw is None else hashlib.sha256(raw).hexdigest()


def read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise InvalidInput(f"{path} is a directory") from None


# ----------------------------------------------------------------------------- changes


@dataclass(frozen=True)
class FileChange:
    """One file's content before and after (None: absent / deleted)."""

    path: str
    before: bytes | None
    after: bytes | None

    @property
    def action(self) -> str:
        if self.before == self.after:
            return "unchanged"
        if self.after is None:
            return "delete"
        return "create" if self.before is None else "update"

    def as_json(self) -> dict[str, str]:
        return {"path": self.path, "action": self.action}


@contextmanager
def install_lock(paths: CodexPaths, dry_run: bool) -> Iterator[None]:
    """The installer's lock (in the state folder); a dry run takes none and writes nothing."""
    if dry_run:
        yield
        return
    try:
        with locked(paths.state):
            yield
    finally:
        if not os.path.exists(paths.state):  # nothing installed: leave no lock folder behind
            drop_state(paths)


def apply_changes(
    paths: CodexPaths, changes: Sequence[FileChange], state: InstallState
) -> list[str]:
    """Write the changes (backing up files that hold more than our output); the backups."""
    backups = []
    for change in changes:
        if change.action == "unchanged":
            continue
        name = os.path.basename(change.path)
        if change.before is not None and digest(change.before) != state.written.get(name):
            backups.append(backup(paths, name, change.before))
        if change.after is None:
            os.unlink(change.path)
        else:
            write_atomic(change.path, change.after)
    return backups


def backup(paths: CodexPaths, name: str, raw: bytes) -> str:
    """Save `raw` as `<state dir>/backups/<name>.<UTC time>[.N]`; returns the path."""
    folder = os.path.join(paths.state_dir, BACKUP_DIR)
    os.makedirs(folder, exist_ok=True)
    stem = os.path.join(folder, f"{name}.{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
    target, count = stem, 1
    while os.path.exists(target):
        target, count = f"{stem}.{count}", count + 1
    write_atomic(target, raw, mode=0o600)
    return target


def save_state(paths: CodexPaths, state: InstallState) -> None:
    text = json.dumps(state.to_json(), indent=2, sort_keys=True) + "\n"
    write_atomic(paths.state, text, mode=0o600)


def drop_state(paths: CodexPaths) -> None:
    """Remove install.json and its lock, and the state folder when no backup is left in it."""
    for name in (STATE_FILE, f".{STATE_FILE}.lock"):
        with suppress(FileNotFoundError):
            os.unlink(os.path.join(paths.state_dir, name))
    backups = os.path.join(paths.state_dir, BACKUP_DIR)
    for folder in (backups, paths.state_dir):
        with suppress(OSError):  # not empty (backups are kept) or already gone
            os.rmdir(folder)


# ----------------------------------------------------------------------------- install


@dataclass(frozen=True)
class InstallReport:
    """What `install` did (or, on a dry run, would do)."""

    codex_home: str
    dry_run: bool
    changes: tuple[FileChange, ...]
    commands: Mapping[str, str]
    agents_command: str
    backups: tuple[str, ...] = ()
    trusted: tuple[str, ...] | None = None
    mcp: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "codex_home": self.codex_home,
            "dry_run": self.dry_run,
            "files": [change.as_json() for change in self.changes],
            "hooks": dict(self.commands),
            "skill_memory": self.agents_command,
            "backups": list(self.backups),
            "trusted": None if self.trusted is None else list(self.trusted),
            "mcp_server": self.mcp,
        }


def install(
    codex_home: str | None = None,
    *,
    dry_run: bool = False,
    python: str | None = None,
    trust: bool = False,
    codex_bin: str | None = None,
    mcp: bool = False,
) -> InstallReport:
    """Write our hooks and AGENTS.md block (and, with `mcp`, our MCP server) into a Codex
    home (idempotent)."""
    paths = codex_paths(codex_home)
    commands = {spec.event: hook_command(spec, python) for spec in HOOK_SPECS}
    command = skill_memory_command(python)
    if trust and not dry_run:
        from fireworks_skill_memory.codex.trust import find_codex

        codex_bin = find_codex(codex_bin)  # fail before writing anything
    with install_lock(paths, dry_run):
        state = load_state(paths)
        changes = plan_install(paths, commands, command, mcp=mcp, python=python)
        if dry_run:
            return InstallReport(paths.home, True, changes, commands, command, mcp=mcp)
        remember_originals(state, changes)
        backups = apply_changes(paths, changes, state)
        for change in changes:
            state.written[os.path.basename(change.path)] = digest(change.after) or ""
        save_state(paths, state)
        trusted = trust_ours(paths, state, codex_bin or "codex") if trust else None
    return InstallReport(
        paths.home, False, changes, commands, command, tuple(backups), trusted, mcp
    )


def plan_install(
    paths: CodexPaths,
    commands: Mapping[str, str],
    command: str,
    *,
    mcp: bool = False,
    python: str | None = None,
) -> tuple[FileChange, ...]:
    """The new hooks.json and AGENTS.md, and config.toml with `mcp` (validated; nothing
    written)."""
    hooks_before = read_bytes(paths.hooks)
    data = parse_hooks(hooks_before, paths.hooks)
    merged = merge_hooks(data, commands)
    hooks_after = hooks_before if merged == data else render_hooks(merged)
    agents_before = read_bytes(paths.agents)
    text = _decode(agents_before, paths.agents)
    agents_after = upsert_block(text, agents_block(command, mcp)).encode("utf-8")
    if agents_before is not None and agents_after == agents_before:
        agents_after = agents_before
    changes = (
        FileChange(paths.hooks, hooks_before, hooks_after),
        FileChange(paths.agents, agents_before, agents_after),
    )
    if not mcp:
        return changes
    from fireworks_skill_memory.memory.config import resolve_home

    config_before = read_bytes(paths.config)
    memory_home = resolve_home({**os.environ, "CODEX_HOME": paths.home})
    config = upsert_mcp_block(
        _decode(config_before, paths.config), mcp_block(memory_home, python), paths.config
    ).encode("utf-8")
    return (*changes, FileChange(paths.config, config_before, config))


def _decode(raw: bytes | None, path: str) -> str:
    if raw is None:
        return ""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{path} is not UTF-8 text; fix or move it first") from None


def _strip_for(name: str, raw: bytes | None) -> bytes | None:
    """The file without our parts (as we would leave it on uninstall, before restoring)."""
    if raw is None:
        return None
    if name == HOOKS_FILE:
        data = parse_hooks(raw, name)
        stripped = strip_hooks(data)
        return raw if stripped == data else render_hooks(stripped)
    if name == AGENTS_FILE:
        text = _decode(raw, name)
        return raw if not has_block(text) else remove_block(text).encode("utf-8")
    if name == CONFIG_FILE:
        config = _decode(raw, name)
        without = remove_mcp_block(config)
        return raw if without == config else without.encode("utf-8")
    return raw


def remember_originals(state: InstallState, changes: Sequence[FileChange]) -> None:
    """Record a file's pre-install bytes when it holds nothing of ours (install.json)."""
    for change in changes:
        name = os.path.basename(change.path)
        if _strip_for(name, change.before) == change.before:
            state.originals[name] = change.before


def trust_ours(paths: CodexPaths, state: InstallState, codex_bin: str) -> tuple[str, ...]:
    """Record trust for our hooks in config.toml with the hashes Codex reports (`--trust`)."""
    from fireworks_skill_memory.codex.trust import (
        hook_inventory,
        hooks_from,
        remove_trust,
        set_trust,
    )

    inventory = hooks_from(hook_inventory(codex_bin, paths.home), paths.hooks)
    ours = {
        str(hook["key"]): str(hook["currentHash"])
        for hook in inventory
        if is_ours(hook) and hook.get("key") and hook.get("currentHash")
    }
    if len(ours) < len(HOOK_SPECS):
        raise InvalidInput(
            f"codex lists {len(ours)} of our {len(HOOK_SPECS)} hooks in {paths.hooks}"
        )
    before = read_bytes(paths.config)
    text = _decode(before, paths.config)
    if remove_trust(text, state.trusted) == text and _strip_for(CONFIG_FILE, before) == before:
        state.originals[CONFIG_FILE] = before  # nothing of ours in it yet
    text = set_trust(text, ours, paths.config)
    change = FileChange(paths.config, before, text.encode("utf-8"))
    apply_changes(paths, [change], state)
    state.written[CONFIG_FILE] = digest(change.after) or ""
    state.trusted = {**state.trusted, **ours}
    save_state(paths, state)
    return tuple(sorted(ours))


# ----------------------------------------------------------------------------- uninstall


@dataclass(frozen=True)
class UninstallReport:
    """What `uninstall` did (or would do)."""

    codex_home: str
    dry_run: bool
    changes: tuple[FileChange, ...]
    backups: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "codex_home": self.codex_home,
            "dry_run": self.dry_run,
            "files": [change.as_json() for change in self.changes],
            "backups": list(self.backups),
        }


def uninstall(codex_home: str | None = None, *, dry_run: bool = False) -> UninstallReport:
    """Remove our hooks, AGENTS.md block and trust entries; restore the original bytes."""
    paths = codex_paths(codex_home)
    with install_lock(paths, dry_run):
        state = load_state(paths)
        changes = plan_uninstall(paths, state)
        if dry_run:
            return UninstallReport(paths.home, True, changes)
        backups = apply_changes(paths, changes, state)
        with suppress(FileNotFoundError):
            os.unlink(paths.state)
    return UninstallReport(paths.home, False, changes, tuple(backups))


def plan_uninstall(paths: CodexPaths, state: InstallState) -> tuple[FileChange, ...]:
    """Each file's content after removing our parts (validated; nothing written)."""
    changes = [_hooks_uninstall(paths, state), _agents_uninstall(paths, state)]
    if state.trusted or CONFIG_FILE in state.originals or CONFIG_FILE in state.written:
        changes.append(_config_uninstall(paths, state))
    return tuple(changes)


@dataclass(frozen=True)
class _Removal:
    """A file's content with our parts removed, and how to compare it with the original."""

    remainder: bytes | None  # None: the file holds nothing of ours
    empty: bool
    same: Callable[[bytes], bool]


def _hooks_uninstall(paths: CodexPaths, state: InstallState) -> FileChange:
    before = read_bytes(paths.hooks)
    data = parse_hooks(before, paths.hooks)
    stripped = strip_hooks(data)
    removal = _Removal(
        None if stripped == data else render_hooks(stripped),
        _hooks_empty(stripped),
        lambda original: parse_hooks(original, paths.hooks) == stripped,
    )
    return FileChange(paths.hooks, before, _restored(before, removal, state, HOOKS_FILE))


def _agents_uninstall(paths: CodexPaths, state: InstallState) -> FileChange:
    before = read_bytes(paths.agents)
    text = _decode(before, paths.agents)
    remainder = remove_block(text)
    removal = _Removal(
        remainder.encode("utf-8") if has_block(text) else None,
        not remainder.strip(),
        lambda original: _decode(original, paths.agents).rstrip() == remainder.rstrip(),
    )
    return FileChange(paths.agents, before, _restored(before, removal, state, AGENTS_FILE))


def _config_uninstall(paths: CodexPaths, state: InstallState) -> FileChange:
    from fireworks_skill_memory.codex.trust import remove_trust

    before = read_bytes(paths.config)
    text = _decode(before, paths.config)
    remainder = remove_trust(remove_mcp_block(text), state.trusted)
    removal = _Removal(
        None if remainder == text else remainder.encode("utf-8"),
        not remainder.strip(),
        lambda original: _decode(original, paths.config).rstrip() == remainder.rstrip(),
    )
    return FileChange(paths.config, before, _restored(before, removal, state, CONFIG_FILE))


def _restored(
    before: bytes | None, removal: _Removal, state: InstallState, name: str
) -> bytes | None:
    """The bytes to leave after removing our parts.

    A file holding nothing of ours stays as it is. When the remainder equals the remembered
    pre-install content, the original bytes come back (or the file goes, when it did not
    exist). Otherwise the remainder is written, and a file left empty is deleted.
    """
    if before is None or removal.remainder is None:
        return before
    if name in state.originals:
        original = state.originals[name]
        if original is None:
            return None if removal.empty else removal.remainder
        if removal.same(original):
            return original
        return removal.remainder
    return None if removal.empty else removal.remainder


# ----------------------------------------------------------------------------- status


@dataclass(frozen=True)
class HookStatus:
    """One of our hooks in hooks.json: present, pointing at this installation, trusted."""

    event: str
    commands: tuple[str, ...]
    expected: str
    trust: str  # trusted | untrusted | ... as Codex reports it; unknown | missing

    @property
    def installed(self) -> bool:
        return bool(self.commands)

    @property
    def current(self) -> bool:
        return self.commands == (self.expected,)

    def as_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "installed": self.installed,
            "current": self.current,
            "commands": list(self.commands),
            "trust": self.trust,
        }


@dataclass(frozen=True)
class CodexStatus:
    """The integration's state in one Codex home."""

    codex_home: str
    hooks_file: str
    hooks: tuple[HookStatus, ...]
    agents_file: str
    agents_block: bool
    trust_error: str | None

    @property
    def trusted(self) -> bool | None:
        """All our hooks trusted (None: Codex could not be asked)."""
        if self.trust_error is not None:
            return None
        return all(hook.trust == "trusted" for hook in self.hooks)

    def as_json(self) -> dict[str, Any]:
        return {
            "codex_home": self.codex_home,
            "hooks_file": self.hooks_file,
            "hooks_installed": all(hook.installed for hook in self.hooks),
            "hooks_current": all(hook.current for hook in self.hooks),
            "hooks": [hook.as_json() for hook in self.hooks],
            "trusted": self.trusted,
            "trust_error": self.trust_error,
            "agents_file": self.agents_file,
            "agents_block": self.agents_block,
        }


def status(
    codex_home: str | None = None,
    *,
    python: str | None = None,
    codex_bin: str | None = None,
    check_trust: bool = True,
) -> CodexStatus:
    """Inspect a Codex home (read-only); trust comes from `codex app-server` when available."""
    paths = codex_paths(codex_home)
    found = our_commands(parse_hooks(read_bytes(paths.hooks), paths.hooks))
    trust, error = _trust_by_event(paths, codex_bin) if check_trust else ({}, "not checked")
    hooks = tuple(
        HookStatus(
            spec.event,
            tuple(found.get(spec.event, [])),
            hook_command(spec, python),
            trust.get(spec.event, "missing" if error is None else "unknown"),
        )
        for spec in HOOK_SPECS
    )
    text = _decode(read_bytes(paths.agents), paths.agents)
    return CodexStatus(paths.home, paths.hooks, hooks, paths.agents, has_block(text), error)


def _trust_by_event(paths: CodexPaths, codex_bin: str | None) -> tuple[dict[str, str], str | None]:
    from fireworks_skill_memory.codex.trust import (
        CodexUnavailable,
        find_codex,
        hook_inventory,
        hooks_from,
    )

    if not os.path.exists(paths.hooks):
        return {}, None
    try:
        inventory = hooks_from(hook_inventory(find_codex(codex_bin), paths.home), paths.hooks)
    except CodexUnavailable as error:
        return {}, str(error)
    by_event = {}
    for hook in inventory:
        event = str(hook.get("eventName", ""))
        if is_ours(hook) and event:
            by_event[event[:1].upper() + event[1:]] = str(hook.get("trustStatus", "unknown"))
    return by_event, None
