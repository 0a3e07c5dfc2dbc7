"""`flush --distill` and `flush --session latest`: the distillation pipeline from the CLI.

`--distill` asks the distiller about a summary (`--summary-file`, `--stdin`) or a session
(`--session-file`, `--session latest`), forced past MIN_TOOL_CALLS and DISTILL_EVERY but
not past the daily cost guard. `--session latest` without `--distill` reads the lesson
sections of the newest Codex rollout's assistant text, like `flush --summary-file`.
"""

from __future__ import annotations

import os
import sys

import click

from fireworks_skill_memory.cli.common import emit_json, settings, store
from fireworks_skill_memory.cli.report import print_outcomes, report_flush
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import InvalidInput, NotFound

MAX_SUMMARY_BYTES = 4_000_000  # the distiller keeps 16k characters of it anyway


def flush_distilled(
    skill: str,
    *,
    summary_file: str | None = None,
    session_file: str | None = None,
    from_stdin: bool = False,
    session_ref: str | None = None,
    distill: bool = False,
    max_lessons: int = 3,
    include_checkpoints: bool = False,
    keep_checkpoints: bool = False,
    as_json: bool = False,
) -> None:
    """Store the lessons of a summary or session through the distiller (or its sections)."""
    config = settings()
    session = session_file or (latest_rollout(config) if session_ref == "latest" else None)
    if not distill:
        if session is None:
            raise InvalidInput(
                "without --distill, flush reads lessons from --summary-file, --session-file, "
                "--stdin or --session latest: give one of them"
            )
        _flush_sections(skill, session, max_lessons, include_checkpoints, keep_checkpoints, as_json)
        return
    from fireworks_skill_memory.memory.distill.flush import retire_distilled_notes
    from fireworks_skill_memory.memory.distill.result import DistillFailed
    from fireworks_skill_memory.memory.distill.run import distill_session, distill_summary

    session_id = _session_id(session) if session is not None else None
    notes = store().checkpoints(skill) if include_checkpoints else []
    if session is not None and session_id is not None:
        result = distill_session(
            config,
            session,
            session_id,
            force=True,
            skills=[skill],
            checkpoints="all" if include_checkpoints else "none",
            per_skill=max_lessons,
        )
    else:
        # A summary, or a session file in neither agent's format: its text is the material.
        text = read_summary(summary_file or session, from_stdin)
        result = distill_summary(
            config, skill, text, notes=[n.note for n in notes], per_skill=max_lessons
        )
    if result.status != "stored":
        raise DistillFailed(f"distillation {result.status}: {result.reason}")
    cleared = 0 if keep_checkpoints else retire_distilled_notes(store(), skill, notes)
    if as_json:
        emit_json(
            {
                "skill": skill,
                "status": result.status,
                "reason": result.reason,
                "candidates": len(result.candidates),
                "stored": [report.as_json() for report in result.reports],
                "cleared_checkpoints": cleared,
                "kept_checkpoints": len(store().checkpoints(skill)),
                "tokens": {"input": result.input_tokens, "output": result.output_tokens},
                "calls": result.calls,
            }
        )
        return
    print_outcomes(skill, [report.as_json() for report in result.reports])
    click.echo(
        f"distilled {len(result.candidates)} candidate lessons "
        f"({result.calls} calls, {result.input_tokens} in / {result.output_tokens} out tokens)"
    )
    if cleared:
        noun = "note" if cleared == 1 else "notes"
        click.echo(f"archived {cleared} checkpoint {noun} the distiller read (see `review`)")


def latest_rollout(config: Settings) -> str:
    """The newest Codex rollout under `$CODEX_HOME/sessions` (default ~/.codex)."""
    from fireworks_skill_memory.memory.sessions.readers import latest_codex_rollout

    codex_home = config.environ.get("CODEX_HOME") or os.path.join(
        config.environ.get("HOME") or os.path.expanduser("~"), ".codex"
    )
    found = latest_codex_rollout(codex_home)
    if found is None:
        raise NotFound(f"no Codex rollout under {os.path.join(codex_home, 'sessions')}")
    return found


def _session_id(path: str) -> str | None:
    """The session's own id (else one derived from the path); None when the file is neither
    a Claude transcript nor a Codex rollout."""
    from fireworks_skill_memory.memory.sessions.readers import read_session

    try:
        digest = read_session(path, max_bytes=256_000, max_lines=200)
    except InvalidInput:
        if not os.path.isfile(path):
            raise
        return None
    return digest.session_id or "file-" + os.path.basename(path)


def read_summary(path: str | None, from_stdin: bool = False) -> str:
    """A summary from a file or stdin (the string values of a .json/.jsonl file).

    The one reader of `flush` summaries: more than MAX_SUMMARY_BYTES is refused, not cut.
    """
    from fireworks_skill_memory.memory.distill.sections import session_text

    where = "standard input" if from_stdin else str(path)
    try:
        if from_stdin:
            raw = sys.stdin.buffer.read(MAX_SUMMARY_BYTES + 1)
        else:
            with open(path or "", "rb") as handle:
                raw = handle.read(MAX_SUMMARY_BYTES + 1)
    except OSError as error:
        raise InvalidInput(f"cannot read {where}: {error.strerror}") from None
    if len(raw) > MAX_SUMMARY_BYTES:
        raise InvalidInput(
            f"the summary in {where} is over {MAX_SUMMARY_BYTES // 1_000_000} MB; "
            "pass only the part with the lessons"
        )
    text = raw.decode("utf-8", errors="replace")
    return text if from_stdin else session_text(text, os.path.basename(path or ""))


def _flush_sections(
    skill: str,
    rollout: str,
    max_lessons: int,
    include_checkpoints: bool,
    keep_checkpoints: bool,
    as_json: bool,
) -> None:
    """`flush --session latest` without --distill: lesson sections of the assistant's text."""
    from fireworks_skill_memory.cli.common import ingest
    from fireworks_skill_memory.memory.distill.flush import flush_explicit
    from fireworks_skill_memory.memory.distill.material import digest_trust
    from fireworks_skill_memory.memory.sessions.readers import read_session

    digest = read_session(rollout)
    trust, _ = digest_trust(digest)  # the session's own text: low when it read the web
    pipeline = ingest("flush", trust=trust)
    result = flush_explicit(
        pipeline,
        skill,
        "\n\n".join(digest.assistant_texts),
        max_lessons=max_lessons,
        include_checkpoints=include_checkpoints,
        keep_checkpoints=keep_checkpoints,
        origin=pipeline.store.provenance("flush", agent="codex", session=digest.session_id),
    )
    report_flush(skill, result, as_json, source=rollout)
