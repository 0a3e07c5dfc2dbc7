"""The glossary's explanations, embedded once per model and glossary version.

The failure ranking embeds the explanations of the families a failure matches. Embedding them
on first use costs a failure one model call per new family; the warm service instead loads
them all from `<index>/glossary-<digest>.npy` (derived state: any model or glossary change
gives a new digest, a damaged or missing file is embedded again and rewritten).
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.retrieval.glossary import all_symptoms

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.memory.config import Settings
    from fireworks_skill_memory.models.embedders import EmbeddingModel

log = logging.getLogger(__name__)

BATCH = 32


def explanation_texts() -> list[str]:
    """Every family's explanation, as the failure ranking embeds it (one chunk each)."""
    return [" ".join(entry.explains.split()) for entry in all_symptoms()]


def vectors_path(settings: Settings, model_id: str, texts: list[str]) -> str:
    """Where the explanations' vectors for this model and glossary version are kept."""
    digest = hashlib.sha256("\n".join([model_id, *texts]).encode()).hexdigest()[:16]
    return os.path.join(settings.index_dir, f"glossary-{digest}.npy")


def explanation_vectors(settings: Settings, embedder: EmbeddingModel) -> dict[str, np.ndarray]:
    """Each explanation's vector: read from the index folder, else embedded and saved there.

    Embeds without any lock held; an index folder that cannot be written only means the
    vectors are embedded again by the next service.
    """
    import numpy as np

    texts = explanation_texts()
    path = vectors_path(settings, embedder.model_id, texts)
    try:
        stored = np.load(path, allow_pickle=False)
        if stored.shape == (len(texts), embedder.dimension):
            return dict(zip(texts, stored, strict=True))
        log.warning("%s holds %s vectors, not %d: embedding again", path, stored.shape, len(texts))
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as error:
        log.warning("cannot read %s (%s): embedding again", path, error)
    vectors = np.concatenate(
        [embedder.embed_batch(texts[i : i + BATCH]) for i in range(0, len(texts), BATCH)]
    ).astype(np.float32)
    _save(path, vectors)
    return dict(zip(texts, vectors, strict=True))


def _save(path: str, vectors: np.ndarray) -> None:
    import numpy as np

    from fireworks_skill_memory.memory.store.files import write_atomic

    buffer = io.BytesIO()
    np.save(buffer, vectors, allow_pickle=False)
    try:
        write_atomic(path, buffer.getvalue())
    except OSError as error:
        log.warning("cannot save the glossary vectors to %s: %s", path, error)
