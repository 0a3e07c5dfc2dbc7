"""`skill-memory export-model`: make (or check) the ONNX export the run time embeds with."""

from __future__ import annotations

import click

from fireworks_skill_memory.cli.common import emit_json, json_option, settings


@click.command("export-model")
@json_option
def export_model(as_json: bool) -> None:
    """Make the ONNX export of the embedding model now, or check the one there is.

    The service, the CLI and the MCP server embed with onnxruntime from an export of the
    model kept in the models folder (<home>/models, or SKILL_MEMORY_MODELS_DIR). It is made
    on first use; this makes it ahead of time, after a failed attempt, or when its SHA-256
    no longer matches. Making it loads torch once (about 30 s); checking reads ~90 MB.

    \b
    Examples:
      skill-memory export-model
      skill-memory export-model --json
    """
    from fireworks_skill_memory.models.embedders import onnx_source
    from fireworks_skill_memory.models.onnx_store import ensure_export

    cfg = settings()
    source = onnx_source(cfg.embed_model)
    if source is None:
        raise click.ClickException(
            f"{cfg.embed_model} has no ONNX export path (a hub name, or not a transformer "
            "with mean pooling): it embeds with torch"
        )
    found = ensure_export(source, cfg.models_dir, retry_failed=True)
    manifest = found.manifest
    parity = manifest.parity_min_cosine if manifest is not None else None
    if as_json:
        emit_json({"folder": found.folder, "state": found.state, "detail": found.detail,
                   "manifest": manifest.as_json() if manifest is not None else None})  # fmt: skip
        return
    click.echo(f"ONNX export of {cfg.embed_model}: {found.folder}")
    click.echo(f"{found.detail}; parity with sentence-transformers: cosine >= {parity}")
    if cfg.embed_backend != "onnx":
        click.echo("(SKILL_MEMORY_EMBED_BACKEND=torch: unused until the backend is onnx)")


COMMANDS = (export_model,)
