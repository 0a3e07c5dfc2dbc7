"""ONNX exports of embedding models: where one lives, whether it is intact, getting one made.

An export is derived state, like the index. `<models dir>/onnx/<weights SHA-256>/` holds
`model.onnx` (the transformer from its input embeddings on, with mean pooling and L2
normalisation in the graph, fp32), `words.npy` (the word-embedding table, looked up outside
the graph from a memory map, so only the rows of tokens actually seen become resident),
`tokenizer.json` (the model's own fast tokenizer) and `export.json`, written last: the
SHA-256 of each file, the SHA-256 of the weights it was made from, the sequence length, and
the parity with sentence-transformers measured when it was made. A missing or damaged
export (a file whose digest is not the recorded one) is made again.

Making one needs torch, so it runs in a child process (`python -m ...models.onnx_export`):
the process that asks never imports torch. A failed export is remembered beside the export
folder (`<digest>.failed.json`) so that each later start does not pay for the attempt again;
`skill-memory export-model` retries it. Standard library only.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from fireworks_skill_memory.models.bundled import file_sha256
from fireworks_skill_memory.models.errors import ExportFailed, ModelUnavailable

FORMAT = 2
ONNX_FOLDER = "onnx"
MANIFEST = "export.json"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
WORDS_FILE = "words.npy"
EXPORT_FILES = (MODEL_FILE, WORDS_FILE, TOKENIZER_FILE)
DIGESTS_FILE = "weights-digests.json"
LOCK_FILE = ".export.lock"
FAILED_SUFFIX = ".failed.json"
WEIGHTS_FILES = ("model.safetensors", "pytorch_model.bin")
EXPORT_TIMEOUT = 900.0  # seconds; a 22 M-parameter model exports in 10-30 s
EXPORTER = "fireworks_skill_memory.models.onnx_export"
RACY_NS = 2_000_000_000  # a file hashed within this of its mtime is hashed again next time

VALID, MISSING, DAMAGED = "valid", "missing", "damaged"

# The sentence-transformers pipeline the export reproduces: a transformer, mean pooling,
# and optionally L2 normalisation (the vectors are normalised either way).
_TRANSFORMER = "sentence_transformers.models.Transformer"
_POOLING = "sentence_transformers.models.Pooling"
_NORMALIZE = "sentence_transformers.models.Normalize"
_MEAN_ONLY = {
    "pooling_mode_cls_token": False,
    "pooling_mode_mean_tokens": True,
    "pooling_mode_max_tokens": False,
    "pooling_mode_mean_sqrt_len_tokens": False,
}


@dataclass(frozen=True)
class ExportManifest:
    """What `export.json` records about one export."""

    weights_sha256: str
    files: Mapping[str, str]  # the SHA-256 of each of EXPORT_FILES
    max_seq_length: int
    dimension: int
    inputs: tuple[str, ...]
    parity_min_cosine: float
    exported_with: Mapping[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "weights_sha256": self.weights_sha256,
            "files": dict(self.files),
            "max_seq_length": self.max_seq_length,
            "dimension": self.dimension,
            "inputs": list(self.inputs),
            "parity_min_cosine": self.parity_min_cosine,
            "exported_with": dict(self.exported_with),
        }

    @classmethod
    def from_json(cls, data: object) -> ExportManifest:
        """Parse `export.json`'s content; ValueError when it is not a manifest of this format."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not an export manifest of this version")
        files = data.get("files")
        if not isinstance(files, dict) or sorted(files) != sorted(EXPORT_FILES):
            raise ValueError(f"the manifest does not list {', '.join(EXPORT_FILES)}")
        inputs = data.get("inputs")
        exported_with = data.get("exported_with") or {}
        try:
            manifest = cls(
                weights_sha256=_text(data["weights_sha256"]),
                files={name: _text(files[name]) for name in EXPORT_FILES},
                max_seq_length=int(data["max_seq_length"]),
                dimension=int(data["dimension"]),
                inputs=tuple(_text(name) for name in inputs),  # type: ignore[union-attr]
                parity_min_cosine=float(data["parity_min_cosine"]),
                exported_with={str(k): str(v) for k, v in dict(exported_with).items()},
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"incomplete export manifest ({error})") from None
        if manifest.max_seq_length < 1 or manifest.dimension < 1 or not manifest.inputs:
            raise ValueError("export manifest with impossible sizes")
        return manifest


def _text(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"expected a string, got {value!r}")
    return value


@dataclass(frozen=True)
class ExportCheck:
    """The state of the export for one set of weights: valid, missing or damaged."""

    state: str
    folder: str
    detail: str
    manifest: ExportManifest | None = None


def onnx_root(models_dir: str) -> str:
    return os.path.join(models_dir, ONNX_FOLDER)


def export_folder(models_dir: str, weights_digest: str) -> str:
    """Where the export of the weights with this SHA-256 lives."""
    return os.path.join(onnx_root(models_dir), weights_digest)


def weights_file(source: str) -> str | None:
    """The weights file of a local sentence-transformers folder (None when it has none)."""
    for name in WEIGHTS_FILES:
        path = os.path.join(source, name)
        if os.path.isfile(path):
            return path
    return None


def unexportable_reason(source: str) -> str | None:
    """Why the model in the local folder `source` has no ONNX path (None when it has one).

    Only the pipeline the export reproduces qualifies: weights in the folder, a transformer,
    mean pooling, and nothing else but an L2 normalisation.
    """
    if weights_file(source) is None:
        return f"{source} has no {' or '.join(WEIGHTS_FILES)}"
    try:
        modules = _read_json(os.path.join(source, "modules.json"))
    except (OSError, ValueError):
        return f"{source} has no readable modules.json"
    if not isinstance(modules, list):
        return f"{source}: modules.json is not a list"
    kinds = [module.get("type") if isinstance(module, dict) else None for module in modules]
    if kinds not in ([_TRANSFORMER, _POOLING], [_TRANSFORMER, _POOLING, _NORMALIZE]):
        return f"{source}: modules {kinds} are not transformer, mean pooling[, normalize]"
    pooling_path = os.path.join(source, str(modules[1].get("path", "")), "config.json")
    try:
        pooling = _read_json(pooling_path)
    except (OSError, ValueError):
        return f"{pooling_path} is missing or unreadable"
    if not isinstance(pooling, dict) or any(
        bool(pooling.get(key, False)) != wanted for key, wanted in _MEAN_ONLY.items()
    ):
        return f"{pooling_path}: the pooling is not mean pooling alone"
    return None


def weights_digest(source: str, models_dir: str) -> str:
    """SHA-256 of the model's weights, read only when that file changed (`cached_sha256`).

    The cache is written only into an existing `onnx` folder, so a look (`doctor`) creates
    nothing.
    """
    path = weights_file(source)
    if path is None:
        raise ModelUnavailable(f"{source} has no weights file ({' or '.join(WEIGHTS_FILES)})")
    return cached_sha256(path, onnx_root(models_dir))


def cached_sha256(path: str, root: str) -> str:
    """SHA-256 of a file, cached in `<root>/weights-digests.json` by its size, mtime and inode.

    A file is read again only when its stat changed, or when it was hashed so soon after it
    was written that a later write could have kept its stat (git's "racy" rule, as the index
    applies it to knowledge files). A folder that cannot be written only costs the reading.
    """
    stat = os.stat(path)
    stamp = [stat.st_size, stat.st_mtime_ns, stat.st_ino]
    key = os.path.realpath(path)
    cache_path = os.path.join(root, DIGESTS_FILE)
    try:
        cache = _read_json(cache_path)
    except (OSError, ValueError):
        cache = {}
    if not isinstance(cache, dict):
        cache = {}
    entry = cache.get(key)
    if isinstance(entry, dict) and entry.get("stat") == stamp:
        cached, hashed_ns = entry.get("sha256"), entry.get("hashed_ns")
        settled = not isinstance(hashed_ns, int) or hashed_ns > stat.st_mtime_ns + RACY_NS
        if isinstance(cached, str) and len(cached) == 64 and settled:
            return cached
    hashed_ns = time.time_ns()
    digest = file_sha256(path)
    cache[key] = {"stat": stamp, "sha256": digest, "hashed_ns": hashed_ns}
    if os.path.isdir(root):
        with contextlib.suppress(OSError):
            write_json_atomic(cache_path, cache)
    return digest


def check_export(folder: str, weights_digest: str) -> ExportCheck:
    """Whether `folder` holds an intact export of those weights: the SHA-256 of each file
    against its manifest's (each file hashed, ~90 MB, only when it changed: `cached_sha256`;
    a cold process would spend ~0.2 s on it)."""
    manifest_path = os.path.join(folder, MANIFEST)
    if not os.path.isfile(manifest_path):
        detail = "no export yet" if not os.path.exists(folder) else "the export is incomplete"
        return ExportCheck(MISSING, folder, detail)
    try:
        manifest = ExportManifest.from_json(_read_json(manifest_path))
    except (OSError, ValueError) as error:
        return ExportCheck(DAMAGED, folder, f"{MANIFEST} is unreadable: {error}")
    if manifest.weights_sha256 != weights_digest:
        return ExportCheck(DAMAGED, folder, f"{MANIFEST} names other weights")
    for name in EXPORT_FILES:
        recorded = manifest.files[name]
        try:
            actual = cached_sha256(os.path.join(folder, name), os.path.dirname(folder))
        except OSError as error:
            return ExportCheck(DAMAGED, folder, f"{name} is unreadable: {error.strerror}")
        if actual != recorded:
            return ExportCheck(
                DAMAGED,
                folder,
                f"{name} has SHA-256 {actual[:12]}..., not the recorded {recorded[:12]}...",
            )
    return ExportCheck(VALID, folder, f"SHA-256 of {', '.join(EXPORT_FILES)} verified", manifest)


def failure_path(folder: str) -> str:
    return folder + FAILED_SUFFIX


def recorded_failure(folder: str) -> str | None:
    """Why the last export into `folder` failed, when it did (and was not retried since)."""
    try:
        data = _read_json(failure_path(folder))
    except (OSError, ValueError):
        return None
    return str(data.get("error", "unknown error")) if isinstance(data, dict) else None


def ensure_export(source: str, models_dir: str, *, retry_failed: bool = False) -> ExportCheck:
    """A valid export of the model in `source`, made now (in a child process) when needed.

    Raises ExportFailed when it cannot be made, or when an earlier attempt failed and
    `retry_failed` is False. Concurrent callers wait for one another (an flock), so the
    model is exported once.
    """
    with contextlib.suppress(OSError):  # read-only: the check below says what is missing
        os.makedirs(onnx_root(models_dir), exist_ok=True)
    digest = weights_digest(source, models_dir)
    folder = export_folder(models_dir, digest)
    found = check_export(folder, digest)
    if found.state == VALID:
        return found
    if not retry_failed:
        failed = recorded_failure(folder)
        if failed is not None:
            raise ExportFailed(
                f"the ONNX export failed before ({failed}); retry: skill-memory export-model"
            )
    with _export_lock(onnx_root(models_dir)):
        found = check_export(folder, digest)  # another process may have made it meanwhile
        if found.state == VALID:
            return found
        try:
            _export_into(source, folder)
        except ExportFailed as error:
            with contextlib.suppress(OSError):
                write_json_atomic(failure_path(folder), {"error": str(error), "at": time.time()})
            raise
        with contextlib.suppress(FileNotFoundError):
            os.unlink(failure_path(folder))
    found = check_export(folder, digest)
    if found.state != VALID:
        raise ExportFailed(f"the new ONNX export is not valid: {found.detail}")
    return found


@contextlib.contextmanager
def _export_lock(root: str) -> Iterator[None]:
    with open(os.path.join(root, LOCK_FILE), "a+") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # the holder's child has a timeout
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _export_into(source: str, folder: str) -> None:
    """Run the exporter into a temporary folder, then put that folder in place."""
    root = os.path.dirname(folder)
    work = tempfile.mkdtemp(prefix=".export-", dir=root)
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    }
    try:
        try:
            done = subprocess.run(
                [sys.executable, "-m", EXPORTER, source, work],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=EXPORT_TIMEOUT,
                env=env,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise ExportFailed(f"the ONNX export took over {EXPORT_TIMEOUT:.0f} s") from None
        except OSError as error:
            raise ExportFailed(f"the ONNX exporter could not start: {error}") from None
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            why = lines[-1] if lines else f"exit status {done.returncode}"
            raise ExportFailed(f"the ONNX export failed: {why}")
        if os.path.lexists(folder):  # a damaged export: derived state, replaced whole
            stale = tempfile.mkdtemp(prefix=".stale-", dir=root)
            os.replace(folder, os.path.join(stale, "export"))
            shutil.rmtree(stale, ignore_errors=True)
        os.replace(work, folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _read_json(path: str) -> object:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def write_json_atomic(path: str, value: object) -> None:
    """Write JSON to `path` through a temporary file and a rename."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(value, handle, indent=2, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
