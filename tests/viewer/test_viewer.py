"""The web viewer over plain HTTP: its security rules, its pages and its writes.

The fake embedder ranks here (fast); tests/viewer/test_viewer_browser.py drives a real browser on
the real model.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.viewer.security import (
    REQUEST_QUEUE,
    SOCKET_TIMEOUT,
    Guard,
    local_path,
)
from fireworks_skill_memory.viewer.server import Handler, ViewerServer
from tests.conftest import FakeEmbedder
from tests.viewer_support import (
    GIT_LESSONS,
    POISON_TEXT,
    PROMPT,
    SCRIPT_TEXT,
    SESSION,
    Seeded,
    request,
    running_viewer,
    seed,
)


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "fireworks_skill_memory.models.embedders.load_embedder", lambda *a, **k: FakeEmbedder()
    )


@pytest.fixture
def seeded(settings: Settings) -> Seeded:
    return seed(settings)


@pytest.fixture
def viewer(settings: Settings, seeded: Seeded, fake_model: None) -> Iterator[ViewerServer]:
    with running_viewer(settings) as server:
        yield server


def knowledge(settings: Settings, skill: str | None) -> str:
    return Path(Store(settings).knowledge_path(skill)).read_text(encoding="utf-8")


def quarantine(settings: Settings, skill: str) -> str:
    path = Path(Store(settings).knowledge_path(skill)).with_name("QUARANTINE.md")
    return path.read_text(encoding="utf-8") if path.exists() else ""


# ---- who may talk to it --------------------------------------------------------------------
def test_it_listens_on_loopback_only(viewer: ViewerServer) -> None:
    # checked on the socket itself: the tests send no traffic beyond loopback
    assert viewer.server_address[0] == "127.0.0.1"
    assert viewer.socket.getsockname()[0] == "127.0.0.1"
    assert viewer.socket.family == socket.AF_INET


@pytest.mark.parametrize("path", ["/", "/review", "/search?q=git", "/static/viewer.css"])
def test_a_request_without_the_token_is_refused(viewer: ViewerServer, path: str) -> None:
    answer = request(viewer, "GET", path, cookie=False)
    assert answer.status == 401
    assert "git" not in answer.body.lower() or "skill-memory ui" in answer.body


def test_a_wrong_token_or_cookie_is_refused(viewer: ViewerServer) -> None:
    guard = viewer.viewer.guard
    assert request(viewer, "GET", "/?token=not-the-token", cookie=False).status == 401
    forged = {"Cookie": f"{guard.cookie_name}=not-the-token"}
    assert request(viewer, "GET", "/", cookie=False, headers=forged).status == 401
    other_port = {"Cookie": f"skill_memory_ui_1={guard.token}x"}
    assert request(viewer, "GET", "/", cookie=False, headers=other_port).status == 401


def test_the_url_token_becomes_an_httponly_strict_cookie(viewer: ViewerServer) -> None:
    guard = viewer.viewer.guard
    answer = request(viewer, "GET", f"/search?q=git&token={guard.token}", cookie=False)
    assert answer.status == 303
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{guard.cookie_name}={guard.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    location = answer.headers["Location"]
    assert guard.token not in location  # the token leaves the address bar
    assert parse_qs(urlsplit(location).query) == {"q": ["git"]}
    page = request(viewer, "GET", "/", cookie=False, headers={"Cookie": cookie.split(";")[0]})
    assert page.status == 200
    assert "docker" in page.body and "git" in page.body


@pytest.mark.parametrize(
    "host", ["evil.example:{port}", "evil.example", "127.0.0.1:1", "localhost", "0.0.0.0:{port}"]
)
def test_a_foreign_host_header_is_refused_even_with_the_cookie(
    viewer: ViewerServer, host: str
) -> None:
    answer = request(viewer, "GET", "/", host=host.format(port=viewer.viewer.guard.port))
    assert answer.status == 403
    assert "git" not in answer.body


def test_localhost_and_127_0_0_1_are_both_welcome(viewer: ViewerServer) -> None:
    port = viewer.viewer.guard.port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert request(viewer, "GET", "/", host=host).status == 200


def test_every_answer_carries_the_security_headers(viewer: ViewerServer) -> None:
    for answer in (request(viewer, "GET", "/"), request(viewer, "GET", "/", cookie=False)):
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'none'" in policy and "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["Referrer-Policy"] == "same-origin"
        assert answer.headers["Cache-Control"] == "no-store"


# ---- connections: stalled ones close, a burst is queued -------------------------------------
def test_the_socket_timeout_and_the_request_queue_are_configured() -> None:
    assert 0 < SOCKET_TIMEOUT <= 35 and Handler.timeout == SOCKET_TIMEOUT
    assert REQUEST_QUEUE >= 64 and ViewerServer.request_queue_size == REQUEST_QUEUE


def _stalled_post(server: ViewerServer, deadline: float) -> tuple[bytes, float]:
    """A POST claiming a 60,000-byte form that sends 4 bytes; what came back, and when the
    viewer closed the connection (seconds after the 4 bytes)."""
    port = server.viewer.guard.port
    guard = server.viewer.guard
    head = (
        f"POST /action/approve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Cookie: {guard.cookie_name}={guard.token}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\nid=1"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=deadline) as connection:
        connection.sendall(head.encode())
        started = time.monotonic()
        received = b""
        while chunk := connection.recv(4096):  # b"": the viewer closed the connection
            received += chunk
        return received, time.monotonic() - started


def test_a_stalled_post_gets_408_and_is_closed(
    viewer: ViewerServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Handler, "timeout", 1.0)
    received, seconds = _stalled_post(viewer, deadline=20)
    assert received.startswith(b"HTTP/1.1 408 "), received[:200]
    assert seconds < 10
    assert request(viewer, "GET", "/static/viewer.css").status == 200  # still serving


def test_an_idle_connection_is_closed(
    viewer: ViewerServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Handler, "timeout", 1.0)
    port = viewer.viewer.guard.port
    with socket.create_connection(("127.0.0.1", port), timeout=20) as connection:
        started = time.monotonic()
        assert connection.recv(4096) == b""  # closed without a word: nothing was asked
        assert time.monotonic() - started < 10


@pytest.mark.slow
def test_a_stalled_connection_is_closed_within_35_s_at_the_default_timeout(
    viewer: ViewerServer,
) -> None:
    received, seconds = _stalled_post(viewer, deadline=60)
    assert received.startswith(b"HTTP/1.1 408 ") and seconds <= 35


def test_200_simultaneous_requests_all_get_an_answer(viewer: ViewerServer) -> None:
    clients = 200
    start = threading.Barrier(clients)
    statuses: list[int | str] = []

    def fetch() -> None:
        start.wait()
        try:
            statuses.append(request(viewer, "GET", "/static/viewer.css", timeout=10).status)
        except OSError as error:
            statuses.append(type(error).__name__)

    threads = [threading.Thread(target=fetch) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    failed = [status for status in statuses if status != 200]
    assert len(statuses) == clients and not failed, (len(statuses), len(failed), failed[:5])


# ---- state changes: POST with the CSRF token only -------------------------------------------
def _approve_form(viewer: ViewerServer, seeded: Seeded, **extra: str) -> dict[str, str]:
    return {"id": seeded.poison_id, "skill": "git", "next": "/review", **extra}


def test_a_post_without_the_csrf_token_changes_nothing(
    viewer: ViewerServer, seeded: Seeded, settings: Settings
) -> None:
    before = (knowledge(settings, "git"), quarantine(settings, "git"))
    for form in (
        _approve_form(viewer, seeded),
        _approve_form(viewer, seeded, csrf="wrong"),
        _approve_form(viewer, seeded, csrf=viewer.viewer.guard.token),  # the session token
    ):
        answer = request(viewer, "POST", "/action/approve", form=form)
        assert answer.status == 403
    assert (knowledge(settings, "git"), quarantine(settings, "git")) == before


def test_a_cross_origin_post_or_one_without_the_cookie_changes_nothing(
    viewer: ViewerServer, seeded: Seeded, settings: Settings
) -> None:
    before = (knowledge(settings, "git"), quarantine(settings, "git"))
    form = _approve_form(viewer, seeded, csrf=viewer.viewer.guard.csrf)
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{viewer.viewer.guard.port}0"):
        refused = request(viewer, "POST", "/action/approve", form=form, headers={"Origin": origin})
        assert refused.status == 403
    assert request(viewer, "POST", "/action/approve", form=form, cookie=False).status == 401
    assert request(viewer, "GET", f"/action/approve?id={seeded.poison_id}").status == 404
    assert request(viewer, "PUT", "/action/approve").status == 405
    assert (knowledge(settings, "git"), quarantine(settings, "git")) == before


def test_approve_with_the_csrf_token_moves_the_lesson_into_knowledge(
    viewer: ViewerServer, seeded: Seeded, settings: Settings
) -> None:
    form = _approve_form(viewer, seeded, csrf=viewer.viewer.guard.csrf)
    origin = {"Origin": f"http://127.0.0.1:{viewer.viewer.guard.port}"}
    answer = request(viewer, "POST", "/action/approve", form=form, headers=origin)
    assert answer.status == 303
    assert answer.headers["Location"].startswith("/review?done=approved")
    assert "Ignore previous instructions" in knowledge(settings, "git")
    assert "Ignore previous instructions" not in quarantine(settings, "git")
    page = request(viewer, "GET", answer.headers["Location"])
    assert f"approved {seeded.poison_id}" in page.body


def test_reject_restore_confirm_archive_edit_delete_go_through_the_store(
    viewer: ViewerServer, seeded: Seeded, settings: Settings
) -> None:
    csrf = viewer.viewer.guard.csrf

    def post(action: str, **fields: str) -> str:
        answer = request(viewer, "POST", f"/action/{action}", form={"csrf": csrf, **fields})
        assert answer.status == 303, answer.body
        return answer.headers["Location"]

    post("reject", id=seeded.poison_id, skill="git")
    assert "Ignore previous" not in quarantine(settings, "git") + knowledge(settings, "git")
    first = seeded.git_ids[0]
    post("archive", id=first, skill="git", why="obsolete")
    assert GIT_LESSONS[0][1] not in knowledge(settings, "git")
    post("restore", id=first, skill="git")
    assert GIT_LESSONS[0][1] in knowledge(settings, "git")
    post("confirm", id=seeded.disputed_id, skill="docker")
    edited = post("edit", id=first, skill="git", tag="Branch", text="Use git switch -c NAME")
    assert "[Branch] Use git switch -c NAME" in knowledge(settings, "git")
    assert "done=saved" in edited
    post("delete", id=seeded.git_ids[2], skill="git")
    assert GIT_LESSONS[2][1] not in knowledge(settings, "git")
    failed = post("delete", id="0000000000", skill="git", next="/skill?s=git")
    assert failed.startswith("/skill?s=git&failed=")


def test_an_action_never_redirects_off_the_viewer(viewer: ViewerServer, seeded: Seeded) -> None:
    csrf = viewer.viewer.guard.csrf
    for target in ("https://evil.example/", "//evil.example/", "\\\\evil", "javascript:x"):
        form = {"csrf": csrf, "id": seeded.git_ids[0], "skill": "git", "next": target}
        answer = request(viewer, "POST", "/action/confirm", form=form)
        assert answer.status == 303
        assert answer.headers["Location"].startswith("/?done=")


# ---- nothing outside the memory home -------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        "/static/../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/..%2f..%2fpyproject.toml",
        "/skill?s=../../../etc",
        "/skill?s=..%2F..%2Fetc",
        "/lesson?s=/etc&id=passwd",
        "/injections?session=../../../../etc/passwd",
        "/../../etc/passwd",
    ],
)
def test_no_request_reads_outside_the_home(viewer: ViewerServer, path: str) -> None:
    answer = request(viewer, "GET", path)
    assert answer.status in (400, 404, 200)
    assert "root:" not in answer.body and "[build-system]" not in answer.body


def test_a_session_key_from_the_log_never_becomes_a_path(
    settings: Settings, seeded: Seeded, fake_model: None, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "prompts.jsonl").write_text('{"t": 1, "prompt": "SECRET OUTSIDE"}\n')
    log = Path(settings.run_dir) / "injections.log"
    with log.open("a", encoding="utf-8") as handle:
        handle.write(
            '{"t": 2, "skill": "git", "ids": ["x"], "by": "hook", "session": "../../outside"}\n'
        )
    with running_viewer(settings) as server:
        page = request(server, "GET", "/injections")
    assert page.status == 200
    assert "SECRET OUTSIDE" not in page.body


def test_local_path_keeps_redirects_on_the_server() -> None:
    assert local_path("/review?x=1") == "/review?x=1"
    for bad in (None, "", "http://a", "//a", "/\\a", "review", "/a\nb"):
        assert local_path(bad) == "/"


def test_the_host_check_wants_this_port() -> None:
    guard = Guard.new(8765)
    assert guard.host_allowed("127.0.0.1:8765") and guard.host_allowed("localhost:8765")
    for host in (None, "", "127.0.0.1", "127.0.0.1:8766", "evil.example:8765", "[::1]:8765"):
        assert not guard.host_allowed(host)


# ---- escaping -------------------------------------------------------------------------------
def test_lesson_text_holding_script_renders_as_text_everywhere(
    viewer: ViewerServer, seeded: Seeded
) -> None:
    pages = [
        "/review",
        "/skill?s=docker",
        f"/lesson?s=docker&id={seeded.script_id}",
        "/search?q=quote+html+templates",
        "/search?q=ignore+previous+instructions",
        "/skill?s=docker&task=%3Cscript%3Ealert(1)%3C/script%3E",
        "/search?q=%3Cscript%3Ealert(1)%3C/script%3E",
    ]
    for path in pages:
        answer = request(viewer, "GET", path)
        assert answer.status == 200, path
        scripts = re.findall(r"<script[^>]*>", answer.body)
        assert scripts == ['<script src="/static/viewer.js" defer>'], path
    review = request(viewer, "GET", "/review").body
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in review
    docker = request(viewer, "GET", "/skill?s=docker").body
    assert "&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;" in docker
    assert POISON_TEXT not in review and SCRIPT_TEXT not in docker


# ---- pages ----------------------------------------------------------------------------------
def test_the_overview_names_every_skill_with_its_figures(viewer: ViewerServer) -> None:
    page = request(viewer, "GET", "/").body
    assert "Skills overview" in page
    rows = re.findall(r'<a class="skill" href="[^"]+">([^<]+)</a>', page)
    assert rows == ["global", "docker", "git"]
    assert "Review (2)" in page  # the quarantined and the disputed lesson
    assert "Team" in page and "not configured" in page
    assert page.count("<svg") >= 4  # the daily plot and a HIT distribution per row


def test_the_skill_page_sorts_and_ranks_with_the_components(viewer: ViewerServer) -> None:
    page = request(viewer, "GET", "/skill?s=git&sort=text&order=asc").body
    texts = re.findall(r"<summary>([^<]+)</summary>", page)
    assert texts == sorted(texts, key=str.casefold) and len(texts) == 3
    ranked = request(viewer, "GET", "/skill?s=git&task=rebase+conflict").body
    for column in ("Cosine", "Hubness", "Lexical", "Score"):
        assert column in ranked
    assert "HIT vs age" in ranked and "<circle" in ranked
    first = re.findall(r"<summary>([^<]+)</summary>", ranked)[0]
    assert "rebase" in first
    assert request(viewer, "GET", "/skill?s=git&sort=evil").status == 400
    assert request(viewer, "GET", "/skill?s=nosuchskill").status == 200


def test_search_shows_the_breakdown_and_the_gate(viewer: ViewerServer) -> None:
    page = request(viewer, "GET", "/search?q=rebase+conflict&s=git").body
    assert 'id="results"' in page
    rows = re.findall(r'<a class="result" href="[^"]+">([^<]+)</a>', page)
    assert "rebase" in rows[0]
    assert "gate threshold" in page and "confidence" in page
    assert "a model loaded by this viewer" in page  # no service in this test
    every = request(viewer, "GET", "/search?q=database+on+the+host").body
    assert "host.docker.internal" in every


def test_the_injection_log_shows_session_task_path_and_lessons(viewer: ViewerServer) -> None:
    page = request(viewer, "GET", "/injections").body
    assert SESSION[:12] in page and PROMPT in page
    assert 'class="path fallback"' in page and 'class="path service"' in page
    assert GIT_LESSONS[1][1] in page  # the lesson's text, not only its id
    only = request(viewer, "GET", f"/injections?session={SESSION}").body
    assert "2 of 2" not in only and "1 of 1 injections" in only


def test_the_lesson_page_shows_provenance_and_where_it_was_injected(
    viewer: ViewerServer, seeded: Seeded
) -> None:
    page = request(viewer, "GET", f"/lesson?s=git&id={seeded.git_ids[1]}").body
    assert "Provenance" in page and "<dt>source</dt><dd>add</dd>" in page
    assert "Injected 1 times" in page and PROMPT in page
    gone = request(viewer, "GET", "/lesson?s=git&id=0000000000")
    assert gone.status == 404


def test_unknown_pages_and_assets_are_404(viewer: ViewerServer) -> None:
    assert request(viewer, "GET", "/nothing").status == 404
    assert request(viewer, "GET", "/static/missing.js").status == 404
    css = request(viewer, "GET", "/static/viewer.css")
    assert css.status == 200 and css.headers["Content-Type"].startswith("text/css")


# ---- the command ----------------------------------------------------------------------------
def test_skill_memory_ui_serves_on_loopback_and_stops_on_ctrl_c(
    env: dict[str, str], settings: Settings, seeded: Seeded
) -> None:
    port = _free_port()
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "skill-memory"), "ui", "--port", str(port), "--no-open"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline(), process.stdout.readline()]
        url = lines[1].strip()
        assert re.fullmatch(rf"http://127\.0\.0\.1:{port}/\?token=[\w-]{{40,}}", url), lines
        if shutil.which("ss"):
            ss = subprocess.run(["ss", "-Hltn"], capture_output=True, text=True, check=True)
            listening = ss.stdout
            mine = [line for line in listening.splitlines() if f":{port} " in line]
            assert mine and all(f"127.0.0.1:{port}" in line for line in mine), mine
        token = parse_qs(urlsplit(url).query)["token"][0]
        assert _status(port, "/", None) == 401
        assert _status(port, f"/?token={token}", None) == 303
        assert _status(port, f"/?token={token}", f"evil.example:{port}") == 403
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=20)
    assert process.returncode == 0


def test_ui_says_when_the_port_is_taken(cli: object, env: dict[str, str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("ui", "--port", str(port), "--no-open")  # type: ignore[operator]
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _status(port: int, path: str, host: str | None) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    connection.putheader("Host", host or f"127.0.0.1:{port}")
    connection.endheaders()
    status = connection.getresponse().status
    connection.close()
    return status


if os.name != "posix":  # pragma: no cover
    pytestmark = pytest.mark.skip("the viewer tests need POSIX signals and sockets")


def test_the_overview_shows_the_pulled_team_layer_without_credentials(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, fake_model: None
) -> None:
    from fireworks_skill_memory.memory.config import load_settings
    from fireworks_skill_memory.memory.team.layer import team_store

    monkeypatch.setenv("SKILL_MEMORY_TEAM_URI", "s3://alice:hunter2@team-bucket/memory")
    settings = load_settings(
        {**env, "SKILL_MEMORY_TEAM_URI": "s3://alice:hunter2@team-bucket/memory"}
    )
    seed(settings)
    add_lesson(team_store(settings), "git", "Sign release tags with git tag -s", "Release")
    with running_viewer(settings) as server:
        page = request(server, "GET", "/").body
    assert "s3://team-bucket/memory" in page and "hunter2" not in page
    assert "1 team lessons in 1 skills; never pulled; never pushed" in page
    git_row = re.search(r">git</a></td>(.*?)</tr>", page, re.DOTALL)
    assert git_row is not None and git_row.group(1).endswith("<td class=num>1</td>")


@pytest.mark.real_model
@pytest.mark.slow
def test_search_breakdown_adds_up_and_the_gate_separates_on_the_real_model(
    settings: Settings, seeded: Seeded, monkeypatch: pytest.MonkeyPatch, real_embedder: object
) -> None:
    from fireworks_skill_memory.viewer.search import IN_PROCESS, Searcher

    monkeypatch.setattr(
        "fireworks_skill_memory.models.embedders.load_embedder", lambda *a, **k: real_embedder
    )
    searcher = Searcher(settings)
    covered = searcher.search("the container cannot reach postgres on my laptop", "docker")
    assert covered.via == IN_PROCESS
    assert "host.docker.internal" in covered.results[0].lesson.text
    assert covered.gate_passes and covered.results[0].gated_in
    hub, lex, prior = covered.weights
    for row in covered.results:
        parts = row.cosine - hub * row.hub + lex * row.lexical + prior * row.prior
        assert parts == pytest.approx(row.score, abs=1e-6)
    unrelated = searcher.search("translate a French poem into German", "docker")
    assert not unrelated.gate_passes
    assert not any(row.gated_in for row in unrelated.results)
    everywhere = searcher.search("rebase stopped with a merge conflict", None)
    assert "git rebase --continue" in everywhere.results[0].lesson.text
