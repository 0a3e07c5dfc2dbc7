"""The distillation pipeline, run detached after a session: `python -m memory.distill.worker`.

One run holds the per-home lock `<home>/run/distill.lock` and:

1. reads the session from its end (at most `TRANSCRIPT_LINES` lines within the last
   `MAX_TRANSCRIPT_BYTES`, so a 500 MB transcript costs what a 5 MB one does), the hooks'
   prompts and error seeds, and the checkpoint notes written during the session;
2. skips sessions with fewer than `MIN_TOOL_CALLS` tool calls, without a skill, already
   distilled (unless `MIN_TOOL_CALLS` new calls arrived since), or not picked by
   `SKILL_MEMORY_DISTILL_EVERY`; then the daily cost guard (calls and tokens per UTC day);
3. asks the backend once, parses 0-3 candidates per skill and 0-2 global ones;
4. decides every candidate against the store first (dedup, with the LLM judge for the grey
   band), then writes them skill by skill through `Store.add` (each write locked and atomic);
5. applies the reply's ratings of the lessons injected during the session (`Store.feedback`,
   source `distill`; ids that were not injected are ignored, each lesson is rated once per
   session);
6. syncs the index for the touched scopes (the service's `sync` op, else in-process), updates
   the usage statistics and appends one JSON line to the distill log.

A backend failure writes no lesson. State files, all replaced atomically:

- `<home>/run/distill-state.json`: `{"version": 1, "day": "YYYY-MM-DD" (UTC), "calls": N,
  "tokens": N, "eligible": N, "sessions": {id: {"t", "picked", "distilled", "last_call",
  "rated"}}}` (`rated`: the lesson ids this session already rated);
- `settings.stats_file`: `{skill: {"uses", "sessions", "last_used", "lessons_added",
  "lessons_merged"}}` (keys of the original tool's file are kept);
- `settings.distill_log`: one JSON object per run (appended).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Literal

from fireworks_skill_memory.memory.appender import append_line, log_entry
from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.distill.request import (
    INJECTED,
    MAX_GLOBAL,
    MAX_PER_SKILL,
    REPLY_MAX_TOKENS,
    Candidate,
    InjectedLesson,
    Rating,
    Seed,
    build_request,
    make_judge,
    nearest_lessons,
    parse_ratings,
    parse_response,
    session_query,
)
from fireworks_skill_memory.memory.errors import (
    InvalidInput,
    InvalidLesson,
    LockTimeout,
    NotFound,
    SkillMemoryError,
)
from fireworks_skill_memory.memory.locks import hold_lock
from fireworks_skill_memory.memory.redact.redactor import redact, redact_obj
from fireworks_skill_memory.memory.retrieval.usage import injected_in_session
from fireworks_skill_memory.memory.sessions import session_files
from fireworks_skill_memory.memory.sessions.readers import (
    CLAUDE,
    CODEX,
    SessionDigest,
    read_claude_transcript,
    read_codex_rollout,
    read_session,
)
from fireworks_skill_memory.memory.store.files import (
    locked,
    read_text,
    write_atomic,
)
from fireworks_skill_memory.memory.store.lesson import DEFAULT_TAG, Lesson, new_lesson
from fireworks_skill_memory.memory.store.markdown_store import (
    AddOutcome,
    Match,
    Matcher,
    Store,
    exact_matcher,
)
from fireworks_skill_memory.memory.store.provenance import Provenance
from fireworks_skill_memory.models.errors import BackendError, BackendUnavailable

if TYPE_CHECKING:
    from fireworks_skill_memory.models.embedders import EmbeddingModel
    from fireworks_skill_memory.models.llm.base import (
        LLMBackend,
        StructuredReply,
        StructuredRequest,
    )

Status = Literal["stored", "skipped", "failed"]
Notes = Literal["session", "all", "none"]

LOCK_FILE = "distill.lock"
STATE_FILE = "distill-state.json"
STATE_VERSION = 1
LOCK_WAIT = 120.0
MAX_TRANSCRIPT_BYTES = 4_000_000
HOOK_FILE_BYTES = 64 * 1024
SESSIONS_KEPT = 1000
FALLBACK_NOTES = 3
NOTE_SLACK = 60.0
BACKEND_TIMEOUT = 60.0
BACKEND_ATTEMPTS = 3
SERVICE_SYNC_TIMEOUT = 30.0
JUDGE_TOKENS_ESTIMATE = 400
CHANGES_RANKING = ("helped", "wrong")  # ratings that change what the index ranks by


class DistillFailed(SkillMemoryError):
    """A distillation that was asked for stored nothing (backend failure or a skip)."""


@dataclass(frozen=True)
class RatingOutcome:
    """What the distiller's rating of an injected lesson did (`skipped`: why it did nothing)."""

    rating: Rating
    skill: str | None
    standing: str | None = None
    archived: bool = False
    skipped: str | None = None

    def as_json(self) -> dict[str, object]:
        """The outcome as a JSON record."""
        return {
            "id": self.rating.id,
            "skill": self.skill,
            "rating": self.rating.rating,
            "evidence": self.rating.evidence,
            "applied": self.skipped is None,
            "standing": self.standing,
            "archived": self.archived,
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class DistillResult:
    """What one run did: `status` with a `reason`, the candidates, the store outcomes, cost."""

    status: Status
    reason: str
    session_id: str
    candidates: tuple[Candidate, ...] = ()
    outcomes: tuple[AddOutcome, ...] = ()
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    error: str | None = None
    request_chars: int = 0
    index: str = ""
    ratings: tuple[RatingOutcome, ...] = ()

    @property
    def added(self) -> list[AddOutcome]:
        """Outcomes that added a lesson."""
        return [outcome for outcome in self.outcomes if outcome.action == "added"]

    @property
    def merged(self) -> list[AddOutcome]:
        """Outcomes that merged into an existing lesson."""
        return [outcome for outcome in self.outcomes if outcome.action == "merged"]

    @property
    def quarantined(self) -> list[AddOutcome]:
        """Outcomes the poisoning screen held back."""
        return [outcome for outcome in self.outcomes if outcome.action == "quarantined"]

    def as_json(self) -> dict[str, object]:
        """The result as a JSON-ready dict (the distill log line without time and timing)."""
        return {
            "session": self.session_id,
            "status": self.status,
            "reason": self.reason,
            "error": self.error,
            "calls": self.calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "request_chars": self.request_chars,
            "index": self.index,
            "candidates": [dataclasses.asdict(c) for c in self.candidates],
            "outcomes": [
                {
                    "action": o.action,
                    "skill": o.lesson.skill,
                    "id": o.lesson.id,
                    "text": o.lesson.text,
                    "reason": o.reason,
                    "merged_into": o.merged_from.id if o.merged_from else None,
                }
                for o in self.outcomes
            ],
            "ratings": [rating.as_json() for rating in self.ratings],
        }


@dataclass(frozen=True)
class Material:
    """What one run distils: the session digest and what the hooks captured around it."""

    session_id: str
    digest: SessionDigest
    seeds: list[Seed] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Run:
    """The settings and collaborators of one run, and what it spent."""

    settings: Settings
    backend: LLMBackend | None
    embedder: EmbeddingModel | None
    force: bool
    semantic: bool
    per_skill: int
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usage: dict[str, int] = field(default_factory=dict)

    def log(self, message: str) -> None:
        log_line(self.settings, message)

    def get_embedder(self) -> EmbeddingModel:
        if self.embedder is None:
            from fireworks_skill_memory.memory.embedding import embedder_for
            from fireworks_skill_memory.memory.service.embedder import service_embedder
            from fireworks_skill_memory.models.bundled import (
                DEFAULT_MODEL_NAME,
                is_default_model,
            )

            name = self.settings.embed_model
            model_id = DEFAULT_MODEL_NAME if is_default_model(name) else name
            self.embedder = service_embedder(self.settings.home, model_id) or embedder_for(
                self.settings
            )
        return self.embedder

    def result(
        self,
        status: Status,
        reason: str,
        session_id: str,
        *,
        error: str | None = None,
        candidates: Sequence[Candidate] = (),
        outcomes: Sequence[AddOutcome] = (),
        request_chars: int = 0,
        index: str = "",
        ratings: Sequence[RatingOutcome] = (),
    ) -> DistillResult:
        return DistillResult(
            status,
            reason,
            session_id,
            candidates=tuple(candidates),
            outcomes=tuple(outcomes),
            calls=self.calls,
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            error=error,
            request_chars=request_chars,
            index=index,
            ratings=tuple(ratings),
        )


# ----------------------------------------------------------------------------- entry points


def distill_session(
    settings: Settings,
    transcript_path: str,
    session_id: str,
    *,
    agent: str | None = None,
    backend: LLMBackend | None = None,
    embedder: EmbeddingModel | None = None,
    force: bool = False,
    index: bool = True,
    skills: Sequence[str] = (),
    checkpoints: Notes = "session",
    per_skill: int = MAX_PER_SKILL,
    lock_wait: float = LOCK_WAIT,
) -> DistillResult:
    """Distil one finished session into the store (see the module docstring).

    `force` skips the MIN_TOOL_CALLS, already-distilled and DISTILL_EVERY checks (not the
    daily cost guard). `index=False` loads no embedding model: exact-text dedup, BM25 for
    the nearest lessons, and the index is left to catch up at its next sync. `skills` are
    distilled for in addition to the ones the session used. `checkpoints` says which notes of
    CHECKPOINTS.md join the material: the ones written during the session, all, or none.
    """

    def load() -> Material:
        digest = read_transcript(transcript_path, agent, settings.transcript_lines)
        if skills:
            used = list(dict.fromkeys([*digest.skills_used, *skills]))
            digest = dataclasses.replace(digest, skills_used=used)
        return _with_hook_data(settings, session_id, digest, checkpoints)

    run = _Run(settings, backend, embedder, force, index, per_skill)
    return _locked_run(run, session_id, load, lock_wait)


def distill_summary(
    settings: Settings,
    skill: str,
    text: str,
    *,
    backend: LLMBackend | None = None,
    embedder: EmbeddingModel | None = None,
    index: bool = True,
    notes: Sequence[str] = (),
    per_skill: int = MAX_PER_SKILL,
    lock_wait: float = LOCK_WAIT,
) -> DistillResult:
    """Distil a session summary written for `skill` (e.g. by Codex) into the store."""
    session_id = "summary-" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]

    def load() -> Material:
        return Material(session_id, summary_digest(skill, text), notes={skill: list(notes)})

    run = _Run(settings, backend, embedder, True, index, per_skill)
    return _locked_run(run, session_id, load, lock_wait)


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


# ----------------------------------------------------------------------------- the run


def _locked_run(
    run: _Run, session_id: str, load: Callable[[], Material], lock_wait: float
) -> DistillResult:
    started = time.monotonic()
    try:
        with run_lock(run.settings, lock_wait):
            result = _guarded(run, session_id, load)
    except LockTimeout as error:
        result = run.result("skipped", str(error), session_id)
    append_distill_log(run.settings, result, time.monotonic() - started)
    return result


def _guarded(run: _Run, session_id: str, load: Callable[[], Material]) -> DistillResult:
    try:
        material = load()
    except InvalidInput as error:
        return run.result("failed", str(error), session_id, error=type(error).__name__)
    result = _pipeline(run, material)
    if run.usage or result.outcomes:
        try:
            update_stats(run.settings, run.usage, result.outcomes)
        except (LockTimeout, OSError) as error:
            run.log(f"usage statistics not updated: {error}")
    return result


def _pipeline(run: _Run, material: Material) -> DistillResult:
    settings, sid = run.settings, material.session_id
    state = DistillState.load(settings)
    digest, skip = _eligible(run, material, state)
    if skip is not None:
        return run.result("skipped", skip, sid)
    material = dataclasses.replace(material, digest=digest)
    backend = run.backend or make_distiller(settings, run.log)
    if backend.name == "null":
        return run.result("skipped", "the distiller backend is null", sid)
    over = state.over_budget(settings, REPLY_MAX_TOKENS)  # before any model is loaded
    if over is not None:
        return run.result("skipped", over, sid)
    query = session_query(digest, material.seeds)
    nearest = nearest_lessons(
        settings,
        query,
        digest.skills_used,
        embedder=run.get_embedder() if run.semantic else None,
        semantic=run.semantic,
    )
    injected = injected_lessons(settings, sid, state.rated(sid))
    request = build_request(
        digest, material.seeds, nearest, settings, notes=material.notes, injected=injected
    )
    size = len(request.system) + len(request.user)
    reply = _ask(run, state, backend, request, sid)
    if isinstance(reply, DistillResult):
        return dataclasses.replace(reply, request_chars=size)
    candidates = parse_response(
        reply, digest.skills_used, per_skill=run.per_skill, global_max=MAX_GLOBAL
    )
    origin = _origin(run, backend, digest, sid)
    admitted, held = _screen(run, state, backend, candidates, digest)
    outcomes, write_error = _write(run, _decide(run, state, backend, admitted), origin)
    if write_error is None:
        outcomes, write_error = _quarantine(run, held, origin, outcomes)
    rated: list[RatingOutcome] = []
    if write_error is None:
        rated = _apply_ratings(run, parse_ratings(reply, injected), injected)
        state.mark_rated(sid, [outcome.rating.id for outcome in rated])
    if write_error is not None:
        return run.result(
            "failed",
            str(write_error),
            sid,
            error=type(write_error).__name__,
            candidates=candidates,
            outcomes=outcomes,
            request_chars=size,
        )
    state.mark_distilled(sid, digest)
    state.save()
    stored = f"{len(outcomes)} of {len(candidates)} candidates stored"
    reason = stored if candidates else "the distiller found no new lesson"
    applied = sum(outcome.skipped is None for outcome in rated)
    if rated:
        reason += f"; {applied} of {len(rated)} ratings applied"
    touched = [outcome.lesson.skill for outcome in outcomes]
    touched += [outcome.skill for outcome in rated if outcome.rating.rating in CHANGES_RANKING]
    return run.result(
        "stored",
        reason,
        sid,
        candidates=candidates,
        outcomes=outcomes,
        request_chars=size,
        index=_sync_index(run, touched),
        ratings=rated,
    )


def injected_lessons(
    settings: Settings, session_id: str, rated: Collection[str] = ()
) -> list[InjectedLesson]:
    """The lessons injected during the session that are still in a KNOWLEDGE.md (at most
    `INJECTED`), with their standing, leaving out the ones the session already `rated`."""
    pairs = injected_in_session(settings, session_id)
    store = Store(settings)
    scopes: dict[str | None, tuple[dict[str, Lesson], dict[str, str]]] = {}
    found: dict[str, InjectedLesson] = {}
    for skill, lesson_id in pairs:
        if lesson_id in rated or lesson_id in found:
            continue
        for scope in (skill, None):  # a global lesson is logged under the skill it came with
            lessons, standings = _scope_state(store, scope, scopes)
            lesson = lessons.get(lesson_id)
            if lesson is not None:
                found[lesson_id] = InjectedLesson(
                    lesson_id,
                    scope,
                    lesson.tag or DEFAULT_TAG,
                    lesson.text,
                    standings.get(lesson_id, "current"),
                )
                break
        if len(found) >= INJECTED:
            break
    return list(found.values())


def _scope_state(
    store: Store,
    scope: str | None,
    cache: dict[str | None, tuple[dict[str, Lesson], dict[str, str]]],
) -> tuple[dict[str, Lesson], dict[str, str]]:
    """A scope's lessons by id and their standings, read once per run (nothing for a bad name)."""
    if scope not in cache:
        try:
            cache[scope] = (
                {lesson.id: lesson for lesson in store.lessons(scope)},
                store.standings(scope),
            )
        except (SkillMemoryError, OSError):
            cache[scope] = ({}, {})
    return cache[scope]


def _apply_ratings(
    run: _Run, ratings: Sequence[Rating], injected: Sequence[InjectedLesson]
) -> list[RatingOutcome]:
    """Apply the ratings of lessons injected in the session (`Store.feedback`, one at a time).

    A lesson that is gone since (archived, edited, deleted) is logged and skipped.
    """
    scopes = {lesson.id: lesson.skill for lesson in injected}
    store = Store(run.settings)
    done = []
    for rating in ratings:
        if rating.id not in scopes:  # the model may invent ids
            continue
        scope = scopes[rating.id]
        try:
            outcome = store.feedback(
                rating.id,
                rating.rating,
                note=rating.evidence,
                source="distill",
                skill=scope,
                scoped=True,
            )
        except NotFound as error:
            run.log(f"rating {rating.rating} of {rating.id} skipped: {error}")
            done.append(RatingOutcome(rating, scope, skipped="the lesson is gone"))
            continue
        except (SkillMemoryError, OSError) as error:
            run.log(f"rating {rating.rating} of {rating.id} failed: {error}")
            done.append(RatingOutcome(rating, scope, skipped=f"failed: {type(error).__name__}"))
            continue
        done.append(RatingOutcome(rating, scope, outcome.standing, outcome.archived))
    return done


def _eligible(
    run: _Run, material: Material, state: DistillState
) -> tuple[SessionDigest, str | None]:
    """The part of the session to distil, or why the session is skipped."""
    settings, digest, sid = run.settings, material.digest, material.session_id
    if not digest.skills_used:
        return digest, "no skill used"
    seen = state.sessions.get(sid)
    # A session distilled before: only the calls made since (a forced run takes it all).
    fresh = _after(digest, seen.get("last_call")) if seen and not run.force else digest
    minimum = settings.min_tool_calls
    if not run.force and digest.tool_call_count < minimum:
        return digest, f"{digest.tool_call_count} tool calls < MIN_TOOL_CALLS={minimum}"
    if not run.force and seen and seen.get("distilled") and fresh.tool_call_count < max(1, minimum):
        return digest, f"already distilled ({fresh.tool_call_count} new tool calls since)"
    if seen is None:
        run.usage = skill_uses(digest)
    picked = state.pick(sid, settings.distill_every, run.force)
    state.save()
    if not picked:
        return digest, f"not picked: every {settings.distill_every}th eligible session is distilled"
    return fresh, None


def _after(digest: SessionDigest, last_call: object) -> SessionDigest:
    """The digest without the tool calls up to `last_call` (all of them when it is not found)."""
    ids = [call.id for call in digest.tool_calls]
    if not isinstance(last_call, str) or last_call not in ids:
        return digest
    return dataclasses.replace(digest, tool_calls=digest.tool_calls[ids.index(last_call) + 1 :])


def _ask(
    run: _Run, state: DistillState, backend: LLMBackend, request: StructuredRequest, sid: str
) -> StructuredReply | DistillResult:
    """One backend call within the daily budget; a skipped or failed result otherwise."""
    estimate = (len(request.system) + len(request.user)) // 4 + request.max_tokens
    over = state.over_budget(run.settings, estimate)
    if over is not None:
        run.log(f"skipped: {over}")
        return run.result("skipped", over, sid)
    state.reserve_call()
    run.calls += 1
    try:
        reply = backend.complete(request)
    except BackendError as error:
        if isinstance(error, BackendUnavailable):  # nothing was sent, so nothing was spent
            state.release_call()
        message = redact(str(error))
        run.log(f"distiller failed: {type(error).__name__}: {message}")
        return run.result("failed", message, sid, error=type(error).__name__)
    _spend(run, state, reply)
    return reply


def _spend(run: _Run, state: DistillState, reply: StructuredReply) -> None:
    run.input_tokens += reply.input_tokens
    run.output_tokens += reply.output_tokens
    state.add_tokens(reply.input_tokens + reply.output_tokens)


def _origin(run: _Run, backend: LLMBackend, digest: SessionDigest, sid: str) -> Provenance:
    """The provenance of the lessons this run writes."""
    agent = {CLAUDE: "claude-code", CODEX: "codex"}.get(digest.agent)
    return Store(run.settings).provenance(
        "distill",
        agent=agent,
        session=digest.session_id or sid,
        backend=backend.name,
        model=run.settings.knowledge_model,
    )


def _allow(run: _Run, state: DistillState) -> Callable[[], bool]:
    """A cost guard for one extra judge call: within the daily budget, and counted."""

    def allow() -> bool:
        if state.over_budget(run.settings, JUDGE_TOKENS_ESTIMATE) is not None:
            return False
        state.reserve_call()
        run.calls += 1
        return True

    return allow


def _screen(
    run: _Run,
    state: DistillState,
    backend: LLMBackend,
    candidates: Sequence[Candidate],
    digest: SessionDigest,
) -> tuple[list[Candidate], list[tuple[Candidate, str]]]:
    """The candidates the poisoning screen admits, and the ones it holds back with why.

    The distiller's LLM is asked (one call) about the grey band and every candidate that asks
    for an action; a failed call holds back. A session that read the web or files outside its
    project makes its lessons low trust: one that asks for an action waits in review.
    """
    if not candidates:
        return [], []
    from fireworks_skill_memory.memory.screen.judge import make_screen_judge
    from fireworks_skill_memory.memory.screen.screen import rules_screen, screen_for
    from fireworks_skill_memory.memory.screen.trust import session_trust

    judge = make_screen_judge(
        backend,
        model=run.settings.knowledge_model,
        log=run.log,
        allow=_allow(run, state),
        on_reply=lambda reply: _spend(run, state, reply),
    )
    # without the model there is no grey band (it comes from the exemplar similarity)
    screen = (
        screen_for(run.settings, run.get_embedder(), judge, judge_actions=True)
        if run.semantic
        else rules_screen(judge, judge_actions=True)
    )
    trust, why = session_trust([(c.name, c.input) for c in digest.tool_calls], digest.cwd)
    if why:
        run.log(f"distilled lessons are low trust: the session {why}")
    verdicts = screen.screen_batch([(c.tag, c.text) for c in candidates], trust)
    admitted, held = [], []
    for candidate, verdict in zip(candidates, verdicts, strict=True):
        if verdict.quarantined:
            run.log(f"quarantined a {candidate.skill or 'global'} lesson: {verdict.reason}")
            held.append((candidate, verdict.reason))
        else:
            admitted.append(candidate)
    return admitted, held


def _quarantine(
    run: _Run,
    held: Sequence[tuple[Candidate, str]],
    origin: Provenance,
    outcomes: list[AddOutcome],
) -> tuple[list[AddOutcome], SkillMemoryError | OSError | None]:
    """Keep the held-back candidates in their scopes' quarantine."""
    store = Store(run.settings)
    for candidate, reason in held:
        try:
            lesson = new_lesson(
                redact(candidate.text),
                skill=candidate.skill,
                month=store.month(),
                tag=candidate.tag,
            )
            outcomes.append(store.quarantine(lesson, reason, origin))
        except InvalidLesson:
            continue
        except (SkillMemoryError, OSError) as error:
            run.log(f"quarantine failed for {candidate.skill or 'global'}: {error}")
            return outcomes, error
    return outcomes, None


def _decide(
    run: _Run, state: DistillState, backend: LLMBackend, candidates: Sequence[Candidate]
) -> list[tuple[Candidate, Match]]:
    """Every candidate's dedup verdict against the store as it is now (judge calls included)."""
    if not candidates:
        return []
    store = Store(run.settings)
    judge = make_judge(
        backend,
        model=run.settings.knowledge_model,
        log=run.log,
        allow=_allow(run, state),
        on_reply=lambda reply: _spend(run, state, reply),
    )
    matcher = _matcher(run, judge)
    decided = []
    for candidate in candidates:
        try:
            lesson = new_lesson(
                candidate.text, skill=candidate.skill, month=store.month(), tag=candidate.tag
            )
        except InvalidLesson:
            continue
        existing = store.lessons(candidate.skill)
        decided.append((candidate, _settled(matcher, existing, lesson, candidate.replaces)))
    return decided


def _settled(
    matcher: Matcher, existing: Sequence[Lesson], lesson: Lesson, replaces: str | None
) -> Match:
    """The matcher's verdict, settled by the distiller's `replaces` where it was unclear.

    The distiller was asked in the proposal call (no extra request); without its word, or
    when the local decision was clear, the verdict stands (doubt keeps both lessons).
    """
    from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher

    match = matcher(existing, lesson)
    old = next((e for e in existing if e.id == replaces), None) if replaces else None
    if old is None or not isinstance(matcher, SemanticMatcher):
        return match
    return matcher.settle(old, lesson, match)


def _matcher(run: _Run, judge: Callable[[str, str], bool | None] | None) -> Matcher:
    if not run.semantic:
        return exact_matcher
    from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher

    return SemanticMatcher(run.get_embedder(), judge)


def _replay(decided: Match, fallback: Matcher) -> Matcher:
    """The decided verdict while it still holds; `fallback` (no judge) for what changed since.

    A merge target that vanished, or a lesson that an earlier candidate of this run just
    added, is found by `fallback`; otherwise the decision (and its reason) stands.
    """

    def matcher(existing: Sequence[Lesson], candidate: Lesson) -> Match:
        if decided.target_id is not None and any(e.id == decided.target_id for e in existing):
            return decided
        again = fallback(existing, candidate)
        return again if again.target_id is not None or decided.target_id is not None else decided

    return matcher


def _write(
    run: _Run, decided: Sequence[tuple[Candidate, Match]], origin: Provenance
) -> tuple[list[AddOutcome], SkillMemoryError | OSError | None]:
    """Write the decided candidates skill by skill (global last), one atomic write each."""
    store = Store(run.settings)
    fallback = _matcher(run, None)
    order = {c.skill: i for i, (c, _) in reversed(list(enumerate(decided)))}
    ordered = sorted(decided, key=lambda pair: (pair[0].skill is None, order[pair[0].skill]))
    outcomes: list[AddOutcome] = []
    for candidate, match in ordered:
        try:
            outcomes.append(
                store.add(
                    candidate.skill,
                    candidate.text,
                    candidate.tag,
                    matcher=_replay(match, fallback),
                    origin=origin,
                )
            )
        except (SkillMemoryError, OSError) as error:
            run.log(f"write failed for {candidate.skill or 'global'}: {error}")
            return outcomes, error
    return outcomes, None


def _sync_index(run: _Run, touched: Sequence[str | None]) -> str:
    """Bring the index in step with the touched scopes: the service, else in-process."""
    if not touched:
        return "unchanged"
    from fireworks_skill_memory.memory.service.client import try_call

    scopes = list(dict.fromkeys(touched))
    payload: dict[str, object] = {"scopes": scopes}
    if try_call(run.settings.home, "sync", payload, SERVICE_SYNC_TIMEOUT) is not None:
        return "service"
    if not run.semantic:
        return "deferred"
    from fireworks_skill_memory.index.errors import IndexStoreError
    from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
    from fireworks_skill_memory.models.errors import ModelError

    try:
        MemoryIndex(run.settings, run.get_embedder()).sync(scopes)
    except (IndexStoreError, ModelError, OSError) as error:
        run.log(f"index sync failed (it catches up at the next sync): {error}")
        return f"failed: {type(error).__name__}"
    return "in-process"


def make_distiller(settings: Settings, log: Callable[[str], None]) -> LLMBackend:
    """The configured backend (`SKILLS_DISTILLER_BACKEND`, `auto` resolved)."""
    from fireworks_skill_memory.models.llm import make_backend

    return make_backend(
        settings.effective_distiller(),
        model=settings.knowledge_model,
        env=settings.environ,
        timeout=BACKEND_TIMEOUT,
        max_attempts=BACKEND_ATTEMPTS,
        logger=log,
    )


# ----------------------------------------------------------------------------- reading


def read_transcript(path: str, agent: str | None, max_lines: int) -> SessionDigest:
    """The digest of a transcript or rollout, read from its end within the worker's caps."""
    reader = {"claude": read_claude_transcript, "codex": read_codex_rollout}.get(
        agent or "", read_session
    )
    return reader(path, max_bytes=MAX_TRANSCRIPT_BYTES, max_lines=max_lines)


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


def _with_hook_data(
    settings: Settings, session_id: str, digest: SessionDigest, checkpoints: Notes
) -> Material:
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


# ----------------------------------------------------------------------------- state


@contextlib.contextmanager
def run_lock(settings: Settings, wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold `<home>/run/distill.lock` (one distillation per home at a time), waiting `wait` s."""
    os.makedirs(settings.run_dir, mode=0o700, exist_ok=True)
    with hold_lock(os.path.join(settings.run_dir, LOCK_FILE), wait, what="the distill lock"):
        yield


def utc_day() -> str:
    """Today's date in UTC, the unit of the daily cost guard."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


@dataclass
class DistillState:
    """The distiller's small state file: today's spending, the EVERY counter, sessions seen."""

    path: str
    day: str = ""
    calls: int = 0
    tokens: int = 0
    eligible: int = 0
    sessions: dict[str, dict[str, object]] = field(default_factory=dict)

    @classmethod
    def load(cls, settings: Settings) -> DistillState:
        """The state as stored (a missing or unreadable file starts afresh), rolled to today."""
        path = os.path.join(settings.run_dir, STATE_FILE)
        state = cls(path)
        raw = _json_file(path)
        if raw.get("version") == STATE_VERSION:
            state.day = str(raw.get("day", ""))
            state.calls = _int(raw.get("calls"))
            state.tokens = _int(raw.get("tokens"))
            state.eligible = _int(raw.get("eligible"))
            sessions = raw.get("sessions")
            if isinstance(sessions, dict):
                state.sessions = {str(k): v for k, v in sessions.items() if isinstance(v, dict)}
        today = utc_day()
        if state.day != today:
            state.day, state.calls, state.tokens = today, 0, 0
        return state

    def save(self) -> None:
        """Write the state atomically (the oldest sessions beyond SESSIONS_KEPT are dropped)."""
        if len(self.sessions) > SESSIONS_KEPT:
            newest = sorted(self.sessions.items(), key=lambda kv: -_float(kv[1].get("t")))
            self.sessions = dict(newest[:SESSIONS_KEPT])
        data = {
            "version": STATE_VERSION,
            "day": self.day,
            "calls": self.calls,
            "tokens": self.tokens,
            "eligible": self.eligible,
            "sessions": self.sessions,
        }
        write_atomic(self.path, json.dumps(data, ensure_ascii=False, indent=1) + "\n", 0o600)

    def pick(self, session_id: str, every: int, force: bool) -> bool:
        """Whether this session is distilled; a new one counts as the next eligible session."""
        entry = self.sessions.get(session_id)
        if entry is None:
            # A forced run (the user's `flush --distill`) does not shift the EVERY cadence.
            self.eligible += 0 if force else 1
            entry = {"picked": force or self.eligible % every == 0}
            self.sessions[session_id] = entry
        if force:
            entry["picked"] = True
        entry["t"] = round(time.time(), 3)
        return entry.get("picked") is True

    def over_budget(self, settings: Settings, estimate: int) -> str | None:
        """Why one more call of about `estimate` tokens would break today's cap, or None."""
        if self.calls >= settings.distill_max_calls:
            return (
                f"daily cap: {self.calls} distiller calls today "
                f"(SKILL_MEMORY_DISTILL_MAX_CALLS={settings.distill_max_calls})"
            )
        if self.tokens + estimate > settings.distill_max_tokens:
            return (
                f"daily cap: {self.tokens} tokens used today + ~{estimate} for this call "
                f"> SKILL_MEMORY_DISTILL_MAX_TOKENS={settings.distill_max_tokens}"
            )
        return None

    def reserve_call(self) -> None:
        """Count a call before it is made (a killed worker still paid for it)."""
        self.calls += 1
        self.save()

    def release_call(self) -> None:
        """Give back a reserved call that never reached the model."""
        self.calls = max(0, self.calls - 1)
        self.save()

    def add_tokens(self, tokens: int) -> None:
        """Count the tokens a reply reported."""
        self.tokens += tokens
        self.save()

    def rated(self, session_id: str) -> set[str]:
        """The lesson ids an earlier run already rated for this session (rated once each)."""
        ids = self.sessions.get(session_id, {}).get("rated")
        return {i for i in ids if isinstance(i, str)} if isinstance(ids, list) else set()

    def mark_rated(self, session_id: str, lesson_ids: Sequence[str]) -> None:
        """Remember that the session rated these lessons (saved with the state)."""
        if lesson_ids:
            entry = self.sessions.setdefault(session_id, {"picked": True})
            entry["rated"] = sorted(self.rated(session_id) | set(lesson_ids))

    def mark_distilled(self, session_id: str, digest: SessionDigest) -> None:
        """Remember that the session was distilled up to its last tool call."""
        entry = self.sessions.setdefault(session_id, {"picked": True})
        entry["distilled"] = _int(entry.get("distilled")) + 1
        entry["t"] = round(time.time(), 3)
        if digest.tool_calls:
            entry["last_call"] = digest.tool_calls[-1].id


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _float(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0


def _json_file(path: str) -> dict[str, object]:
    text = read_text(path)
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def update_stats(
    settings: Settings, uses: Mapping[str, int], outcomes: Sequence[AddOutcome]
) -> None:
    """Add a session's skill uses and stored lessons to the usage statistics (locked, atomic)."""
    today = datetime.now().strftime("%Y-%m-%d")
    path = settings.stats_file
    with locked(path):
        data = _json_file(path)
        for skill, count in uses.items():
            record = _stats_record(data, skill)
            record["uses"] = _int(record.get("uses")) + count
            record["sessions"] = _int(record.get("sessions")) + 1
            record["last_used"] = today
        for outcome in outcomes:
            if outcome.lesson.skill is None:
                continue
            record = _stats_record(data, outcome.lesson.skill)
            key = "lessons_merged" if outcome.action == "merged" else "lessons_added"
            record[key] = _int(record.get(key)) + 1
        write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def _stats_record(data: dict[str, object], skill: str) -> dict[str, object]:
    record = data.get(skill)
    if not isinstance(record, dict):
        record = {}
        data[skill] = record
    # A record of the original tool ({"total", "last_seen", "daily"}) keeps its keys.
    record.setdefault("uses", _int(record.get("total")))
    record.setdefault("sessions", 0)
    record.setdefault("last_used", record.get("last_seen", ""))
    record.setdefault("lessons_added", 0)
    record.setdefault("lessons_merged", 0)
    return record


# ----------------------------------------------------------------------------- logs


def log_line(settings: Settings, message: str) -> None:
    """Append one redacted entry to the tool's log file."""
    log_entry(settings.log_file, f"distill: {redact(message)}")


def append_distill_log(settings: Settings, result: DistillResult, seconds: float) -> None:
    """Append the run's JSON line to the distill log (redacted)."""
    record = {
        "t": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        **result.as_json(),
        "seconds": round(seconds, 3),
    }
    # a log that cannot be written must not stop the pipeline
    append_line(settings.distill_log, json.dumps(redact_obj(record), ensure_ascii=False))


# ----------------------------------------------------------------------------- CLI


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m fireworks_skill_memory.memory.distill.worker",
        description="Distil a finished Claude Code or Codex session into lessons.",
    )
    parser.add_argument("--transcript", required=True, help="transcript or rollout (.jsonl)")
    parser.add_argument("--session-id", required=True, help="the agent's session id")
    parser.add_argument("--agent", choices=("claude", "codex"), help="default: detected")
    parser.add_argument(
        "--force", action="store_true", help="ignore MIN_TOOL_CALLS and DISTILL_EVERY"
    )
    parser.add_argument(
        "--no-index",
        action="store_true",
        help="load no embedding model: exact-text dedup, BM25 nearest lessons, and the "
        "index catches up at its next sync",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one distillation; 0 when stored or skipped, 1 when it failed, 2 on bad settings."""
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
    except SkillMemoryError as error:
        print(f"distill: {error}", file=sys.stderr)
        return 2
    try:
        result = distill_session(
            settings,
            args.transcript,
            args.session_id,
            agent=args.agent,
            force=args.force,
            index=not args.no_index,
        )
    except Exception:  # noqa: BLE001 - the process boundary: nobody above us reports it
        log_line(settings, f"worker crashed:\n{traceback.format_exc()}")
        return 1
    if result.status == "failed":
        print(f"distill {args.session_id}: failed: {result.reason}", file=sys.stderr)
        return 1
    if result.status == "stored":
        print(f"distill {args.session_id}: {result.reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
