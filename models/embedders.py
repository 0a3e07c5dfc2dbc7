"""Embedding models: one small base class and the sentence-transformers implementation.

`torch` and `sentence_transformers` are imported only when a model is first used,
so importing this module (e.g. for `--help`) stays cheap.
"""

from __future__ import annotations

import os
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fireworks_skill_memory.models.bundled import (
    DEFAULT_MODEL_NAME,
    bundled_model_dir,
    is_default_model,
)
from fireworks_skill_memory.models.errors import ModelUnavailable

if TYPE_CHECKING:
    import numpy as np

ENCODE_BATCH = 64
_SURROGATE = re.compile("[\ud800-\udfff]")


class EmbeddingModel(ABC):
    """A text embedder: L2-normalised float32 rows of `dimension` columns."""

    model_id: str

    @property
    def backend(self) -> str:
        """What computes the vectors: onnx, torch, service, ..."""
        return "custom"

    @property
    @abstractmethod
    def dimension(self) -> int:
        """Length of each vector."""

    @abstractmethod
    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts; returns an array of shape (len(texts), dimension), rows of norm 1."""

    def embed(self, text: str) -> np.ndarray:
        """Embed one text; returns a vector of shape (dimension,)."""
        result: np.ndarray = self.embed_batch([text])[0]
        return result


class SentenceTransformerEmbedder(EmbeddingModel):
    """A sentence-transformers model: the bundled default, a local folder, or a hub name."""

    def __init__(self, name: str = DEFAULT_MODEL_NAME, device: str = "cpu") -> None:
        self.name = name
        self.device = device
        self.model_id = DEFAULT_MODEL_NAME if is_default_model(name) else name
        self._model: Any = None
        self._lock = threading.Lock()

    def _location(self) -> tuple[str, bool]:
        """Where to load from, and whether that is on this machine (then the hub stays off)."""
        if is_default_model(self.name):
            return bundled_model_dir(), True
        path = os.path.expanduser(self.name)
        if os.path.isdir(path):
            return os.path.abspath(path), True
        return self.name, False

    def load(self) -> Any:
        """Load the model once (thread-safe); later calls return the same object."""
        with self._lock:
            if self._model is None:
                location, local = self._location()
                if local:
                    os.environ.setdefault("HF_HUB_OFFLINE", "1")
                    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                # the weight-loading progress bar would land in the CLI's output and hook logs
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                try:
                    from sentence_transformers import SentenceTransformer
                except ImportError as error:
                    raise ModelUnavailable(
                        f"sentence-transformers is not installed ({error}): "
                        "pip install fireworks-skill-memory"
                    ) from error
                try:
                    self._model = SentenceTransformer(location, device=self.device)
                except Exception as error:
                    raise ModelUnavailable(
                        f"cannot load embedding model {self.name!r} from {location}: {error}"
                    ) from error
            return self._model

    @property
    def backend(self) -> str:
        return "torch"

    @property
    def dimension(self) -> int:
        model = self.load()
        getter = getattr(model, "get_embedding_dimension", None) or (
            model.get_sentence_embedding_dimension
        )
        return int(getter())

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.load().encode(
            [tokenizable(text) for text in texts],
            batch_size=ENCODE_BATCH,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


def tokenizable(text: str) -> str:
    """`text` with lone surrogates (undecodable bytes, JSON `\\udXXX`) as U+FFFD.

    The tokenizer raises TypeError on them; a query or lesson text holding one still embeds.
    """
    if text.isascii():  # O(1) in CPython
        return text
    return _SURROGATE.sub("\ufffd", text)


def load_embedder(
    name: str = DEFAULT_MODEL_NAME,
    device: str = "cpu",
    *,
    backend: str = "onnx",
    models_dir: str | None = None,
) -> EmbeddingModel:
    """The embedder for a configured model name (nothing is loaded until first use).

    With the onnx backend and a folder to keep exports in (`models_dir`), a model on this
    machine whose pipeline the export reproduces embeds with onnxruntime, on the CPU (the
    export is made on first use); anything else with sentence-transformers, which is also
    the fallback when no export can be made. Both give the same vectors under one model id.
    """
    reference = SentenceTransformerEmbedder(name, device)
    source = onnx_source(name) if backend == "onnx" and device == "cpu" else None
    if source is None or models_dir is None:
        return reference
    from fireworks_skill_memory.models.onnx_embedder import OnnxEmbedder

    return OnnxEmbedder(reference.model_id, source, models_dir, fallback=lambda: reference)


def onnx_source(name: str) -> str | None:
    """The local folder of the model `name` when it can be exported to ONNX, else None."""
    from fireworks_skill_memory.models.onnx_store import unexportable_reason

    if is_default_model(name):
        try:
            folder = bundled_model_dir()
        except ModelUnavailable:
            return None  # sentence-transformers then names the fix when it loads
    else:
        folder = os.path.abspath(os.path.expanduser(name))
        if not os.path.isdir(os.path.expanduser(name)):
            return None  # a hub name: no export is made of a model that is not local
    return folder if unexportable_reason(folder) is None else None
