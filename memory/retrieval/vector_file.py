"""A derived file of text vectors beside the index: read whole, replaced atomically.

The glossary's explanations and the lessons' clauses keep their vectors this way (`.npz` of
`keys` and `vectors`). It is derived state: a missing, damaged or other-model file reads as
empty, and the caller embeds again and writes it back; a folder that cannot be written only
costs the next process the same embedding.
"""

from __future__ import annotations

import io
import logging

import numpy as np

log = logging.getLogger(__name__)


def read_vectors(path: str, dimension: int) -> dict[str, np.ndarray]:
    """The file's vectors by key ({} when it is missing, damaged or of another dimension)."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            keys, vectors = stored["keys"], stored["vectors"]
            if vectors.ndim == 2 and vectors.shape == (len(keys), dimension):
                return dict(zip(map(str, keys), vectors, strict=True))
            log.warning("%s holds vectors of shape %s: embedding again", path, vectors.shape)
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError) as error:
        log.warning("cannot read %s (%s): embedding again", path, error)
    return {}


def write_vectors(path: str, vectors: dict[str, np.ndarray]) -> None:
    """Replace the file with these vectors (a folder that cannot be written is logged)."""
    from fireworks_skill_memory.memory.store.files import write_atomic

    buffer = io.BytesIO()
    np.savez(buffer, keys=np.asarray(list(vectors)), vectors=np.stack(list(vectors.values())))
    try:
        write_atomic(path, buffer.getvalue())
    except OSError as error:
        log.info("cannot save %s: %s", path, error)
