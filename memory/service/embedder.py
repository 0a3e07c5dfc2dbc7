"""An `EmbeddingModel` that borrows the warm service's model, so a short-lived process
(the distill worker, `flush --distill`) need not load torch and the weights itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.service import client
from fireworks_skill_memory.models.embedders import EmbeddingModel
from fireworks_skill_memory.models.errors import ModelUnavailable

if TYPE_CHECKING:
    import numpy as np

TIMEOUT = 30.0


class ServiceEmbedder(EmbeddingModel):
    """Embeds through the service's `vectors` op (same model id and dimension as the service)."""

    def __init__(self, home: str, model_id: str, dimension: int) -> None:
        self.home = home
        self.model_id = model_id
        self._dimension = dimension

    @property
    def backend(self) -> str:
        return "service"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self._dimension), dtype=np.float32)
        try:
            reply = client.call(self.home, "vectors", {"texts": list(texts)}, timeout=TIMEOUT)
        except client.ServiceUnavailable as error:
            raise ModelUnavailable(f"the service stopped answering: {error}") from None
        return np.asarray(reply.get("vectors"), dtype=np.float32).reshape(
            len(texts), self._dimension
        )


def service_embedder(home: str, model_id: str) -> ServiceEmbedder | None:
    """The service's model when it is up, ready and runs `model_id`; else None."""
    reply = client.try_call(home, "ping", timeout=1.0)
    if not reply or not reply.get("ready") or reply.get("model_id") != model_id:
        return None
    dimension = reply.get("dimension")
    return ServiceEmbedder(home, model_id, dimension) if isinstance(dimension, int) else None
