"""The distillation run: a finished session (or a summary) into lessons, through `Ingest`.

One run holds the per-home lock (`state.run_lock`) and:

1. reads the material (`material`: the session from its end, the hooks' prompts and error
   seeds, the checkpoint notes written during the session);
2. skips sessions with fewer than `MIN_TOOL_CALLS` tool calls, without a skill, already
   distilled (unless `MIN_TOOL_CALLS` new calls arrived since), or not picked by
   `SKILL_MEMORY_DISTILL_EVERY`; then the daily cost guard (calls and tokens per UTC day);
3. asks the backend once within the daily budget (`spend`), parses 0-3 candidates per skill
   and 0-2 global ones;
4. hands them to the write pipeline (`memory.ingest.Ingest`, source `distill`, at the
   session's trust: low when it read the web), skill by skill and global last, with the
   distiller's LLM as the judge of the screen's and the dedup's grey bands (within the budget);
5. applies the reply's ratings of the lessons injected during the session (`ratings`);
6. syncs the index for the touched scopes (the service's `sync` op, else in-process), updates
   the usage statistics and appends one JSON line to the distill log (`state`).

A backend failure writes no lesson.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.distill import request as ask
from fireworks_skill_memory.memory.distill.evidence import lesson_evidence
from fireworks_skill_memory.memory.distill.material import (
    Material,
    Notes,
    digest_trust,
    session_material,
    skill_uses,
    summary_digest,
)
from fireworks_skill_memory.memory.distill.ratings import apply_ratings, injected_lessons
from fireworks_skill_memory.memory.distill.result import DistillResult
from fireworks_skill_memory.memory.distill.spend import (
    Run,
    ask_backend,
    judge_allowance,
    make_distiller,
    spend,
)
from fireworks_skill_memory.memory.distill.state import (
    LOCK_WAIT,
    DistillState,
    append_distill_log,
    run_lock,
    update_stats,
)
from fireworks_skill_memory.memory.errors import InvalidInput, LockTimeout, SkillMemoryError
from fireworks_skill_memory.memory.ingest import (
    Ingest,
    IngestInterrupted,
    IngestReport,
    LessonCandidate,
    LessonScreen,
)
from fireworks_skill_memory.memory.sessions.readers import CLAUDE, CODEX, SessionDigest
from fireworks_skill_memory.memory.store.markdown_store import Matcher, Store, exact_matcher
from fireworks_skill_memory.memory.store.provenance import Provenance

if TYPE_CHECKING:
    from fireworks_skill_memory.models.embedders import EmbeddingModel
    from fireworks_skill_memory.models.llm.base import (
        LLMBackend,
        StructuredReply,
    )

SERVICE_SYNC_TIMEOUT = 30.0
CHANGES_RANKING = ("helped", "wrong")  # ratings that change what the index ranks by


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
    per_skill: int = ask.MAX_PER_SKILL,
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
        return session_material(
            settings, transcript_path, session_id, agent, list(skills), checkpoints
        )

    run = Run(settings, backend, embedder, force, index, per_skill)
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
    per_skill: int = ask.MAX_PER_SKILL,
    lock_wait: float = LOCK_WAIT,
) -> DistillResult:
    """Distil a session summary written for `skill` (e.g. by Codex) into the store."""
    session_id = "summary-" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]

    def load() -> Material:
        return Material(session_id, summary_digest(skill, text), notes={skill: list(notes)})

    run = Run(settings, backend, embedder, True, index, per_skill)
    return _locked_run(run, session_id, load, lock_wait)


# ----------------------------------------------------------------------------- the run


def _locked_run(
    run: Run, session_id: str, load: Callable[[], Material], lock_wait: float
) -> DistillResult:
    started = time.monotonic()
    try:
        with run_lock(run.settings, lock_wait):
            result = _guarded(run, session_id, load)
    except LockTimeout as error:
        result = run.result("skipped", str(error), session_id)
    append_distill_log(run.settings, result.as_json(), time.monotonic() - started)
    return result


def _guarded(run: Run, session_id: str, load: Callable[[], Material]) -> DistillResult:
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


def _pipeline(run: Run, material: Material) -> DistillResult:
    settings, sid = run.settings, material.session_id
    state = DistillState.load(settings)
    digest, skip = _eligible(run, material, state)
    if skip is not None:
        return run.result("skipped", skip, sid)
    material = dataclasses.replace(material, digest=digest)
    backend = run.backend or make_distiller(settings, run.log)
    if backend.name == "null":
        return run.result("skipped", "the distiller backend is null", sid)
    over = state.over_budget(settings, ask.REPLY_MAX_TOKENS)  # before any model is loaded
    if over is not None:
        return run.result("skipped", over, sid)
    embedder = run.get_embedder() if run.semantic else None
    query = ask.session_query(digest, material.seeds)
    nearest = ask.nearest_lessons(
        settings, query, digest.skills_used, embedder=embedder, semantic=run.semantic
    )
    injected = injected_lessons(settings, sid, state.rated(sid))
    request = ask.build_request(
        digest, material.seeds, nearest, settings, notes=material.notes, injected=injected
    )
    size = len(request.system) + len(request.user)
    reply = ask_backend(run, state, backend, request, sid)
    if isinstance(reply, DistillResult):
        return dataclasses.replace(reply, request_chars=size)
    candidates = ask.parse_response(
        reply, digest.skills_used, per_skill=run.per_skill, global_max=ask.MAX_GLOBAL
    )
    reports: list[IngestReport] = []
    try:
        origin = _origin(run, backend, digest, sid)
        reports = _store(run, state, backend, material, candidates, origin)
    except (SkillMemoryError, OSError) as error:
        run.log(f"write failed: {error}")
        done = error.reports if isinstance(error, IngestInterrupted) else []
        cause = error.error if isinstance(error, IngestInterrupted) else error
        return run.result(
            "failed",
            str(cause),
            sid,
            error=type(cause).__name__,
            candidates=candidates,
            reports=done,
            request_chars=size,
        )
    rated = apply_ratings(settings, ask.parse_ratings(reply, injected), injected, run.log)
    state.mark_rated(sid, [outcome.rating.id for outcome in rated])
    state.mark_distilled(sid, digest)
    state.save()
    stored = f"{len(reports)} of {len(candidates)} candidates stored"
    reason = stored if candidates else "the distiller found no new lesson"
    applied = sum(outcome.skipped is None for outcome in rated)
    if rated:
        reason += f"; {applied} of {len(rated)} ratings applied"
    touched = [report.outcome.lesson.skill for report in reports]
    touched += [outcome.skill for outcome in rated if outcome.rating.rating in CHANGES_RANKING]
    return run.result(
        "stored",
        reason,
        sid,
        candidates=candidates,
        reports=reports,
        request_chars=size,
        index=_sync_index(run, touched),
        ratings=rated,
    )


def _eligible(
    run: Run, material: Material, state: DistillState
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


def _origin(run: Run, backend: LLMBackend, digest: SessionDigest, sid: str) -> Provenance:
    """The provenance of the lessons this run writes."""
    agent = {CLAUDE: "claude-code", CODEX: "codex"}.get(digest.agent)
    return Store(run.settings).provenance(
        "distill",
        agent=agent,
        session=digest.session_id or sid,
        backend=backend.name,
        model=run.settings.knowledge_model,
    )


def _store(
    run: Run,
    state: DistillState,
    backend: LLMBackend,
    material: Material,
    candidates: Sequence[ask.Candidate],
    origin: Provenance,
) -> list[IngestReport]:
    """The candidates through the write pipeline, skill by skill and global last, each
    with the evidence the session shows for it (`memory.distill.evidence`).

    The distiller's LLM judges the screen's grey band (one call) and the dedup's (one call
    per candidate at most), both within the daily budget; a failed screen call quarantines.
    Without the model the screen is its rules and dedup exact text.
    """
    if not candidates:
        return []
    digest = material.digest
    trust, why = digest_trust(digest)
    if why:
        run.log(f"distilled lessons are low trust: the session {why}")
    screen, matcher = _checks(run, state, backend)
    pipeline = Ingest(
        store=Store(run.settings),
        screen=screen,
        trust=trust,
        source="distill",
        matcher=matcher,
    )
    ordered = sorted(candidates, key=lambda candidate: candidate.skill is None)
    return pipeline.run(
        [
            LessonCandidate(
                c.text,
                c.skill,
                c.tag,
                provenance=origin,
                replaces=c.replaces,
                evidence=lesson_evidence(digest, material.seeds, c.evidence),
            )
            for c in ordered
        ],
        skip_invalid=True,
    )


def _checks(run: Run, state: DistillState, backend: LLMBackend) -> tuple[LessonScreen, Matcher]:
    """The screen and the matcher of a run, with the distiller's LLM as their judge."""
    from fireworks_skill_memory.memory.screen.judge import make_screen_judge
    from fireworks_skill_memory.memory.screen.screen import rules_screen, screen_for

    model, allow = run.settings.knowledge_model, judge_allowance(run, state)

    def on_reply(reply: StructuredReply) -> None:
        spend(run, state, reply)

    # the distiller's LLM judges the grey band and every candidate that asks for an action
    screen_judge = make_screen_judge(
        backend, model=model, log=run.log, allow=allow, on_reply=on_reply
    )
    if not run.semantic:  # without the model there is no grey band (it comes from similarity)
        return rules_screen(screen_judge, judge_actions=True), exact_matcher
    from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher

    dedup_judge = ask.make_judge(backend, model=model, log=run.log, allow=allow, on_reply=on_reply)
    embedder = run.get_embedder()
    screen = screen_for(run.settings, embedder, screen_judge, judge_actions=True)
    return screen, SemanticMatcher(embedder, dedup_judge)


def _sync_index(run: Run, touched: Sequence[str | None]) -> str:
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
