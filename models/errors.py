"""Errors of the models package."""

from __future__ import annotations


class ModelError(Exception):
    """Base class of the errors the models package raises on purpose."""


class ModelUnavailable(ModelError):
    """An embedding model or its library cannot be loaded; the message names the fix."""


class ExportFailed(ModelUnavailable):
    """The ONNX export of a model could not be made (the message says why and how to retry)."""


class BackendError(ModelError):
    """An LLM backend call failed (network, status, timeout or unusable reply)."""


class BackendUnavailable(BackendError):
    """The backend cannot be used here: no API key, no CLI, not logged in, library missing."""


class BackendTimeout(BackendError):
    """The call did not finish within its timeout (after the allowed attempts)."""


class BackendConnectionError(BackendError):
    """The server could not be reached or dropped the connection (after the allowed attempts)."""


class BackendHTTPError(BackendError):
    """The server answered with an error status (after the allowed attempts)."""

    def __init__(self, message: str, *, status: int, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class BackendRateLimited(BackendHTTPError):
    """The provider throttled us (429) or is overloaded (529), after the allowed attempts."""


class BackendBadReply(BackendError):
    """The reply is unusable: not JSON, no tool call, or not shaped like the schema."""
