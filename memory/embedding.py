"""The configured embedding model of a memory home (the one place its settings are read)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fireworks_skill_memory.memory.config import Settings
    from fireworks_skill_memory.models.embedders import EmbeddingModel


def embedder_for(settings: Settings) -> EmbeddingModel:
    """The home's embedder: its model, device and backend, exports kept in its models folder.

    Nothing loads here; the model (and, for onnx, its export) on first use.
    """
    from fireworks_skill_memory.models import embedders

    return embedders.load_embedder(
        settings.embed_model,
        settings.device,
        backend=settings.embed_backend,
        models_dir=settings.models_dir,
    )
