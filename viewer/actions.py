"""The viewer's writes, each through the store (its lock, atomic write and ledger) or the
review moves, then the index asked to catch up (by the service when it is up; otherwise the
next read syncs, as the index notices the knowledge file's new fingerprint)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import InvalidInput, NotFound
from fireworks_skill_memory.memory.ingest import review
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.lesson import clean_tag, clean_text
from fireworks_skill_memory.memory.store.markdown_store import Matcher, Store
from fireworks_skill_memory.memory.store.skill_names import validate_skill

GLOBAL_SCOPE = "@global"  # no skill name starts with "@"
SYNC_TIMEOUT = 5.0


@dataclass(frozen=True)
class Done:
    """What an action did, in one line, and the scope it touched."""

    message: str
    scope: str | None


@dataclass(frozen=True)
class ActionInput:
    """One posted action: the lesson, its scope when the form named one, the other fields."""

    store: Store
    lesson_id: str
    scope: str | None
    scoped: bool
    form: Mapping[str, str]
    matcher: Callable[[], Matcher]

    @property
    def where(self) -> str | None:
        """The scope to look in for moves that search every scope when none is given."""
        return self.scope if self.scoped else None


def scope_of(value: str | None) -> str | None:
    """A scope from a form or query value: `@global` is the global scope, else a skill."""
    if value is None or value == GLOBAL_SCOPE:
        return None
    return validate_skill(value)


def scope_param(scope: str | None) -> str:
    """The form and query value of a scope."""
    return GLOBAL_SCOPE if scope is None else scope


def perform(
    settings: Settings, name: str, form: Mapping[str, str], matcher: Callable[[], Matcher]
) -> Done:
    """Run the action `name` with the posted `form`; domain errors propagate."""
    action = ACTIONS.get(name)
    if action is None:
        raise NotFound(f"no action {name!r}")
    lesson_id = form.get("id", "").strip()
    if not lesson_id:
        raise InvalidInput("no lesson id given")
    raw_scope = form.get("skill", "")
    scope = scope_of(raw_scope) if raw_scope else None
    done = action(ActionInput(Store(settings), lesson_id, scope, bool(raw_scope), form, matcher))
    sync_index(settings, done.scope)
    return done


def sync_index(settings: Settings, scope: str | None) -> bool:
    """Ask the service to bring the index in step with `scope` now; False: it is not up."""
    from fireworks_skill_memory.memory.service.client import try_call

    return try_call(settings.home, "sync", {"scopes": [scope]}, SYNC_TIMEOUT) is not None


def _approve(request: ActionInput) -> Done:
    outcome = review.approve(request.store, request.lesson_id, request.matcher(), request.where)
    how = "added" if outcome.action == "added" else f"{outcome.action} into {outcome.lesson.id}"
    return Done(f"approved {request.lesson_id}: {how}", outcome.lesson.skill)


def _reject(request: ActionInput) -> Done:
    item = review.reject(request.store, request.lesson_id, request.where)
    return Done(f"rejected {request.lesson_id} (deleted from the quarantine)", item.lesson.skill)


def _restore(request: ActionInput) -> Done:
    item = review.restore(request.store, request.lesson_id, request.where)
    return Done(f"restored {request.lesson_id} to KNOWLEDGE.md", item.lesson.skill)


def _archive(request: ActionInput) -> Done:
    why = request.form.get("why", "").strip()
    lesson = review.archive(request.store, request.lesson_id, request.where, why)
    return Done(f"archived {request.lesson_id} (restorable from the review queue)", lesson.skill)


def _rate(rating: str) -> Callable[[ActionInput], Done]:
    def rate(request: ActionInput) -> Done:
        outcome = request.store.feedback(
            request.lesson_id,
            rating,
            note=request.form.get("note", "").strip(),
            source="review" if rating == "confirmed" else "feedback",
            skill=request.where,
            scoped=request.scoped,
        )
        moved = " and archived" if outcome.archived else ""
        return Done(f"{rating} {request.lesson_id}{moved}", outcome.lesson.skill)

    return rate


def _edit(request: ActionInput) -> Done:
    """A person's rewording: cleaned and redacted like every write; month and HIT kept."""
    text = redact(clean_text(request.form.get("text", "")))
    tag = clean_tag(request.form.get("tag"))
    changed: list[str] = []

    def change(doc: KnowledgeDoc) -> None:
        entry = doc.find(request.lesson_id)
        if entry is None:
            return
        lesson = replace(entry.lesson, text=text, tag=tag)
        doc.set_lesson(entry, lesson)
        changed.append(lesson.id)

    request.store.update(_scope_required(request), change)
    if not changed:
        raise NotFound(f"no lesson {request.lesson_id} in KNOWLEDGE.md")
    return Done(f"saved {request.lesson_id} as {changed[0]}", request.scope)


def _delete(request: ActionInput) -> Done:
    """Delete for good (a person's explicit choice; `archive` is the restorable move)."""
    removed = request.store.remove(_scope_required(request), [request.lesson_id])
    if not removed:
        raise NotFound(f"no lesson {request.lesson_id} in KNOWLEDGE.md")
    return Done(f"deleted {request.lesson_id}", request.scope)


def _promote(request: ActionInput) -> Done:
    """Write the promotion a person approved: the lessons (`id`, comma-separated) and the
    SKILL.md (`skill_md_hash`) they were shown, else nothing (the proposal changed)."""
    from fireworks_skill_memory.memory.ingest.promotion import apply_promotion

    skill = _scope_required(request)
    if skill is None:
        raise InvalidInput("the global scope has no SKILL.md")
    done = apply_promotion(
        request.store,
        skill,
        expect_ids=[part for part in request.lesson_id.split(",") if part],
        expect_hash=request.form.get("skill_md_hash") or None,
    )
    return Done(
        f"promoted {len(done.promoted)} lesson(s) into {done.path} (backup: {done.backup})",
        skill,
    )


def _scope_required(request: ActionInput) -> str | None:
    if not request.scoped:
        raise InvalidInput("this action needs the lesson's skill")
    return request.scope


ACTIONS: dict[str, Callable[[ActionInput], Done]] = {
    "approve": _approve,
    "reject": _reject,
    "restore": _restore,
    "archive": _archive,
    "confirm": _rate("confirmed"),
    "helped": _rate("helped"),
    "wrong": _rate("wrong"),
    "edit": _edit,
    "delete": _delete,
    "promote": _promote,
}
