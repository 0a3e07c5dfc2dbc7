"""The retry policy of the HTTP backends: exponential backoff with jitter, capped retry-after."""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from fireworks_skill_memory.models.errors import (
    BackendConnectionError,
    BackendError,
    BackendHTTPError,
    BackendTimeout,
)
from fireworks_skill_memory.models.llm.base import Logger

T = TypeVar("T")

RETRY_STATUSES = frozenset({408, 409, 429})


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait.

    Attempt n (1-based) that failed waits `retry-after` (capped at `max_retry_after`)
    when the server sent one, else `min(max_delay, base_delay * 2**(n-1))` scaled by a
    random factor in [1 - jitter, 1].
    """

    max_attempts: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 30.0
    jitter: float = 0.5
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    rand: Callable[[], float] = field(default=random.random, repr=False)

    def delay(self, failed_attempt: int, retry_after: float | None) -> float:
        """Seconds to wait after the `failed_attempt`-th attempt failed."""
        if retry_after is not None and retry_after > 0:
            return min(retry_after, self.max_retry_after)
        backoff = min(self.max_delay, self.base_delay * 2.0 ** max(0, failed_attempt - 1))
        return backoff * (1 - self.jitter * self.rand())


def is_retryable(error: BackendError) -> bool:
    """Timeouts, connection failures, 408/409/429 and every 5xx (529 included)."""
    if isinstance(error, BackendHTTPError):
        return error.status in RETRY_STATUSES or error.status >= 500
    return isinstance(error, (BackendTimeout, BackendConnectionError))


def call_with_retries(attempt: Callable[[], T], policy: RetryPolicy, log: Logger, label: str) -> T:
    """Run `attempt` until it succeeds, fails for good, or `policy.max_attempts` is reached.

    `attempt` must raise only `BackendError`; the last error is re-raised with the
    number of attempts added to its message.
    """
    attempts = max(1, policy.max_attempts)
    for number in range(1, attempts + 1):
        try:
            return attempt()
        except BackendError as error:
            if not is_retryable(error):
                raise
            if number == attempts:
                if attempts > 1:
                    error.args = (f"{error} (after {attempts} attempts)",)
                raise
            retry_after = error.retry_after if isinstance(error, BackendHTTPError) else None
            wait = policy.delay(number, retry_after)
            log(f"{label}: attempt {number}/{attempts} failed ({error}); retrying in {wait:.2f}s")
            policy.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds from `retry-after-ms`, or `retry-after` (seconds or an HTTP date); else None."""
    lowered = {key.lower(): value for key, value in headers.items()}
    try:
        return float(lowered["retry-after-ms"]) / 1000
    except (KeyError, ValueError):
        pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())
