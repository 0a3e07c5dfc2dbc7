"""Error seeds: the parts of tool output that look like a failure, kept for the distiller.

Detection is plain substring search over a bounded window of the output, so the
PostToolUse hook (which runs on every tool call) stays cheap; only output that looks
like an error is redacted and written. Standard library only.
"""

from __future__ import annotations

SCAN_CHARS = 16_000
SEED_CHARS = 800
LEAD_CHARS = 200
SHELL_TOOLS = frozenset(
    {"Bash", "BashOutput", "exec_command", "shell", "local_shell", "unified_exec"}
)
MARKERS = (
    "traceback (most recent call last)",
    "error:",
    "error ",
    "exception",
    "fatal:",
    "failed",
    "command not found",
    "no such file or directory",
    "permission denied",
    "panic:",
    "segmentation fault",
    "cannot find",
    "could not",
    "exit code",
    "process exited with code 1",
)


def response_text(response: object) -> str:
    """The text of a tool response: a string, or the stdout/stderr/error fields of a dict."""
    if isinstance(response, str):
        return response
    if isinstance(response, dict):
        parts = []
        for key in ("error", "stderr", "stdout", "output", "content"):
            value = response.get(key)
            if isinstance(value, str) and value:
                parts.append(value)
        return "\n".join(parts)
    return ""


def error_snippet(text: str) -> str | None:
    """An excerpt around the first error marker, or None when the text does not look failed."""
    window = (
        text
        if len(text) <= SCAN_CHARS
        else text[: SCAN_CHARS // 2] + "\n" + text[-SCAN_CHARS // 2 :]
    )
    lowered = window.lower()
    hits = [pos for pos in (lowered.find(marker) for marker in MARKERS) if pos >= 0]
    if not hits:
        return None
    start = max(0, min(hits) - LEAD_CHARS)
    return window[start : start + SEED_CHARS].strip() or None


def failed_response(tool: str, response: object) -> str | None:
    """A seed for a PostToolUse response that looks like a failure (shell tools and error dicts)."""
    if isinstance(response, dict) and (response.get("is_error") or response.get("interrupted")):
        return (
            error_snippet(response_text(response)) or response_text(response)[:SEED_CHARS] or None
        )
    if tool not in SHELL_TOOLS and not tool.startswith("mcp__"):
        return None
    return error_snippet(response_text(response))
