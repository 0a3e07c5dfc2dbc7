"""The `claude` CLI in print mode (users with a Claude login but no API key).

One call is one `claude -p` process: the prompt on stdin (no argv size limit, not
visible in `ps`), the schema through `--json-schema`, no tools, no hooks, no MCP,
no CLAUDE.md, nothing saved. The CLI's own retries and request timeout are set from
our policy. Models are tried in order: the requested one, `claude-haiku-4-5`, `haiku`.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from fireworks_skill_memory.models.errors import (
    BackendBadReply,
    BackendError,
    BackendHTTPError,
    BackendRateLimited,
    BackendTimeout,
    BackendUnavailable,
)
from fireworks_skill_memory.models.llm.base import (
    LLMBackend,
    Logger,
    StructuredReply,
    StructuredRequest,
    no_log,
    token_count,
)
from fireworks_skill_memory.models.llm.claude_env import child_env
from fireworks_skill_memory.models.llm.jsontext import extract_json_object, preview
from fireworks_skill_memory.models.llm.schema import validate_object

FALLBACK_MODELS = ("claude-haiku-4-5", "haiku")
# Hooks off: the distiller runs from a hook, and its own session must not trigger ours.
SETTINGS = json.dumps({"disableAllHooks": True})
AUTH_STATUSES = frozenset({401, 403})
RATE_LIMIT_STATUSES = frozenset({429, 529})
AUTH_HINTS = ("not logged in", "/login", "invalid api key")


@dataclass(frozen=True)
class CliInvocation:
    """One `claude` process to run: argv (argv[0] resolved on the env's PATH), stdin, env."""

    argv: tuple[str, ...]
    stdin: str
    env: dict[str, str] = field(repr=False)  # holds credentials
    model: str


@dataclass(frozen=True)
class CliOutcome:
    """What one `claude` process printed."""

    returncode: int
    stdout: str
    stderr: str
    model: str = ""


class ClaudeCliBackend(LLMBackend):
    """`claude -p --output-format json --json-schema ...`, one process per model tried."""

    name: ClassVar[str] = "claude-cli"

    def __init__(
        self,
        *,
        env: Mapping[str, str],
        model: str,
        timeout: float = 60.0,
        max_attempts: int = 3,
        executable: str = "claude",
        logger: Logger | None = None,
    ) -> None:
        self.env = dict(env)
        self.model = model
        self.timeout = timeout
        self.max_attempts = max(1, max_attempts)
        self.executable = executable
        self.log = logger or no_log

    def models(self, request: StructuredRequest) -> list[str]:
        """The fallback chain, without repeats."""
        chain = [request.model or self.model, *FALLBACK_MODELS]
        return list(dict.fromkeys(m for m in chain if m))

    def build_request(self, request: StructuredRequest) -> list[CliInvocation]:
        """One invocation per model of the fallback chain, in order."""
        env = child_env(
            self.env,
            timeout=self.timeout,
            max_attempts=self.max_attempts,
            max_tokens=request.max_tokens,
        )
        stdin = (
            f"{request.user}\n\nAnswer with one JSON object that matches this JSON schema "
            f"(through the StructuredOutput tool when you have it):\n"
            f"{json.dumps(request.schema, ensure_ascii=False)}\n"
        )
        return [
            CliInvocation(
                argv=(
                    self.executable,
                    "-p",
                    "--output-format",
                    "json",
                    "--model",
                    model,
                    "--system-prompt",
                    request.system,
                    "--json-schema",
                    json.dumps(request.schema, ensure_ascii=False),
                    "--tools",
                    "",
                    "--strict-mcp-config",
                    "--disable-slash-commands",
                    "--no-session-persistence",
                    "--settings",
                    SETTINGS,
                ),
                stdin=stdin,
                env=env,
                model=model,
            )
            for model in self.models(request)
        ]

    def parse_response(self, raw: object, request: StructuredRequest) -> StructuredReply:
        """The `structured_output` (or the JSON object in `result`) of the CLI's result line."""
        if not isinstance(raw, CliOutcome):
            raise BackendBadReply(f"claude-cli: expected a CliOutcome, got {type(raw).__name__}")
        result = _result_event(raw.stdout)
        if result is None:
            raise _no_result_error(raw)
        text = result.get("result")
        text = text if isinstance(text, str) else ""
        if result.get("is_error"):
            raise _run_error(result, text)
        structured = result.get("structured_output")
        if not isinstance(structured, dict):
            structured = extract_json_object(text, label=self.name)
        data = validate_object(structured, request.schema, label=self.name)
        usage = result.get("usage")
        model_usage = result.get("modelUsage")
        used = next(iter(model_usage), None) if isinstance(model_usage, dict) else None
        cache_read = token_count(usage, "cache_read_input_tokens")
        return StructuredReply(
            data=data,
            input_tokens=token_count(
                usage, "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"
            ),
            output_tokens=token_count(usage, "output_tokens"),
            model=str(used or raw.model or request.model or self.model),
            backend=self.name,
            cache_read_tokens=cache_read,
        )

    def complete(self, request: StructuredRequest) -> StructuredReply:
        """Try each model; stop early when no other model can help (no CLI, no login, timeout)."""
        failures: list[tuple[str, BackendError]] = []
        for invocation in self.build_request(request):
            try:
                return self.parse_response(self._run(invocation), request)
            except (BackendUnavailable, BackendTimeout):
                raise
            except BackendError as failure:
                failures.append((invocation.model, failure))
                self.log(f"claude-cli: model {invocation.model} failed: {failure}")
        summary = "; ".join(f"{model}: {failure}" for model, failure in failures)
        last = failures[-1][1]
        last.args = (f"claude-cli: every model failed ({summary})",)
        raise last

    def _run(self, invocation: CliInvocation) -> CliOutcome:
        """The one network call: run `claude` with a hard timeout (its process group is killed)."""
        path = invocation.env.get("PATH", os.defpath)
        executable = shutil.which(invocation.argv[0], path=path) or _known_install(
            invocation.env, invocation.argv[0]
        )
        if executable is None:
            raise BackendUnavailable(
                f"claude-cli: `{invocation.argv[0]}` is not on PATH (install Claude Code, "
                "or use the anthropic backend with ANTHROPIC_API_KEY)"
            )
        with tempfile.TemporaryDirectory(prefix="skill-memory-claude-") as cwd:
            try:
                process = subprocess.Popen(
                    [executable, *invocation.argv[1:]],
                    cwd=cwd,  # an empty directory: no project settings or CLAUDE.md
                    env=invocation.env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    encoding="utf-8",
                    errors="replace",
                    start_new_session=True,
                )
            except OSError as error:
                raise BackendUnavailable(f"claude-cli: cannot run {executable}: {error}") from error
            try:
                stdout, stderr = process.communicate(invocation.stdin, timeout=self.timeout)
            except subprocess.TimeoutExpired as error:
                _kill_group(process)
                process.communicate()
                raise BackendTimeout(
                    f"claude-cli: no answer within {self.timeout:g}s (model {invocation.model})"
                ) from error
        return CliOutcome(process.returncode, stdout, stderr, invocation.model)


def _known_install(env: Mapping[str, str], name: str) -> str | None:
    """Where Claude Code's installers put the binary when PATH (e.g. in a hook) lacks it."""
    home = env.get("HOME", "")
    if name != "claude" or not home:
        return None
    for candidate in (".local/bin/claude", ".claude/local/claude"):
        path = os.path.join(home, candidate)
        if os.access(path, os.X_OK):
            return path
    return None


def _kill_group(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()


def _result_event(stdout: str) -> dict[str, object] | None:
    """The `{"type": "result", ...}` object: all of stdout, or its last such line."""
    for chunk in (stdout.strip(), *reversed(stdout.splitlines())):
        try:
            value = json.loads(chunk)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("type") == "result":
            return value
    return None


def _no_result_error(raw: CliOutcome) -> BackendError:
    output = (raw.stderr.strip() or raw.stdout.strip())[-400:]
    if "unknown option" in output.lower():
        return BackendUnavailable(
            f"claude-cli: this claude is too old for the flags we need; update Claude Code "
            f"({preview(output)})"
        )
    if raw.returncode != 0:
        return BackendError(f"claude-cli: exited {raw.returncode}: {preview(output)}")
    return BackendBadReply(f"claude-cli: no JSON result in the output: {preview(raw.stdout)}")


def _run_error(result: Mapping[str, object], text: str) -> BackendError:
    """Translate a result with `is_error: true` (the CLI reports API failures this way)."""
    status = result.get("api_error_status")
    lowered = text.lower()
    message = f"claude-cli: {preview(text)}"
    if status in AUTH_STATUSES or any(hint in lowered for hint in AUTH_HINTS):
        return BackendUnavailable(message)
    if isinstance(status, int) and not isinstance(status, bool):
        kind = BackendRateLimited if status in RATE_LIMIT_STATUSES else BackendHTTPError
        return kind(f"claude-cli: HTTP {status}: {preview(text)}", status=status)
    if "timed out" in lowered:
        return BackendTimeout(message)
    return BackendBadReply(f"claude-cli: the run failed ({result.get('subtype')}): {preview(text)}")
