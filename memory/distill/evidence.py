"""The evidence of a distilled lesson, read from the session, not taken from the model.

The model names the error a lesson comes from (`E2`: the request's numbered failed calls,
`S1`: the hooks' captured errors). The transcript then says the rest: the failing call's
command, exit status and first error line (redacted), and whether a later successful call of
the same tool ran the same program (the same or a corrected command: `commands.toml` says
how commands compare). That is `verified`; a lesson that names no failed call, or whose
call never succeeded later in the session, is an `unverified guess`.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from fireworks_skill_memory.memory.distill.request import (
    Seed,
    describe_input,
    numbered_errors,
    numbered_seeds,
    seed_key,
)
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.sessions.readers import SessionDigest, ToolCall
from fireworks_skill_memory.memory.sessions.transcript_tail import cap
from fireworks_skill_memory.memory.store.evidence import GUESS, MAX_FIELD_CHARS, VERIFIED, Evidence

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

_REFERENCE = re.compile(r"\b([ES])(\d{1,2})\b")
_SEGMENTS = re.compile(r"&&|\|\||;|\n")
_EXIT_LINE = re.compile(r"^(exit code|process exited with code)\b", re.IGNORECASE)


@dataclass(frozen=True)
class CommandRules:
    """How commands compare (`commands.toml`): wrappers, runners (word -> flag), setup words,
    and the words that mark an output line as the error."""

    wrappers: frozenset[str]
    runners: Mapping[str, str]
    setup: frozenset[str]
    error_words: tuple[str, ...]


@cache
def command_rules() -> CommandRules:
    """The shipped rules (`commands.toml`, package data)."""
    text = resources.files(__package__).joinpath("commands.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return CommandRules(
        wrappers=frozenset(entry["word"] for entry in data["wrapper"]),
        runners={entry["word"]: entry["flag"] for entry in data["runner"]},
        setup=frozenset(entry["word"] for entry in data["setup"]),
        error_words=tuple(entry["word"] for entry in data["error_word"]),
    )


def programs(command: str) -> list[str]:
    """The programs a shell command runs, in order (`commands.toml`: wrappers, runners and
    setup words such as `cd` are seen through)."""
    found = []
    for segment in _SEGMENTS.split(command):
        name = _segment_program(_words(segment))
        if name:
            found.append(name)
    return found


def program(command: str) -> str:
    """The program a failed command is about: the last one it runs (`cd x && pytest`)."""
    found = programs(command)
    return found[-1] if found else ""


def _segment_program(words: list[str]) -> str:
    rules = command_rules()
    while words and ("=" in words[0] or words[0] in rules.wrappers):
        words = words[1:]  # an assignment (`CI=1`) or a wrapper (`sudo`)
    if not words or words[0] in rules.setup:
        return ""
    name = words[0].rsplit("/", 1)[-1]
    flag = rules.runners.get(name)
    if flag is not None:
        rest = words[1:]
        if flag:
            rest = rest[1:] if rest and rest[0] == flag else []
        if rest and not rest[0].startswith("-"):
            return rest[0].rsplit("/", 1)[-1]
    return name


def _words(segment: str) -> list[str]:
    try:
        return shlex.split(segment)
    except ValueError:  # an unbalanced quote: plain words are close enough
        return segment.split()


def same_program(failed: ToolCall, later: ToolCall) -> bool:
    """`later` runs the same or a corrected command: the same tool, running the failed
    command's program (a shell call: `mkdir lib && PYTHONPATH=lib python3 x.py` corrects
    `python3 x.py`) or on the same input (a path, any other input)."""
    if failed.name != later.name:
        return False
    first, second = describe_input(failed), describe_input(later)
    if _is_shell(failed) and _is_shell(later):
        wanted = program(first)
        return bool(wanted) and wanted in programs(second)
    return first == second


def _is_shell(call: ToolCall) -> bool:
    return any(key in call.input for key in ("command", "cmd"))


def error_line(output: str) -> str | None:
    """The output's error line: the first with an error word and a message after a colon
    (`ModuleNotFoundError: ...`, not a `=== ERRORS ===` banner), else the first with an error
    word, else the first that is not an exit-code line (redacted, capped); None when empty."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    words = command_rules().error_words
    marked = [line for line in lines if any(w in line.lower() for w in words)]
    chosen = next((line for line in marked if ": " in line), marked[0] if marked else None)
    if chosen is None:
        chosen = next((line for line in lines if not _EXIT_LINE.match(line)), None)
    return None if chosen is None else _clean(chosen)


def _clean(text: str) -> str:
    return cap(redact(" ".join(text.split())), MAX_FIELD_CHARS)


def call_evidence(digest: SessionDigest, failed: ToolCall) -> Evidence:
    """`verified` when a later successful call in `digest` runs the same or a corrected
    command, else an `unverified guess`; with the failed call's command and error."""
    later = digest.tool_calls[_position(digest, failed) + 1 :]
    fix = next((c for c in later if not c.failed and same_program(failed, c)), None)
    return Evidence(
        VERIFIED if fix is not None else GUESS,
        command=_clean(describe_input(failed)),
        exit_status=failed.exit_code,
        error=error_line(failed.output),
        fixed_by=None if fix is None else _clean(describe_input(fix)),
    )


def _position(digest: SessionDigest, call: ToolCall) -> int:
    for position, candidate in enumerate(digest.tool_calls):
        if candidate is call:
            return position
    return digest.tool_calls.index(call)


def lesson_evidence(digest: SessionDigest, seeds: Sequence[Seed], reference: str) -> Evidence:
    """The evidence of a lesson whose model-given `reference` names E<n> or S<n> (the first
    one it names); a lesson that names no failed call of the session is an unverified guess."""
    found = _REFERENCE.search(reference)
    if found is None:
        return Evidence(GUESS)
    letter, number = found.group(1), int(found.group(2))
    if letter == "E":
        errors = numbered_errors(digest)
        if 1 <= number <= len(errors):
            return call_evidence(digest, errors[number - 1][0])
        return Evidence(GUESS)
    captured = numbered_seeds(seeds, digest)
    if not 1 <= number <= len(captured):
        return Evidence(GUESS)
    seed = captured[number - 1]
    key = seed_key(seed.text)
    call = next(
        (c for c in digest.errors if key and key in " ".join(c.output.split())),
        None,
    )
    if call is not None:
        return call_evidence(digest, call)
    return Evidence(GUESS, error=error_line(seed.text))
