"""The pages, rendered on the server: every value from the memory goes through `e` (escaped
for HTML text and attributes), every state change is a POST form carrying the CSRF token."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from html import escape
from urllib.parse import urlencode

from fireworks_skill_memory.memory.ingest.promotion import MIN_HELPED, Proposal
from fireworks_skill_memory.memory.ingest.review import ReviewItem
from fireworks_skill_memory.memory.store.ledger import LessonRecord
from fireworks_skill_memory.memory.store.lesson import Lesson, escape_undecodable
from fireworks_skill_memory.viewer import plots
from fireworks_skill_memory.viewer.actions import scope_param
from fireworks_skill_memory.viewer.data import (
    RECENT_DAYS,
    InjectionEvent,
    LessonView,
    Overview,
    bucket_labels,
)
from fireworks_skill_memory.viewer.search import Breakdown, SearchAnswer

SORTS = ("score", "cosine", "hub", "lexical", "prior", "hits", "age", "injections", "tag", "text")
REVIEW_MOVES: dict[str, tuple[tuple[str, str], ...]] = {
    "quarantined": (("approve", "Approve"), ("reject", "Reject")),
    "superseded": (("restore", "Restore"),),
    "archived": (("restore", "Restore"),),
    "disputed": (("confirm", "Confirm"), ("archive", "Archive")),
    "unverified": (("confirm", "Confirm"), ("archive", "Archive")),
    "contested": (("confirm", "Confirm"), ("archive", "Archive")),
    "promoted": (),  # in SKILL.md now: a person edits SKILL.md
}


def e(value: object) -> str:
    """`value` as HTML text or attribute content (a byte that is not UTF-8 as `\\xNN`)."""
    return escape(escape_undecodable(str(value)), quote=True)


def scope_name(scope: str | None) -> str:
    return "global" if scope is None else scope


def link(path: str, **query: str | None) -> str:
    """A local URL with its query (empty values left out), escaped for an attribute."""
    pairs = {key: value for key, value in query.items() if value}
    return e(path + ("?" + urlencode(pairs) if pairs else ""))


@dataclass(frozen=True)
class Frame:
    """What every page shares: the CSRF token, the home, a message to show once."""

    csrf: str
    home: str
    review_count: int
    message: str | None = None
    error: str | None = None

    def page(self, title: str, current: str, body: str) -> str:
        tabs = [
            ("/", "Overview", "overview"),
            ("/search", "Search", "search"),
            ("/injections", "Injections", "injections"),
            ("/review", f"Review ({self.review_count})", "review"),
        ]
        nav = "".join(
            f'<a href="{path}"{" class=current" if key == current else ""}>{e(label)}</a>'
            for path, label, key in tabs
        )
        notes = ""
        if self.message:
            notes += f'<p class="flash ok" role="status">{e(self.message)}</p>'
        if self.error:
            notes += f'<p class="flash error" role="alert">{e(self.error)}</p>'
        return (
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)} · skill-memory</title>"
            '<link rel="stylesheet" href="/static/viewer.css">'
            '<script src="/static/viewer.js" defer></script></head><body>'
            f'<header><span class="brand">skill-memory</span><nav>{nav}</nav>'
            f'<span class="home" title="memory home">{e(self.home)}</span></header>'
            f"<main>{notes}<h1>{e(title)}</h1>{body}</main></body></html>"
        )

    def form(
        self,
        action: str,
        label: str,
        fields: Mapping[str, str],
        *,
        css: str = "",
        confirm: str | None = None,
    ) -> str:
        """A one-button POST form to `/action/<action>` with the CSRF token."""
        hidden = "".join(
            f'<input type="hidden" name="{e(key)}" value="{e(value)}">'
            for key, value in {"csrf": self.csrf, **fields}.items()
        )
        ask = f' data-confirm="{e(confirm)}"' if confirm else ""
        return (
            f'<form method="post" action="/action/{e(action)}" class="inline"{ask}>{hidden}'
            f'<button type="submit" class="{e(css or action)}" name="do" value="{e(action)}">'
            f"{e(label)}</button></form>"
        )


# ---- overview ------------------------------------------------------------------------------
def overview_page(frame: Frame, view: Overview) -> str:
    total = sum(row.lessons for row in view.skills)
    recent = sum(view.daily_injections)
    team = view.team
    cards = [
        ("Skills", str(sum(1 for row in view.skills if row.skill is not None)), ""),
        ("Lessons", str(total), ""),
        (f"Injections, {RECENT_DAYS} days", str(recent), ""),
        ("To review", str(view.review_total), "/review"),
        (f"Tokens injected, {RECENT_DAYS} days", str(sum(n for _, n in view.token_days)), ""),
        ("Sessions helped", _share(view.tokens.helped_share), ""),
        ("Service", view.service, ""),
        ("Team", team.detail if not team.configured else f"{team.uri}: {team.detail}", ""),
    ]
    if view.index_problem is not None:
        cards.append(("Index", "being rebuilt", ""))
    body = []
    if view.index_problem is not None:
        body.append(
            '<p class="flash error" role="status">The index cannot be read '
            f"({e(view.index_problem)}): it is being rebuilt from the markdown. The lessons "
            "shown here are read from the markdown; search answers once it is rebuilt.</p>"
        )
    body.append('<section class="cards">')
    for label, value, href in cards:
        inner = f'<span class="label">{e(label)}</span><span class="value">{e(value)}</span>'
        body.append(
            f'<a class="card" href="{e(href)}">{inner}</a>'
            if href
            else f'<div class="card">{inner}</div>'
        )
    body.append("</section>")
    labels = [f"-{RECENT_DAYS - 1 - i}d" if i < RECENT_DAYS - 1 else "today" for i in range(30)]
    body.append(
        "<section><h2>Injections per day</h2>"
        + plots.bars(view.daily_injections, labels, "injections per day, last 30 days")
        + "</section>"
    )
    body.append(
        '<section id="tokens"><h2>Tokens injected per day</h2>'
        + plots.bars(
            [n for _, n in view.token_days],
            [day[5:] for day, _ in view.token_days],
            "tokens injected per day (UTC), last 30 days",
        )
        + "</section>"
    )
    body.append(
        '<section><h2>Skills</h2><table class="skills" id="skills"><thead><tr>'
        "<th>Skill</th><th>Lessons</th><th>HIT distribution</th>"
        f"<th>Injections ({RECENT_DAYS} d)</th><th>Last distilled</th><th>To review</th>"
        "<th>Team lessons</th></tr></thead><tbody>"
    )
    names = bucket_labels()
    for row in view.skills:
        spark = plots.spark_bars(
            list(row.hit_buckets), [f"HIT {n}" for n in names], f"HIT distribution of {row.name}"
        )
        body.append(
            f'<tr><td><a class="skill" href="{link("/skill", s=scope_param(row.skill))}">'
            f"{e(row.name)}</a></td><td class=num>{row.lessons}</td><td>{spark}</td>"
            f"<td class=num>{row.injections_recent}</td><td>{e(row.last_distilled or '—')}</td>"
            f"<td class=num>{row.review}</td><td class=num>{row.team_lessons}</td></tr>"
        )
    if not view.skills:
        body.append('<tr><td colspan="7">No lessons yet in this memory home.</td></tr>')
    body.append("</tbody></table></section>")
    return frame.page("Skills overview", "overview", "".join(body))


def _share(share: float | None) -> str:
    return "—" if share is None else f"{share:.0%}"


# ---- a skill's lessons -----------------------------------------------------------------------
@dataclass(frozen=True)
class SkillView:
    """Everything the skill page shows."""

    scope: str | None
    lessons: list[LessonView]
    sort: str
    descending: bool
    task: str
    ranked: Mapping[str, Breakdown]
    months: list[str]
    lessons_by_month: list[int]
    injections_by_month: list[int]


def _sort_key(sort: str, view: LessonView, ranked: Mapping[str, Breakdown]) -> tuple[float, str]:
    """A sort key of one lesson row: (number, "") for a figure, (0, text) for a text column."""
    if sort == "tag":
        return 0.0, (view.lesson.tag or "").casefold()
    if sort == "text":
        return 0.0, view.lesson.text.casefold()
    row = ranked.get(view.lesson.id)
    figures = {
        "score": row.score if row else view.prior,
        "cosine": row.cosine if row else 0.0,
        "hub": row.hub if row else 0.0,
        "lexical": row.lexical if row else 0.0,
        "prior": view.prior,
        "hits": float(view.lesson.hit_count),
        "age": float(view.age_months),
        "injections": float(view.injections),
    }
    return figures[sort], ""


def skill_page(frame: Frame, view: SkillView) -> str:
    scope = view.scope
    name = scope_name(scope)
    param = scope_param(scope)
    rows = sorted(
        view.lessons,
        key=lambda item: _sort_key(view.sort, item, view.ranked),
        reverse=view.descending,
    )
    body = [
        f'<p><a href="{link("/promote", s=scope)}">Promotion into SKILL.md</a></p>'
        if scope is not None
        else "",
        f'<form class="task" method="get" action="/skill"><input type="hidden" name="s" '
        f'value="{e(param)}"><label>Rank for a task <input type="search" name="task" '
        f'value="{e(view.task)}" placeholder="what the agent is doing"></label>'
        '<button type="submit">Rank</button></form>',
    ]
    if view.task and not view.ranked:
        body.append('<p class="muted">No lessons to rank.</p>')
    body.append('<section class="plots"><div><h2>Lessons and injections per month</h2>')
    body.append(
        plots.bars(
            view.injections_by_month,
            view.months,
            f"injections (bars) and lessons (line) per month, {name}",
            line=view.lessons_by_month,
            line_label="lessons",
        )
    )
    body.append(
        '<p class="legend"><span class="key bar"></span>injections '
        '<span class="key line"></span>lessons in the file</p></div>'
    )
    points = [
        (float(v.age_months), float(v.lesson.hit_count), f"{v.lesson.id}: {v.lesson.text[:80]}")
        for v in view.lessons
    ]
    body.append("<div><h2>HIT vs age</h2>")
    body.append(plots.scatter(points, f"HIT vs age in months, {name}", "months", "HIT"))
    body.append("</div></section>")
    with_task = bool(view.ranked)
    columns = [("tag", "Tag"), ("text", "Lesson"), ("hits", "HIT"), ("age", "Age (months)")]
    columns += [("injections", "Injected"), ("prior", "Prior")]
    if with_task:
        columns += [("cosine", "Cosine"), ("hub", "Hubness"), ("lexical", "Lexical")]
        columns += [("score", "Score")]
    head = "".join(_sort_header(param, view, key, label) for key, label in columns)
    body.append(
        f'<section><h2>{len(view.lessons)} lessons</h2><table class="lessons" id="lessons">'
        f"<thead><tr><th>Id</th>{head}<th>Standing</th><th></th></tr></thead><tbody>"
    )
    for item in rows:
        body.append(_lesson_row(frame, param, item, view.ranked.get(item.lesson.id)))
    body.append("</tbody></table></section>")
    return frame.page(f"Lessons of {name}", "overview", "".join(body))


def _sort_header(param: str, view: SkillView, key: str, label: str) -> str:
    descending = not (view.sort == key and view.descending)
    arrow = ""
    if view.sort == key:
        arrow = " ▼" if view.descending else " ▲"
    href = link(
        "/skill", s=param, sort=key, order="desc" if descending else "asc", task=view.task or None
    )
    return f'<th><a class="sort" href="{href}">{e(label)}{arrow}</a></th>'


def _lesson_row(frame: Frame, param: str, item: LessonView, row: Breakdown | None) -> str:
    lesson = item.lesson
    cells = [
        f'<td><a class="lesson-id" href="{link("/lesson", s=param, id=lesson.id)}">'
        f"<code>{e(lesson.id)}</code></a></td>",
        f"<td>{e(lesson.tag or '')}</td>",
        f'<td class="text"><details><summary>{e(lesson.text)}</summary>'
        f"{provenance_block(item.record)}</details></td>",
        f"<td class=num>{e(lesson.hits if lesson.hits is not None else '—')}</td>",
        f"<td class=num>{item.age_months}</td>",
        f"<td class=num>{item.injections}</td>",
        f"<td class=num>{item.prior:.3f}</td>",
    ]
    if row is not None:
        cells += [f"<td class=num>{value:.3f}</td>" for value in (row.cosine, row.hub)]
        cells += [f"<td class=num>{row.lexical:.2f}</td>", f"<td class=num>{row.score:.3f}</td>"]
    cells.append(f'<td><span class="standing {e(item.standing)}">{e(item.standing)}</span></td>')
    cells.append(f'<td><a href="{link("/lesson", s=param, id=lesson.id)}">open</a></td>')
    return "<tr>" + "".join(cells) + "</tr>"


def provenance_block(record: LessonRecord | None) -> str:
    """Where a lesson came from (its ledger record), as a small definition list."""
    if record is None:
        return '<p class="muted">No ledger record yet.</p>'
    origin = record.provenance
    pairs = [
        ("source", origin.source),
        ("written", origin.at),
        ("author", origin.author),
        ("agent", origin.agent),
        ("session", origin.session),
        ("backend", origin.backend),
        ("model", origin.model),
        ("place", record.place),
        ("reason", record.reason),
        ("changed", record.changed),
        ("confirmed", record.confirmed),
        ("edited", record.edited),
        ("helped", str(record.helped) if record.helped else None),
        ("evidence", record.evidence.describe() if record.evidence is not None else None),
        ("fixed by", record.evidence.fixed_by if record.evidence is not None else None),
        ("contested with", record.contested_with),
    ]
    items = "".join(
        f"<dt>{e(key)}</dt><dd>{e(value)}</dd>" for key, value in pairs if value is not None
    )
    for dispute in record.disputes:
        items += (
            f"<dt>disputed</dt><dd>{e(dispute.at)} ({e(dispute.source)}) {e(dispute.note)}</dd>"
        )
    return f'<dl class="provenance">{items}</dl>'


def _evidence_mark(record: LessonRecord | None) -> str:
    """The lesson's evidence kind as a badge (nothing for a lesson without one)."""
    if record is None or record.evidence is None:
        return ""
    css = record.evidence.kind.replace(" ", "-")
    return f' · <span class="evidence {e(css)}">{e(record.evidence.label)}</span>'


# ---- one lesson ----------------------------------------------------------------------------
def lesson_page(
    frame: Frame, scope: str | None, item: LessonView, events: Sequence[InjectionEvent]
) -> str:
    lesson = item.lesson
    param = scope_param(scope)
    back = f"/skill?{urlencode({'s': param})}"
    here = f"/lesson?{urlencode({'s': param, 'id': lesson.id})}"
    fields = {"id": lesson.id, "skill": param}
    body = [
        f'<p><a href="{e(back)}">← {e(scope_name(scope))}</a></p>',
        f'<blockquote class="lesson-text" id="lesson-text">{e(lesson.text)}</blockquote>',
        f'<p class="facts"><code>{e(lesson.id)}</code> · tag {e(lesson.tag or "—")} · '
        f"HIT {e(lesson.hits if lesson.hits is not None else '—')} · month "
        f"{e(lesson.month or '—')} · injected {item.injections}× · prior {item.prior:.3f} · "
        f'<span class="standing {e(item.standing)}">{e(item.standing)}</span>'
        f"{_evidence_mark(item.record)}</p>",
        '<section class="actions">',
        frame.form("helped", "Helped", {**fields, "next": here}),
        frame.form("wrong", "Wrong", {**fields, "next": here}),
        frame.form("confirm", "Confirm", {**fields, "next": here}),
        frame.form("archive", "Archive", {**fields, "next": back}),
        frame.form(
            "delete",
            "Delete",
            {**fields, "next": back},
            css="danger",
            confirm="Delete this lesson for good? (Archive keeps it restorable.)",
        ),
        "</section>",
        '<section><h2>Edit</h2><form method="post" action="/action/edit" class="edit">'
        f'<input type="hidden" name="csrf" value="{e(frame.csrf)}">'
        f'<input type="hidden" name="id" value="{e(lesson.id)}">'
        f'<input type="hidden" name="skill" value="{e(param)}">'
        f'<input type="hidden" name="next" value="{e(back)}">'
        f'<label>Tag <input name="tag" value="{e(lesson.tag or "")}" maxlength="60"></label>'
        f'<label>Text <textarea name="text" rows="4" maxlength="2000">{e(lesson.text)}'
        '</textarea></label><button type="submit" name="do" value="edit">Save</button>'
        "</form></section>",
        f"<section><h2>Provenance</h2>{provenance_block(item.record)}</section>",
    ]
    mine = [event for event in events if lesson.id in event.ids]
    body.append(f"<section><h2>Injected {len(mine)} times</h2>")
    body.append(_events_table(list(reversed(mine))[:50], {}))
    body.append("</section>")
    return frame.page(f"Lesson {lesson.id}", "overview", "".join(body))


# ---- search ----------------------------------------------------------------------------------
def search_page(
    frame: Frame,
    skills: Sequence[str],
    query: str,
    skill: str | None,
    answer: SearchAnswer | None,
) -> str:
    options = ['<option value="">every skill</option>'] + [
        f'<option value="{e(name)}"{" selected" if name == skill else ""}>{e(name)}</option>'
        for name in skills
    ]
    body = [
        '<form class="search" method="get" action="/search" role="search">'
        f'<input type="search" name="q" value="{e(query)}" placeholder="search the lessons" '
        f'autofocus aria-label="query"><select name="s" aria-label="skill">{"".join(options)}'
        '</select><button type="submit">Search</button></form>'
    ]
    if answer is not None:
        body.append(_search_answer(answer))
    return frame.page("Search", "search", "".join(body))


def _search_answer(answer: SearchAnswer) -> str:
    hub, lex, prior = answer.weights
    confidence = answer.confidence
    parts = [
        f'<p class="muted">score = cosine − {hub:g}·hubness + {lex:g}·lexical + {prior:g}·prior '
        f"· ranked with {e(answer.via)}</p>"
    ]
    for notice in answer.notices:
        parts.append(f'<p class="flash error">{e(notice)}</p>')
    if answer.scores:
        best = max(answer.scores)
        marks = [(answer.threshold, "gate threshold", "gate")]
        if not math.isnan(confidence):
            marks.append((confidence, "confidence", "confidence"))
            marks.append((best - answer.relative_cut, "relative cut", "cut"))
        verdict = "passes" if answer.gate_passes else "does not pass"
        parts.append(
            f"<section><h2>Score distribution of {len(answer.scores)} candidates</h2>"
            + plots.histogram(answer.scores, "score distribution with the gate threshold", marks)
            + f'<p class="muted" id="gate">confidence {confidence:.3f} {verdict} the gate '
            f"(threshold {answer.threshold:.2f}); an injection for this task would take the "
            f"lessons marked ●, within {answer.relative_cut:g} of the best score.</p></section>"
        )
    parts.append(
        '<table class="results" id="results"><thead><tr><th>#</th><th>Skill</th><th>Lesson</th>'
        "<th>Score</th><th>Cosine</th><th>Hubness</th><th>Lexical</th><th>Prior</th>"
        "<th>Standing</th></tr></thead><tbody>"
    )
    for rank, row in enumerate(answer.results, 1):
        lesson = row.lesson
        param = scope_param(lesson.skill)
        gate = ' <span class="gated" title="the gate would inject it">●</span>' * row.gated_in
        parts.append(
            f"<tr><td class=num>{rank}</td><td>{e(scope_name(lesson.skill))}</td>"
            f'<td class="text"><a class="result" href="{link("/lesson", s=param, id=lesson.id)}">'
            f"{e(lesson.text)}</a>{gate}</td><td class=num>{row.score:.3f}</td>"
            f"<td class=num>{row.cosine:.3f}</td><td class=num>{row.hub:.3f}</td>"
            f"<td class=num>{row.lexical:.2f}</td><td class=num>{row.prior:.3f}</td>"
            f'<td><span class="standing {e(row.standing)}">{e(row.standing)}</span></td></tr>'
        )
    if not answer.results:
        parts.append('<tr><td colspan="9">No lessons found.</td></tr>')
    parts.append("</tbody></table>")
    return "".join(parts)


# ---- injections ------------------------------------------------------------------------------
def injections_page(
    frame: Frame,
    events: Sequence[InjectionEvent],
    texts: Mapping[str, tuple[str | None, str]],
    daily: Sequence[int],
    skill: str | None,
    session: str | None,
    total: int,
) -> str:
    filters = " · ".join(
        f"{label} <b>{e(value)}</b>"
        for label, value in (("skill", skill), ("session", session))
        if value
    )
    body = []
    if filters:
        body.append(f'<p>Only {filters} · <a href="/injections">show all</a></p>')
    labels = [f"-{RECENT_DAYS - 1 - i}d" if i < RECENT_DAYS - 1 else "today" for i in range(30)]
    body.append(plots.bars(list(daily), labels, "injections per day, last 30 days"))
    body.append(
        f'<p class="muted">{len(events)} of {total} injections, newest first. The task is the '
        "session's last recorded prompt before the injection.</p>"
    )
    body.append(_events_table(events, texts))
    return frame.page("Injection log", "injections", "".join(body))


def _events_table(
    events: Iterable[InjectionEvent], texts: Mapping[str, tuple[str | None, str]]
) -> str:
    rows = [
        '<table class="events" id="events"><thead><tr><th>When (UTC)</th><th>Skill</th>'
        "<th>Session</th><th>Path</th><th>Task</th><th>Lessons</th></tr></thead><tbody>"
    ]
    count = 0
    for event in events:
        count += 1
        when = datetime.fromtimestamp(event.t, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
        session = (
            f'<a href="{link("/injections", session=event.session)}">'
            f"<code>{e(event.session[:12])}</code></a>"
            if event.session
            else "—"
        )
        lessons = []
        for lesson_id in event.ids:
            scope, text = texts.get(lesson_id, (event.skill, ""))
            title = f' title="{e(text)}"' if text else ""
            label = (
                e(text[:70] + ("…" if len(text) > 70 else ""))
                if text
                else f"<code>{e(lesson_id)}</code> (gone)"
            )
            lessons.append(
                f'<li><a href="{link("/lesson", s=scope_param(scope), id=lesson_id)}"{title}>'
                f"{label}</a></li>"
            )
        rows.append(
            f'<tr><td>{e(when)}</td><td><a href="{link("/injections", s=event.skill)}">'
            f"{e(event.skill)}</a></td><td>{session}</td>"
            f'<td><span class="path {e(event.path)}" title="{e(event.by)}">{e(event.path)}'
            f'</span></td><td class="task">{e(event.task or "—")}</td>'
            f'<td><ul class="ids">{"".join(lessons)}</ul></td></tr>'
        )
    if not count:
        rows.append('<tr><td colspan="6">No injections recorded.</td></tr>')
    rows.append("</tbody></table>")
    return "".join(rows)


# ---- review ----------------------------------------------------------------------------------
def review_page(frame: Frame, items: Sequence[ReviewItem]) -> str:
    body = []
    if not items:
        body.append('<p class="empty">Nothing to review.</p>')
    for status in REVIEW_MOVES:
        group = [item for item in items if item.status == status]
        if not group:
            continue
        body.append(
            f'<section class="review {e(status)}"><h2>{e(status.capitalize())} ({len(group)})</h2>'
            '<table class="queue"><thead><tr><th>Skill</th><th>Lesson</th><th>Why</th><th>Since'
            "</th><th></th></tr></thead><tbody>"
        )
        for item in group:
            body.append(_review_row(frame, item))
        body.append("</tbody></table></section>")
    return frame.page("Review queue", "review", "".join(body))


def _review_row(frame: Frame, item: ReviewItem) -> str:
    lesson: Lesson = item.lesson
    fields = {"id": item.id, "skill": scope_param(lesson.skill), "next": "/review"}
    buttons = "".join(
        frame.form(action, label, fields) for action, label in REVIEW_MOVES[item.status]
    )
    return (
        f'<tr data-id="{e(item.id)}"><td>{e(scope_name(lesson.skill))}</td>'
        f'<td class="text"><details><summary>{e(lesson.text)}</summary>'
        f"<p><code>{e(item.id)}</code> [{e(lesson.tag or '')}]</p>"
        f"{provenance_block(item.record)}</details></td><td>{e(item.reason)}</td>"
        f'<td>{e(item.date or "—")}</td><td class="moves">{buttons}</td></tr>'
    )


# ---- promotion -------------------------------------------------------------------------------
def promote_page(frame: Frame, proposals: Sequence[Proposal], skill: str | None) -> str:
    """Lessons ready for SKILL.md: every skill's, or one skill's proposal with its diff and
    the approve button (a POST with the CSRF token, like the review moves)."""
    body = [
        '<p class="muted">A lesson is ready when it was rated helped at least '
        f"{MIN_HELPED} times, has no standing dispute and its SKILL.md has not changed since "
        'it was last confirmed. Approving appends it to SKILL.md under "Lessons learned" '
        "(a backup is kept beside it) and moves it to ARCHIVE.md.</p>"
    ]
    shown = [proposal for proposal in proposals if proposal.candidates]
    if not shown:
        body.append('<p class="empty">No lesson is ready for promotion.</p>')
    for proposal in shown:
        body.append(_proposal(frame, proposal, detailed=skill is not None))
    title = "Promotion into SKILL.md" + (f" · {skill}" if skill else "")
    return frame.page(title, "overview", "".join(body))


def _proposal(frame: Frame, proposal: Proposal, *, detailed: bool) -> str:
    rows = "".join(
        f"<tr><td><code>{e(c.lesson.id)}</code></td><td>{e(c.lesson.tag or '')}</td>"
        f'<td class="text">{e(c.lesson.text)}</td><td>{c.record.helped}</td></tr>'
        for c in proposal.candidates
    )
    parts = [
        f'<section class="promotion"><h2><a href="{link("/promote", s=proposal.skill)}">'
        f"{e(proposal.skill)}</a> ({len(proposal.candidates)})</h2>"
        '<table class="queue"><thead><tr><th>Id</th><th>Tag</th><th>Lesson</th><th>Helped'
        f"</th></tr></thead><tbody>{rows}</tbody></table>"
    ]
    if proposal.path is None:
        parts.append('<p class="flash error">No SKILL.md found for this skill.</p>')
    elif detailed:
        parts.append(f"<p>SKILL.md: <code>{e(proposal.path)}</code></p>")
        parts.append(f'<pre class="diff">{e(proposal.diff())}</pre>')
        fields = {
            "id": ",".join(proposal.ids),
            "skill": proposal.skill,
            "skill_md_hash": proposal.skill_md_hash or "",
            "next": f"/promote?s={proposal.skill}",
        }
        parts.append(
            frame.form(
                "promote", "Approve: write SKILL.md", fields, confirm=f"Write {proposal.path}?"
            )
        )
    parts.append("</section>")
    return "".join(parts)


def error_page(frame: Frame, title: str, message: str) -> str:
    return frame.page(
        title, "", f'<p class="flash error">{e(message)}</p><p><a href="/">Back</a></p>'
    )
