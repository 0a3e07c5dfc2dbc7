"""The run-time embedder: an ONNX export run by onnxruntime, tokenised by `tokenizers`.

No torch here: `onnxruntime`, `tokenizers` and numpy only, imported on first use. The
export (`models.onnx_store`) carries the pooling and the normalisation in its graph, so its
vectors equal sentence-transformers' within float rounding, and the model id stays the
model's own: an index built with either backend is used by the other without re-embedding.
When no export can be had, the embedder falls back to sentence-transformers (torch).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from fireworks_skill_memory.models.embedders import EmbeddingModel, tokenizable
from fireworks_skill_memory.models.errors import ModelUnavailable
from fireworks_skill_memory.models.onnx_store import (
    MODEL_FILE,
    TOKENIZER_FILE,
    WORDS_FILE,
    ExportManifest,
    ensure_export,
)

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger("skill-memory.models")

# One intra-op thread: a hook's query is one short text, where a second thread costs more
# in hand-off than it saves, and the service shares the machine with the agent
# (benchmarks/embed_bench.py measures 1 against 2).
THREADS = 1
# A batch holds at most MAX_BATCH texts and MAX_CELLS attention cells (texts x tokens x
# tokens): the arena keeps its peak for the process's life, and the scores of 64 texts of
# 256 tokens take ~200 MB per layer. Embedding the 1,927 corpus lessons peaks at ~210 MB
# resident with these (~430 MB at 64 and 2**19), and is no slower (less padding).
MAX_BATCH = 16
MAX_CELLS = 1 << 18


class OnnxModel:
    """An opened export: an onnxruntime session, the word embeddings and the tokenizer.

    The word-embedding table (half the weights) is a read-only memory map: only the pages of
    tokens actually looked up become resident, and they stay clean, file-backed pages.
    """

    def __init__(self, folder: str, manifest: ExportManifest, threads: int = THREADS) -> None:
        import numpy as np
        import onnxruntime
        from onnxruntime.capi import onnxruntime_pybind11_state as ort_errors
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only: warnings would land in hook logs
        # prepacked weight copies cost ~30 MB resident and buy nothing measurable here
        options.add_session_config_entry("session.disable_prepacking", "1")
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = onnxruntime.InferenceSession(
                os.path.join(folder, MODEL_FILE), options, providers=["CPUExecutionProvider"]
            )
        except (ort_errors.Fail, ort_errors.InvalidProtobuf, ort_errors.InvalidGraph,
                ort_errors.NoSuchFile, ort_errors.RuntimeException) as error:  # fmt: skip
            raise ModelUnavailable(f"onnxruntime cannot open {folder}: {error}") from error
        try:
            tokenizer = Tokenizer.from_file(os.path.join(folder, TOKENIZER_FILE))
        except Exception as error:  # tokenizers raises a bare Exception
            raise ModelUnavailable(f"cannot read the tokenizer in {folder}: {error}") from error
        tokenizer.no_padding()
        tokenizer.enable_truncation(manifest.max_seq_length)
        self._tokenizer = tokenizer
        try:
            self._words = np.load(os.path.join(folder, WORDS_FILE), mmap_mode="r")
        except (OSError, ValueError) as error:
            raise ModelUnavailable(f"cannot map {WORDS_FILE} in {folder}: {error}") from error
        self._inputs = manifest.inputs
        self.dimension = manifest.dimension
        self.folder = folder

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 rows, one per text (batched by length, in the given order)."""
        import numpy as np

        encodings = self._tokenizer.encode_batch(list(texts))
        lengths = [len(encoding.ids) for encoding in encodings]
        vectors = np.empty((len(texts), self.dimension), dtype=np.float32)
        for batch in length_batches(lengths):
            feed = self._feed([encodings[i] for i in batch], max(lengths[i] for i in batch))
            vectors[batch] = self._session.run(None, feed)[0]
        return vectors

    def _feed(self, encodings: list[Any], width: int) -> dict[str, np.ndarray]:
        import numpy as np

        shape = (len(encodings), width)
        ids, mask, types = (np.zeros(shape, dtype=np.int64) for _ in range(3))
        for row, encoding in enumerate(encodings):
            size = len(encoding.ids)
            ids[row, :size] = encoding.ids
            mask[row, :size] = encoding.attention_mask
            types[row, :size] = encoding.type_ids
        columns = {"inputs_embeds": np.ascontiguousarray(self._words[ids]), "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            columns["token_type_ids"] = types
        return columns


def length_batches(lengths: Sequence[int]) -> Iterator[list[int]]:
    """Indices grouped shortest first, each group within MAX_BATCH texts and MAX_CELLS cells."""
    batch: list[int] = []
    for index in sorted(range(len(lengths)), key=lengths.__getitem__):
        width = lengths[index]  # the longest so far: the order is by length
        if batch and (len(batch) == MAX_BATCH or (len(batch) + 1) * width * width > MAX_CELLS):
            yield batch
            batch = []
        batch.append(index)
    if batch:
        yield batch


class OnnxEmbedder(EmbeddingModel):
    """The model from its ONNX export (made on first use when missing or damaged).

    When the export cannot be made or opened, `fallback` (sentence-transformers) embeds
    instead and `fallback_reason` says why; `backend` names the one in use.
    """

    def __init__(
        self,
        model_id: str,
        source: str,
        models_dir: str,
        fallback: Callable[[], EmbeddingModel],
    ) -> None:
        self.model_id = model_id
        self.source = source
        self.models_dir = models_dir
        self.fallback_reason: str | None = None
        self._fallback = fallback
        self._model: OnnxModel | EmbeddingModel | None = None
        self._lock = threading.Lock()

    @property
    def backend(self) -> str:
        model = self._model
        return model.backend if isinstance(model, EmbeddingModel) else "onnx"

    def load(self) -> OnnxModel | EmbeddingModel:
        """Open the export once (exporting first when needed), else the fallback."""
        with self._lock:
            if self._model is None:
                self._model = self._open()
            return self._model

    def _open(self) -> OnnxModel | EmbeddingModel:
        try:
            found = ensure_export(self.source, self.models_dir)
            if found.manifest is None:  # ensure_export returns only valid exports
                raise ModelUnavailable(f"no ONNX export: {found.detail}")
            return OnnxModel(found.folder, found.manifest)
        except (ModelUnavailable, OSError, ImportError) as error:
            self.fallback_reason = f"{type(error).__name__}: {error}"
            log.warning("embedding with torch: no usable ONNX export (%s)", self.fallback_reason)
            return self._fallback()

    @property
    def dimension(self) -> int:
        return self.load().dimension

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        model = self.load()
        if isinstance(model, EmbeddingModel):
            return model.embed_batch(texts)
        if not texts:
            return np.zeros((0, model.dimension), dtype=np.float32)
        return model.embed([tokenizable(text) for text in texts])
