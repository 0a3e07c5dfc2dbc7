"""The team table: one LanceDB table of lessons at `SKILL_MEMORY_TEAM_URI` (S3, GCS, Azure, folder).

Credentials and endpoints come from the storage's own environment variables (AWS_*, GOOGLE_*,
AZURE_*), passed to LanceDB for each connection and never written anywhere by this tool.

One row per team lesson, keyed by `id` (the lesson id of its wording in its skill). Appends
are safe under LanceDB's commit protocol; an update is a compare-and-swap on `rev`
(`merge_insert` with `target.rev = <rev read>`), so a row changed by another machine since it
was read is never overwritten: the writer re-reads and decides again (`retrying`).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import SkillMemoryError

if TYPE_CHECKING:
    import numpy as np

TABLE = "team_lessons"
STATES = ("knowledge", "retracted", "superseded")  # only "knowledge" rows are ever pulled
GLOBAL_SKILL = "@global"
RETRACTED = "retracted:"  # a contribution its author took back (kept so it is not re-pushed)
# environment variables handed to LanceDB's object store for each connection (never stored)
_STORAGE_PREFIXES = ("AWS_", "GOOGLE_", "AZURE_", "OBJECT_STORE_")
# a team command answers within seconds when the store is unreachable
_FAST_FAIL = {
    "connect_timeout": "3s",
    "timeout": "30s",
    "client_max_retries": "2",
    "client_retry_timeout": "10",
}
MAX_ATTEMPTS = 12
BACKOFF_BASE = 0.05
BACKOFF_CAP = 2.0
ANN_MIN_ROWS = 100_000  # from this many rows the team table carries an IVF-SQ vector index
VECTOR_INDEX = "vector_idx"
SKILL_INDEX = "skill_idx"
_USERINFO = re.compile(r"(?<=://)[^/@]*@")

T = TypeVar("T")


class TeamUnavailable(SkillMemoryError):
    """The team store cannot be reached or read (one line: what failed and where)."""


class TeamNotConfigured(SkillMemoryError):
    """No team store is configured (SKILL_MEMORY_TEAM_URI is empty)."""


class Contended(Exception):
    """A compare-and-swap lost to another writer: re-read and decide again."""


def shown_uri(uri: str) -> str:
    """The URI without any user:password part (what is printed and stored)."""
    return _USERINFO.sub("", uri)


def storage_options(settings: Settings, timeout: float | None = None) -> dict[str, str]:
    """LanceDB storage options: the storage's variables from the environment, fast failure.

    Requests are bounded by the team timeout (SKILL_MEMORY_TEAM_TIMEOUT); with `timeout`
    (seconds), every request gives up after it and is not retried (a probe).
    """
    options = dict(_FAST_FAIL)
    wait = settings.team_timeout  # no request outlasts what the caller waits for an answer
    options.update(
        connect_timeout=f"{min(3, wait)}s",
        timeout=f"{min(30, wait)}s",
        client_retry_timeout=f"{max(1, min(10, wait // 2))}",
    )
    if timeout is not None:
        options.update(
            connect_timeout=f"{timeout:g}s",
            timeout=f"{timeout:g}s",
            client_max_retries="0",
            client_retry_timeout=f"{max(1, round(timeout))}",
        )
    for name, value in settings.environ.items():
        if name.startswith(_STORAGE_PREFIXES) and value:
            options[name.lower()] = value
    return options


@dataclass(frozen=True)
class TeamRow:
    """One team lesson as stored in the team table (the vector travels separately)."""

    id: str
    skill: str  # a skill name, or GLOBAL_SKILL
    tag: str
    text: str
    month: str
    hits: int
    # "<author>\x1f<local lesson id>" -> HIT count that author's copy had when pushed
    contributions: Mapping[str, int] = field(default_factory=dict)
    author: str = ""  # who first pushed it
    provenance: str = "{}"  # the first author's provenance, as JSON
    state: str = "knowledge"
    rev: int = 1
    changed: str = ""

    @property
    def authors(self) -> list[str]:
        """Everyone whose copy of the lesson is counted in it, first author first."""
        found = dict.fromkeys([self.author] if self.author else [])
        found.update(
            dict.fromkeys(
                key.split("\x1f", 1)[0]
                for key in self.contributions
                if not key.startswith(RETRACTED)
            )
        )
        return list(found)

    def with_contribution(self, key: str, hits: int, changed: str) -> TeamRow:
        """The row with one author's copy counted at `hits` (rev + 1)."""
        contributions = {**self.contributions, key: hits}
        total = sum(contributions.values())
        return replace(
            self, contributions=contributions, hits=total, rev=self.rev + 1, changed=changed
        )

    def as_record(self, vector: Sequence[float], expect: int = 0) -> dict[str, object]:
        return {
            "id": self.id,
            "skill": self.skill,
            "tag": self.tag,
            "text": self.text,
            "month": self.month,
            "hits": self.hits,
            "contributions": json.dumps(dict(sorted(self.contributions.items()))),
            "author": self.author,
            "provenance": self.provenance,
            "state": self.state,
            "rev": self.rev,
            "expect": expect,
            "changed": self.changed,
            "vector": list(vector),
        }

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> TeamRow:
        try:
            raw = json.loads(data.get("contributions") or "{}")
        except ValueError:
            raw = {}
        contributions = {
            str(k): int(v) for k, v in (raw.items() if isinstance(raw, dict) else ()) if _is_int(v)
        }
        return cls(
            id=str(data.get("id") or ""),
            skill=str(data.get("skill") or GLOBAL_SKILL),
            tag=str(data.get("tag") or ""),
            text=str(data.get("text") or ""),
            month=str(data.get("month") or ""),
            hits=int(data.get("hits") or 0),
            contributions=contributions,
            author=str(data.get("author") or ""),
            provenance=str(data.get("provenance") or "{}"),
            state=str(data.get("state") or "knowledge"),
            rev=int(data.get("rev") or 0),
            changed=str(data.get("changed") or ""),
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class Snapshot:
    """Rows read from one version of the team table, with their vectors and fragment mark."""

    version: int
    rows: list[TeamRow]
    vectors: np.ndarray
    max_fragment: int  # the highest data fragment a row was read from (-1: none)


class TeamTable:
    """The team table at one URI, opened for one embedding model."""

    def __init__(
        self, settings: Settings, model_id: str, dimension: int, *, timeout: float | None = None
    ) -> None:
        if not settings.team_uri:
            raise TeamNotConfigured(
                "no team store: set SKILL_MEMORY_TEAM_URI (s3://bucket/prefix, gs://..., "
                "az://... or a shared folder)"
            )
        self.settings = settings
        self.uri = settings.team_uri
        self.model_id = model_id
        self.dimension = dimension
        self.timeout = timeout
        self._table: Any = None

    # ---- opening ------------------------------------------------------------------------
    def call(self, action: str, work: Callable[[], T]) -> T:
        """Run `work` on the store; a storage failure, or no answer within the team timeout
        (`SKILL_MEMORY_TEAM_TIMEOUT`, a probe's `timeout`), becomes TeamUnavailable (one line)."""
        wait = self.timeout or float(self.settings.team_timeout)
        try:
            return within(wait, work)
        except NoAnswer:
            raise TeamUnavailable(
                f"team store {shown_uri(self.uri)}: cannot {action}: no answer within "
                f"{wait:g} s (unreachable or hung; --timeout or SKILL_MEMORY_TEAM_TIMEOUT waits)"
            ) from None
        except (OSError, RuntimeError, ValueError, TimeoutError) as error:
            if isinstance(error, SkillMemoryError):
                raise
            raise TeamUnavailable(
                f"team store {shown_uri(self.uri)}: cannot {action}: {_one_line(error)}"
            ) from error

    def _connect(self) -> Any:
        import os

        os.environ.setdefault("LANCEDB_LOG", "error")
        import lancedb

        return lancedb.connect(
            self.uri,
            read_consistency_interval=timedelta(0),
            storage_options=storage_options(self.settings, self.timeout),
        )

    def table(self, *, create: bool) -> Any | None:
        """The open team table; created when missing and `create`, else None when missing."""
        if self._table is not None:
            return self._table

        def open_or_create() -> Any | None:
            db = self._connect()
            try:
                table = db.open_table(TABLE)
            except ValueError:  # LanceDB: "Table ... was not found"
                if not create:
                    return None
                try:
                    table = db.create_table(TABLE, schema=self._schema())
                except (ValueError, RuntimeError, OSError):  # another machine created it
                    table = db.open_table(TABLE)
                else:
                    # with a primary key, LanceDB notices two machines inserting one id at
                    # once (the later insert is re-run as an update, which the swap refuses)
                    table.set_unenforced_primary_key("id")
            self._check_model(table)
            return table

        self._table = self.call("open the team table", open_or_create)
        return self._table

    def _schema(self) -> Any:
        import pyarrow as pa

        fields = [pa.field("id", pa.string(), nullable=False)]  # the primary key
        fields += [
            pa.field(name, pa.string())
            for name in ("skill", "tag", "text", "month", "contributions", "author")
        ]
        fields += [
            pa.field("provenance", pa.string()),
            pa.field("state", pa.string()),
            pa.field("changed", pa.string()),
            pa.field("hits", pa.int64()),
            pa.field("rev", pa.int64()),
            pa.field("expect", pa.int64()),  # the revision this row replaced (the swap's guard)
            pa.field("vector", pa.list_(pa.float32(), self.dimension)),
        ]
        meta = {"model_id": self.model_id, "dimension": str(self.dimension)}
        return pa.schema(fields, metadata=meta)

    def _check_model(self, table: Any) -> None:
        meta = table.schema.metadata or {}
        stored = meta.get(b"model_id", b"").decode()
        if self.model_id and stored and stored != self.model_id:
            raise TeamUnavailable(
                f"the team table at {shown_uri(self.uri)} holds vectors of {stored}, "
                f"not {self.model_id}: the whole team must use one SKILL_MEMORY_EMBED_MODEL"
            )

    # ---- reading ------------------------------------------------------------------------
    def version(self) -> int:
        table = self.table(create=False)
        return 0 if table is None else int(self.call("read the version", lambda: table.version))

    def count(self, where: str | None = "state = 'knowledge'") -> int:
        table = self.table(create=False)
        if table is None:
            return 0
        return int(self.call("count lessons", lambda: table.count_rows(where)))

    def read(self, where: str | None = None, *, after_fragment: int | None = None) -> Snapshot:
        """Rows matching `where` (and, with `after_fragment`, only those written since)."""
        import numpy as np

        table = self.table(create=False)
        if table is None:
            return Snapshot(0, [], np.zeros((0, self.dimension), dtype=np.float32), -1)

        def load() -> Snapshot:
            version = int(table.version)
            table.checkout(version)  # one consistent version for the whole read
            try:
                clauses = [c for c in (where,) if c]
                if after_fragment is not None:
                    clauses.append(f"_rowid >= {(after_fragment + 1) << 32}")
                query = table.search().with_row_id(True)
                if clauses:
                    query = query.where(" AND ".join(f"({c})" for c in clauses))
                found = query.limit(None).to_arrow()
            finally:
                table.checkout_latest()
            return _snapshot(version, found, self.dimension)

        return self.call("read lessons", load)

    def live_ids(self) -> set[tuple[str, str]]:
        """(skill, id) of every row in state `knowledge`, as the table is now."""
        table = self.table(create=False)
        if table is None:
            return set()

        def load() -> set[tuple[str, str]]:
            query = table.search().select(["skill", "id"]).where("state = 'knowledge'")
            found = query.limit(None).to_arrow()
            skills, ids = found.column("skill").to_pylist(), found.column("id").to_pylist()
            return {(str(skill), str(ident)) for skill, ident in zip(skills, ids, strict=True)}

        return self.call("read lesson ids", load)

    def contribution_keys(self) -> set[str]:
        """Every `<author>\x1f<local id>` ever pushed (counted, or retracted by its author)."""
        table = self.table(create=False)
        if table is None:
            return set()

        def load() -> set[str]:
            query = table.search().select(["contributions"])
            return _contribution_keys(query.limit(None).to_arrow())

        return self.call("read contributions", load)

    def nearest(self, vector: np.ndarray, limit: int, where: str | None = None) -> list[TeamRow]:
        """The team lessons nearest to `vector` (ANN once the table carries an index)."""
        table = self.table(create=False)
        if table is None:
            return []

        def search() -> list[TeamRow]:
            query = table.search(vector.tolist()).metric("cosine")
            query = query.where(where or "state = 'knowledge'", prefilter=True).limit(limit)
            return [TeamRow.from_record(item) for item in query.to_arrow().to_pylist()]

        return self.call("search", search)

    # ---- writing ------------------------------------------------------------------------
    def write(self, rows: Sequence[TeamRow], vectors: np.ndarray, expected: Sequence[int]) -> None:
        """Insert rows (`expected` 0) or swap them in for the `expected` revision; else Contended.

        All rows of one call commit as one LanceDB version. Rows another writer changed (or
        inserted) since they were read are not written, and `Contended` says so.
        """
        if not rows:
            return
        table = self.table(create=True)
        assert table is not None  # created when missing
        records = [row.as_record(vectors[i], expected[i]) for i, row in enumerate(rows)]

        def merge() -> int:
            import pyarrow as pa

            data = pa.Table.from_pylist(records, schema=self._schema())
            result = (
                table.merge_insert("id")
                .when_matched_update_all(where="target.rev = source.expect")
                .when_not_matched_insert_all()
                .execute(data)
            )
            return int(result.num_updated_rows) + int(result.num_inserted_rows)

        written = self.call("write lessons", merge)
        if written < len(rows):
            raise Contended(f"{len(rows) - written} of {len(rows)} rows changed meanwhile")

    def maintain(self) -> None:
        """Index the table: a BTree on `skill` (push reads by skill), IVF-SQ once it is large.

        Rows written after the vector index was built are searched exactly beside it (LanceDB
        keeps them as unindexed deltas). No compaction here: it renumbers fragments, which
        turns every home's next incremental pull into a full read.
        """
        table = self.table(create=False)
        if table is None:
            return

        def work() -> None:
            from lancedb.index import BTree, IvfSq

            names = {index.name for index in table.list_indices()}
            rows = table.count_rows()
            if rows and SKILL_INDEX not in names:
                table.create_index("skill", config=BTree(), name=SKILL_INDEX)
            if rows >= ANN_MIN_ROWS and VECTOR_INDEX not in names:
                # the local index's choice too: builds in seconds at 100k rows (IVF-PQ took
                # minutes) and keeps the top results without a refine pass
                table.create_index(
                    "vector", config=IvfSq(distance_type="cosine"), name=VECTOR_INDEX
                )

        self.call("index the team table", work)

    def indexes(self) -> list[str]:
        """The names of the team table's indexes."""
        table = self.table(create=False)
        if table is None:
            return []
        return sorted(self.call("list indexes", lambda: [i.name for i in table.list_indices()]))


@dataclass(frozen=True)
class Probe:
    """What a short look at the team store found (`problem` None: it answered)."""

    problem: str | None
    lessons: int = 0
    version: int = 0


def probe(settings: Settings, seconds: float) -> Probe:
    """Ask the store for its lesson count within about `seconds` (never waits much longer).

    The look runs in a daemon thread: a store that never answers leaves it behind, not the
    caller.
    """
    import threading

    found: list[Probe] = []

    def look() -> None:
        table = TeamTable(settings, "", 0, timeout=seconds)
        try:
            found.append(Probe(None, table.count(), table.version()))
        except SkillMemoryError as error:
            found.append(Probe(str(error)))

    worker = threading.Thread(target=look, name="team-probe", daemon=True)
    worker.start()
    worker.join(seconds + 1.0)
    if not found:
        return Probe(f"team store {shown_uri(settings.team_uri)}: no answer in {seconds:g} s")
    return found[0]


STORE_THREAD = "team-store"


class NoAnswer(Exception):
    """The store did not answer within the time allowed."""


def within(seconds: float, work: Callable[[], T]) -> T:
    """`work()`, or NoAnswer when it has not returned within `seconds`.

    `work` runs in a daemon thread: one left waiting on a store that never answers ends with
    the process, not the caller's wait. Only store requests run this way (no local writes),
    so nothing is left half-written when the caller gives up.
    """
    import threading

    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread below
            outcome.append((False, error))

    worker = threading.Thread(target=run, name=STORE_THREAD, daemon=True)
    worker.start()
    worker.join(seconds)
    if not outcome:
        raise NoAnswer(f"no answer in {seconds:g} s")
    returned, value = outcome[0]
    if returned:
        result: T = value
        return result
    raise value


def left_waiting() -> bool:
    """True while a store request `within` gave up on still waits (it holds the process's exit:
    the storage client's worker threads are joined at interpreter shutdown)."""
    import threading

    return any(
        thread.name == STORE_THREAD and thread.is_alive() for thread in threading.enumerate()
    )


def retrying(work: Callable[[], T], *, attempts: int = MAX_ATTEMPTS) -> T:
    """Run `work` until it does not lose a compare-and-swap or a commit race (backoff, jitter).

    LanceDB does not retry a conflicting update itself; the caller's `work` re-reads and
    decides again on each attempt.
    """
    for attempt in range(attempts):
        try:
            return work()
        except Contended:
            pass
        except TeamUnavailable as error:
            if not _is_conflict(error) or attempt == attempts - 1:
                raise
        time.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt)))
    raise TeamUnavailable(f"gave up after {attempts} attempts: other machines kept writing")


def _is_conflict(error: BaseException) -> bool:
    text = str(error).lower()
    return any(word in text for word in ("conflict", "commit", "retryable", "concurrent"))


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    text = re.sub(r",?\s*/\S+\.rs:\d+:\d+", "", text)
    return text if len(text) <= 240 else text[:237] + "..."


def _snapshot(version: int, found: Any, dimension: int) -> Snapshot:
    import numpy as np

    if not found.num_rows:
        return Snapshot(version, [], np.zeros((0, dimension), dtype=np.float32), -1)
    # vectors straight from Arrow (a Python list per row costs seconds at 100k rows)
    column = found.column("vector").combine_chunks()
    vectors = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32)
    plain = found.drop_columns(["vector", "_rowid"]).to_pylist()
    max_fragment = max(found.column("_rowid").to_pylist()) >> 32
    rows = [TeamRow.from_record(item) for item in plain]
    return Snapshot(version, rows, vectors.reshape(len(rows), dimension), max_fragment)


def _contribution_keys(found: Any) -> set[str]:
    keys: set[str] = set()
    for raw in found.column("contributions").to_pylist():
        try:
            data = json.loads(raw or "{}")
        except ValueError:
            continue
        if isinstance(data, dict):
            keys.update(str(key).removeprefix(RETRACTED) for key in data)
    return keys
