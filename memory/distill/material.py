"""What a distillation reads: the session from its end, and what the hooks captured around it.

The transcript or rollout is read from its end (at most `settings.transcript_lines` lines
within the last `MAX_TRANSCRIPT_BYTES`, so a 500 MB transcript costs what a 5 MB one does);
the hooks' prompts and error seeds come from the session's state folder, the checkpoint notes
from CHECKPOINTS.md (the ones written during the session, all, or none).
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.distill.request import Seed
from fireworks_skill_memory.memory.errors import InvalidInput
from fireworks_skill_memory.memory.screen.screen import Trust
from fireworks_skill_memory.memory.sessions import session_files
from fireworks_skill_memory.memory.sessions.readers import (
    SessionDigest,
    read_claude_transcript,
    read_codex_rollout,
    read_session,
)
from fireworks_skill_memory.memory.store.markdown_store import Store

Notes = Literal["session", "all", "none"]

MAX_TRANSCRIPT_BYTES = 4_000_000
HOOK_FILE_BYTES = 64 * 1024
FALLBACK_NOTES = 3
NOTE_SLACK = 60.0


@dataclass(frozen=True)
class Material:
    """What one run distils: the session digest and what the hooks captured around it."""

    session_id: str
    digest: SessionDigest
    seeds: list[Seed] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)


def read_transcript(path: str, agent: str | None, max_lines: int) -> SessionDigest:
    """The digest of a transcript or rollout, read from its end within the worker's caps."""
    reader = {"claude": read_claude_transcript, "codex": read_codex_rollout}.get(
        agent or "", read_session
    )
    return reader(path, max_bytes=MAX_TRANSCRIPT_BYTES, max_lines=max_lines)


def session_material(
    settings: Settings,
    transcript_path: str,
    session_id: str,
    agent: str | None,
    skills: list[str],
    checkpoints: Notes,
) -> Material:
    """A finished session's material: its digest (with `skills` added to the ones it used),
    the hooks' prompts and seeds, and the checkpoint notes `checkpoints` asks for."""
    digest = read_transcript(transcript_path, agent, settings.transcript_lines)
    if skills:
        used = list(dict.fromkeys([*digest.skills_used, *skills]))
        digest = dataclasses.replace(digest, skills_used=used)
    return with_hook_data(settings, session_id, digest, checkpoints)


def summary_digest(skill: str, text: str, chunk: int = 4000, limit: int = 16_000) -> SessionDigest:
    """A digest holding a summary as assistant text (its head and tail when it is long)."""
    from fireworks_skill_memory.memory.sessions.transcript_tail import cap

    body = cap(text.strip(), limit)
    if not body:
        raise InvalidInput("the summary is empty")
    chunks = [body[i : i + chunk] for i in range(0, len(body), chunk)]
    return SessionDigest(
        agent="summary",
        session_id=None,
        cwd=None,
        prompts=[],
        assistant_texts=chunks,
        tool_calls=[],
        skills_used=[skill],
        truncated=len(text.strip()) > limit,
    )


def digest_trust(digest: SessionDigest) -> tuple[Trust, str]:
    """The trust of lessons taken from a session (low when it read the web), and why."""
    from fireworks_skill_memory.memory.screen.trust import session_trust

    return session_trust([(call.name, call.input) for call in digest.tool_calls], digest.cwd)


def session_folder(settings: Settings, session_id: str) -> str | None:
    """The hooks' state folder of a session."""
    return session_files.session_folder(settings.sessions_dir, session_id)


def _jsonl_tail(path: str, max_bytes: int = HOOK_FILE_BYTES) -> list[dict[str, object]]:
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - max_bytes))
            lines = handle.read().split(b"\n")[(1 if size > max_bytes else 0) :]
    except OSError:
        return []
    records = []
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            records.append(value)
    return records


def read_seeds(folder: str) -> list[Seed]:
    """The error seeds the hooks captured (`seeds.jsonl`), oldest first."""
    seeds = []
    for record in _jsonl_tail(os.path.join(folder, session_files.SEEDS_FILE)):
        t, tool, text = record.get("t"), record.get("tool"), record.get("text")
        if isinstance(text, str) and text.strip():
            stamp = float(t) if isinstance(t, (int, float)) else 0.0
            seeds.append(Seed(stamp, tool if isinstance(tool, str) else "", text))
    return seeds


def read_hook_prompts(folder: str) -> list[tuple[float, str]]:
    """The prompts the hooks recorded (`prompts.jsonl`) with their times, oldest first."""
    prompts = []
    for record in _jsonl_tail(os.path.join(folder, session_files.PROMPTS_FILE)):
        t, prompt = record.get("t"), record.get("prompt")
        if isinstance(prompt, str) and prompt.strip():
            prompts.append((float(t) if isinstance(t, (int, float)) else 0.0, prompt))
    return prompts


def with_hook_data(
    settings: Settings, session_id: str, digest: SessionDigest, checkpoints: Notes
) -> Material:
    """The digest with the hooks' prompts, its seeds and the session's checkpoint notes."""
    folder = session_folder(settings, session_id)
    seeds = read_seeds(folder) if folder else []
    prompts = read_hook_prompts(folder) if folder else []
    if prompts:
        # The hooks saw every prompt; the transcript's tail may have lost the first ones.
        digest = dataclasses.replace(digest, prompts=[prompt for _, prompt in prompts])
    times = [t for t, _ in prompts if t > 0] + [seed.t for seed in seeds if seed.t > 0]
    since = min(times) - NOTE_SLACK if times else None
    store = Store(settings)
    notes = {skill: session_notes(store, skill, since, checkpoints) for skill in digest.skills_used}
    return Material(session_id, digest, seeds, {k: v for k, v in notes.items() if v})


def session_notes(store: Store, skill: str, since: float | None, which: Notes) -> list[str]:
    """Checkpoint notes of `skill`: all, none, or those written since `since` (unknown: the
    last few)."""
    if which == "none":
        return []
    notes = store.checkpoints(skill)
    if which == "all":
        return [note.note for note in notes]
    if since is None:
        return [note.note for note in notes[-FALLBACK_NOTES:]]
    kept = []
    for note in notes:
        try:
            stamp = datetime.strptime(note.time, "%Y-%m-%d %H:%M:%S").timestamp()
        except ValueError:
            continue
        if stamp >= since:
            kept.append(note.note)
    return kept


def skill_uses(digest: SessionDigest) -> dict[str, int]:
    """How many calls of the session loaded each skill it used (at least 1 each)."""
    from fireworks_skill_memory.memory.sessions.skill_paths import skill_from_tool_call

    uses = dict.fromkeys(digest.skills_used, 0)
    for call in digest.tool_calls:
        for skill in skill_from_tool_call(call.name, call.input, digest.cwd):
            if skill in uses:
                uses[skill] += 1
    return {skill: max(1, count) for skill, count in uses.items()}
