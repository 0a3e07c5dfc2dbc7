"""Errors of the index package."""

from __future__ import annotations


class IndexStoreError(Exception):
    """Base class of the errors the index raises on purpose."""


class ModelMismatch(IndexStoreError):
    """The index was built with another embedding model or dimension."""


class IndexUnavailable(IndexStoreError):
    """The index folder cannot be opened or written."""
