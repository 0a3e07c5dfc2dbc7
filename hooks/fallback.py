"""The hook process's ranker when the service cannot answer in time: lexical, in-process.

The candidates are the service's: the skill's own lessons, then the pulled team layer's that
restate none of them (`memory.retrieval.lexical_cache.skill_lessons`). Lexical: BM25 over
`tag text` with idf from those candidates, taken in the no-task order
(`memory.retrieval.prior.order_without_task`, the one order without a task) so that equal
scores keep that order. Without a task that order alone decides. Coarser than the semantic
ranking, so it injects fewer lessons and only on a clear word match. The picks are then
ordered by standing as the service orders its hits (`memory.retrieval.standing
.standing_order`: disputed last, unverified a little lower), and a team lesson's tag is
marked as the service marks it.

It reads the lessons from the per-skill lexical caches (`memory.retrieval.lexical_cache`: one
`open` each, no markdown parsing) when they are fresh, else from the markdown. Standard
library only, and none of `json`, `re`, `dataclasses` or `hashlib` on the cached path.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

    from fireworks_skill_memory.memory.config import Settings
    from fireworks_skill_memory.memory.retrieval.lexical_cache import LessonRecord

MIN_MATCH = 0.9  # BM25 / sqrt(query terms) of the best lesson needed to inject anything
RELATIVE = 0.5  # others must score at least this share of the best
MAX_LESSONS = 3


class LexicalInjection:
    """An injection ranked in-process: its block and the lessons it shows (slotted: no
    dataclasses on the hook path)."""

    __slots__ = ("ids", "skill", "text")

    def __init__(self, skill: str, text: str = "", ids: tuple[str, ...] = ()) -> None:
        self.skill = skill
        self.text = text
        self.ids = ids

    def shown(self) -> dict[str, list[str]]:
        """The ids of the lessons the block shows, by the skill they are logged under."""
        return {self.skill: list(self.ids)} if self.text and self.ids else {}


class LexicalRanker:
    """The ranker of a hook process: lexical, in-process; it starts the service for next time.

    A failure is never ranked here: the lexical match has no gate hard enough to tell an
    explained failure from an unexplained one.
    """

    warm = False

    def __init__(self, settings: Settings, service: str = "") -> None:
        self.settings = settings
        self.service = service  # how asking the service went ("": not asked)

    def ensure_service(self, why: str) -> bool:
        """Start the service for next time unless it seemed alive (True: a start was asked)."""
        from fireworks_skill_memory.hooks.inject_flow import ensure_service

        return ensure_service(self.settings, f"hook:{why}", self.service)

    def inject(self, skill: str, parts: list[str], by: str, session: object) -> LexicalInjection:
        """The skill's lessons ranked lexically for `parts`, logged under `<by>:fallback`."""
        from fireworks_skill_memory.memory.retrieval.usage import inject_and_record

        self.ensure_service(by)
        task = "\n".join(parts)
        return inject_and_record(
            self.settings,
            lambda: lexical_injection(self.settings, skill, task),
            f"{by}:fallback",
            session,
        )

    def prepare(self, parts: list[str]) -> None:
        """Nothing to embed ahead without a model."""

    def failure(
        self, skills: list[str], task: str, shown: Collection[str], by: str, session: object
    ) -> None:
        """Not ranked in-process (see the class)."""
        return None


def lexical_injection(settings: Settings, skill: str, task: str) -> LexicalInjection:
    """Rank the skill's lessons lexically for `task` and frame the best ones."""
    from fireworks_skill_memory.memory.retrieval.inject_text import bullet, fit, team_tag
    from fireworks_skill_memory.memory.retrieval.layers import TEAM
    from fireworks_skill_memory.memory.retrieval.lexical_cache import skill_lessons

    has_task = bool(task.strip())
    chosen = _ranked(settings, skill_lessons(settings, skill), task)
    if not has_task:
        chosen = chosen[: settings.inject_top]
    if not chosen:
        return LexicalInjection(skill)
    text, kept, _ = fit(
        skill,
        [
            bullet(
                lesson.id,
                team_tag(lesson.tag) if lesson.origin == TEAM else lesson.tag,
                lesson.text,
            )
            for lesson in chosen
        ],
        max_tokens=settings.inject_tokens,
        ranked_for_task=has_task,
    )
    return LexicalInjection(skill, text, tuple(lesson.id for lesson in chosen[:kept]))


def _ranked(settings: Settings, lessons: list[LessonRecord], task: str) -> list[LessonRecord]:
    """The lessons worth showing for `task`, best first, ordered by standing as the service
    orders its hits: a clear word match's few, or without a task all of them."""
    import time

    from fireworks_skill_memory.memory.retrieval.prior import (
        hits_age_prior,
        months_between,
        order_without_task,
        prior_weight,
        prior_weights,
    )
    from fireworks_skill_memory.memory.retrieval.standing import standing_order

    today = time.strftime("%Y-%m")
    hits = [lesson.hits for lesson in lessons]
    ages = [months_between(lesson.month, today) for lesson in lessons]
    weights = prior_weights(settings)
    order = order_without_task(hits, ages, weights)
    if task.strip():
        scored = _matching([lessons[i] for i in order], task)
    else:  # PRIOR times the prior is the score without a task, as in the service
        scale = prior_weight(settings)
        scored = [(lessons[i], scale * hits_age_prior(hits[i], ages[i], weights)) for i in order]
    scores = [score for _, score in scored]
    return [scored[i][0] for i in standing_order(scores, [r.standing for r, _ in scored])]


def _matching(ordered: list[LessonRecord], task: str) -> list[tuple[LessonRecord, float]]:
    """The few lessons that clearly share words with the task, best first, with their
    scores (BM25 / sqrt(query terms)); maybe none."""
    import math

    from fireworks_skill_memory.memory.retrieval import lexical

    terms = list(dict.fromkeys(lexical.tokenize(task)))
    scores = lexical.bm25_scores(terms, doc_tokens=[lesson.tokens for lesson in ordered])
    scale = math.sqrt(len(terms)) or 1.0
    best = max(scores, default=0.0) / scale
    if best < MIN_MATCH:
        return []
    ranked = sorted(range(len(ordered)), key=lambda i: -scores[i])
    return [
        (ordered[i], scores[i] / scale)
        for i in ranked[:MAX_LESSONS]
        if scores[i] / scale >= best * RELATIVE
    ]
