"""Make the ONNX export of a sentence-transformers model (a child process: it imports torch).

    python -m fireworks_skill_memory.models.onnx_export SOURCE DEST

loads the model in the local folder SOURCE with sentence-transformers, traces its
transformer from the input embeddings on, with mean pooling and L2 normalisation appended
(`torch.onnx.export`, fp32, dynamic batch and sequence axes), saves the word-embedding table
beside it (`words.npy`: the run time looks tokens up in a memory map of it), saves the fast
tokenizer sentence-transformers uses,
embeds sample texts with both and refuses the export unless every cosine is within
PARITY_TOLERANCE of 1, then writes `export.json` last. Exit 0 when DEST holds a complete
export; else 1, with the reason on the last line of stderr. `models.onnx_store` runs it.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import warnings
from typing import Any

from fireworks_skill_memory.models.bundled import file_sha256
from fireworks_skill_memory.models.onnx_store import (
    EXPORT_FILES,
    MANIFEST,
    MODEL_FILE,
    TOKENIZER_FILE,
    WORDS_FILE,
    ExportManifest,
    weights_file,
    write_json_atomic,
)

OPSET = 17
PARITY_TOLERANCE = 1e-4
OUTPUT = "sentence_embedding"
INPUT_ORDER = ("input_ids", "attention_mask", "token_type_ids")
EMBEDS = "inputs_embeds"  # the graph's first input: input_ids looked up in words.npy
# Texts the export is checked on: short and long (past the sequence length), padded
# together, other scripts, code, blank.
SAMPLE_TEXTS = (
    "",
    "   ",
    "git",
    "Use `git rebase --onto` to move a branch onto another base.",
    "Der Container erreicht die Datenbank auf dem Host über host.docker.internal.",
    "コンテナからホストのデータベースに接続するには host.docker.internal を使う。",
    "def retry(fn, attempts=3):\n    for _ in range(attempts):\n        try:\n"
    "            return fn()\n        except OSError:\n            pass\n",
    "SELECT id, name FROM users WHERE created_at > now() - interval '1 day';",
    " ".join(["a fixture shared between tests leaks state when its scope is session"] * 40),
)


class ExportError(Exception):
    """The model cannot be exported faithfully."""


def export(source: str, dest: str) -> ExportManifest:
    """Export the model in `source` into the folder `dest`; returns what `export.json` holds."""
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    from fireworks_skill_memory.models.onnx_embedder import OnnxModel

    model = SentenceTransformer(source, device="cpu")
    transformer: Any = model[0]
    tokenizer = transformer.tokenizer
    fast = getattr(tokenizer, "backend_tokenizer", None)
    if fast is None:
        raise ExportError("the model has no fast tokenizer (tokenizer.json)")
    tokens = tuple(name for name in INPUT_ORDER if name in tokenizer.model_input_names)
    if tokens[:2] != INPUT_ORDER[:2]:
        raise ExportError(f"unexpected model inputs {tokenizer.model_input_names}")
    names = (EMBEDS, *tokens[1:])
    auto_model = transformer.auto_model.eval()
    words = auto_model.get_input_embeddings().weight.detach().cpu().numpy().astype(np.float32)
    np.save(os.path.join(dest, WORDS_FILE), np.ascontiguousarray(words))
    pooled = _mean_pooled(auto_model, names)
    sample = tokenizer(list(SAMPLE_TEXTS[3:5]), padding=True, return_tensors="pt")
    example = {**sample, EMBEDS: auto_model.get_input_embeddings()(sample["input_ids"])}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer and deprecation notes: parity decides below
        torch.onnx.export(
            pooled,
            tuple(example[name] for name in names),
            os.path.join(dest, MODEL_FILE),
            dynamo=False,  # the TorchScript exporter needs no onnxscript
            input_names=list(names),
            output_names=[OUTPUT],
            dynamic_axes={
                **{name: {0: "batch", 1: "sequence"} for name in names},
                OUTPUT: {0: "batch"},
            },
            opset_version=OPSET,
            do_constant_folding=True,
        )
    fast.save(os.path.join(dest, TOKENIZER_FILE))
    dimension = int(model.get_sentence_embedding_dimension() or 0)
    manifest = ExportManifest(
        weights_sha256=file_sha256(str(weights_file(source))),
        files={name: file_sha256(os.path.join(dest, name)) for name in EXPORT_FILES},
        max_seq_length=int(model.max_seq_length or 0),
        dimension=dimension,
        inputs=names,
        parity_min_cosine=0.0,
        exported_with=_versions(),
    )
    ours = OnnxModel(dest, manifest).embed(SAMPLE_TEXTS)
    reference = model.encode(
        list(SAMPLE_TEXTS), normalize_embeddings=True, convert_to_numpy=True, batch_size=64
    )
    cosine = float(np.min(np.sum(ours * reference, axis=1)))
    if cosine < 1 - PARITY_TOLERANCE:
        raise ExportError(f"the export's vectors differ from the model's (cosine {cosine:.6f})")
    manifest = dataclasses.replace(manifest, parity_min_cosine=round(cosine, 7))
    write_json_atomic(os.path.join(dest, MANIFEST), manifest.as_json())
    return manifest


def _mean_pooled(transformer: Any, names: tuple[str, ...]) -> Any:
    """The transformer with sentence-transformers' mean pooling and L2 normalisation."""
    import torch

    class MeanPooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            named = dict(zip(names, inputs, strict=True))
            tokens = self.transformer(**named)[0]
            mask = named["attention_mask"].unsqueeze(-1).to(tokens.dtype)
            summed = (tokens * mask).sum(dim=1)
            mean = summed / mask.sum(dim=1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2.0, dim=1)

    return MeanPooled().eval()


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for package in ("torch", "sentence-transformers", "transformers", "onnx", "onnxruntime"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            continue
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(
            "usage: python -m fireworks_skill_memory.models.onnx_export SOURCE DEST",
            file=sys.stderr,
        )
        return 2
    try:
        manifest = export(args[0], args[1])
    except Exception as error:  # noqa: BLE001 - the parent reads the last line, the trace is above
        import traceback

        traceback.print_exc()
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
        return 1
    print(f"exported {args[0]} to {args[1]} (parity cosine {manifest.parity_min_cosine})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
