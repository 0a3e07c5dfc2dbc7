"""The viewer's request rules, in one place: loopback Host only, a per-run token (from the URL
once, then an HttpOnly SameSite=Strict cookie), a CSRF token plus a same-origin check on
every state-changing POST, and the limits of a connection (form size, idle timeout, queue)."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie

LOOPBACK = "127.0.0.1"
HOST_NAMES = ("127.0.0.1", "localhost")
MAX_FORM_BYTES = 64 * 1024
# A connection that sends nothing for this long (an idle keep-alive, a stalled request or
# body) is closed, so held-open sockets cannot pile up threads.
SOCKET_TIMEOUT = 30.0
# Connections the kernel queues while the server accepts (Python's default of 5 drops
# some of a burst of a few hundred, which then time out connecting).
REQUEST_QUEUE = 64

# The headers of every answer: nothing but the shipped assets may load or run, no framing,
# no referrer to other sites (the first URL holds the token), nothing cached. (`no-referrer`
# would make the browser send `Origin: null` with our own forms.)
SECURITY_HEADERS = (
    (
        "Content-Security-Policy",
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("Cache-Control", "no-store"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
)


@dataclass(frozen=True)
class Guard:
    """The secrets of one viewer run and the checks made with them."""

    port: int
    token: str
    csrf: str

    @classmethod
    def new(cls, port: int) -> Guard:
        """Fresh random secrets for a viewer listening on `port`."""
        return cls(port, secrets.token_urlsafe(32), secrets.token_urlsafe(32))

    @property
    def cookie_name(self) -> str:
        # cookies are shared by every port of a host: one name per port keeps runs apart
        return f"skill_memory_ui_{self.port}"

    def url(self, path: str = "/") -> str:
        """The URL to open: the token travels once, in the query."""
        joiner = "&" if "?" in path else "?"
        return f"http://{LOOPBACK}:{self.port}{path}{joiner}token={self.token}"

    def host_allowed(self, host: str | None) -> bool:
        """True for `127.0.0.1:<port>` or `localhost:<port>` (anything else: DNS rebinding)."""
        if host is None:
            return False
        return host.strip().lower() in {f"{name}:{self.port}" for name in HOST_NAMES}

    def origin_allowed(self, origin: str | None) -> bool:
        """True without an Origin header, or for this viewer's own origin."""
        if origin is None:
            return True
        return origin.strip().lower() in {f"http://{name}:{self.port}" for name in HOST_NAMES}

    def token_matches(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self.token.encode())

    def csrf_matches(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self.csrf.encode())

    def cookie_token(self, header: str | None) -> str | None:
        """The token in the request's Cookie header, if any."""
        if not header:
            return None
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(header)
        except CookieError:
            return None
        morsel = jar.get(self.cookie_name)
        return None if morsel is None else morsel.value

    def set_cookie(self) -> str:
        """The Set-Cookie value that replaces the URL's token."""
        return f"{self.cookie_name}={self.token}; HttpOnly; SameSite=Strict; Path=/"


def local_path(target: str | None, default: str = "/") -> str:
    """`target` when it is a path on this server (`/...`, not `//host`), else `default`."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return default
    if any(ord(ch) < 32 for ch in target):
        return default
    return target
