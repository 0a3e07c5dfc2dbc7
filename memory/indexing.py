"""Keeping the vector index in step with the markdown (the markdown always wins).

A knowledge file is re-read only when its fingerprint (mtime, size, inode) changed, or
when it was written so recently that the fingerprint cannot be trusted, in which case
its content hash decides (the "racy" rule git uses for its index). Rows are keyed by the
hash of the text that is embedded, so a HIT change or an edit of another lesson never
re-embeds a lesson whose text is unchanged.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from index.table import GLOBAL_SCOPE, LessonIndex, Row
from memory.config import Settings
from memory.files import read_text
from memory.knowledge_doc import KnowledgeDoc
from memory.lesson import Lesson
from memory.ranking import lesson_embedding_texts, pool_vectors
from memory.store import KnowledgeSource, Store

if TYPE_CHECKING:
    import numpy as np

    from models.embedders import EmbeddingModel

RACY_NS = 2_000_000_000
EMBED_CHUNK = 256

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SyncReport:
    """What one sync did."""

    files_changed: int = 0
    files_removed: int = 0
    rows: int = 0
    embedded: int = 0
    reused: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.files_changed or self.files_removed)


def scope_of(skill: str | None) -> str:
    """The index scope of a skill (global lessons share one scope)."""
    return GLOBAL_SCOPE if skill is None else skill


def skill_of(scope: str) -> str | None:
    """The skill of an index scope."""
    return None if scope == GLOBAL_SCOPE else scope


def content_hash(texts: Sequence[str]) -> str:
    """Key of a row's vector: the exact strings that were embedded for it."""
    return hashlib.sha256("\x1f".join(texts).encode("utf-8", "surrogatepass")).hexdigest()[:24]


def row_to_lesson(row: Row) -> Lesson:
    """The lesson a row mirrors."""
    return Lesson(
        text=row.text,
        tag=row.tag or None,
        month=row.month or None,
        hits=row.hits,
        skill=skill_of(row.scope),
    )


def embed_lessons(
    embedder: EmbeddingModel, texts: Sequence[Sequence[str]], progress: Progress | None = None
) -> np.ndarray:
    """One pooled vector per lesson from the embeddings of its strings."""
    import numpy as np

    flat = [text for group in texts for text in group]
    vectors = np.zeros((len(flat), embedder.dimension), dtype=np.float32)
    for start in range(0, len(flat), EMBED_CHUNK):
        chunk = flat[start : start + EMBED_CHUNK]
        vectors[start : start + len(chunk)] = embedder.embed_batch(chunk)
        if progress is not None:
            progress(min(start + len(chunk), len(flat)), len(flat))
    pooled = np.zeros((len(texts), embedder.dimension), dtype=np.float32)
    offset = 0
    for i, group in enumerate(texts):
        pooled[i] = pool_vectors(vectors[offset : offset + len(group)])
        offset += len(group)
    return pooled


class MemoryIndex:
    """The markdown store and its LanceDB index, kept in step."""

    def __init__(self, settings: Settings, embedder: EmbeddingModel) -> None:
        self.settings = settings
        self.store = Store(settings)
        self.embedder = embedder
        self.index = LessonIndex(settings.index_dir, embedder.model_id, embedder.dimension)

    # ---- freshness ----------------------------------------------------------------------
    def stale_sources(
        self, scopes: Iterable[str | None] | None = None
    ) -> tuple[list[KnowledgeSource], list[str]]:
        """(changed or new sources, paths of vanished sources) among `scopes` (None: all)."""
        self.index.table()  # a model change rebuilds the table and clears the state here
        state = self.index.load_state()
        if scopes is None:
            sources = self.store.sources()
            current = {source.path for source in sources}
            vanished = [path for path in state.fingerprints if path not in current]
        else:
            sources, vanished = [], []
            for skill in scopes:
                found = self.source(skill)
                if found is not None:
                    sources.append(found)
                else:
                    vanished.extend(self._known_paths(skill, state.fingerprints))
        changed = [s for s in sources if self._is_stale(s, state.fingerprints.get(s.path))]
        return changed, vanished

    def source(self, skill: str | None) -> KnowledgeSource | None:
        """The knowledge file a scope is read from (home, else legacy), when it exists."""
        for path, legacy in self._candidate_paths(skill):
            try:
                stat = os.stat(path)
            except (FileNotFoundError, NotADirectoryError):
                continue
            return KnowledgeSource(skill, path, stat.st_mtime_ns, stat.st_size, legacy, stat.st_ino)
        return None

    def _candidate_paths(self, skill: str | None) -> list[tuple[str, bool]]:
        paths = [(self.store.knowledge_path(skill), False)]
        if skill is not None:
            paths.append((self.store.legacy_path(skill), True))
        return paths

    def _known_paths(
        self, skill: str | None, fingerprints: dict[str, dict[str, object]]
    ) -> list[str]:
        return [path for path, _ in self._candidate_paths(skill) if path in fingerprints]

    @staticmethod
    def _is_stale(source: KnowledgeSource, seen: dict[str, object] | None) -> bool:
        if seen is None:
            return True
        if [seen.get("mtime_ns"), seen.get("size"), seen.get("ino")] != [
            source.mtime_ns,
            source.size,
            source.inode,
        ]:
            return True
        synced_ns = seen.get("synced_ns")
        if isinstance(synced_ns, int) and source.mtime_ns + RACY_NS < synced_ns:
            return False
        return _file_sha(source.path) != seen.get("sha")

    # ---- syncing ------------------------------------------------------------------------
    def sync(
        self,
        scopes: Iterable[str | None] | None = None,
        progress: Progress | None = None,
    ) -> SyncReport:
        """Bring the index in line with the markdown of `scopes` (None: every file)."""
        scope_list = None if scopes is None else list(scopes)
        changed, vanished = self.stale_sources(scope_list)
        if not changed and not vanished:
            return SyncReport()
        with self.index.sync_lock():
            # another process may have synced while we waited for the lock
            changed, vanished = self.stale_sources(scope_list)
            if not changed and not vanished:
                return SyncReport()
            return self._apply(changed, vanished, progress)

    def _apply(
        self, changed: list[KnowledgeSource], vanished: list[str], progress: Progress | None
    ) -> SyncReport:
        import numpy as np

        state = self.index.load_state(fresh=True)
        rows: list[Row] = []
        texts: list[list[str]] = []
        fingerprints: dict[str, dict[str, object]] = {}
        for source in changed:
            text = read_text(source.path) or ""
            stat = os.stat(source.path)
            fingerprints[source.path] = {
                "mtime_ns": stat.st_mtime_ns,
                "size": stat.st_size,
                "ino": stat.st_ino,
                "sha": hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest(),
                "synced_ns": time.time_ns(),
            }
            for position, lesson in enumerate(KnowledgeDoc.parse(text, source.skill).lessons()):
                strings = lesson_embedding_texts(lesson.tag or "", lesson.text)
                texts.append(strings)
                rows.append(
                    Row(
                        id=lesson.id,
                        scope=scope_of(source.skill),
                        tag=lesson.tag or "",
                        text=lesson.text,
                        month=lesson.month or "",
                        hits=lesson.hit_count,
                        position=position,
                        source=source.path,
                        content_hash=content_hash(strings),
                    )
                )
        known = self.index.vectors_by_hash([source.path for source in changed])
        missing: dict[str, list[str]] = {}
        for row, strings in zip(rows, texts, strict=True):
            if row.content_hash not in known:
                missing.setdefault(row.content_hash, strings)
        fresh = embed_lessons(self.embedder, list(missing.values()), progress)
        known.update(zip(missing, fresh, strict=True))
        vectors = (
            np.stack([known[row.content_hash] for row in rows])
            if rows
            else np.zeros((0, self.embedder.dimension), dtype=np.float32)
        )
        self.index.replace_sources([s.path for s in changed] + vanished, rows, vectors)
        for path in vanished:
            state.fingerprints.pop(path, None)
        state.fingerprints.update(fingerprints)
        state.model_id = self.embedder.model_id
        state = self.index.maintain(state)
        self.index.save_state(state)
        return SyncReport(
            files_changed=len(changed),
            files_removed=len(vanished),
            rows=len(rows),
            embedded=len(missing),
            reused=len(rows) - sum(1 for row in rows if row.content_hash in missing),
        )

    def reindex(self, progress: Progress | None = None) -> SyncReport:
        """Rebuild the index from the markdown (drops the table first)."""
        with self.index.sync_lock():
            self.index.drop()
        report = self.sync(None, progress)
        with self.index.sync_lock():
            self.index.optimize()
        return report


def _file_sha(path: str) -> str | None:
    text = read_text(path)
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
