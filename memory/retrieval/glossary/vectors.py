"""The glossary's explanations, embedded once per model and glossary version.

The failure ranking embeds the explanations of the families a failure matches. Embedding them
on first use costs a failure one model call per new family; the warm service instead loads
them all from `<index>/glossary-<digest>.npz` (`memory.retrieval.vector_file`; derived state:
any model or glossary change gives a new digest, a damaged file is embedded again).
"""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.retrieval.glossary import all_symptoms

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.memory.config import Settings
    from fireworks_skill_memory.models.embedders import EmbeddingModel

BATCH = 32


def explanation_texts() -> list[str]:
    """Every family's explanation, as the failure ranking embeds it (one chunk each)."""
    return [" ".join(entry.explains.split()) for entry in all_symptoms()]


def vectors_path(settings: Settings, model_id: str, texts: list[str]) -> str:
    """Where the explanations' vectors for this model and glossary version are kept."""
    digest = hashlib.sha256("\n".join([model_id, *texts]).encode()).hexdigest()[:16]
    return os.path.join(settings.index_dir, f"glossary-{digest}.npz")


def explanation_vectors(settings: Settings, embedder: EmbeddingModel) -> dict[str, np.ndarray]:
    """Each explanation's vector: read from the index folder, else embedded and saved there.

    Embeds without any lock held; an index folder that cannot be written only means the
    vectors are embedded again by the next service.
    """
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.vector_file import read_vectors, write_vectors

    texts = explanation_texts()
    path = vectors_path(settings, embedder.model_id, texts)
    stored = read_vectors(path, embedder.dimension)
    if set(texts) <= set(stored):
        return stored
    vectors = np.concatenate(
        [embedder.embed_batch(texts[i : i + BATCH]) for i in range(0, len(texts), BATCH)]
    ).astype(np.float32)
    embedded = dict(zip(texts, vectors, strict=True))
    write_vectors(path, embedded)
    return embedded
