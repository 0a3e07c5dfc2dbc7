"""Read a Claude Code transcript or a Codex rollout into a small typed digest.

The distiller reads a session at its end: the user's prompts, what the assistant said, every
tool call with its output, whether it failed and its exit code, and which skills were used.

Reading is bounded: only the last `max_bytes` of the file (and of those, the last `max_lines`
lines) are read, so a 500 MB transcript costs the same as a 5 MB one, and every stored string
is capped. Malformed lines are skipped.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.sessions import skill_paths
from fireworks_skill_memory.memory.sessions.transcript_tail import (
    cap,
    claude_prompt_from_text,
    claude_user_text,
    codex_prompt,
    codex_user_texts,
    command_name,
    is_slash_command,
    parse_line,
    read_tail_lines,
    text_between,
)

DEFAULT_MAX_BYTES = 4_000_000
DEFAULT_MAX_LINES = 3000
OUTPUT_CHARS = 2000
PROMPT_CHARS = 4000
TEXT_CHARS = 4000
INPUT_CHARS = 2000
MAX_INPUT_DEPTH = 6
DETECT_LINES = 50

CLAUDE = "claude"
CODEX = "codex"
CLAUDE_LINE_TYPES = frozenset(
    {"user", "assistant", "attachment", "system", "summary", "queue-operation", "last-prompt"}
    | {"mode", "file-history-snapshot"}
)
CODEX_LINE_TYPES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "compacted", "world_state"}
    | {"token_usage_record"}
)
CODEX_EXIT_MARKERS = ("Process exited with code ", "Exit code: ")
CODEX_OUTPUT_MARKER = "\nOutput:\n"


@dataclass(frozen=True)
class ToolCall:
    """One tool call and its result (`output` is capped; `exit_code` only when recorded)."""

    id: str
    name: str
    input: dict[str, object]
    output: str
    is_error: bool
    exit_code: int | None

    @property
    def failed(self) -> bool:
        """The call errored or its command exited non-zero."""
        return self.is_error or (self.exit_code is not None and self.exit_code != 0)


@dataclass(frozen=True)
class SessionDigest:
    """What a session did, read from the tail of its transcript or rollout."""

    agent: str
    session_id: str | None
    cwd: str | None
    prompts: list[str]
    assistant_texts: list[str]
    tool_calls: list[ToolCall]
    skills_used: list[str]
    truncated: bool

    @property
    def tool_call_count(self) -> int:
        """Number of tool calls read."""
        return len(self.tool_calls)

    @property
    def errors(self) -> list[ToolCall]:
        """The calls that failed, in order."""
        return [call for call in self.tool_calls if call.failed]

    def error_fix_pairs(self) -> list[tuple[ToolCall, ToolCall | None]]:
        """Each failed call with the next successful call of the same tool (its likely fix)."""
        pairs: list[tuple[ToolCall, ToolCall | None]] = []
        next_success: dict[str, ToolCall] = {}
        for call in reversed(self.tool_calls):
            if call.failed:
                pairs.append((call, next_success.get(call.name)))
            else:
                next_success[call.name] = call
        pairs.reverse()
        return pairs


def _bounded(text: str, limit: int) -> str:
    """Cap a string, redacting it first when the cut could split a secret in two."""
    if len(text) <= limit:
        return text
    return cap(redact(text), limit)


def read_claude_transcript(
    path: str, *, max_bytes: int = DEFAULT_MAX_BYTES, max_lines: int = DEFAULT_MAX_LINES
) -> SessionDigest:
    """Digest of a Claude Code transcript (`$CLAUDE_CONFIG_DIR/projects/<dir>/<session>.jsonl`)."""
    lines, truncated = _load(path, max_bytes, max_lines)
    return _parse_claude(lines, truncated)


def read_codex_rollout(
    path: str, *, max_bytes: int = DEFAULT_MAX_BYTES, max_lines: int = DEFAULT_MAX_LINES
) -> SessionDigest:
    """Digest of a Codex rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`)."""
    lines, truncated = _load(path, max_bytes, max_lines)
    return _parse_codex(lines, truncated)


def read_session(
    path: str, *, max_bytes: int = DEFAULT_MAX_BYTES, max_lines: int = DEFAULT_MAX_LINES
) -> SessionDigest:
    """Digest of either format, detected from the first valid lines that were read.

    Raises InvalidInput when the file cannot be read or holds no line of either format.
    """
    lines, truncated = _load(path, max_bytes, max_lines)
    agent = detect_agent(lines)
    if agent == CODEX:
        return _parse_codex(lines, truncated)
    if agent == CLAUDE:
        return _parse_claude(lines, truncated)
    raise InvalidInput(f"{path!r} is neither a Claude transcript nor a Codex rollout")


def detect_agent(lines: list[bytes]) -> str | None:
    """`"claude"`, `"codex"` or None, from the first valid JSON lines."""
    for raw in lines[:DETECT_LINES]:
        line = parse_line(raw)
        if line is None:
            continue
        kind = line.get("type")
        if "payload" in line and kind in CODEX_LINE_TYPES:
            return CODEX
        if kind in CLAUDE_LINE_TYPES or "sessionId" in line:
            return CLAUDE
    return None


def latest_codex_rollout(codex_home: str) -> str | None:
    """The newest `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, or None.

    Newest by the date directories and the timestamp in the file name, then by mtime. Only
    the newest day directory holding a rollout is listed, not the whole history.
    """
    sessions = os.path.join(codex_home, "sessions")
    for year in _numbered_dirs(sessions):
        for month in _numbered_dirs(year):
            for day in _numbered_dirs(month):
                found = _newest_rollout_in(day)
                if found is not None:
                    return found
    return None


# ----------------------------------------------------------------------------- reading


def _load(path: str, max_bytes: int, max_lines: int) -> tuple[list[bytes], bool]:
    try:
        lines, truncated = read_tail_lines(path, max_bytes)
    except (OSError, ValueError, TypeError) as exc:
        raise InvalidInput(f"cannot read session file {path!r}: {exc}") from exc
    if len(lines) > max(0, max_lines):
        lines = lines[len(lines) - max(0, max_lines) :]
        truncated = True
    return lines, truncated


def _numbered_dirs(parent: str) -> list[str]:
    """Sub-directories of `parent` with all-digit names, newest (largest) first."""
    try:
        names = [name for name in os.listdir(parent) if name.isdigit()]
    except OSError:
        return []
    names.sort(key=lambda name: (len(name), name), reverse=True)
    return [os.path.join(parent, name) for name in names]


def _newest_rollout_in(day: str) -> str | None:
    try:
        entries = [e for e in os.scandir(day) if _is_rollout(e.name) and e.is_file()]
    except OSError:
        return None
    if not entries:
        return None
    # "rollout-2026-11-29T19-28-07-<thread>.jsonl": the timestamp sorts as text.
    newest = max(entries, key=lambda e: (e.name[8:27], _mtime(e), e.name))
    return newest.path


def _is_rollout(name: str) -> bool:
    return name.startswith("rollout-") and name.endswith(".jsonl")


def _mtime(entry: os.DirEntry[str]) -> float:
    try:
        return entry.stat().st_mtime
    except OSError:
        return 0.0


# ----------------------------------------------------------------------------- building


@dataclass
class _Call:
    id: str
    name: str
    input: dict[str, object]
    output: str = ""
    is_error: bool = False
    exit_code: int | None = None
    has_output: bool = False

    def frozen(self) -> ToolCall:
        return ToolCall(self.id, self.name, self.input, self.output, self.is_error, self.exit_code)


@dataclass
class _Builder:
    """Mutable state while reading one session; `digest()` freezes it."""

    agent: str
    session_id: str | None = None
    cwd: str | None = None
    current_cwd: str | None = None
    pending_command: str | None = None
    prompts: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    calls: dict[str, _Call] = field(default_factory=dict)
    skills: list[tuple[str, str | None]] = field(default_factory=list)

    def see_cwd(self, cwd: object) -> None:
        if isinstance(cwd, str) and cwd:
            self.current_cwd = cwd
            if self.cwd is None:
                self.cwd = cwd

    def see_session(self, session_id: object) -> None:
        if self.session_id is None and isinstance(session_id, str) and session_id:
            self.session_id = session_id

    def add_prompt(self, text: str | None) -> None:
        if text:
            self.prompts.append(_bounded(text, PROMPT_CHARS))

    def add_text(self, text: object) -> None:
        if isinstance(text, str) and text.strip():
            self.texts.append(_bounded(text, TEXT_CHARS))

    def add_call(self, call_id: object, name: object, tool_input: dict[str, object]) -> None:
        if not isinstance(call_id, str) or not isinstance(name, str) or call_id in self.calls:
            return
        capped = _cap_value(tool_input, 0)
        self.calls[call_id] = _Call(call_id, name, capped if isinstance(capped, dict) else {})
        for skill in skill_paths.skill_from_tool_call(name, tool_input, self.current_cwd):
            self.skills.append((skill, call_id))

    def add_skill(self, name: str | None) -> None:
        if name:
            self.skills.append((name, None))

    def digest(self, truncated: bool) -> SessionDigest:
        calls = [call.frozen() for call in self.calls.values()]
        # A failed read or Skill call (unknown skill, denied, missing file) loaded nothing.
        failed = {call.id for call in calls if call.failed}
        skills: list[str] = []
        for name, call_id in self.skills:
            if call_id not in failed and name not in skills:
                skills.append(name)
        return SessionDigest(
            agent=self.agent,
            session_id=self.session_id,
            cwd=self.cwd,
            prompts=self.prompts,
            assistant_texts=self.texts,
            tool_calls=calls,
            skills_used=skills,
            truncated=truncated,
        )


def _cap_value(value: object, depth: int) -> object:
    """A JSON value with every string capped (and very deep nesting cut)."""
    if isinstance(value, str):
        return _bounded(value, INPUT_CHARS)
    if depth >= MAX_INPUT_DEPTH and isinstance(value, (dict, list)):
        return "…"
    if isinstance(value, dict):
        return {str(k): _cap_value(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_cap_value(v, depth + 1) for v in value]
    return value


def _as_dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _as_list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


# ----------------------------------------------------------------------------- Claude


def _parse_claude(lines: list[bytes], truncated: bool) -> SessionDigest:
    builder = _Builder(CLAUDE)
    for raw in lines:
        line = parse_line(raw)
        if line is None or line.get("isSidechain") is True:
            continue
        builder.see_session(line.get("sessionId"))
        builder.see_cwd(line.get("cwd"))
        if line.get("type") == "assistant":
            _claude_assistant(builder, line)
        elif line.get("type") == "user":
            _claude_user(builder, line)
    return builder.digest(truncated)


def _claude_assistant(builder: _Builder, line: dict[str, object]) -> None:
    """`message.content` holds one block per line: `text` or `tool_use {id, name, input}`."""
    for block in _as_list(_as_dict(line.get("message")).get("content")):
        block = _as_dict(block)
        if block.get("type") == "text":
            builder.add_text(block.get("text"))
        elif block.get("type") == "tool_use":
            builder.add_call(block.get("id"), block.get("name"), _as_dict(block.get("input")))


def _claude_user(builder: _Builder, line: dict[str, object]) -> None:
    """Tool results, skill bodies (`isMeta`) after a `/skill` command, or a real prompt."""
    content = _as_dict(line.get("message")).get("content")
    results = [b for b in _as_list(content) if _as_dict(b).get("type") == "tool_result"]
    for block in results:
        _claude_tool_result(builder, _as_dict(block))
    if results:
        return
    if line.get("isMeta") is True:
        # A slash command that expands into a body is a skill (or a prompt-command);
        # built-in local commands (/clear, /compact...) expand into nothing.
        if builder.pending_command is not None:
            builder.add_skill(skill_paths.valid_skill_name(builder.pending_command))
        builder.pending_command = None
        return
    text = claude_user_text(line)
    if text is None:
        return
    builder.add_prompt(claude_prompt_from_text(text))
    # Only the very next isMeta line can be this command's expansion.
    builder.pending_command = command_name(text) if is_slash_command(text) else None


def _claude_tool_result(builder: _Builder, block: dict[str, object]) -> None:
    call = builder.calls.get(str(block.get("tool_use_id")))
    if call is None:
        return
    output = _claude_result_text(block.get("content"))
    call.output = _bounded(output, OUTPUT_CHARS)
    call.has_output = True
    call.is_error = block.get("is_error") is True
    if call.is_error:
        # A failed Bash reads "Exit code N\n<stderr>"; success records no exit code at all.
        call.exit_code = _int_after(output, "Exit code ", at_start=True)


def _claude_result_text(content: object) -> str:
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in _as_list(content):
        block = _as_dict(block)
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(str(block["text"]))
        elif block.get("type") == "image":
            parts.append("[image]")
    return "\n".join(parts)


# ----------------------------------------------------------------------------- Codex


def _parse_codex(lines: list[bytes], truncated: bool) -> SessionDigest:
    builder = _Builder(CODEX)
    for raw in lines:
        line = parse_line(raw)
        payload = line.get("payload") if line is not None else None
        if line is None or not isinstance(payload, dict):
            continue
        kind = line.get("type")
        if kind == "session_meta":
            builder.see_session(payload.get("id", payload.get("session_id")))
            builder.see_cwd(payload.get("cwd"))
        elif kind == "turn_context":
            builder.see_cwd(payload.get("cwd"))
        elif kind == "response_item":
            _codex_response_item(builder, payload)
        elif kind == "event_msg":
            _codex_event(builder, payload)
    return builder.digest(truncated)


def _codex_response_item(builder: _Builder, payload: dict[str, object]) -> None:
    kind = payload.get("type")
    if kind == "message" and payload.get("role") == "user":
        builder.add_prompt(codex_prompt(payload))
        for text, origin in codex_user_texts(payload):
            if origin != "user" and text.startswith("<skill>"):
                builder.add_skill(_codex_injected_skill(text, builder.current_cwd))
    elif kind == "message" and payload.get("role") == "assistant":
        for item in _as_list(payload.get("content")):
            item = _as_dict(item)
            if item.get("type") == "output_text":
                builder.add_text(item.get("text"))
    elif kind in ("function_call", "custom_tool_call", "local_shell_call"):
        _codex_call(builder, payload)
    elif kind in ("function_call_output", "custom_tool_call_output"):
        _codex_call_output(builder, payload)


def _codex_call(builder: _Builder, payload: dict[str, object]) -> None:
    """`function_call {name, arguments: JSON text, call_id}`; also custom and local shell calls."""
    kind = payload.get("type")
    call_id = payload.get("call_id", payload.get("id"))
    if kind == "function_call":
        arguments = payload.get("arguments")
        tool_input = _json_object(arguments) if isinstance(arguments, str) else None
        if tool_input is None:
            tool_input = {"arguments": arguments}
        builder.add_call(call_id, payload.get("name"), tool_input)
    elif kind == "custom_tool_call":
        builder.add_call(call_id, payload.get("name"), {"input": payload.get("input")})
    else:
        action = _as_dict(payload.get("action"))
        builder.add_call(call_id, "local_shell", {"command": action.get("command")})


def _codex_call_output(builder: _Builder, payload: dict[str, object]) -> None:
    """`function_call_output {call_id, output}`: "...Process exited with code N...Output:\\n..."."""
    call = builder.calls.get(str(payload.get("call_id")))
    if call is None:
        return
    text, exit_code, success = _codex_output(payload.get("output"))
    call.output = _bounded(text, OUTPUT_CHARS)
    call.has_output = True
    if call.exit_code is None:
        call.exit_code = exit_code
    if success is False:
        call.is_error = True


def _codex_event(builder: _Builder, payload: dict[str, object]) -> None:
    """`item_completed` `CommandExecution {id, exit_code, status, aggregated_output}` (0.171),
    or `exec_command_end {call_id, exit_code, aggregated_output}` (older rollouts)."""
    kind = payload.get("type")
    if kind == "item_completed":
        item = _as_dict(payload.get("item"))
        if item.get("type") == "CommandExecution":
            _codex_command_done(builder, item.get("id"), item)
    elif kind == "exec_command_end":
        _codex_command_done(builder, payload.get("call_id"), payload)


def _codex_command_done(builder: _Builder, call_id: object, item: dict[str, object]) -> None:
    call = builder.calls.get(str(call_id))
    if call is None:
        return
    exit_code = item.get("exit_code")
    if isinstance(exit_code, int) and not isinstance(exit_code, bool):
        call.exit_code = exit_code
    if item.get("status") == "failed":
        call.is_error = True
    output = item.get("aggregated_output")
    if not call.has_output and isinstance(output, str):
        call.output = _bounded(output, OUTPUT_CHARS)


def _codex_output(raw: object) -> tuple[str, int | None, bool | None]:
    """(text shown to the model without the exec header, exit code, success flag)."""
    success: bool | None = None
    if isinstance(raw, dict):
        flag = raw.get("success")
        success = flag if isinstance(flag, bool) else None
        raw = raw.get("content", "")
    text = _codex_output_text(raw)
    legacy = _json_object(text) if text.startswith("{") else None
    if legacy is not None and "output" in legacy:
        # Older rollouts: {"output": "...", "metadata": {"exit_code": N, ...}}.
        code = _as_dict(legacy.get("metadata")).get("exit_code")
        output = legacy.get("output")
        text = output if isinstance(output, str) else ""
        return text, code if isinstance(code, int) else None, success
    marker = text.find(CODEX_OUTPUT_MARKER)
    header = text[:marker] if marker >= 0 else text[:300]
    exit_code = None
    for exit_marker in CODEX_EXIT_MARKERS:
        exit_code = _int_after(header, exit_marker)
        if exit_code is not None:
            break
    if exit_code is not None and marker >= 0:
        text = text[marker + len(CODEX_OUTPUT_MARKER) :]
    return text, exit_code, success


def _codex_output_text(raw: object) -> str:
    """The output as text: a string, or the texts of a list of content items."""
    if isinstance(raw, str):
        return raw
    texts = [_as_dict(item).get("text") for item in _as_list(raw)]
    return "\n".join(text for text in texts if isinstance(text, str))


def _codex_injected_skill(text: str, cwd: str | None) -> str | None:
    """The skill of a `<skill>\\n<name>N</name>\\n<path>P</path>...` message (from `$N`)."""
    path = text_between(text, "<path>", "</path>")
    found = skill_paths.skill_from_skill_md(path.strip(), cwd) if path else None
    if found:
        return found
    name = text_between(text, "<name>", "</name>")
    return skill_paths.valid_skill_name(name.strip()) if name else None


# ----------------------------------------------------------------------------- helpers


def _json_object(text: str) -> dict[str, object] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _int_after(text: str, marker: str, *, at_start: bool = False) -> int | None:
    """The integer right after `marker` in `text` (only at its start with `at_start`)."""
    index = text.find(marker)
    if index < 0 or (at_start and index != 0):
        return None
    start = index + len(marker)
    end = start + 1 if text[start : start + 1] == "-" else start
    while end < len(text) and text[end].isdigit():
        end += 1
    digits = text[start:end]
    return int(digits) if digits.lstrip("-") else None
