"""What the pages show, read through the core: skills, lessons with their ledger records,
the injection log with the task each session was on, the review queue, the team layer.

Everything here reads; nothing writes (an overview that finds the index damaged starts its
rebuild, `viewer.repair`, as every other reader of the index repairs it). Paths come from
the settings and the store, never from a request: a session key read from the log names a
folder only when it is one `session_key` would make.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest.review import ReviewItem, review_items
from fireworks_skill_memory.memory.light_json import loads
from fireworks_skill_memory.memory.retrieval.prior import (
    hits_age_prior,
    months_between,
    prior_weights,
)
from fireworks_skill_memory.memory.retrieval.token_stats import TokenStats, token_stats
from fireworks_skill_memory.memory.retrieval.usage import injections_log
from fireworks_skill_memory.memory.sessions.session_files import PROMPTS_FILE, session_key
from fireworks_skill_memory.memory.store.ledger import LessonRecord
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import Store

DAY = 86400.0
RECENT_DAYS = 30
HIT_BUCKETS = ((1, 1), (2, 3), (4, 7), (8, 15), (16, None))
MAX_EVENTS = 500  # injection events one page shows, newest first


@dataclass(frozen=True)
class InjectionEvent:
    """One line of the injection log, with the task the session was on when it is known."""

    t: float
    skill: str
    ids: tuple[str, ...]
    by: str
    session: str | None
    task: str | None = None

    @property
    def path(self) -> str:
        """How the lessons were chosen: by the warm service or by the hook's fallback."""
        return "fallback" if self.by.endswith(":fallback") else "service"


@dataclass(frozen=True)
class LessonView:
    """A lesson as the viewer lists it: the lesson, its record, standing, use and prior."""

    lesson: Lesson
    record: LessonRecord | None
    standing: str
    injections: int
    age_months: int
    prior: float


@dataclass(frozen=True)
class SkillSummary:
    """One row of the overview."""

    skill: str | None
    lessons: int
    hit_buckets: tuple[int, ...]
    injections_recent: int
    last_distilled: str | None
    review: int
    team_lessons: int

    @property
    def name(self) -> str:
        return "global" if self.skill is None else self.skill


@dataclass(frozen=True)
class TeamStatus:
    """The team layer as the viewer sees it (local files only: the overview never waits on
    the network)."""

    configured: bool
    uri: str | None
    lessons: int
    skills: int
    detail: str


@dataclass(frozen=True)
class Overview:
    """The skills overview."""

    home: str
    skills: list[SkillSummary]
    team: TeamStatus
    daily_injections: list[int]  # the last RECENT_DAYS days, oldest first
    review_total: int
    service: str
    index_problem: str | None = None  # why the index cannot be read; it is being rebuilt
    tokens: TokenStats = field(default_factory=TokenStats)  # tokens injected, helped share
    token_days: list[tuple[str, int]] = field(default_factory=list)  # last RECENT_DAYS (UTC)


@dataclass
class Reader:
    """Reads one memory home for the pages (a fresh read per request: markdown is the truth)."""

    settings: Settings
    now: float = field(default_factory=time.time)

    @property
    def store(self) -> Store:
        return Store(self.settings)

    # ---- injections ----------------------------------------------------------------------
    def events(self) -> list[InjectionEvent]:
        """Every readable event of the injection log, oldest first."""
        return list(_events(injections_log(self.settings)))

    def injection_counts(self, events: Sequence[InjectionEvent]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for event in events:
            for lesson_id in event.ids:
                counts[lesson_id] = counts.get(lesson_id, 0) + 1
        return counts

    def with_tasks(self, events: Sequence[InjectionEvent]) -> list[InjectionEvent]:
        """`events` with the prompt each session had last recorded before the injection."""
        prompts: dict[str, list[tuple[float, str]]] = {}
        result = []
        for event in events:
            if event.task is not None or event.session is None:
                result.append(event)
                continue
            if event.session not in prompts:
                prompts[event.session] = self._prompts(event.session)
            before = [text for t, text in prompts[event.session] if t <= event.t + 1.0]
            result.append(_with_task(event, before[-1] if before else None))
        return result

    def _prompts(self, key: str) -> list[tuple[float, str]]:
        if session_key(key) != key:  # not a folder name the hooks make: never a path
            return []
        path = os.path.join(self.settings.sessions_dir, key, PROMPTS_FILE)
        found = []
        for record in _json_lines(path):
            t, prompt = record.get("t"), record.get("prompt")
            if isinstance(t, (int, float)) and isinstance(prompt, str):
                found.append((float(t), prompt))
        return sorted(found)

    # ---- skills ----------------------------------------------------------------------------
    def overview(self, service: str) -> Overview:
        events = self.events()
        store = self.store
        team = team_status(self.settings)
        scopes: list[str | None] = [None, *(info.skill for info in store.skills())]
        review = review_items(store)
        per_scope: dict[str | None, int] = {}
        for item in review:
            per_scope[item.lesson.skill] = per_scope.get(item.lesson.skill, 0) + 1
        since = self.now - RECENT_DAYS * DAY
        recent_events = [event for event in events if event.t >= since]
        recent: dict[str, int] = {}
        for event in recent_events:
            recent[event.skill] = recent.get(event.skill, 0) + 1
        counts_by_team = team_counts(self.settings)
        rows = []
        for scope in scopes:
            lessons = store.lessons(scope)
            if scope is None and not lessons:
                continue
            rows.append(
                SkillSummary(
                    skill=scope,
                    lessons=len(lessons),
                    hit_buckets=hit_buckets(lesson.hit_count for lesson in lessons),
                    injections_recent=(
                        recent.get(scope, 0)
                        if scope is not None
                        else _carrying({lesson.id for lesson in lessons}, recent_events)
                    ),
                    last_distilled=last_distilled(store.ledger(scope).records.values()),
                    review=per_scope.get(scope, 0),
                    team_lessons=counts_by_team.get(scope or "", 0),
                )
            )
        problem = index_problem(self.settings)
        if problem is not None:
            from fireworks_skill_memory.viewer.repair import start_rebuild

            start_rebuild(self.settings)
        return Overview(
            home=self.settings.home,
            skills=rows,
            team=team,
            daily_injections=self.daily(events, None),
            review_total=len(review),
            service=service,
            index_problem=problem,
            tokens=(tokens := token_stats(self.settings)),
            token_days=self.token_days(tokens),
        )

    def token_days(self, tokens: TokenStats) -> list[tuple[str, int]]:
        """Tokens injected on each of the last RECENT_DAYS UTC days, oldest first."""
        days = [
            time.strftime("%Y-%m-%d", time.gmtime(self.now - back * DAY))
            for back in range(RECENT_DAYS - 1, -1, -1)
        ]
        return [(day, tokens.per_day.get(day, 0)) for day in days]

    def daily(self, events: Sequence[InjectionEvent], skill: str | None) -> list[int]:
        """Injection events per day over the last RECENT_DAYS days (of one skill or all)."""
        days = [0] * RECENT_DAYS
        today = int(self.now // DAY)
        for event in events:
            if skill is not None and event.skill != skill:
                continue
            back = today - int(event.t // DAY)
            if 0 <= back < RECENT_DAYS:
                days[RECENT_DAYS - 1 - back] += 1
        return days

    def lessons(self, scope: str | None, events: Sequence[InjectionEvent]) -> list[LessonView]:
        """The scope's lessons with their records, standings, injections and prior."""
        store = self.store
        lessons = store.lessons(scope)
        records = store.records(scope, lessons)
        standings = store.standings(scope)
        counts = self.injection_counts(events)
        month = store.month()
        weights = prior_weights(self.settings)
        views = []
        for lesson in lessons:
            age = months_between(lesson.month, month)
            views.append(
                LessonView(
                    lesson=lesson,
                    record=records.get(lesson.id),
                    standing=standings.get(lesson.id, "current"),
                    injections=counts.get(lesson.id, 0),
                    age_months=age,
                    prior=hits_age_prior(lesson.hit_count, age, weights),
                )
            )
        return views

    def monthly(
        self, views: Sequence[LessonView], events: Sequence[InjectionEvent]
    ) -> tuple[list[str], list[int], list[int]]:
        """The last 12 months: labels, lessons in the file by then, and injections of these
        lessons that month."""
        now = datetime.fromtimestamp(self.now, timezone.utc)
        months = []
        year, month = now.year, now.month
        for _ in range(12):
            months.append(f"{year:04d}-{month:02d}")
            year, month = (year, month - 1) if month > 1 else (year - 1, 12)
        months.reverse()
        born = [_born_month(view) for view in views]
        lessons = [sum(1 for b in born if b is not None and b <= m) for m in months]
        ids = {view.lesson.id for view in views}
        injections = dict.fromkeys(months, 0)
        for event in events:
            if not ids.intersection(event.ids):
                continue
            key = datetime.fromtimestamp(event.t, timezone.utc).strftime("%Y-%m")
            if key in injections:
                injections[key] += 1
        return months, lessons, list(injections.values())

    def review(self) -> list[ReviewItem]:
        return review_items(self.store)


def index_problem(settings: Settings) -> str | None:
    """Why the index cannot be read (None when it can, or none is built yet); reads a column."""
    from fireworks_skill_memory.index.errors import IndexDamaged
    from fireworks_skill_memory.index.table import LessonIndex

    try:
        index = LessonIndex.existing(settings.index_dir)
        if index is not None:
            index.source_counts()
    except IndexDamaged as damage:
        return str(damage)
    return None


def hit_buckets(hits: Iterable[int]) -> tuple[int, ...]:
    """How many lessons fall in each HIT bucket (1, 2-3, 4-7, 8-15, 16+)."""
    counts = [0] * len(HIT_BUCKETS)
    for value in hits:
        for position, (low, high) in enumerate(HIT_BUCKETS):
            if value >= low and (high is None or value <= high):
                counts[position] += 1
                break
    return tuple(counts)


def bucket_labels() -> list[str]:
    return [
        f"{low}+" if high is None else (str(low) if low == high else f"{low}-{high}")
        for low, high in HIT_BUCKETS
    ]


def last_distilled(records: Iterable[LessonRecord]) -> str | None:
    """The newest provenance stamp among lessons the distiller wrote."""
    stamps = [record.provenance.at for record in records if record.provenance.source == "distill"]
    return max(stamps) if stamps else None


def team_status(settings: Settings) -> TeamStatus:
    """The team layer from what the last pull and push left in the home (no network: the
    overview never waits on the team store); "not configured" without a team URI."""
    try:
        from fireworks_skill_memory.memory.team.layer import read_state
        from fireworks_skill_memory.memory.team.remote import shown_uri
    except ImportError:  # a build without team memory
        return TeamStatus(False, None, 0, 0, "not configured")
    counts = team_counts(settings)
    lessons = sum(counts.values())
    uri = getattr(settings, "team_uri", "")
    if not isinstance(uri, str) or not uri:
        return TeamStatus(False, None, lessons, len(counts), "not configured")
    state = read_state(settings)
    pulled = f"last pull {state.pulled_at}" if state.pulled_at else "never pulled"
    pushed = f"last push {state.pushed_at}" if state.pushed_at else "never pushed"
    detail = f"{lessons} team lessons in {len(counts)} skills; {pulled}; {pushed}"
    return TeamStatus(True, shown_uri(uri), lessons, len(counts), detail)


def team_counts(settings: Settings) -> dict[str, int]:
    """Lessons per skill in the pulled team layer (none when there is no team package)."""
    try:
        from fireworks_skill_memory.memory.team.layer import team_store
    except ImportError:
        return {}
    return {info.skill: info.lessons for info in team_store(settings).skills() if info.lessons}


def _carrying(ids: set[str], events: Iterable[InjectionEvent]) -> int:
    """How many of `events` injected at least one of `ids`."""
    return sum(1 for event in events if ids.intersection(event.ids))


def _born_month(view: LessonView) -> str | None:
    if view.record is not None:
        return view.record.provenance.at[:7]
    return view.lesson.month


def _with_task(event: InjectionEvent, task: str | None) -> InjectionEvent:
    return InjectionEvent(event.t, event.skill, event.ids, event.by, event.session, task)


def _json_lines(path: str) -> Iterator[dict[str, object]]:
    try:
        handle = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError:
        return
    with handle:
        for line in handle:
            try:
                record = loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield record


def _events(path: str) -> Iterator[InjectionEvent]:
    for record in _json_lines(path):
        t, skill, ids = record.get("t"), record.get("skill"), record.get("ids")
        if not isinstance(t, (int, float)) or not isinstance(skill, str):
            continue
        if not isinstance(ids, list):
            continue
        by, session, task = record.get("by"), record.get("session"), record.get("task")
        yield InjectionEvent(
            t=float(t),
            skill=skill,
            ids=tuple(i for i in ids if isinstance(i, str)),
            by=by if isinstance(by, str) else "unknown",
            session=session if isinstance(session, str) else None,
            task=task if isinstance(task, str) else None,
        )
