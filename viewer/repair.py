"""Rebuilding a damaged index from the markdown, started by the overview page that found it.

A rebuild moves the table it cannot read to `index/damaged-<time>/` (never deleting it) and
embeds every lesson again: the warm service does it when it answers (its `reindex`, with the
model loaded), otherwise a thread of this viewer, with the configured model. One rebuild at
a time per viewer; the index's own lock keeps it from racing a CLI command or the service.
"""

from __future__ import annotations

import logging
import threading

from fireworks_skill_memory.memory.config import Settings

log = logging.getLogger("skill-memory.viewer")
SERVICE_REBUILD_TIMEOUT = 600.0
_rebuilding = threading.Lock()  # held by the thread rebuilding, for this process's life


def start_rebuild(settings: Settings) -> bool:
    """Rebuild the index in the background unless a rebuild runs already; True when started."""
    if not _rebuilding.acquire(blocking=False):
        return False
    thread = threading.Thread(target=_rebuild, args=(settings,), name="index-rebuild", daemon=True)
    thread.start()
    return True


def rebuilding() -> bool:
    """True while this viewer rebuilds the index."""
    return _rebuilding.locked()


def _rebuild(settings: Settings) -> None:
    from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex
    from fireworks_skill_memory.memory.service import client
    from fireworks_skill_memory.models.embedders import load_embedder

    try:
        if client.try_call(settings.home, "reindex", {}, timeout=SERVICE_REBUILD_TIMEOUT) is None:
            MemoryIndex(settings, load_embedder(settings.embed_model, settings.device)).reindex()
        log.info("rebuilt the damaged index of %s", settings.home)
    except Exception:  # the next overview finds it still damaged and starts another attempt
        log.exception("could not rebuild the damaged index of %s", settings.home)
    finally:
        _rebuilding.release()
