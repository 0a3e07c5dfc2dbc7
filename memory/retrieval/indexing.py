"""Keeping the vector index in step with the markdown (the markdown always wins).

A knowledge file is re-read only when its fingerprint (mtime, size, inode) changed, or
when it was written so recently that the fingerprint cannot be trusted, in which case
its content hash decides (the "racy" rule git uses for its index). Rows are keyed by the
hash of the text that is embedded, so a HIT change or an edit of another lesson never
re-embeds a lesson whose text is unchanged.

Sources are named by their path relative to the memory home (`source_key`), so a home
that is copied, restored or moved keeps a valid index. A scope's rows always come from
one file: syncing a scope replaces all of its rows, whatever file they came from before.

The index is derived: when it cannot be read, `sync` moves the damaged table aside to
`index/damaged-<UTC time>/` (never deleting it) and rebuilds from the markdown; when it
cannot be written (`IndexNotWritable`, `IndexBusy`), callers read the markdown instead.

No lock is held while the model loads or text is embedded: a sync reads the changed files
and embeds what the table lacks first, then takes the writer lock only to write the files
whose fingerprint still matches what was read and embedded. A file that changed meanwhile
is read and embedded again (at most `SYNC_ROUNDS` times), else left for the next sync.

Every file written also gets its vectors written to the snapshot beside the table
(`memory.retrieval.snapshot`), which readers use instead of LanceDB while it is complete.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from fireworks_skill_memory.index.errors import (
    IndexBusy,
    IndexDamaged,
    IndexNotWritable,
    IndexUnavailable,
)
from fireworks_skill_memory.index.state import Fingerprint, SyncState
from fireworks_skill_memory.index.table import GLOBAL_SCOPE, LessonIndex, Row, index_error
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import LockTimeout
from fireworks_skill_memory.memory.locks import hold_lock
from fireworks_skill_memory.memory.retrieval.layers import (
    TEAM,
    own_scope,
    team_scope,
    team_source,
    team_sources,
)
from fireworks_skill_memory.memory.retrieval.ranking import (
    lesson_embedding_texts,
    pool_vectors,
)
from fireworks_skill_memory.memory.store.files import read_text
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import KnowledgeSource, Store

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.models.embedders import EmbeddingModel

RACY_NS = 2_000_000_000
EMBED_CHUNK = 256
# a sync re-reads and re-embeds a file that changed while it was embedded this many times
# at most; one still changing after that is left stale for the next sync
SYNC_ROUNDS = 3
# a reader waits this long for a writer of the index, then answers from the markdown
READ_LOCK_WAIT = 10.0
REINDEX_FIX = "skill-memory reindex"

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SyncReport:
    """What one sync did."""

    files_changed: int = 0
    files_removed: int = 0
    rows: int = 0
    embedded: int = 0
    reused: int = 0
    repaired: Repair | None = None
    deferred: int = 0  # files that kept changing while embedded, left for the next sync

    @property
    def changed(self) -> bool:
        return bool(self.files_changed or self.files_removed)

    def as_json(self) -> dict[str, object]:
        """What `reindex --json` and the service's `sync` and `reindex` ops answer."""
        return {"rows": self.rows, "embedded": self.embedded, "files": self.files_changed}

    def then(self, later: SyncReport) -> SyncReport:
        """This report followed by `later` (a further round of the same sync)."""
        return SyncReport(
            files_changed=self.files_changed + later.files_changed,
            files_removed=self.files_removed + later.files_removed,
            rows=self.rows + later.rows,
            embedded=self.embedded + later.embedded,
            reused=self.reused + later.reused,
            repaired=later.repaired or self.repaired,
            deferred=later.deferred,
        )


@dataclass(frozen=True)
class Repair:
    """A damaged table moved aside so the index could be rebuilt from the markdown."""

    problem: str  # why the table could not be read
    moved_to: str  # the `damaged-<time>` folder it now lives in ("" when another process did it)


@dataclass(frozen=True)
class IndexNotice:
    """Why an answer did not come from the index as usual (the CLI prints `line()`)."""

    problem: str
    outcome: str
    fix: str | None = None

    def line(self) -> str:
        """One line for stderr."""
        text = f"{self.problem}; {self.outcome}"
        return f"{text} (fix: {self.fix})" if self.fix else text

    @classmethod
    def repaired(cls, repair: Repair) -> IndexNotice:
        where = f"moved it to {repair.moved_to} and" if repair.moved_to else ""
        return cls(repair.problem, f"{where} rebuilt it from the markdown".strip())

    @classmethod
    def unavailable(cls, error: IndexUnavailable, index_dir: str) -> IndexNotice:
        outcome = "answered from the markdown"
        if isinstance(error, IndexDamaged):
            return cls(str(error), outcome, f"`{REINDEX_FIX}` with write access to {index_dir}")
        if isinstance(error, IndexNotWritable):
            return cls(str(error), outcome, f"make {index_dir} writable to keep it up to date")
        return cls(str(error), outcome)


@dataclass(frozen=True)
class IndexReport:
    """The state of a home's index, for `doctor` (never raises; see `inspect_index`)."""

    state: str  # "ok", "missing", "damaged", "stale" or "empty"
    rows: int
    markdown_lessons: int
    stale_sources: tuple[str, ...] = ()  # sources in the index that are not current files
    problem: str | None = None
    fix: str | None = None
    changed_files: tuple[str, ...] = ()  # current files changed since they were indexed
    model: str | None = None  # the model the table was built with
    damaged_copies: tuple[str, ...] = ()  # tables moved aside as damaged (kept for the user)


def scope_of(skill: str | None) -> str:
    """The index scope of a skill (global lessons share one scope)."""
    return GLOBAL_SCOPE if skill is None else skill


def skill_of(scope: str) -> str | None:
    """The skill of an index scope (a team layer scope gives the skill it belongs to)."""
    scope = own_scope(scope)
    return None if scope == GLOBAL_SCOPE else scope


def source_scope(source: KnowledgeSource) -> str:
    """The index scope of a knowledge file: its skill's, or the team layer's beside it."""
    scope = scope_of(source.skill)
    return team_scope(scope) if source.layer == TEAM else scope


def all_sources(settings: Settings) -> list[KnowledgeSource]:
    """Every knowledge file the index mirrors: the home's, then the pulled team layer's."""
    return [*Store(settings).sources(), *team_sources(settings)]


def source_key(settings: Settings, path: str) -> str:
    """How the index names a knowledge file: relative to the home when inside it."""
    relative = os.path.relpath(path, settings.home)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return path
    return relative


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


def missing_lessons(
    rows: Sequence[Row], texts: Sequence[Sequence[str]], known: dict[str, np.ndarray]
) -> dict[str, Sequence[str]]:
    """The strings to embed for each content hash of `rows` that `known` has no vector for."""
    missing: dict[str, Sequence[str]] = {}
    for row, strings in zip(rows, texts, strict=True):
        if row.content_hash not in known:
            missing.setdefault(row.content_hash, strings)
    return missing


@dataclass(frozen=True)
class ParsedSource:
    """A knowledge file read for the index: its rows, the strings to embed, its fingerprint."""

    source: KnowledgeSource
    key: str
    rows: list[Row]
    texts: list[list[str]]
    fingerprint: Fingerprint


def parse_source(settings: Settings, source: KnowledgeSource) -> ParsedSource:
    """The rows a knowledge file gives (the markdown as it is now)."""
    key = source_key(settings, source.path)
    # stat before reading: a write after the stat changes it, so the fingerprint never
    # vouches for text newer than what was read
    stat = os.stat(source.path)
    text = read_text(source.path)
    if text is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), source.path)
    fingerprint = Fingerprint(
        mtime_ns=stat.st_mtime_ns,
        size=stat.st_size,
        ino=stat.st_ino,
        sha=hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest(),
        synced_ns=time.time_ns(),
        scope=source_scope(source),
    )
    rows: list[Row] = []
    texts: list[list[str]] = []
    for position, lesson in enumerate(KnowledgeDoc.parse(text, source.skill).lessons()):
        strings = lesson_embedding_texts(lesson.tag or "", lesson.text)
        texts.append(strings)
        rows.append(
            Row(
                id=lesson.id,
                scope=source_scope(source),
                tag=lesson.tag or "",
                text=lesson.text,
                month=lesson.month or "",
                hits=lesson.hit_count,
                position=position,
                source=key,
                content_hash=content_hash(strings),
            )
        )
    return ParsedSource(source, key, rows, texts, fingerprint)


@dataclass(frozen=True)
class SyncPlan:
    """What a sync read before taking the lock: changed files, and the lessons to embed."""

    parsed: dict[str, ParsedSource]  # by source key, as read (changed files only)
    vanished: tuple[str, ...]  # keys of sources gone (checked again under the lock)
    missing: dict[str, Sequence[str]]  # content hash -> strings, for vectors nobody has
    from_table: frozenset[str]  # hashes whose vectors came from the table (reused)

    @property
    def idle(self) -> bool:
        return not self.parsed and not self.vanished


def is_stale(source: KnowledgeSource, seen: Fingerprint | None) -> bool:
    """True when the file may differ from what the index last mirrored."""
    if seen is None or not seen.same_stat(source.mtime_ns, source.size, source.inode):
        return True
    if source.mtime_ns + RACY_NS < seen.synced_ns:
        return False
    return _file_sha(source.path) != seen.sha


def knowledge_source(settings: Settings, skill: str | None) -> KnowledgeSource | None:
    """The knowledge file a scope is read from (home, else legacy), when it exists."""
    store = Store(settings)
    candidates = [(store.knowledge_path(skill), False)]
    if skill is not None:
        candidates.append((store.legacy_path(skill), True))
    for path, legacy in candidates:
        try:
            stat = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            continue
        return KnowledgeSource(skill, path, stat.st_mtime_ns, stat.st_size, legacy, stat.st_ino)
    return None


class MemoryIndex:
    """The markdown store and its LanceDB index, kept in step."""

    def __init__(self, settings: Settings, embedder: EmbeddingModel) -> None:
        self.settings = settings
        self.store = Store(settings)
        self.embedder = embedder
        self.index = LessonIndex(settings.index_dir, embedder.model_id, embedder.dimension)
        self._filled: set[str] = set()  # snapshot files `fill_snapshot` wrote or tried

    # ---- freshness ----------------------------------------------------------------------
    def stale_sources(
        self, scopes: Iterable[str | None] | None = None
    ) -> tuple[list[KnowledgeSource], list[str]]:
        """(changed or new sources, keys of sources gone from `scopes`) (None: all scopes)."""
        self.index.table()  # a model change rebuilds the table and clears the state here
        state = self.index.load_state()
        fingerprints = state.fingerprints
        if scopes is None:
            sources = all_sources(self.settings)
            current = {self.key(source) for source in sources}
            vanished = [key for key in fingerprints if key not in current]
        else:
            sources, vanished = [], []
            for skill in scopes:
                for found, scope in (
                    (self.source(skill), scope_of(skill)),
                    (team_source(self.settings, skill), team_scope(scope_of(skill))),
                ):
                    if found is not None:
                        sources.append(found)
                    keep = self.key(found) if found is not None else None
                    vanished.extend(key for key in state.keys_in_scope(scope) if key != keep)
        changed = [s for s in sources if is_stale(s, fingerprints.get(self.key(s)))]
        return changed, vanished

    def key(self, source: KnowledgeSource) -> str:
        """The name of a source in the index."""
        return source_key(self.settings, source.path)

    def source(self, skill: str | None) -> KnowledgeSource | None:
        """The knowledge file a scope is read from (home, else legacy), when it exists."""
        return knowledge_source(self.settings, skill)

    # ---- syncing ------------------------------------------------------------------------
    def sync(
        self,
        scopes: Iterable[str | None] | None = None,
        progress: Progress | None = None,
        *,
        wait: float | None = None,
    ) -> SyncReport:
        """Bring the index in line with the markdown of `scopes` (None: every file).

        A table that cannot be read is moved aside and rebuilt (`SyncReport.repaired`).
        Raises IndexNotWritable when the index cannot be written, IndexBusy when `wait`
        seconds were not enough to get the lock from another writer.
        """
        scope_list = None if scopes is None else list(scopes)
        pool: dict[str, np.ndarray] = {}  # vectors embedded survive a repair and a retry
        try:
            report = self._sync(scope_list, progress, wait, pool)
        except IndexDamaged as damage:
            repair = self.repair(damage, wait=wait)
            report = replace(self._sync(scope_list, progress, wait, pool), repaired=repair)
        with contextlib.suppress(IndexUnavailable):  # the snapshot is the next sync's to fill
            self.fill_snapshot(scope_list)
        return report

    def _sync(
        self,
        scopes: list[str | None] | None,
        progress: Progress | None,
        wait: float | None,
        pool: dict[str, np.ndarray],
        *,
        rebuild: bool = False,
    ) -> SyncReport:
        """Read and embed with no lock held, then write under the lock what is still current.

        `pool` keeps the vectors of this sync (by content hash) across rounds and retries.
        With `rebuild`, the table is dropped (or moved aside when damaged) under the lock
        just before the rows are written, and no vector of it is reused.
        """
        total = SyncReport()
        for round_number in range(SYNC_ROUNDS):
            plan = self._plan(scopes, pool, rebuild=rebuild)
            if plan.idle and not rebuild and not self._needs_upgrade():
                return replace(total, deferred=0)  # nothing left, whoever synced it
            # progress covers the first round: later ones embed a few late edits
            embedded = self._embed(plan, pool, progress if round_number == 0 else None)
            with self.writing(wait):
                repair = self._clear() if rebuild else None
                self._upgrade_state()
                written = self._write(scopes, plan, pool)
            rebuild = False
            total = total.then(replace(written, embedded=embedded, repaired=repair))
            if not written.deferred:
                break
        return total

    def _plan(
        self, scopes: list[str | None] | None, pool: dict[str, np.ndarray], *, rebuild: bool
    ) -> SyncPlan:
        """The changed files as they are now, and the lessons whose vectors nobody has yet."""
        vanished: list[str] = []
        if rebuild:  # the table may be damaged: it is not read
            changed = all_sources(self.settings)
        else:
            changed, vanished = self.stale_sources(scopes)
        parsed: dict[str, ParsedSource] = {}
        for source in changed:
            try:
                item = parse_source(self.settings, source)
            except (FileNotFoundError, NotADirectoryError):
                continue  # removed since it was listed: the write sees it gone
            parsed[item.key] = item
        from_table: dict[str, np.ndarray] = {}
        if parsed and not rebuild:
            scope_names = sorted({source_scope(item.source) for item in parsed.values()})
            from_table = self.index.vectors_by_hash(scope_names)
            pool.update(from_table)
        rows = [row for item in parsed.values() for row in item.rows]
        texts = [strings for item in parsed.values() for strings in item.texts]
        missing = missing_lessons(rows, texts, pool)
        return SyncPlan(parsed, tuple(vanished), missing, frozenset(from_table))

    def _embed(self, plan: SyncPlan, pool: dict[str, np.ndarray], progress: Progress | None) -> int:
        """Embed the plan's missing lessons into `pool` (called with no lock held)."""
        if not plan.missing:
            return 0
        fresh = embed_lessons(self.embedder, list(plan.missing.values()), progress)
        pool.update(zip(plan.missing, fresh, strict=True))
        return len(plan.missing)

    def _write(
        self, scopes: list[str | None] | None, plan: SyncPlan, pool: dict[str, np.ndarray]
    ) -> SyncReport:
        """Under the lock: write the files still as the plan read them; count the others.

        A file synced by another process meanwhile is left as it is; one changed since the
        plan read it keeps its old rows and fingerprint (`deferred`), never rows of other text.
        """
        # another process may have synced, or a file changed, while we embedded
        changed, vanished = self.stale_sources(scopes)
        ready = []
        for source in changed:
            item = plan.parsed.get(self.key(source))
            if item is not None and not is_stale(source, item.fingerprint):
                ready.append(item)
        deferred = len(changed) - len(ready)
        if not ready and not vanished:
            return SyncReport(deferred=deferred)
        current = None if scopes is not None else [self.key(s) for s in all_sources(self.settings)]
        report = self._apply(ready, vanished, pool, plan.from_table, current)
        return replace(report, deferred=deferred)

    @contextlib.contextmanager
    def writing(self, wait: float | None = None) -> Iterator[None]:
        """Hold the writer lock (IndexBusy after `wait` s; IndexNotWritable on a read-only home)."""
        with contextlib.ExitStack() as stack:
            try:
                timeout = math.inf if wait is None else wait
                stack.enter_context(hold_lock(self.index.lock_path, timeout, self.index.folder))
            except LockTimeout:
                raise IndexBusy(
                    f"another process has been writing the index in {self.index.folder} "
                    f"for more than {wait:g} s"
                ) from None
            except OSError as error:
                raise index_error(error, self.index.folder) from error
            yield

    def repair(self, damage: IndexDamaged, *, wait: float | None = None) -> Repair:
        """Move the unreadable table aside (to `index/damaged-<time>/`); the markdown is kept.

        Raises IndexNotWritable or IndexBusy (with the damage in the message) when it cannot.
        """
        try:
            with self.writing(wait):
                if self.damage() is None:  # another process repaired it while we waited
                    return Repair(str(damage), "")
                moved = self.index.move_aside()
        except IndexNotWritable as cannot:
            raise IndexDamaged(f"{damage}; it cannot be moved aside: {cannot}") from cannot
        return Repair(str(damage), moved)

    def damage(self) -> IndexDamaged | None:
        """Why the table cannot be opened and read (None when it can, or there is none yet)."""
        self.index.reopen()  # the table this object held may have been replaced meanwhile
        try:
            probe = LessonIndex.existing(self.index.folder)
            if probe is not None:
                probe.source_counts()
        except IndexDamaged as damage:
            return damage
        return None

    def _needs_upgrade(self) -> bool:
        """True when the sync state comes from a version that keyed rows by absolute path."""
        return self.index.load_state().needs_upgrade

    def _upgrade_state(self) -> None:
        """Give old fingerprints their scope (read from the rows), so they can be dropped."""
        if not self._needs_upgrade():
            return
        state = self.index.load_state(fresh=True)
        scopes = self.index.source_scopes()
        upgraded = {
            key: seen if seen.scope is not None else replace(seen, scope=scopes[key])
            for key, seen in state.fingerprints.items()
            # a fingerprint without rows has nothing to drop but itself
            if seen.scope is not None or key in scopes
        }
        self.index.save_state(replace(state, fingerprints=upgraded))

    def _apply(
        self,
        parsed: list[ParsedSource],
        vanished: list[str],
        pool: dict[str, np.ndarray],
        from_table: frozenset[str],
        current: list[str] | None = None,
    ) -> SyncReport:
        """Rewrite the rows of `parsed` (vectors from `pool`) and drop those of `vanished`.

        With `current` (a full sync), rows of any other source go too: rows nothing tracks,
        such as those of a lost sync state. The caller holds the writer lock.
        """
        import numpy as np

        state = self.index.load_state(fresh=True)
        rows = [row for item in parsed for row in item.rows]
        scopes = sorted({source_scope(item.source) for item in parsed})
        vectors = (
            np.stack([pool[row.content_hash] for row in rows])
            if rows
            else np.zeros((0, self.index.dimension), dtype=np.float32)
        )
        self.index.replace_sources(vanished, rows, vectors, scopes=scopes, keep_only=current)
        state = _synced(state, self.index.model_id, parsed, vanished)
        self.index.save_state(self.index.maintain(state))
        self._save_snapshot(parsed, vectors, vanished, current)
        return SyncReport(
            files_changed=len(parsed),
            files_removed=len(vanished),
            rows=len(rows),
            reused=sum(1 for row in rows if row.content_hash in from_table),
        )

    # ---- the snapshot (`memory.retrieval.snapshot`) -------------------------------------
    @property
    def snapshot_dir(self) -> str:
        from fireworks_skill_memory.memory.retrieval import snapshot

        return snapshot.snapshot_dir(self.index.folder, self.index.model_id)

    def _save_snapshot(
        self,
        parsed: list[ParsedSource],
        vectors: np.ndarray,
        vanished: list[str],
        current: list[str] | None,
    ) -> None:
        """Write the snapshot files of the sources just written; drop those of gone ones."""
        from fireworks_skill_memory.memory.retrieval import snapshot

        folder = self.snapshot_dir
        start = 0
        for item in parsed:
            end = start + len(item.rows)
            snapshot.save_source(folder, item.key, item.rows, vectors[start:end])
            start = end
        snapshot.drop_sources(folder, vanished)
        if current is not None:
            snapshot.keep_only(folder, current)

    def fill_snapshot(self, scopes: Iterable[str | None] | None = None) -> int:
        """Write the snapshot files the synced sources of `scopes` (None: all) lack, from the
        table (a home indexed before snapshots existed); returns how many were written.

        The table holds the vector of each row's content hash, so no lock is needed: a file
        that changes meanwhile only leaves its snapshot incomplete, never wrong.
        """
        from fireworks_skill_memory.memory.retrieval import snapshot

        state = self.index.load_state()
        if scopes is None:
            keys = list(state.fingerprints)
        else:
            wanted = {name for skill in scopes for name in _scope_names(skill)}
            keys = [key for key, seen in state.fingerprints.items() if seen.scope in wanted]
        # each file is tried once per process: a folder that cannot be written costs no
        # table read per sync
        missing = [
            k for k in snapshot.missing_sources(self.snapshot_dir, keys) if k not in self._filled
        ]
        if not missing:
            return 0
        self._filled.update(missing)
        scope_names = sorted({str(state.fingerprints[key].scope) for key in missing})
        rows, vectors = self.index.scope_rows(scope_names)
        for key in missing:
            mine = [i for i, row in enumerate(rows) if row.source == key]
            snapshot.save_source(self.snapshot_dir, key, [rows[i] for i in mine], vectors[mine])
        return len(missing)

    def vectors(
        self,
        rows: Sequence[Row],
        texts: Sequence[Sequence[str]],
        known: dict[str, np.ndarray],
        progress: Progress | None = None,
    ) -> tuple[np.ndarray, int]:
        """A vector per row: reused from `known` (by content hash), else embedded and added."""
        import numpy as np

        missing = missing_lessons(rows, texts, known)
        fresh = embed_lessons(self.embedder, list(missing.values()), progress)
        known.update(zip(missing, fresh, strict=True))
        if not rows:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32), 0
        return np.stack([known[row.content_hash] for row in rows]), len(missing)

    def reindex(self, progress: Progress | None = None) -> SyncReport:
        """Rebuild the index from the markdown (a damaged table is moved aside, not dropped).

        Every lesson is embedded anew before the lock is taken; the old table serves
        readers until it is replaced.
        """
        report = self._sync(None, progress, None, {}, rebuild=True)
        with self.writing():
            self.index.optimize()
        return report

    def _clear(self) -> Repair | None:
        """Drop the table, or move it aside when it is damaged (the caller holds the lock)."""
        from fireworks_skill_memory.memory.retrieval import snapshot

        snapshot.clear(self.index.folder)
        damage = self.damage()
        if damage is None:
            self.index.drop()
            return None
        return Repair(str(damage), self.index.move_aside())


def _synced(
    state: SyncState, model_id: str, parsed: list[ParsedSource], vanished: list[str]
) -> SyncState:
    """The sync state once `parsed` are written and `vanished` dropped (one file per scope)."""
    fingerprints = {key: seen for key, seen in state.fingerprints.items() if key not in vanished}
    for item in parsed:
        scope = item.fingerprint.scope
        fingerprints = {key: seen for key, seen in fingerprints.items() if seen.scope != scope}
        fingerprints[item.key] = item.fingerprint
    return replace(state, model_id=model_id, fingerprints=fingerprints)


def _scope_names(skill: str | None) -> tuple[str, str]:
    """The index scopes of a skill's own file and of its team layer file."""
    scope = scope_of(skill)
    return scope, team_scope(scope)


def _file_sha(path: str) -> str | None:
    text = read_text(path)
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def inspect_index(settings: Settings) -> IndexReport:
    """Open and read the home's index and compare it with the markdown (never raises).

    Reads the table's rows (not only its folder), so a truncated or missing data file is
    reported as "damaged". Read-only: nothing is synced, repaired or created.
    """
    parsed = _parsed_sources(settings)
    lessons = sum(len(item.rows) for item in parsed)
    copies = tuple(LessonIndex(settings.index_dir, "", 0).damaged_copies())
    report = IndexReport("ok", 0, lessons, damaged_copies=copies)
    try:
        index = LessonIndex.existing(settings.index_dir)
        counts = index.source_counts() if index is not None else None
    except IndexUnavailable as error:
        return replace(
            report,
            state="damaged",
            problem=str(error),
            fix=f"{REINDEX_FIX} (moves the damaged table to index/damaged-<time>/ and rebuilds)",
        )
    if index is None or counts is None:
        if not lessons:
            return replace(report, state="empty")
        return replace(
            report,
            state="missing",
            problem="the index is not built yet (the first inject or search builds it)",
            fix=REINDEX_FIX,
        )
    current = {item.key: item.source for item in parsed}
    fingerprints = index.load_state().fingerprints
    report = replace(
        report,
        rows=sum(counts.values()),
        model=index.model_id,
        stale_sources=tuple(sorted(key for key in counts if key not in current)),
        changed_files=tuple(
            sorted(key for key, src in current.items() if is_stale(src, fingerprints.get(key)))
        ),
    )
    if not report.rows and not lessons:
        return replace(report, state="empty")
    if report.stale_sources or report.changed_files or report.rows != lessons:
        return replace(
            report,
            state="stale",
            problem=_staleness(report),
            fix=f"none needed: the next inject or search syncs it (or {REINDEX_FIX})",
        )
    return report


def _parsed_sources(settings: Settings) -> list[ParsedSource]:
    parsed = []
    for source in all_sources(settings):
        try:
            parsed.append(parse_source(settings, source))
        except OSError:  # removed or unreadable since it was listed: not a lesson source now
            continue
    return parsed


def _staleness(report: IndexReport) -> str:
    parts = []
    if report.changed_files:
        parts.append(f"{len(report.changed_files)} knowledge file(s) changed since the last sync")
    if report.stale_sources:
        parts.append(
            f"{len(report.stale_sources)} indexed source(s) are no longer knowledge files here"
        )
    if not parts:
        parts.append(f"the index has {report.rows} rows for {report.markdown_lessons} lessons")
    return "; ".join(parts)
