"""The viewer's HTTP server: the standard library's ThreadingHTTPServer on 127.0.0.1.

Every request passes `Guard` first (Host, then the token); GET only reads, POST only runs
the actions of `viewer.actions` (with the CSRF token and a same-origin check). Nothing a
request names is opened as a path: pages read through the store, assets come from a fixed
list shipped in the package.
"""

from __future__ import annotations

import sys
import threading
import traceback
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlencode, urlsplit

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import InvalidInput, NotFound, SkillMemoryError
from fireworks_skill_memory.memory.store.markdown_store import Matcher
from fireworks_skill_memory.viewer import pages
from fireworks_skill_memory.viewer.actions import perform, scope_of
from fireworks_skill_memory.viewer.data import MAX_EVENTS, Reader
from fireworks_skill_memory.viewer.search import Searcher
from fireworks_skill_memory.viewer.security import (
    LOOPBACK,
    MAX_FORM_BYTES,
    REQUEST_QUEUE,
    SECURITY_HEADERS,
    SOCKET_TIMEOUT,
    Guard,
    local_path,
)

ASSETS = {"viewer.css": "text/css; charset=utf-8", "viewer.js": "text/javascript; charset=utf-8"}


@dataclass
class Viewer:
    """The state one viewer run shares across requests."""

    settings: Settings
    guard: Guard
    searcher: Searcher
    assets: dict[str, bytes] = field(default_factory=dict)

    def matcher(self) -> Matcher:
        """The dedup matcher of an approve, on the model the searches use (loaded once)."""
        from fireworks_skill_memory.memory.dedup.matcher import SemanticMatcher

        embedder, _ = self.searcher.embedder()
        return SemanticMatcher(embedder)


class ViewerServer(ThreadingHTTPServer):
    """A ThreadingHTTPServer bound to loopback that carries the viewer."""

    daemon_threads = True
    request_queue_size = REQUEST_QUEUE
    viewer: Viewer


def make_server(settings: Settings, port: int = 0) -> ViewerServer:
    """Bind 127.0.0.1:`port` (0: any free port) and set up the viewer of `settings`' home."""
    server = ViewerServer((LOOPBACK, port), Handler)
    bound = int(server.server_address[1])
    server.viewer = Viewer(settings, Guard.new(bound), Searcher(settings), _load_assets())
    return server


def serve_in_thread(server: ViewerServer) -> threading.Thread:
    """Serve on a daemon thread (tests, embedding); `server.shutdown()` stops it."""
    thread = threading.Thread(target=server.serve_forever, name="skill-memory-ui", daemon=True)
    thread.start()
    return thread


def _load_assets() -> dict[str, bytes]:
    folder = resources.files("fireworks_skill_memory.viewer").joinpath("static")
    return {name: folder.joinpath(name).read_bytes() for name in ASSETS}


class Handler(BaseHTTPRequestHandler):
    """One request: the guard's checks, then a page, an asset or an action."""

    server: ViewerServer
    timeout = SOCKET_TIMEOUT  # socketserver sets it on each connection: stalled ones close
    server_version = "skill-memory-ui"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    # ---- entry points ------------------------------------------------------------------
    def do_GET(self) -> None:
        try:
            if self._admitted(allow_url_token=True):
                self._get()
        except ConnectionError:
            self.close_connection = True  # the browser went away: nobody to answer

    def do_HEAD(self) -> None:
        self._plain(HTTPStatus.METHOD_NOT_ALLOWED, "use GET", allow="GET, POST")

    def do_POST(self) -> None:
        try:
            if self._admitted(allow_url_token=False):
                self._post()
        except ConnectionError:
            self.close_connection = True  # the browser went away: nobody to answer

    def do_PUT(self) -> None:
        self._plain(HTTPStatus.METHOD_NOT_ALLOWED, "use GET or POST", allow="GET, POST")

    do_DELETE = do_PUT
    do_PATCH = do_PUT
    do_OPTIONS = do_PUT

    def log_message(self, format: str, *args: object) -> None:
        """Requests are not logged (the first one carries the token in its URL)."""

    # ---- the guard -----------------------------------------------------------------------
    @property
    def viewer(self) -> Viewer:
        return self.server.viewer

    def _admitted(self, *, allow_url_token: bool) -> bool:
        guard = self.viewer.guard
        if not guard.host_allowed(self.headers.get("Host")):
            self._plain(HTTPStatus.FORBIDDEN, "this viewer answers only to 127.0.0.1 or localhost")
            return False
        if guard.token_matches(guard.cookie_token(self.headers.get("Cookie"))):
            return True
        parts = urlsplit(self.path)
        token = parse_qs(parts.query).get("token", [None])[0]
        if allow_url_token and guard.token_matches(token):
            # trade the URL's token for the cookie, and drop it from the address bar
            rest = [(k, v) for k, v in parse_qs(parts.query).items() if k != "token"]
            query = urlencode([(k, item) for k, values in rest for item in values])
            target = local_path(parts.path) + (f"?{query}" if query else "")
            self._redirect(target, cookie=guard.set_cookie())
            return False
        self._plain(
            HTTPStatus.UNAUTHORIZED, "open the URL `skill-memory ui` printed (it holds the token)"
        )
        return False

    # ---- GET -------------------------------------------------------------------------------
    def _get(self) -> None:
        parts = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        if parts.path.startswith("/static/"):
            self._asset(parts.path.removeprefix("/static/"))
            return
        route = ROUTES.get(parts.path)
        if route is None:
            self._page(HTTPStatus.NOT_FOUND, self._error("Not found", f"no page {parts.path}"))
            return
        try:
            self._page(HTTPStatus.OK, route(self, query))
        except NotFound as error:
            self._page(HTTPStatus.NOT_FOUND, self._error("Not found", str(error)))
        except SkillMemoryError as error:
            self._page(HTTPStatus.BAD_REQUEST, self._error("Cannot show that", str(error)))
        except ConnectionError:
            raise
        except Exception as error:  # noqa: BLE001 - one page failing must not stop the viewer
            self._failed(error)

    def _asset(self, name: str) -> None:
        body = self.viewer.assets.get(name)
        if body is None:  # a fixed list: nothing a request names is opened as a path
            self._plain(HTTPStatus.NOT_FOUND, "no such asset")
            return
        self._send(HTTPStatus.OK, body, ASSETS[name])

    def _frame(
        self, query: dict[str, str] | None = None, review_count: int | None = None
    ) -> pages.Frame:
        query = query or {}
        if review_count is None:
            review_count = len(Reader(self.viewer.settings).review())
        return pages.Frame(
            csrf=self.viewer.guard.csrf,
            home=self.viewer.settings.home,
            review_count=review_count,
            message=query.get("done"),
            error=query.get("failed"),
        )

    def _error(self, title: str, message: str) -> str:
        return pages.error_page(self._frame(), title, message)

    # ---- POST ------------------------------------------------------------------------------
    def _post(self) -> None:
        guard = self.viewer.guard
        if not guard.origin_allowed(self.headers.get("Origin")):
            self._plain(HTTPStatus.FORBIDDEN, "cross-origin request refused")
            return
        path = urlsplit(self.path).path
        if not path.startswith("/action/"):
            self._plain(HTTPStatus.METHOD_NOT_ALLOWED, "only /action/... accepts POST", allow="GET")
            return
        form = self._form()
        if form is None:
            return
        if not guard.csrf_matches(form.get("csrf")):
            self._plain(HTTPStatus.FORBIDDEN, "missing or wrong CSRF token: reload the page")
            return
        back = local_path(form.get("next"), "/")
        try:
            done = perform(
                self.viewer.settings, path.removeprefix("/action/"), form, self.viewer.matcher
            )
        except SkillMemoryError as error:
            self._redirect(_with(back, "failed", str(error)))
            return
        except ConnectionError:
            raise
        except Exception as error:  # noqa: BLE001 - report it, keep serving
            self._failed(error)
            return
        self._redirect(_with(back, "done", done.message))

    def _form(self) -> dict[str, str] | None:
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/x-www-form-urlencoded":
            self._plain(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send a form")
            return None
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_FORM_BYTES:
            self._plain(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "form too large")
            return None
        try:
            raw = self.rfile.read(length).decode("utf-8", "replace")
        except TimeoutError:
            self.close_connection = True
            self._plain(HTTPStatus.REQUEST_TIMEOUT, "the form did not arrive in time")
            return None
        return {key: values[-1] for key, values in parse_qs(raw, keep_blank_values=True).items()}

    # ---- answers ---------------------------------------------------------------------------
    def _failed(self, error: BaseException) -> None:
        traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)
        self._plain(HTTPStatus.INTERNAL_SERVER_ERROR, f"the viewer failed: {type(error).__name__}")

    def _page(self, status: HTTPStatus, html: str) -> None:
        self._send(status, html.encode("utf-8", "replace"), "text/html; charset=utf-8")

    def _plain(self, status: HTTPStatus, text: str, allow: str | None = None) -> None:
        extra = [("Allow", allow)] if allow else []
        self._send(status, (text + "\n").encode(), "text/plain; charset=utf-8", extra)

    def _redirect(self, target: str, cookie: str | None = None) -> None:
        extra = [("Location", target)]
        if cookie is not None:
            extra.append(("Set-Cookie", cookie))
        self._send(HTTPStatus.SEE_OTHER, b"", "text/plain; charset=utf-8", extra)

    def _send(
        self,
        status: HTTPStatus,
        body: bytes,
        kind: str,
        extra: list[tuple[str, str]] | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in [*SECURITY_HEADERS, *(extra or [])]:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def _with(path: str, key: str, message: str) -> str:
    base = path.split("?", 1)[0]
    query = parse_qs(path.split("?", 1)[1]) if "?" in path else {}
    pairs = [(k, v) for k, values in query.items() if k not in ("done", "failed") for v in values]
    return f"{base}?{urlencode([*pairs, (key, message[:300])])}"


# ---- pages -----------------------------------------------------------------------------------
def _overview(handler: Handler, query: dict[str, str]) -> str:
    from fireworks_skill_memory.memory.service import client

    state = client.probe(handler.viewer.settings.home, 0.5).state.replace("_", " ")
    view = Reader(handler.viewer.settings).overview(state)
    return pages.overview_page(handler._frame(query, view.review_total), view)


def _skill(handler: Handler, query: dict[str, str]) -> str:
    scope = scope_of(query.get("s") or None)
    reader = Reader(handler.viewer.settings)
    events = reader.events()
    views = reader.lessons(scope, events)
    task = query.get("task", "").strip()
    ranked = handler.viewer.searcher.rank_skill(scope, task) if task and views else {}
    sort = query.get("sort") or ("score" if ranked else "prior")
    if sort not in pages.SORTS:
        raise InvalidInput(f"cannot sort by {sort!r}")
    months, lessons, injections = reader.monthly(views, events)
    view = pages.SkillView(
        scope=scope,
        lessons=views,
        sort=sort,
        descending=query.get("order", "desc") != "asc",
        task=task,
        ranked=ranked,
        months=months,
        lessons_by_month=lessons,
        injections_by_month=injections,
    )
    return pages.skill_page(handler._frame(query), view)


def _lesson(handler: Handler, query: dict[str, str]) -> str:
    scope = scope_of(query.get("s") or None)
    lesson_id = query.get("id", "")
    reader = Reader(handler.viewer.settings)
    events = reader.with_tasks(reader.events())
    for item in reader.lessons(scope, events):
        if item.lesson.id == lesson_id:
            return pages.lesson_page(handler._frame(query), scope, item, events)
    raise NotFound(f"no lesson {lesson_id} in {pages.scope_name(scope)} (moved or reworded?)")


def _search(handler: Handler, query: dict[str, str]) -> str:
    text = query.get("q", "").strip()
    skill = scope_of(query.get("s")) if query.get("s") else None
    reader = Reader(handler.viewer.settings)
    skills = [info.skill for info in reader.store.skills()]
    answer = handler.viewer.searcher.search(text, skill) if text else None
    return pages.search_page(handler._frame(query), skills, text, skill, answer)


def _injections(handler: Handler, query: dict[str, str]) -> str:
    reader = Reader(handler.viewer.settings)
    skill = query.get("s") or None
    session = query.get("session") or None
    everything = reader.events()
    chosen = [
        event
        for event in everything
        if (skill is None or event.skill == skill) and (session is None or event.session == session)
    ]
    shown = reader.with_tasks(list(reversed(chosen))[:MAX_EVENTS])
    store = reader.store
    texts = {
        lesson.id: (scope, lesson.text)
        for scope in store.scopes()
        for lesson in store.lessons(scope)
    }
    daily = reader.daily(chosen, None)
    return pages.injections_page(
        handler._frame(query), shown, texts, daily, skill, session, len(chosen)
    )


def _review(handler: Handler, query: dict[str, str]) -> str:
    items = Reader(handler.viewer.settings).review()
    return pages.review_page(handler._frame(query, len(items)), items)


def _promote(handler: Handler, query: dict[str, str]) -> str:
    from fireworks_skill_memory.memory.ingest.promotion import propose

    store = Reader(handler.viewer.settings).store
    skill = scope_of(query.get("s") or None)
    skills = [skill] if skill is not None else [info.skill for info in store.skills()]
    proposals = [propose(store, name) for name in skills]
    return pages.promote_page(handler._frame(query), proposals, skill)


ROUTES = {
    "/": _overview,
    "/skill": _skill,
    "/lesson": _lesson,
    "/search": _search,
    "/injections": _injections,
    "/review": _review,
    "/promote": _promote,
}
