"""An embedder that remembers: `eval cv` embeds each text of the dev sets and corpus once.

The vectors are derived state kept in the user's cache folder
(`$XDG_CACHE_HOME/fireworks-skill-memory/eval-vectors/<model>.npz`, keyed by the text's
SHA-256), so a second `eval cv` run, or another component in the same run, embeds only texts
it has not seen. A missing or damaged file reads as empty.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from fireworks_skill_memory.memory.retrieval.vector_file import read_vectors, write_vectors
from fireworks_skill_memory.models.embedders import EmbeddingModel

if TYPE_CHECKING:
    from collections.abc import Mapping


def cache_folder(environ: Mapping[str, str]) -> str:
    """Where evaluation vectors are kept for this user."""
    base = environ.get("XDG_CACHE_HOME") or os.path.join(
        environ.get("HOME") or os.path.expanduser("~"), ".cache"
    )
    return os.path.join(base, "fireworks-skill-memory", "eval-vectors")


class CachedEmbedder(EmbeddingModel):
    """Wraps an embedder; vectors by text hash, read from and saved to one file per model."""

    def __init__(self, inner: EmbeddingModel, folder: str | None) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.path = (
            None
            if folder is None
            else os.path.join(
                folder, hashlib.sha256(inner.model_id.encode()).hexdigest()[:16] + ".npz"
            )
        )
        self._vectors: dict[str, np.ndarray] | None = None
        self._dirty = False

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def _known(self) -> dict[str, np.ndarray]:
        if self._vectors is None:
            self._vectors = {} if self.path is None else read_vectors(self.path, self.dimension)
        return self._vectors

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        known = self._known()
        keys = [_key(text) for text in texts]
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in known))
        if missing:
            for text, vector in zip(missing, self.inner.embed_batch(missing), strict=True):
                known[_key(text)] = np.asarray(vector, dtype=np.float32)
            self._dirty = True
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([known[key] for key in keys])

    def save(self) -> None:
        """Write the vectors back when new ones were embedded (a failure is only logged)."""
        if self.path is not None and self._dirty and self._vectors:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            write_vectors(self.path, self._vectors)
            self._dirty = False


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
