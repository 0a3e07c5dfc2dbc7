"""Helpers shared by the command modules: settings, the store, options and output."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.store.markdown_store import Store

if TYPE_CHECKING:
    from fireworks_skill_memory.memory.ingest import Ingest, LessonScreen
    from fireworks_skill_memory.memory.screen.screen import Trust
    from fireworks_skill_memory.models.embedders import EmbeddingModel

F = TypeVar("F", bound=Callable[..., Any])


def settings() -> Settings:
    """Settings of this invocation, resolved once per process."""
    ctx = click.get_current_context()
    root = ctx.find_root()
    cached = root.meta.get("skill_memory.settings")
    if cached is None:
        cached = load_settings()
        root.meta["skill_memory.settings"] = cached
        for name, value in cached.relative_paths():
            click.echo(
                f"warning: {name}={value} is relative to the current folder; hooks started "
                "elsewhere use another path (fix: give it as an absolute path)",
                err=True,
            )
    assert isinstance(cached, Settings)
    return cached


def store() -> Store:
    """The markdown store of the memory home."""
    return Store(settings())


def write_screen() -> LessonScreen:
    """The poisoning screen of a write command (the model loads on the first batch needing it)."""
    from fireworks_skill_memory.memory.screen.screen import screen_for

    return screen_for(settings(), _embedder())


def ingest(source: str, *, trust: Trust | None = None, dry_run: bool = False) -> Ingest:
    """The write pipeline of a command: the semantic matcher and the poisoning screen sharing
    one model, at `trust` (default: normal), lessons recorded as from `source`.

    Nothing loads here: the model loads on the first lesson that needs an embedding.
    """
    from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher
    from fireworks_skill_memory.memory.ingest import Ingest
    from fireworks_skill_memory.memory.screen.screen import Trust, screen_for

    embedder = _embedder()
    return Ingest(
        store=store(),
        screen=screen_for(settings(), embedder),
        trust=trust or Trust.NORMAL,
        source=source,
        matcher=SemanticMatcher(embedder),
        dry_run=dry_run,
    )


def with_provenance(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """`rows` (lesson records with `id` and `skill`) with each lesson's `provenance` and
    `standing` (current, unverified or disputed) and `evidence` (verified, unverified guess
    or stated; with its helped count) from the ledger; a row that already carries its
    provenance (a team lesson's, from the team layer's ledger) keeps it and its evidence."""
    memory = store()
    found: dict[object, dict[str, tuple[object, str, object]]] = {}
    for scope in dict.fromkeys(row.get("skill") for row in rows):
        if scope is None or isinstance(scope, str):
            try:
                records = memory.records(scope, memory.lessons(scope))
            except OSError:  # an unreadable ledger costs the labels, never the listing
                continue
            current = memory.skill_hash(scope)
            found[scope] = {
                key: (record.provenance.as_json(), record.standing(current), record.evidence_json())
                for key, record in records.items()
            }
    annotated = []
    for row in rows:
        provenance, standing, evidence = found.get(row.get("skill"), {}).get(
            str(row.get("id")), (None, "current", None)
        )
        if row.get("origin") == "team":  # not in the personal ledger; its own came with it
            provenance, standing, evidence = row.get("provenance"), "current", row.get("evidence")
        annotated.append(
            {**row, "provenance": provenance, "standing": standing, "evidence": evidence}
        )
    return annotated


def _embedder() -> EmbeddingModel:
    from fireworks_skill_memory.memory.embedding import embedder_for

    return embedder_for(settings())


SERVICE_TIMEOUT = 30.0  # for the operation itself, once the service has answered a ping
SERVICE_PROBE_TIMEOUT = 1.5  # a service that does not answer a ping within this is hung


def via_service(
    op: str, payload: Mapping[str, object], *, warm: bool = False
) -> dict[str, object] | None:
    """Ask the warm service when it is up (no model load here); None means: do it in-process.

    A quick ping first, so a hung or stopped service costs ~1.5 s, not the whole budget;
    a failed or still loading one is skipped at once: in-process, a read ranks from the
    markdown and the vector snapshot (under a second), less than the service's load takes.
    With `warm` (a command that needs the model), when none runs one is started for the next
    call (the hooks' rule, `memory.service.spawn.start_once`; never with
    SKILL_MEMORY_NO_SERVICE=1) while this call answers in-process.
    """
    from fireworks_skill_memory.memory.service import client
    from fireworks_skill_memory.memory.service.protocol import settings_text
    from fireworks_skill_memory.memory.service.spawn import start_once

    config = settings()
    health = client.probe(config.home, SERVICE_PROBE_TIMEOUT)
    if health.state != client.READY:
        if warm and health.state == client.NOT_RUNNING and not config.no_service:
            start_once(config.home, f"cli:{op}")
        return None
    # answered with this command's settings (top, token cap, ranking), not the service's
    request = {**payload, "by": "cli", "record": True, "settings": settings_text(config)}
    return client.try_call(config.home, op, request, timeout=SERVICE_TIMEOUT)


def json_option(func: F) -> F:
    """`--json`: machine-readable output."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


def skill_option(required: bool = True) -> Callable[[F], F]:
    """`--skill S`."""
    return click.option(
        "--skill",
        "-s",
        required=required,
        help="Skill name, e.g. browser-use or plugin:skill.",
    )


def emit_json(value: Any) -> None:
    """Print one JSON document (UTF-8, stable key order)."""
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def text_argument(value: str) -> str:
    """A TEXT argument, where `-` means standard input."""
    if value == "-":
        return sys.stdin.read()
    return value
