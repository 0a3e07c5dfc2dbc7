"""Codex hook trust: ask Codex which hooks it trusts, and record trust the way `/hooks` does.

Codex (0.17x) runs a hook from `$CODEX_HOME/hooks.json` only when `$CODEX_HOME/config.toml`
holds `[hooks.state."<hooks.json path>:<event_snake>:<group>:<handler>"]` with
`trusted_hash = "sha256:..."` equal to the handler's current hash. The hash is Codex's own
(it covers event, matcher, command and timeout), so it is read from Codex itself:
`codex app-server` answers the JSON-RPC `hooks/list` with each hook's `key`, `currentHash`
and `trustStatus`. Nothing here writes config.toml unless the user asked (`--trust`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from fireworks_skill_memory.memory import __version__ as VERSION
from fireworks_skill_memory.memory.errors import InvalidInput, SkillMemoryError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

APP_SERVER_TIMEOUT = 30.0
OFFLINE_ARGS = ("-c", "analytics.enabled=false", "--disable", "plugins")
_HEADER = re.compile(r"^\s*\[")  # a table or array-of-tables header
_TRUSTED_HASH = re.compile(r"^\s*trusted_hash\s*=")


class CodexUnavailable(SkillMemoryError):
    """The `codex` binary could not be found or did not answer."""


def find_codex(explicit: str | None = None) -> str:
    """The `codex` executable: `explicit`, else the one on PATH."""
    found = shutil.which(explicit) if explicit else shutil.which("codex")
    if found is None:
        where = explicit or "codex on PATH"
        raise CodexUnavailable(f"cannot run {where}; pass --codex-bin or use /hooks in Codex")
    return found


def hook_inventory(
    codex_bin: str, codex_home: str, timeout: float = APP_SERVER_TIMEOUT
) -> list[dict[str, Any]]:
    """Codex's own list of configured hooks (`codex app-server`, `hooks/list`)."""
    requests: list[dict[str, Any]] = [
        {
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "skill-memory", "version": VERSION}},
        },
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [codex_home]}},
    ]
    env = {**os.environ, "CODEX_HOME": codex_home}
    try:
        proc = subprocess.Popen(
            [codex_bin, *OFFLINE_ARGS, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=codex_home,
            text=True,
            start_new_session=True,
        )
    except OSError as error:
        raise CodexUnavailable(f"cannot run {codex_bin}: {error.strerror or error}") from None
    watchdog = threading.Timer(timeout, _kill, args=(proc,))
    watchdog.start()
    try:
        return _read_hooks_list(proc, requests, timeout)
    finally:
        watchdog.cancel()
        _kill(proc)
        proc.wait()


def _read_hooks_list(
    proc: subprocess.Popen[str], requests: list[dict[str, Any]], timeout: float
) -> list[dict[str, Any]]:
    assert proc.stdin is not None and proc.stdout is not None
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.write("".join(json.dumps(request) + "\n" for request in requests))
        proc.stdin.flush()
    for line in proc.stdout:
        reply = _json_object(line)
        if reply is None or reply.get("id") != 2:
            continue
        if "error" in reply:
            raise CodexUnavailable(f"codex hooks/list failed: {reply['error']}")
        entries = reply.get("result", {}).get("data", [])
        return [hook for entry in entries for hook in entry.get("hooks", [])]
    raise CodexUnavailable(f"codex app-server gave no hook list within {timeout:.0f} s")


def _json_object(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _kill(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def hooks_from(inventory: Iterable[Mapping[str, Any]], hooks_file: str) -> list[Mapping[str, Any]]:
    """The inventory entries defined in `hooks_file` (compared by real path)."""
    target = os.path.realpath(hooks_file)
    return [
        hook
        for hook in inventory
        if isinstance(hook.get("sourcePath"), str)
        and os.path.realpath(hook["sourcePath"]) == target
    ]


# ------------------------------------------------------------------ config.toml edits


def parse_toml(text: str, path: str) -> dict[str, Any]:
    """The parsed config.toml, or a one-line InvalidInput."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"{path} is not valid TOML ({error}); fix it first") from None
    return data


def trust_state(data: Mapping[str, Any]) -> dict[str, Any]:
    """The `[hooks.state]` table of a parsed config.toml (empty when absent)."""
    hooks = data.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    return state if isinstance(state, dict) else {}


def set_trust(text: str, entries: Mapping[str, str], path: str) -> str:
    """`text` with `trusted_hash` set for each key of `entries` (one table per key)."""
    known = trust_state(parse_toml(text, path))
    result = text
    for key, digest in entries.items():
        lines = result.splitlines(keepends=True)
        span = _table_span(lines, key)
        if span is None and key in known:
            raise InvalidInput(
                f"{path} sets trust for {key} in a form this installer does not edit; "
                "trust the hooks with /hooks in Codex instead"
            )
        result = "".join(_set_hash(lines, key, digest, span))
    written = trust_state(parse_toml(result, path))
    if any(_hash_of(written.get(key)) != digest for key, digest in entries.items()):
        raise InvalidInput(f"could not record hook trust in {path}")  # never write a guess
    return result


def remove_trust(text: str, entries: Mapping[str, str]) -> str:
    """`text` without the tables this installer wrote (a table someone edited stays)."""
    lines = text.splitlines(keepends=True)
    for key, digest in entries.items():
        span = _table_span(lines, key)
        if span is None:
            continue
        start, end = span
        body = [line for line in lines[start + 1 : end] if line.strip()]
        if body == [f"trusted_hash = {json.dumps(digest)}\n"]:
            cut = start - 1 if start > 0 and not lines[start - 1].strip() else start
            lines = lines[:cut] + lines[end:]
    return "".join(lines)


def _set_hash(lines: list[str], key: str, digest: str, span: tuple[int, int] | None) -> list[str]:
    entry = f"trusted_hash = {json.dumps(digest)}\n"
    if span is None:
        text = "".join(lines)
        lead = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
        return [*lines, lead + f"[hooks.state.{json.dumps(key)}]\n", entry]
    start, end = span
    for index in range(start + 1, end):
        if _TRUSTED_HASH.match(lines[index]):
            return [*lines[:index], entry, *lines[index + 1 :]]
    return [*lines[: start + 1], entry, *lines[start + 1 :]]


def _table_span(lines: list[str], key: str) -> tuple[int, int] | None:
    """(header index, end index) of the `[hooks.state."<key>"]` table, or None."""
    for index, line in enumerate(lines):
        if line.lstrip().startswith("[hooks") and _header_key(line) == key:
            end = index + 1
            while end < len(lines) and not _HEADER.match(lines[end]):
                end += 1
            return index, end
    return None


def _header_key(line: str) -> str | None:
    """The `<key>` of a `[hooks.state."<key>"]` header line (decoded by the TOML parser)."""
    if "state" not in line:
        return None
    try:
        state = trust_state(tomllib.loads(line.strip() + "\n"))
    except tomllib.TOMLDecodeError:
        return None
    return next(iter(state)) if len(state) == 1 else None


def _hash_of(table: object) -> object:
    return table.get("trusted_hash") if isinstance(table, dict) else None
