"""`team push` and `team retract`: publish this home's lessons to the team table, or take one back.

Only lessons whose ledger place is `knowledge` are pushed, redacted again and screened again.
A lesson is counted once per author and local lesson (`<author>\\x1f<id>` in the row's
contributions), so pushing twice adds nothing; a lesson that restates a team lesson (the same
id, that is the same wording, found in an index; or one of the few nearest rows by vector that
the dedup rules merge it with) adds its HITs and author to that row instead of a copy.
Updates are compare-and-swaps retried with backoff (`remote.retrying`).

Supersession travels the same way: a local lesson archived as "superseded by X" retires the
team row it is counted in (or the row of the same wording, or a restatement of it) to state
`superseded` when X itself is pushed, so no home pulls the outdated lesson again. Lessons
outside KNOWLEDGE.md (archived, quarantined, rejected) are never offered at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from fireworks_skill_memory.index.table import sql_string
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.dedup.matcher import NEAREST
from fireworks_skill_memory.memory.dedup.rules import DEFAULT_THRESHOLDS, merges
from fireworks_skill_memory.memory.errors import NotFound
from fireworks_skill_memory.memory.ingest import LessonScreen
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.retrieval.indexing import embed_lessons
from fireworks_skill_memory.memory.retrieval.ranking import lesson_embedding_texts
from fireworks_skill_memory.memory.screen.screen import Trust
from fireworks_skill_memory.memory.store.ledger import read_ledger
from fireworks_skill_memory.memory.store.lesson import Lesson, lesson_id
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.memory.store.provenance import resolve_author, utc_stamp
from fireworks_skill_memory.memory.team.layer import update_state
from fireworks_skill_memory.memory.team.remote import (
    GLOBAL_SKILL,
    RETRACTED,
    Snapshot,
    TeamRow,
    TeamTable,
    retrying,
)

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.models.embedders import EmbeddingModel

SEP = "\x1f"
SUPERSEDED_BY = "superseded by "  # the ledger reason of a lesson a newer one superseded


@dataclass(frozen=True)
class Candidate:
    """One local lesson offered to the team table."""

    lesson: Lesson
    key: str  # "<author>\x1f<local id>"
    provenance: str  # JSON


@dataclass
class PushReport:
    """What one push did (or would do, with --dry-run)."""

    added: int = 0
    merged: int = 0
    unchanged: int = 0
    screened_out: int = 0
    not_pushable: int = 0  # archived, quarantined or removed lessons, never pushed
    superseded: int = 0  # team rows retired because a pushed lesson superseded them here
    dry_run: bool = False
    lessons: list[dict[str, object]] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {
            "added": self.added,
            "merged": self.merged,
            "unchanged": self.unchanged,
            "screened_out": self.screened_out,
            "not_pushable": self.not_pushable,
            "superseded": self.superseded,
            "dry_run": self.dry_run,
            "lessons": self.lessons,
        }


def skill_column(skill: str | None) -> str:
    return GLOBAL_SKILL if skill is None else skill


def push(
    settings: Settings,
    embedder: EmbeddingModel,
    screen: LessonScreen,
    *,
    skill: str | None = None,
    all_scopes: bool = True,
    dry_run: bool = False,
) -> PushReport:
    """Push the home's knowledge lessons (one skill, or every scope) to the team table."""
    store = Store(settings)
    table = TeamTable(settings, embedder.model_id, embedder.dimension)
    report = PushReport(dry_run=dry_run)
    scopes = store.scopes() if all_scopes and skill is None else [skill]
    for scope in scopes:
        candidates = _candidates(settings, store, scope, screen, report)
        if not candidates:
            continue
        retiring = _superseded(settings, scope, candidates)
        offered = [*candidates, *retiring]
        vectors = embed_lessons(
            embedder,
            [lesson_embedding_texts(c.lesson.tag or "", c.lesson.text) for c in offered],
        )
        work = partial(_push_scope, table, scope, candidates, retiring, vectors, report, dry_run)
        retrying(work)
    if not dry_run:
        retrying(table.maintain)  # another machine indexing at once is a commit conflict
        update_state(settings, pushed_at=utc_stamp(), uri=settings.team_uri)
    return report


def _candidates(
    settings: Settings,
    store: Store,
    scope: str | None,
    screen: LessonScreen,
    report: PushReport,
) -> list[Candidate]:
    """The scope's lessons that may leave this machine: in KNOWLEDGE.md, redacted, screened."""
    lessons = store.lessons(scope)
    records = store.records(scope, lessons)
    author = resolve_author(settings)
    pushable = []
    for lesson in lessons:
        record = records.get(lesson.id)
        if lesson.is_placeholder or record is None or record.place != "knowledge":
            report.not_pushable += 1
            continue
        clean = Lesson(redact(lesson.text), lesson.tag, lesson.month, lesson.hit_count, scope)
        origin = {**record.provenance.as_json(), "author": author}
        pushable.append(Candidate(clean, f"{author}{SEP}{lesson.id}", json.dumps(origin)))
    verdicts = screen.screen_batch([(c.lesson.tag, c.lesson.text) for c in pushable], Trust.NORMAL)
    kept = [c for c, verdict in zip(pushable, verdicts, strict=True) if not verdict.quarantined]
    report.screened_out += len(pushable) - len(kept)
    return kept


def _superseded(
    settings: Settings, scope: str | None, pushed: Sequence[Candidate]
) -> list[Candidate]:
    """The scope's lessons archived as superseded by one of the lessons being pushed."""
    author = resolve_author(settings)
    successors = {c.key.split(SEP, 1)[1] for c in pushed}
    found = []
    for record in read_ledger(settings, scope).records.values():
        reason = record.reason or ""
        if record.place != "archive" or not reason.startswith(SUPERSEDED_BY):
            continue
        successor = reason.removeprefix(SUPERSEDED_BY).split(":", 1)[0].strip()
        if successor in successors:
            lesson = Lesson(redact(record.text), None, None, 0, scope)
            found.append(Candidate(lesson, f"{author}{SEP}{record.id}", "{}"))
    return found


class _ScopeRows:
    """A skill's team rows as one push attempt read them, indexed for deciding candidates:
    by contribution key, by id (the lesson id of the wording: text dedup), and the live rows'
    vectors in one matrix for the nearest-row search. Rows the attempt adds join at once."""

    def __init__(self, snapshot: Snapshot, room: int) -> None:
        import numpy as np

        self.rows = {row.id: row for row in snapshot.rows}
        self.vectors = {row.id: snapshot.vectors[i] for i, row in enumerate(snapshot.rows)}
        self.by_key: dict[str, str] = {}
        for row in snapshot.rows:
            self._index_keys(row)
        live = [i for i, row in enumerate(snapshot.rows) if row.state == "knowledge"]
        self.live = [snapshot.rows[i].id for i in live]
        # room for the rows this attempt may add, so adding one copies nothing
        self.matrix = np.zeros((len(live) + room, snapshot.vectors.shape[1]), dtype=np.float32)
        self.matrix[: len(live)] = snapshot.vectors[live]

    def _index_keys(self, row: TeamRow) -> None:
        for key in row.contributions:
            self.by_key.setdefault(key.removeprefix(RETRACTED), row.id)

    def put(self, row: TeamRow, vector: np.ndarray | None = None) -> None:
        """A row this attempt writes (`vector`: a new row, which joins the live ones)."""
        self.rows[row.id] = row
        self._index_keys(row)
        if vector is not None:
            self.vectors[row.id] = vector
            self.matrix[len(self.live)] = vector
            self.live.append(row.id)

    def target(self, candidate: Candidate, vector: np.ndarray) -> TeamRow | None:
        """The team row the candidate is: already counted in, of the same wording, or a
        restatement among the nearest live rows (the dedup rules decide those few)."""
        import numpy as np

        found = self.by_key.get(candidate.key) or (
            candidate.lesson.id if candidate.lesson.id in self.rows else None
        )
        if found is not None:
            return self.rows[found]
        if not self.live:
            return None
        cosines = self.matrix[: len(self.live)] @ vector
        count = min(NEAREST, len(self.live))
        nearest = np.argpartition(-cosines, count - 1)[:count]
        # best cosine first; below the grey band no pair merges, so the rules are not asked
        for i in sorted(nearest.tolist(), key=lambda j: -float(cosines[j])):
            cosine = float(cosines[i])
            if cosine < DEFAULT_THRESHOLDS.grey:
                break
            row = self.rows[self.live[i]]
            if row.state != "knowledge":
                continue
            if merges(row.text, candidate.lesson.text, cosine):
                return row
        return None


def _push_scope(
    table: TeamTable,
    scope: str | None,
    candidates: Sequence[Candidate],
    retiring: Sequence[Candidate],
    vectors: np.ndarray,
    report: PushReport,
    dry_run: bool,
) -> None:
    """One attempt: read the skill's team rows, decide every candidate, write in one commit."""
    snapshot = table.read(f"skill = {sql_string(skill_column(scope))}")
    rows = _ScopeRows(snapshot, room=len(candidates))
    expected = {row.id: row.rev for row in snapshot.rows}
    changed: dict[str, TeamRow] = {}
    outcome = PushReport()
    stamp = utc_stamp()
    touched: set[str] = set()
    for candidate, vector in zip(candidates, vectors[: len(candidates)], strict=True):
        target = rows.target(candidate, vector)
        if target is not None:
            touched.add(target.id)
        if target is not None and (
            target.state != "knowledge" or RETRACTED + candidate.key in target.contributions
        ):
            outcome.unchanged += 1  # retracted or superseded in the team table: never again
            state = "retracted" if target.state == "knowledge" else target.state
            outcome.lessons.append({**candidate.lesson.as_json(), "team_action": state})
            continue
        if target is None:
            row = _new_row(candidate, scope, stamp)
            rows.put(row, vector)
            changed[row.id] = row
            touched.add(row.id)
            outcome.added += 1
            action = "added"
        elif target.contributions.get(candidate.key) == candidate.lesson.hit_count:
            outcome.unchanged += 1
            action = "unchanged"
        else:
            row = target.with_contribution(candidate.key, candidate.lesson.hit_count, stamp)
            rows.put(row)
            changed[row.id] = row
            outcome.merged += 1
            action = "merged"
        outcome.lessons.append({**candidate.lesson.as_json(), "team_action": action})
    for old, vector in zip(retiring, vectors[len(candidates) :], strict=True):
        target = rows.target(old, vector)
        if target is None or target.state != "knowledge" or target.id in touched:
            continue  # not in the team table, already retired, or what a pushed lesson became
        row = replace(target, state="superseded", rev=target.rev + 1, changed=stamp)
        rows.put(row)
        changed[row.id] = row
        outcome.superseded += 1
        outcome.lessons.append({**old.lesson.as_json(), "team_action": "superseded"})
    if not dry_run:
        ids = list(changed)
        table.write(
            [changed[i] for i in ids],
            _stack([rows.vectors[i] for i in ids]),
            [expected.get(i, 0) for i in ids],
        )
    report.added += outcome.added
    report.merged += outcome.merged
    report.unchanged += outcome.unchanged
    report.superseded += outcome.superseded
    report.lessons += outcome.lessons


def _new_row(candidate: Candidate, scope: str | None, stamp: str) -> TeamRow:
    lesson = candidate.lesson
    author = candidate.key.split(SEP, 1)[0]
    return TeamRow(
        id=lesson_id(scope, lesson.text),
        skill=skill_column(scope),
        tag=lesson.tag or "",
        text=lesson.text,
        month=lesson.month or "",
        hits=lesson.hit_count,
        contributions={candidate.key: lesson.hit_count},
        author=author,
        provenance=candidate.provenance,
        rev=1,
        changed=stamp,
    )


def _stack(vectors: Sequence[np.ndarray]) -> np.ndarray:
    import numpy as np

    return np.stack(vectors) if vectors else np.zeros((0, 0), dtype=np.float32)


@dataclass(frozen=True)
class Retraction:
    """A lesson taken back from the team table."""

    id: str
    removed: bool  # True: no author is left, the row is retracted; False: others still count


def retract(settings: Settings, embedder: EmbeddingModel, lesson: str) -> Retraction:
    """Take this author's copy of `lesson` (a local or team lesson id) out of the team table."""
    table = TeamTable(settings, embedder.model_id, embedder.dimension)
    author = resolve_author(settings)

    def attempt() -> Retraction:
        snapshot: Snapshot = table.read("state = 'knowledge'")
        for i, row in enumerate(snapshot.rows):
            mine = [
                key
                for key in row.contributions
                if key.split(SEP, 1)[0] == author
                and (row.id == lesson or key.endswith(SEP + lesson))
            ]
            if not mine:
                continue
            left = {k: v for k, v in row.contributions.items() if k not in mine}
            counted = {k: v for k, v in left.items() if not k.startswith(RETRACTED)}
            updated = replace(
                row,
                contributions={**left, **{RETRACTED + key: 0 for key in mine}},
                hits=sum(counted.values()),
                state="knowledge" if counted else "retracted",
                rev=row.rev + 1,
                changed=utc_stamp(),
            )
            table.write([updated], snapshot.vectors[i : i + 1], [row.rev])
            return Retraction(row.id, not counted)
        raise NotFound(f"no lesson {lesson} of {author} in the team table")

    return retrying(attempt)
