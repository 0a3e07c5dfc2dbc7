"""A distillation run's collaborators and what it spends: the backend within the daily budget.

Every call is counted before it is made (`DistillState.reserve_call`: a killed worker still
paid for it) and its tokens after; a judge call asks `allow` first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.distill.ratings import RatingOutcome
from fireworks_skill_memory.memory.distill.request import Candidate
from fireworks_skill_memory.memory.distill.result import DistillResult, Status
from fireworks_skill_memory.memory.distill.state import DistillState, log_line
from fireworks_skill_memory.memory.ingest import IngestReport
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.models.errors import BackendError, BackendUnavailable

if TYPE_CHECKING:
    from fireworks_skill_memory.models.embedders import EmbeddingModel
    from fireworks_skill_memory.models.llm.base import (
        LLMBackend,
        StructuredReply,
        StructuredRequest,
    )

BACKEND_TIMEOUT = 60.0
BACKEND_ATTEMPTS = 3
JUDGE_TOKENS_ESTIMATE = 400


@dataclass
class Run:
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
            from fireworks_skill_memory.models.bundled import DEFAULT_MODEL_NAME, is_default_model

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
        reports: Sequence[IngestReport] = (),
        request_chars: int = 0,
        index: str = "",
        ratings: Sequence[RatingOutcome] = (),
    ) -> DistillResult:
        return DistillResult(
            status,
            reason,
            session_id,
            candidates=tuple(candidates),
            reports=tuple(reports),
            calls=self.calls,
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            error=error,
            request_chars=request_chars,
            index=index,
            ratings=tuple(ratings),
        )


def ask_backend(
    run: Run, state: DistillState, backend: LLMBackend, request: StructuredRequest, sid: str
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
    spend(run, state, reply)
    return reply


def spend(run: Run, state: DistillState, reply: StructuredReply) -> None:
    run.input_tokens += reply.input_tokens
    run.output_tokens += reply.output_tokens
    state.add_tokens(reply.input_tokens + reply.output_tokens)


def judge_allowance(run: Run, state: DistillState) -> Callable[[], bool]:
    """A cost guard for one extra judge call: within the daily budget, and counted."""

    def allow() -> bool:
        if state.over_budget(run.settings, JUDGE_TOKENS_ESTIMATE) is not None:
            return False
        state.reserve_call()
        run.calls += 1
        return True

    return allow


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
