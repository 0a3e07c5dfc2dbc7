"""The one write pipeline: every way a lesson comes in goes through `Ingest`.

`add`, `flush`, distillation, MCP `record_lesson` (the service's `add`), `team pull`,
`import-legacy` and `review approve` each build one `Ingest` (the store to write, the poisoning
screen at the entry point's trust, the matcher and what a match does, the provenance source)
and hand it typed `LessonCandidate`s. `run` takes every candidate through the same steps:

1. **clean**: one line, bounded, with a tag and a month (`memory.store.lesson`), secrets
   redacted;
2. **screen**: one `screen_batch` over the batch at the entry point's `Trust`; a lesson it
   flags goes to its scope's QUARANTINE.md with the scope's commit (a lesson of the same
   wording moves out of KNOWLEDGE.md with it) and no further. The screen is a
   required argument: only a person's `review approve` passes `ScreenBypass.PERSON_APPROVED`
   instead, and a lesson a review approved is not asked about again;
3. **decide**: per scope, every candidate against the lessons as read, with no lock held (the
   matcher may load a model, embed or ask an LLM), each seeing the candidates before it;
4. **commit**: per scope, one `Store.commit` under the file's lock: the decisions are replayed
   on the lessons as they are then (`replay`), the stopped lessons shelved, the ledger
   written, then KNOWLEDGE.md, atomically. When the file changed in a way that matters,
   the scope is decided again outside the lock (at most MAX_DECISIONS times, then by exact
   text only: nothing is lost).
   A text comparison (`exact_matcher`, `same_id`, no matcher) is decided under the lock;
5. **report**: one `IngestReport` per candidate.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol, runtime_checkable

from fireworks_skill_memory.memory.errors import InvalidLesson, SkillMemoryError
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.screen.screen import Trust
from fireworks_skill_memory.memory.store.evidence import Evidence, stated_by_source
from fireworks_skill_memory.memory.store.ledger import Ledger, read_ledger
from fireworks_skill_memory.memory.store.lesson import (
    Lesson,
    check_month,
    clean_tag,
    clean_text,
    new_lesson,
)
from fireworks_skill_memory.memory.store.markdown_store import (
    APPROVED,
    AddOutcome,
    Held,
    Match,
    Matcher,
    OnMatch,
    Placement,
    Store,
    exact_matcher,
)
from fireworks_skill_memory.memory.store.provenance import Provenance
from fireworks_skill_memory.memory.store.skill_names import validate_skill

# How many times a scope is decided (outside the lock) before it settles for exact matching.
MAX_DECISIONS = 4


class ScreenResult(Protocol):
    """What the poisoning screen says about one lesson (`memory.screen.ScreenVerdict`)."""

    @property
    def quarantined(self) -> bool: ...

    @property
    def reason(self) -> str: ...


class LessonScreen(Protocol):
    """The poisoning screen as the pipeline uses it: (tag, text) pairs and the entry point's
    trust in, one verdict each, in order."""

    def screen_batch(
        self, lessons: Sequence[tuple[str | None, str]], trust: Trust
    ) -> Sequence[ScreenResult]:
        """One verdict per lesson, in order."""
        ...


class ScreenBypass(enum.Enum):
    """The one way past the screen: a person looked at the lesson and approved it."""

    PERSON_APPROVED = APPROVED


@runtime_checkable
class Settles(Protocol):
    """A matcher that settles an unclear verdict with the writer's word that the candidate
    replaces a lesson (the distiller's `replaces`)."""

    def settle(self, old: Lesson, candidate: Lesson, match: Match) -> Match: ...


def same_id(existing: Sequence[Lesson], candidate: Lesson) -> Match:
    """A mirror's matcher (the team layer): the lesson with the candidate's own id, if any."""
    wanted = candidate.id
    for lesson in existing:
        if lesson.id == wanted:
            return Match(lesson.id, "same id", 1.0)
    return Match(None, "new")


# Lessons written by the agent itself: low trust whatever the request claims.
AGENT_WRITTEN = "mcp"


def request_trust(claimed: object, origin: Provenance | None) -> Trust:
    """The trust of a lesson a request brings: low when the request says so (the MCP tool)
    or the lesson's provenance says the agent wrote it; normal otherwise."""
    if claimed == Trust.LOW.value or (origin is not None and origin.source == AGENT_WRITTEN):
        return Trust.LOW
    return Trust.NORMAL


# Matchers that compare text only: cheap enough to decide under the lock.
_TEXT_MATCHERS: tuple[Matcher, ...] = (exact_matcher, same_id)


@dataclass(frozen=True)
class LessonCandidate:
    """One lesson offered to the store, as its entry point has it.

    `as_is`: the lesson keeps the month and HIT count given (an import, a team pull);
    otherwise it is new this month with one HIT. With `id`, a candidate whose cleaned and
    redacted wording has another id is invalid (a mirror keeps every lesson under its id).
    """

    text: str
    skill: str | None
    tag: str | None = None
    provenance: Provenance | None = None  # default: the pipeline's source, now
    replaces: str | None = None  # a lesson the writer said this one replaces (the distiller)
    month: str | None = None
    hits: int | None = None
    as_is: bool = False
    id: str | None = None  # the id its source holds it under (a team row): must be its own
    evidence: Evidence | None = None  # default: what the provenance's write path states


class Action(str, enum.Enum):
    """What the pipeline did with a candidate."""

    ADDED = "added"
    MERGED = "merged"  # into an existing lesson (a mirror: took its twin's place)
    SUPERSEDED = "superseded"  # added; the lesson it outdates moved to the archive
    CONTESTED = "contested"  # added beside a stronger lesson it contradicts, both for review
    QUARANTINED = "quarantined"
    UNCHANGED = "unchanged"  # the same lesson was already there


_ACTIONS = {
    "merged": Action.MERGED,
    "replaced": Action.MERGED,
    "quarantined": Action.QUARANTINED,
    "unchanged": Action.UNCHANGED,
}


@dataclass(frozen=True)
class IngestReport:
    """One candidate's fate: the action, the lesson it concerns (`target_id`), and why."""

    candidate: LessonCandidate
    outcome: AddOutcome

    @property
    def action(self) -> Action:
        outcome = self.outcome
        if outcome.action != "added":
            return _ACTIONS[outcome.action]
        if outcome.superseded is not None:
            return Action.SUPERSEDED
        return Action.ADDED if outcome.contested is None else Action.CONTESTED

    @property
    def target_id(self) -> str | None:
        """The lesson merged into, superseded or contradicted (None for a plain add)."""
        outcome = self.outcome
        if outcome.merged_from is not None:
            return outcome.merged_from.id
        if outcome.superseded is not None:
            return outcome.superseded.id
        return outcome.contested

    @property
    def reason(self) -> str:
        return self.outcome.reason

    def as_json(self) -> dict[str, object]:
        """The store's outcome record, with the pipeline's action and target."""
        return {
            **self.outcome.as_json(),
            "ingest_action": self.action.value,
            "target_id": self.target_id,
        }


class IngestInterrupted(SkillMemoryError):
    """A scope could not be written after others were: their reports, and the error."""

    def __init__(self, error: Exception, reports: list[IngestReport]) -> None:
        super().__init__(str(error))
        self.error = error
        self.reports = reports


@dataclass(frozen=True)
class Decision:
    """A matcher's verdict and the ids of the lessons it was made against."""

    match: Match
    seen: frozenset[str]


class _Stale(Exception):
    """The lessons changed since the decision in a way that needs a new one."""


def replay(
    decision: Decision, candidate: Lesson, current: Sequence[Lesson], *, exact_only: bool = False
) -> Match:
    """`decision` on the lessons as they are now, without calling the matcher again.

    An exact-text twin wins (as in every matcher); a merge holds while its target exists;
    "new" holds while no lesson appeared that the decision did not see. Otherwise `_Stale`,
    or with `exact_only` (the last resort) the candidate is added.
    """
    exact = exact_matcher(current, candidate)
    target = decision.match.target_id
    if exact.target_id is not None and exact.target_id != target:
        return exact
    if target is not None and any(lesson.id == target for lesson in current):
        return decision.match
    if not exact_only and (
        target is not None or any(lesson.id not in decision.seen for lesson in current)
    ):
        raise _Stale
    if target is not None:
        return Match(None, "merge target changed meanwhile")
    return decision.match


@dataclass(frozen=True)
class _Item:
    """A cleaned candidate: its place in the batch, its lesson, its provenance."""

    index: int
    candidate: LessonCandidate
    lesson: Lesson
    origin: Provenance

    @property
    def evidence(self) -> Evidence | None:
        """The candidate's evidence, else what its write path states (`add`, MCP)."""
        if self.candidate.evidence is not None:
            return self.candidate.evidence
        return stated_by_source(self.origin.source, self.origin.author)


@dataclass(frozen=True, kw_only=True)
class Ingest:
    """The write pipeline of one entry point (see the module docstring).

    `screen` is required: a screen, or `ScreenBypass.PERSON_APPROVED` for a person's review.
    `trust` is the entry point's (MCP and sessions that read the web are low). `source` is
    the provenance of candidates that bring none. `matcher` finds the lesson a candidate
    restates (None: always add) and `on_match` says what a match does to it.
    """

    store: Store
    screen: LessonScreen | ScreenBypass
    trust: Trust
    source: str
    matcher: Matcher | None = exact_matcher
    on_match: OnMatch = OnMatch.CONFIRM
    dry_run: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.screen, ScreenBypass) and not callable(
            getattr(self.screen, "screen_batch", None)
        ):
            raise TypeError(
                "Ingest needs a poisoning screen; only ScreenBypass.PERSON_APPROVED "
                "(a person's review) writes without one"
            )
        if not isinstance(self.trust, Trust):
            raise TypeError(f"trust must be a Trust, not {self.trust!r}")

    def add(self, candidate: LessonCandidate) -> IngestReport:
        """One candidate through the pipeline (an invalid one raises InvalidLesson)."""
        (report,) = self.run([candidate])
        return report

    def run(
        self, candidates: Sequence[LessonCandidate], *, skip_invalid: bool = False
    ) -> list[IngestReport]:
        """Every candidate through the pipeline; one report each, in order.

        An invalid candidate (empty, too long, a bad skill name) raises before anything is
        written, or with `skip_invalid` is left out of the reports. A scope that cannot be
        written after others were raises `IngestInterrupted` with their reports.
        """
        items = self._clean(candidates, skip_invalid)
        stopped = self._screen(items)
        reports: dict[int, IngestReport] = {}
        try:
            for scope, group in _by_scope(items):
                admitted = [item for item in group if item.index not in stopped]
                held = [item for item in group if item.index in stopped]
                shelf = [
                    Held(item.lesson, stopped[item.index], item.origin, item.evidence)
                    for item in held
                ]
                reports.update(_reports([*admitted, *held], self._settle(scope, admitted, shelf)))
        except (SkillMemoryError, OSError) as error:
            if not reports:
                raise
            done = [reports[item.index] for item in items if item.index in reports]
            raise IngestInterrupted(error, done) from error
        return [reports[item.index] for item in items]

    # ---- 1. clean --------------------------------------------------------------------------
    def _clean(self, candidates: Sequence[LessonCandidate], skip_invalid: bool) -> list[_Item]:
        items: list[_Item] = []
        default: Provenance | None = None
        for index, candidate in enumerate(candidates):
            try:
                lesson = self._lesson(candidate)
            except SkillMemoryError:
                if skip_invalid:
                    continue
                raise
            origin = candidate.provenance
            if origin is None:
                default = default or self.store.provenance(self.source)
                origin = default
            items.append(_Item(index, candidate, lesson, origin))
        return items

    def _lesson(self, candidate: LessonCandidate) -> Lesson:
        if candidate.skill is not None:
            validate_skill(candidate.skill)
        text = redact(clean_text(candidate.text))
        if not candidate.as_is:
            month = self.store.month()
            lesson = new_lesson(text, skill=candidate.skill, month=month, tag=candidate.tag)
        else:
            lesson = Lesson(
                clean_text(text),
                None if candidate.tag is None else clean_tag(candidate.tag),
                None if candidate.month is None else check_month(candidate.month),
                candidate.hits,
                candidate.skill,
            )
        if candidate.id is not None and candidate.id != lesson.id:
            raise InvalidLesson(f"held as {candidate.id}, but its wording's id is {lesson.id}")
        return lesson

    # ---- 2. screen -------------------------------------------------------------------------
    def _screen(self, items: Sequence[_Item]) -> dict[int, str]:
        """Why each stopped candidate was stopped, by its place in the batch."""
        if isinstance(self.screen, ScreenBypass):
            return {}
        ledgers: dict[str | None, Ledger] = {}
        asked = [item for item in items if not self._approved(item.lesson, ledgers)]
        if not asked:
            return {}
        pairs = [(item.lesson.tag, item.lesson.text) for item in asked]
        verdicts = self.screen.screen_batch(pairs, self.trust)
        return {
            item.index: verdict.reason
            for item, verdict in zip(asked, verdicts, strict=True)
            if verdict.quarantined
        }

    def _approved(self, lesson: Lesson, ledgers: dict[str | None, Ledger]) -> bool:
        """True when a review approved this exact lesson (the screen is not asked again)."""
        if lesson.skill not in ledgers:
            ledgers[lesson.skill] = read_ledger(self.store.settings, lesson.skill)
        record = ledgers[lesson.skill].get(lesson.id)
        return record is not None and record.place == "knowledge" and record.reason == APPROVED

    # ---- 3 and 4. decide, commit -----------------------------------------------------------
    def _settle(
        self, scope: str | None, items: Sequence[_Item], held: Sequence[Held]
    ) -> list[AddOutcome]:
        """Decide the scope's admitted candidates with no lock held, then commit them, and
        shelve the held ones, under it (one outcome each, admitted first)."""
        if self.dry_run:
            doc = self.store.read(scope)
            decided = [
                self.store.apply(doc, item.lesson, self._match(doc.lessons(), item), self.on_match)
                for item in items
            ]
            return decided + self.store.shelve(scope, held, dry_run=True)
        if self.matcher is None or self.matcher in _TEXT_MATCHERS:
            resolvers = [partial(self._match, item=item) for item in items]
            return self._commit(scope, items, resolvers, held)
        decisions: list[Decision] = []
        for _ in range(MAX_DECISIONS):
            decisions = self._decide(scope, items)
            try:
                return self._commit(scope, items, _replays(decisions, items), held)
            except _Stale:
                continue
        # The file changed under every decision: keep the last ones as far as they still
        # hold, with exact-text matching only. No lesson is lost.
        return self._commit(scope, items, _replays(decisions, items, exact_only=True), held)

    def _match(self, lessons: Sequence[Lesson], item: _Item) -> Match:
        """The matcher's verdict, settled by the writer's `replaces` where it was unclear."""
        if self.matcher is None:
            return Match(None, "new")
        match = self.matcher(lessons, item.lesson)
        replaces = item.candidate.replaces
        if replaces and isinstance(self.matcher, Settles):
            old = next((lesson for lesson in lessons if lesson.id == replaces), None)
            if old is not None:
                match = self.matcher.settle(old, item.lesson, match)
        return match

    def _decide(self, scope: str | None, items: Sequence[_Item]) -> list[Decision]:
        """Every candidate's decision on the lessons as read, each after the ones before it."""
        doc = self.store.read(scope)
        decisions = []
        for item in items:
            lessons = doc.lessons()
            match = self._match(lessons, item)
            decisions.append(Decision(match, frozenset(lesson.id for lesson in lessons)))
            self.store.apply(doc, item.lesson, match, self.on_match)
        return decisions

    def _commit(
        self,
        scope: str | None,
        items: Sequence[_Item],
        resolvers: Sequence[Callable[[Sequence[Lesson]], Match]],
        held: Sequence[Held],
    ) -> list[AddOutcome]:
        mark = APPROVED if self.screen is ScreenBypass.PERSON_APPROVED else None
        placements = [
            Placement(item.lesson, item.origin, resolve, self.on_match, mark, item.evidence)
            for item, resolve in zip(items, resolvers, strict=True)
        ]
        return self.store.commit(scope, placements, held)


def _replays(
    decisions: Sequence[Decision], items: Sequence[_Item], *, exact_only: bool = False
) -> list[Callable[[Sequence[Lesson]], Match]]:
    return [
        partial(replay, decision, item.lesson, exact_only=exact_only)
        for decision, item in zip(decisions, items, strict=True)
    ]


def _by_scope(items: Sequence[_Item]) -> list[tuple[str | None, list[_Item]]]:
    """The items by scope, scopes in the order they first appear."""
    groups: dict[str | None, list[_Item]] = {}
    for item in items:
        groups.setdefault(item.lesson.skill, []).append(item)
    return list(groups.items())


def _reports(items: Sequence[_Item], outcomes: Sequence[AddOutcome]) -> dict[int, IngestReport]:
    return {
        item.index: IngestReport(item.candidate, outcome)
        for item, outcome in zip(items, outcomes, strict=True)
    }


def add_lesson(
    store: Store,
    skill: str | None,
    text: str,
    tag: str | None = None,
    *,
    matcher: Matcher | None = exact_matcher,
    origin: Provenance | None = None,
    dry_run: bool = False,
) -> AddOutcome:
    """One lesson through the write pipeline as `add` writes it, with the rules screen only
    (no model): a convenience for scripts, benchmarks and tests."""
    from fireworks_skill_memory.memory.screen.screen import RULES_SCREEN

    ingest = Ingest(
        store=store,
        screen=RULES_SCREEN,
        trust=Trust.NORMAL,
        source="add",
        matcher=matcher,
        dry_run=dry_run,
    )
    return ingest.add(LessonCandidate(text, skill, tag, provenance=origin)).outcome
