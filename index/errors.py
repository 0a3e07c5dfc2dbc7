"""Errors of the index package."""

from __future__ import annotations


class IndexStoreError(Exception):
    """Base class of the errors the index raises on purpose."""


class ModelMismatch(IndexStoreError):
    """The index was built with another embedding model or dimension."""


class IndexUnavailable(IndexStoreError):
    """The index folder cannot be opened or written."""


class IndexDamaged(IndexUnavailable):
    """The table cannot be opened or read (a truncated or missing data file, an empty folder)."""


class IndexNotWritable(IndexUnavailable):
    """The index cannot be written (a read-only or full file system, no permission)."""


class IndexBusy(IndexUnavailable):
    """Another process held the index's sync lock for longer than a reader waits."""
