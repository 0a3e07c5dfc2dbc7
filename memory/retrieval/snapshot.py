"""The index's vectors as plain files, so a cold process ranks without importing LanceDB.

`import lancedb` alone costs a fresh process 2-6 s, four times a cold `search`'s budget; the
model (onnx) loads in a fraction of that. So every sync that writes a knowledge file's rows
also writes their vectors to `<index>/snapshot-<model digest>/<source digest>.npz`
(`memory.retrieval.vector_file`: content hash -> vector), and a process with no service to
ask (`Retriever(..., cold=True)`: the CLI's `search` and `inject --task`) reads the markdown,
looks each lesson's vector up by its content hash, and ranks with numpy.

A vector is keyed by the hash of the exact strings embedded for it, so a snapshot can be
incomplete but never wrong: a lesson edited since its file was last synced has a new hash,
finds no vector, and the caller answers the usual way (sync the index, query LanceDB).
A missing or damaged file reads as empty; a sync that finds the index current but a file's
snapshot missing (a home indexed before snapshots existed) writes it from the table.

A warm process (the service) reads a synced scope's candidates here too, and every lesson for
an all-skills search while the home is below LanceDB's ANN size (`SnapshotReader.large`):
LanceDB's reads leave ~60 MB resident that these numpy reads do not.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.retrieval.indexing import (
    ParsedSource,
    all_sources,
    knowledge_source,
    parse_source,
)
from fireworks_skill_memory.memory.retrieval.layers import team_source

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.index.table import Row
    from fireworks_skill_memory.memory.config import Settings
    from fireworks_skill_memory.memory.store.markdown_store import KnowledgeSource


PREFIX = "snapshot-"
VECTOR_BYTES = 4  # float32


def snapshot_dir(index_dir: str, model_id: str) -> str:
    """The folder of one model's snapshot files (another model's vectors are never read)."""
    digest = hashlib.sha256(model_id.encode()).hexdigest()[:12]
    return os.path.join(index_dir, PREFIX + digest)


def file_name(source_key: str) -> str:
    """The snapshot file of a knowledge file, by its key in the index."""
    return hashlib.sha256(source_key.encode("utf-8", "surrogateescape")).hexdigest()[:24] + ".npz"


def save_source(folder: str, source_key: str, rows: Sequence[Row], vectors: np.ndarray) -> None:
    """Write one knowledge file's vectors (its rows, in order); none for a file without lessons."""
    from fireworks_skill_memory.memory.retrieval.vector_file import write_vectors

    path = os.path.join(folder, file_name(source_key))
    if not rows:
        drop_sources(folder, [source_key])
        return
    write_vectors(path, {row.content_hash: vectors[i] for i, row in enumerate(rows)})


def drop_sources(folder: str, source_keys: Iterable[str]) -> None:
    """Remove the snapshot files of these knowledge files (their rows left the index)."""
    for key in source_keys:
        with contextlib.suppress(OSError):  # gone already, or a folder that cannot be written
            os.unlink(os.path.join(folder, file_name(key)))


def keep_only(folder: str, source_keys: Iterable[str]) -> None:
    """Remove the snapshot files of any knowledge file but these (after a full sync)."""
    wanted = {file_name(key) for key in source_keys}
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.endswith(".npz") and name not in wanted:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))


def clear(index_dir: str) -> None:
    """Remove every model's snapshot (the table is being rebuilt from the markdown)."""
    try:
        names = os.listdir(index_dir)
    except OSError:
        return
    for name in names:
        if name.startswith(PREFIX):
            shutil.rmtree(os.path.join(index_dir, name), ignore_errors=True)


def missing_sources(folder: str, source_keys: Iterable[str]) -> list[str]:
    """The knowledge files among these that have no snapshot file."""
    try:
        present = set(os.listdir(folder))
    except OSError:
        present = set()
    return [key for key in source_keys if file_name(key) not in present]


@dataclass(frozen=True)
class ColdScope:
    """Rows read from the markdown with their vectors from the snapshot."""

    rows: list[Row]
    vectors: np.ndarray


class SnapshotReader:
    """Scopes' rows from the markdown and their vectors from the snapshot, for one model.

    With `cache` (a cold process's batch of searches), a knowledge file is parsed and its
    snapshot read again only when its stat changed; a warm process, which keeps each scope's
    candidates itself, keeps nothing here.
    """

    def __init__(
        self, settings: Settings, model_id: str, dimension: int, *, cache: bool = True
    ) -> None:
        self.settings = settings
        self.dimension = dimension
        self.cache = cache
        self.folder = snapshot_dir(settings.index_dir, model_id)
        self._files: dict[str, tuple[tuple[int, int, int], ParsedSource, np.ndarray | None]] = {}

    def scopes(self, skills: Sequence[str | None] | None) -> ColdScope | None:
        """Every lesson of these scopes (None: of every knowledge file), own and team layer,
        ordered by scope then position as the index orders them; None when the snapshot
        lacks the vector of any of them (stale or missing: ask the index)."""
        import numpy as np

        sources = all_sources(self.settings) if skills is None else self._scope_sources(skills)
        parts = []
        for source in sources:
            found = self._read(source)
            if found is None:
                return None
            parts.append(found)
        rows = [row for parsed, _ in parts for row in parsed.rows]
        if not rows:
            return ColdScope([], np.zeros((0, self.dimension), dtype=np.float32))
        vectors = np.concatenate([v for parsed, v in parts if v is not None and parsed.rows])
        order = sorted(range(len(rows)), key=lambda i: (rows[i].scope, rows[i].position))
        return ColdScope([rows[i] for i in order], vectors[order])

    def large(self) -> bool:
        """True when the snapshot holds more vectors than LanceDB scans flat (`ANN_MIN_ROWS`)."""
        from fireworks_skill_memory.index.table import ANN_MIN_ROWS

        total = 0
        with contextlib.suppress(OSError), os.scandir(self.folder) as entries:
            total = sum(entry.stat().st_size for entry in entries if entry.name.endswith(".npz"))
        return total > ANN_MIN_ROWS * self.dimension * VECTOR_BYTES

    def _scope_sources(self, skills: Sequence[str | None]) -> list[KnowledgeSource]:
        found = []
        for skill in skills:
            for source in (
                knowledge_source(self.settings, skill),
                team_source(self.settings, skill),
            ):
                if source is not None:
                    found.append(source)
        return found

    def _read(self, source: KnowledgeSource) -> tuple[ParsedSource, np.ndarray | None] | None:
        """A knowledge file's rows and their vectors (None when the snapshot lacks one)."""
        import numpy as np

        from fireworks_skill_memory.memory.retrieval.vector_file import read_vectors

        mark = (source.mtime_ns, source.size, source.inode)
        cached = self._files.get(source.path)
        if cached is not None and cached[0] == mark:
            return cached[1], cached[2]
        try:
            parsed = parse_source(self.settings, source)
        except (FileNotFoundError, NotADirectoryError):
            return None  # removed since it was listed: the index path sorts it out
        if not parsed.rows:
            return parsed, None
        path = os.path.join(self.folder, file_name(parsed.key))
        known = read_vectors(path, self.dimension)
        if any(row.content_hash not in known for row in parsed.rows):
            # stale or damaged: the index's sync that follows writes it again (from the
            # markdown when the file changed, else from the table, as it fills a missing one)
            with contextlib.suppress(OSError):
                os.unlink(path)
            return None
        vectors = np.stack([known[row.content_hash] for row in parsed.rows])
        if self.cache:
            self._files[source.path] = (mark, parsed, vectors)
        return parsed, vectors
