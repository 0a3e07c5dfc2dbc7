"""`doctor` (is everything in place?) and `config` (every setting and where it comes from)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import click

from cli.common import emit_json, json_option, settings, store
from memory.config import OPTIONS, Settings


@dataclass(frozen=True)
class Check:
    """One doctor finding."""

    name: str
    status: str  # ok, warn or fail
    detail: str


def _home(cfg: Settings) -> Check:
    if not os.path.exists(cfg.home):
        return Check("home", "warn", f"{cfg.home} does not exist yet (created on first write)")
    if not os.access(cfg.home, os.W_OK):
        return Check("home", "fail", f"{cfg.home} is not writable")
    return Check("home", "ok", cfg.home)


def _lessons(cfg: Settings) -> Check:
    memory = store()
    infos = memory.skills()
    total = sum(info.lessons for info in infos)
    legacy = sum(1 for info in infos if info.legacy)
    detail = f"{len(infos)} skills, {total} lessons, {len(memory.lessons(None))} global"
    if legacy:
        detail += f"; {legacy} legacy-only skills (run `skill-memory import-legacy`)"
    return Check("lessons", "ok", detail)


def _model(cfg: Settings) -> Check:
    from models.bundled import WEIGHTS_SHA256, bundled_model_dir, is_default_model, weights_sha256
    from models.errors import ModelUnavailable

    if not is_default_model(cfg.embed_model):
        where = "local folder" if os.path.isdir(cfg.embed_model) else "hub name (may download)"
        return Check("model", "ok", f"{cfg.embed_model} ({where}, configured)")
    try:
        folder = bundled_model_dir()
    except ModelUnavailable as error:
        return Check("model", "fail", str(error))
    digest = weights_sha256(folder)
    if digest != WEIGHTS_SHA256:
        return Check("model", "fail", f"{folder}: weights SHA-256 {digest} is not the upstream one")
    return Check("model", "ok", f"all-MiniLM-L6-v2 bundled at {folder}, SHA-256 verified")


def _distiller(cfg: Settings) -> Check:
    backend = cfg.effective_distiller()
    detail = f"{backend} ({cfg.knowledge_model})"
    if backend == "anthropic" and not cfg.environ.get("ANTHROPIC_API_KEY"):
        return Check("distiller", "warn", detail + ": ANTHROPIC_API_KEY is not set")
    return Check("distiller", "ok", detail)


def _index(cfg: Settings) -> Check:
    from index.table import LessonIndex
    from models.bundled import DEFAULT_MODEL_NAME, is_default_model

    index = LessonIndex.existing(cfg.index_dir)
    if index is None:
        return Check("index", "ok", "not built yet (built on first inject/search or `reindex`)")
    wanted = DEFAULT_MODEL_NAME if is_default_model(cfg.embed_model) else cfg.embed_model
    detail = f"{index.count()} rows, {index.disk_bytes() / 1e6:.1f} MB, {index.model_id}"
    if index.model_id != wanted:
        return Check("index", "warn", f"{detail}; built for another model, rebuilt on next use")
    return Check("index", "ok", detail)


def _service(cfg: Settings) -> Check:
    from memory.service import client

    reply = client.try_call(cfg.home, "ping", timeout=1.0)
    if reply is None:
        return Check(
            "service", "warn", "not running (hooks start it; `skill-memory service start`)"
        )
    state = "ready" if reply.get("ready") else "warming up"
    if reply.get("load_error"):
        return Check("service", "fail", f"running but failed to load: {reply['load_error']}")
    return Check(
        "service", "ok", f"pid {reply.get('pid')}, {state}, version {reply.get('version')}"
    )


CHECKS: list[Callable[[Settings], Check]] = [_home, _lessons, _model, _index, _service, _distiller]


def register_check(check: Callable[[Settings], Check]) -> None:
    """Let another package add a doctor check."""
    CHECKS.append(check)


@click.command()
@json_option
def doctor(as_json: bool) -> None:
    """Check the memory home, the model, the index, the service and the hooks."""
    cfg = settings()
    results = [check(cfg) for check in CHECKS]
    if as_json:
        emit_json([{"check": r.name, "status": r.status, "detail": r.detail} for r in results])
    else:
        for r in results:
            click.echo(f"[{r.status:>4}] {r.name:<10} {r.detail}")
    if any(r.status == "fail" for r in results):
        raise SystemExit(1)


@click.command()
@json_option
def config(as_json: bool) -> None:
    """Show every setting: environment variable, default and resolved value."""
    cfg = settings()
    rows = [
        {
            "env": option.env,
            "default": option.default,
            "value": cfg.environ.get(option.env, ""),
            "help": option.help,
        }
        for option in OPTIONS
    ]
    if as_json:
        emit_json({"resolved": cfg.as_dict(), "variables": rows})
        return
    click.echo(f"memory home: {cfg.home}")
    for row in rows:
        value = f" = {row['value']}" if row["value"] else ""
        default = row["default"] if row["default"] != "" else "(derived)"
        click.echo(f"{row['env']}{value}\n    default {default}: {row['help']}")


COMMANDS = (doctor, config)
