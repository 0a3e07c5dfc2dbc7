"""The ONNX run-time embedder: which backend embeds, the export kept beside the index (made
once, checked by SHA-256, made again when damaged), parity with sentence-transformers, and
processes that embed without ever importing torch."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.errors import ConfigError
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.models import onnx_store
from fireworks_skill_memory.models.bundled import bundled_model_dir
from fireworks_skill_memory.models.embedders import (
    EmbeddingModel,
    SentenceTransformerEmbedder,
    load_embedder,
    onnx_source,
)
from fireworks_skill_memory.models.errors import ExportFailed
from fireworks_skill_memory.models.onnx_embedder import (
    MAX_BATCH,
    MAX_CELLS,
    OnnxEmbedder,
    length_batches,
)
from fireworks_skill_memory.models.onnx_store import (
    DAMAGED,
    MISSING,
    VALID,
    ExportManifest,
    check_export,
    ensure_export,
    export_folder,
    weights_digest,
)
from tests.conftest import REPO, CliInvoker, FakeEmbedder

TORCH_MODULES = ("torch", "sentence_transformers", "transformers")


# ---- a stand-in model folder (no torch, no weights worth loading) -------------------------
def model_folder(root: Path, pooling: dict[str, bool] | None = None, dense: bool = False) -> Path:
    """A sentence-transformers folder layout whose weights are a few bytes."""
    root.mkdir(parents=True)
    (root / "model.safetensors").write_bytes(b"not really weights")
    kinds = [("", "Transformer"), ("1_Pooling", "Pooling")] + (
        [("2_Dense", "Dense")] if dense else []
    )
    modules = [
        {"idx": i, "name": str(i), "path": path, "type": f"sentence_transformers.models.{kind}"}
        for i, (path, kind) in enumerate(kinds)
    ]
    (root / "modules.json").write_text(json.dumps(modules))
    (root / "1_Pooling").mkdir()
    config = pooling or {"pooling_mode_mean_tokens": True}
    (root / "1_Pooling" / "config.json").write_text(json.dumps(config))
    return root


def fake_export(folder: Path, digest: str) -> ExportManifest:
    """An export folder whose files are stand-ins, with a manifest that matches them."""
    folder.mkdir(parents=True)
    (folder / "model.onnx").write_bytes(b"graph bytes")
    (folder / "words.npy").write_bytes(b"word vectors")
    (folder / "tokenizer.json").write_text("{}")
    manifest = ExportManifest(
        weights_sha256=digest,
        files={
            name: onnx_store.file_sha256(str(folder / name)) for name in onnx_store.EXPORT_FILES
        },
        max_seq_length=256,
        dimension=384,
        inputs=("inputs_embeds", "attention_mask"),
        parity_min_cosine=1.0,
    )
    (folder / "export.json").write_text(json.dumps(manifest.as_json()))
    return manifest


# ---- choosing the backend -----------------------------------------------------------------
def test_the_default_is_onnx_for_the_bundled_model(tmp_path: Path) -> None:
    embedder = load_embedder(models_dir=str(tmp_path))
    assert isinstance(embedder, OnnxEmbedder)
    assert embedder.backend == "onnx"
    assert embedder.model_id == "sentence-transformers/all-MiniLM-L6-v2"
    assert embedder.source == bundled_model_dir()


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"backend": "torch"}, "asked for"),
        ({"device": "cuda"}, "onnx runs on the CPU"),
        ({"models_dir": None}, "no folder to keep the export in"),
        ({"name": "someorg/some-hub-model"}, "a hub name"),
    ],
)
def test_torch_embeds_otherwise(tmp_path: Path, kwargs: dict[str, str | None], why: str) -> None:
    arguments: dict[str, str | None] = {"models_dir": str(tmp_path), **kwargs}
    name = arguments.pop("name", None) or "all-MiniLM-L6-v2"
    embedder = load_embedder(name, **arguments)  # type: ignore[arg-type]
    assert isinstance(embedder, SentenceTransformerEmbedder), why
    assert embedder.backend == "torch"


def test_a_local_model_folder_is_exportable_only_with_mean_pooling(tmp_path: Path) -> None:
    mean = model_folder(tmp_path / "mean")
    assert onnx_store.unexportable_reason(str(mean)) is None
    assert onnx_source(str(mean)) == str(mean)
    cls = model_folder(tmp_path / "cls", {"pooling_mode_cls_token": True})
    assert "mean pooling" in str(onnx_store.unexportable_reason(str(cls)))
    dense = model_folder(tmp_path / "dense", dense=True)
    assert "not transformer" in str(onnx_store.unexportable_reason(str(dense)))
    (mean / "model.safetensors").unlink()
    assert "no model.safetensors" in str(onnx_store.unexportable_reason(str(mean)))
    assert onnx_source(str(cls)) is None


def test_settings_name_the_backend_and_the_models_folder(tmp_path: Path) -> None:
    settings = load_settings({"AI_MEMORY_HOME": str(tmp_path)})
    assert settings.embed_backend == "onnx"
    assert settings.models_dir == str(tmp_path / "models")
    shared = tmp_path / "shared-models"
    env = {"AI_MEMORY_HOME": str(tmp_path), "SKILL_MEMORY_MODELS_DIR": str(shared)}
    assert load_settings(env).models_dir == str(shared)
    with pytest.raises(ConfigError, match="SKILL_MEMORY_EMBED_BACKEND"):
        load_settings({"AI_MEMORY_HOME": str(tmp_path), "SKILL_MEMORY_EMBED_BACKEND": "tf"})


def test_the_embedder_for_a_home_uses_its_settings(settings: Settings) -> None:
    from fireworks_skill_memory.memory.embedding import embedder_for

    embedder = embedder_for(settings)
    assert isinstance(embedder, OnnxEmbedder)
    assert embedder.models_dir == settings.models_dir


# ---- batching -----------------------------------------------------------------------------
def test_batches_go_shortest_first_within_both_caps() -> None:
    rng = random.Random(3)
    lengths = [rng.choice([2, 9, 40, 130, 256]) for _ in range(500)]
    batches = list(length_batches(lengths))
    assert sorted(i for batch in batches for i in batch) == list(range(500))
    widths = [max(lengths[i] for i in batch) for batch in batches]
    assert widths == sorted(widths)
    for batch, width in zip(batches, widths, strict=True):
        assert len(batch) <= MAX_BATCH
        assert len(batch) == 1 or len(batch) * width * width <= MAX_CELLS
    assert list(length_batches([])) == []


# ---- the export's files -------------------------------------------------------------------
def test_the_weights_digest_is_read_once_while_the_file_is_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = model_folder(tmp_path / "model")
    reads: list[str] = []
    real = onnx_store.file_sha256
    monkeypatch.setattr(onnx_store, "file_sha256", lambda path: reads.append(path) or real(path))
    weights_digest(str(source), str(tmp_path / "models"))
    assert not (tmp_path / "models").exists()  # a look writes nothing
    (tmp_path / "models" / "onnx").mkdir(parents=True)
    settle(source / "model.safetensors")
    reads.clear()
    first = weights_digest(str(source), str(tmp_path / "models"))
    assert weights_digest(str(source), str(tmp_path / "models")) == first
    assert len(reads) == 1
    (source / "model.safetensors").write_bytes(b"other weights")
    assert weights_digest(str(source), str(tmp_path / "models")) != first
    assert len(reads) == 2
    assert weights_digest(str(source), str(tmp_path / "models")) != first
    assert len(reads) == 3  # hashed within 2 s of its write: a same-stat rewrite could follow


def settle(path: Path) -> None:
    """Date a file's last write 10 s back (the digest cache trusts only settled files)."""
    past = os.stat(path).st_mtime - 10
    os.utime(path, (past, past))


def test_an_export_s_files_are_hashed_once_while_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest = "a" * 64
    folder = tmp_path / "onnx" / digest
    fake_export(folder, digest)
    for name in onnx_store.EXPORT_FILES:
        settle(folder / name)
    reads: list[str] = []
    real = onnx_store.file_sha256
    monkeypatch.setattr(onnx_store, "file_sha256", lambda path: reads.append(path) or real(path))
    assert check_export(str(folder), digest).state == VALID
    assert check_export(str(folder), digest).state == VALID
    assert len(reads) == len(onnx_store.EXPORT_FILES)
    (folder / "model.onnx").write_bytes(b"graph byteZ")  # same size, a new mtime
    assert check_export(str(folder), digest).state == DAMAGED


def test_check_export_finds_missing_valid_and_damaged_files(tmp_path: Path) -> None:
    digest = "a" * 64
    folder = tmp_path / "onnx" / digest
    assert check_export(str(folder), digest).state == MISSING
    fake_export(folder, digest)
    found = check_export(str(folder), digest)
    assert found.state == VALID and found.manifest is not None
    assert check_export(str(folder), "b" * 64).state == DAMAGED  # made from other weights
    (folder / "model.onnx").write_bytes(b"graph byteZ")  # one byte flipped
    found = check_export(str(folder), digest)
    assert found.state == DAMAGED and "model.onnx has SHA-256" in found.detail
    (folder / "model.onnx").write_bytes(b"graph bytes")
    (folder / "words.npy").unlink()
    assert "words.npy is unreadable" in check_export(str(folder), digest).detail
    (folder / "export.json").write_text("{not json")
    assert check_export(str(folder), digest).state == DAMAGED
    (folder / "export.json").unlink()
    assert check_export(str(folder), digest).state == MISSING


@pytest.mark.slow
def test_a_failed_export_is_remembered_and_the_embedder_falls_back(tmp_path: Path) -> None:
    """A model the exporter cannot load: the child fails, the failure is kept, the fallback
    embeds, and a later start does not pay for another attempt until asked."""
    source = model_folder(tmp_path / "model")
    models = tmp_path / "models"
    embedder = OnnxEmbedder("stand-in", str(source), str(models), fallback=FakeEmbedder)
    vectors = embedder.embed_batch(["a docker lesson"])
    assert vectors.shape == (1, FakeEmbedder().dimension)
    assert embedder.backend == "custom"  # the fallback's
    assert embedder.fallback_reason and "export failed" in embedder.fallback_reason
    digest = weights_digest(str(source), str(models))
    folder = export_folder(str(models), digest)
    assert onnx_store.recorded_failure(folder) is not None
    assert not os.path.exists(folder)
    assert not [name for name in os.listdir(models / "onnx") if name.startswith(".export-")]
    with pytest.raises(ExportFailed, match="failed before"):
        ensure_export(str(source), str(models))


# ---- the real model -----------------------------------------------------------------------
@pytest.fixture
def valid_export(session_export: Path) -> Path:
    """The session's export of the bundled model (made once, in a child process)."""
    return session_export


def varied_texts(count: int, seed: int = 11) -> list[str]:
    """Texts of every length the memory sees: words, sentences, paragraphs past the
    sequence length, other scripts, code, commands, blank, and a lone surrogate."""
    rng = random.Random(seed)
    words = (
        "docker image container volume postgres index migration lock pytest fixture scope "
        "session git rebase branch commit kubectl pod deployment namespace terraform state "
        "plan module nginx upstream cache key eviction TTL wheel entry point timeout retry "
        "the a of to when before after never always use avoid set pin check run build"
    ).split()
    other = [
        "Der Container erreicht die Datenbank über host.docker.internal.",
        "Utilisez un verrou consultatif avant la migration de la table.",
        "コンテナからホストのデータベースに接続する。",
        "在合并之前先运行完整的测试套件。",
        "Не храните секреты в образе контейнера.",
        "اختبر الترحيل على نسخة من قاعدة البيانات أولاً",
    ]
    code = [
        "def retry(fn, attempts=3):\n    return [fn() for _ in range(attempts)]",
        "SELECT id FROM lessons WHERE skill = 'docker' ORDER BY hits DESC LIMIT 5;",
        "kubectl rollout restart deployment/api -n prod && kubectl get pods -w",
        "Traceback (most recent call last):\n  File \"app.py\", line 3\nKeyError: 'x'",
        '{"tool_name": "Bash", "tool_input": {"command": "pytest -x"}}',
    ]
    texts: list[str] = ["", "   ", "x", "\ud83d lone surrogate", "tab\tand\nnewline"]
    while len(texts) < count:
        kind = rng.random()
        if kind < 0.15:
            texts.append(rng.choice(other) + " " + rng.choice(words))
        elif kind < 0.3:
            texts.append(rng.choice(code))
        else:
            size = rng.choices([1, 3, 8, 15, 30, 60, 120, 300], [2, 3, 4, 4, 3, 2, 1, 0.5])[0]
            sentence = " ".join(rng.choice(words) for _ in range(size))
            texts.append(sentence.capitalize() + rng.choice([".", "!", "?", "", " "]))
    return texts[:count]


@pytest.mark.real_model
def test_onnx_vectors_equal_the_sentence_transformers_vectors(
    valid_export: Path, shared_models_dir: Path, real_embedder: EmbeddingModel
) -> None:
    texts = varied_texts(1000)
    onnx = load_embedder(models_dir=str(shared_models_dir))
    ours = onnx.embed_batch(texts)
    assert onnx.backend == "onnx"
    reference = real_embedder.embed_batch(texts)
    assert ours.dtype == np.float32 and ours.shape == reference.shape == (1000, 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = np.sum(ours * reference, axis=1)
    assert float(cosines.min()) >= 1 - 1e-4, texts[int(cosines.argmin())][:80]
    assert onnx.embed_batch([]).shape == (0, 384)
    single = np.stack([onnx.embed(text) for text in texts[:20]])  # unbatched: no padding
    assert float(np.sum(single * ours[:20], axis=1).min()) >= 1 - 1e-5


@pytest.mark.real_model
def test_a_damaged_export_is_detected_and_made_again(valid_export: Path, tmp_path: Path) -> None:
    models = tmp_path / "models"
    digest = valid_export.name
    copy = Path(export_folder(str(models), digest))
    shutil.copytree(valid_export, copy)
    with open(copy / "model.onnx", "r+b") as handle:  # one flipped byte deep in the weights
        handle.seek(20_000_000)
        byte = handle.read(1)
        handle.seek(20_000_000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    damaged = check_export(str(copy), digest)
    assert damaged.state == DAMAGED and "model.onnx" in damaged.detail
    embedder = load_embedder(models_dir=str(models))
    vectors = embedder.embed_batch(["a cat", "a kitten", "tax law"])
    assert embedder.backend == "onnx", getattr(embedder, "fallback_reason", None)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2])
    remade = check_export(str(copy), digest)
    assert remade.state == VALID and remade.manifest is not None
    assert remade.manifest.parity_min_cosine >= 1 - 1e-4
    assert not [name for name in os.listdir(models / "onnx") if name.startswith((".", "_"))
                and name != onnx_store.LOCK_FILE]  # fmt: skip


@pytest.mark.real_model
def test_switching_backend_does_not_re_embed(
    valid_export: Path, settings: Settings, real_embedder: EmbeddingModel
) -> None:
    from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
    from fireworks_skill_memory.memory.store.markdown_store import Store

    store = Store(settings)
    for text in ("Pin the base image by digest", "Run migrations before the deploy"):
        add_lesson(store, "docker", text, "Build", matcher=None)
    built = MemoryIndex(settings, real_embedder).sync()
    assert built.embedded > 0
    onnx = load_embedder(models_dir=settings.models_dir)
    assert onnx.model_id == real_embedder.model_id
    again = MemoryIndex(settings, onnx).sync()
    assert again.embedded == 0
    from fireworks_skill_memory.memory.retrieval.retriever import Retriever

    hits = Retriever(settings, onnx).search("which image tag to build from", skill="docker")
    assert hits and "digest" in hits[0].lesson.text
    assert onnx.backend == "onnx"
    other = FakeEmbedder()  # the control: another model id rebuilds the table
    other.model_id = "another-model"
    assert MemoryIndex(settings, other).sync().embedded > 0


# ---- processes that never import torch ----------------------------------------------------
PROBE = f"""
import json, sys
from click.testing import CliRunner
from fireworks_skill_memory.cli.main import cli
result = CliRunner().invoke(cli, json.loads(sys.argv[1]), catch_exceptions=False)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {TORCH_MODULES!r})
print(json.dumps({{"code": result.exit_code, "output": result.output, "heavy": heavy}}))
"""


@pytest.mark.real_model
def test_cli_search_without_a_service_embeds_without_torch(
    valid_export: Path, env: dict[str, str], settings: Settings
) -> None:
    from fireworks_skill_memory.memory.store.markdown_store import Store

    add_lesson(Store(settings), "docker", "Pin the base image by digest", "Build", matcher=None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(["search", "which image tag", "--json"])],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, result["output"]
    assert "Pin the base image" in result["output"]
    assert result["heavy"] == []


@pytest.mark.real_model
def test_the_service_never_imports_torch_with_a_valid_export(
    valid_export: Path, tmp_path: Path
) -> None:
    """`-X importtime` of the real service, and the libraries mapped into it once ready."""
    from fireworks_skill_memory.memory.service import client
    from fireworks_skill_memory.memory.service.spawn import SERVICE_MODULE
    from fireworks_skill_memory.memory.store.markdown_store import Store
    from tests.hook_support import cli, service_env, stop_process, wait_ready

    env = service_env(tmp_path / "memory", tmp_path / "user")
    settings = load_settings(env)
    add_lesson(Store(settings), "docker", "Pin the base image by digest", "Build", matcher=None)
    imports = tmp_path / "importtime.txt"
    with open(imports, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", SERVICE_MODULE],
            env=env,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
    try:
        wait_ready(env, process)
        reply = client.call(settings.home, "search", {"query": "image tag"}, timeout=30)
        assert "digest" in json.dumps(reply)
        ping = client.call(settings.home, "ping", timeout=5)
        assert ping["backend"] == "onnx" and ping["pid"] == process.pid
        maps = Path(f"/proc/{process.pid}/maps").read_text()
    finally:
        cli(env, "service", "stop", "--timeout", "20")
        stop_process(process)
    assert "onnxruntime" in maps
    assert "libtorch" not in maps
    imported = [line.split("|")[-1].strip() for line in imports.read_text().splitlines()
                if line.startswith("import time:")]  # fmt: skip
    assert "onnxruntime" in imported
    assert not [name for name in imported if name.split(".")[0] in TORCH_MODULES]


# ---- skill-memory export-model ------------------------------------------------------------
@pytest.mark.real_model
def test_export_model_checks_the_export_there_is(valid_export: Path, cli: CliInvoker) -> None:
    result = cli("export-model", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["state"] == VALID and report["folder"] == str(valid_export)
    assert report["manifest"]["parity_min_cosine"] >= 1 - 1e-4
    assert "parity with sentence-transformers" in cli("export-model").output


def test_export_model_refuses_a_model_without_an_onnx_path(cli: CliInvoker) -> None:
    cli.env["SKILL_MEMORY_EMBED_MODEL"] = "someorg/some-hub-model"
    result = cli("export-model")
    assert result.exit_code == 1
    assert "no ONNX export path" in result.output
