"""Fault matrix of the team store (issue 26): a store that hangs, one that refuses, one that
fails half-way through a push, and two machines racing to update one team row.

Every store is on loopback: moto's S3 server, a silent listener (hangs), a closed port
(refuses) and `CuttingProxy` in front of moto (closes connections after N requests). Each
test asserts the answer during the fault (each `team` command ends within its timeout with
one line; local commands and hooks answer as before), recovery after it, and that no byte of
markdown changed by a failed command.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result

from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.memory.team.remote import TeamRow, TeamTable
from tests.conftest import REPO, CliInvoker, FakeEmbedder
from tests.hook_support import claude_sample, context_json
from tests.hook_support import cli as cli_process
from tests.net_support import CuttingProxy, closed_port, silent_listener

pytest.importorskip("moto.server")
from tests.team_support import LESSONS, S3, SKILL, home_env, push_all

pytestmark = [pytest.mark.slow, pytest.mark.s3]

TIMEOUT = 3  # --timeout of the team commands under a fault
SLACK = 30.0  # what a loaded 2-CPU machine may add to a command beyond its timeout
OTHER = {
    "docker": [
        ("Logs", "Container logs vanish after a restart unless the json-file driver keeps them"),
        ("Build", "Copy the dependency manifest before the sources so the layer cache holds"),
    ],
    "pytest": [
        ("Fixtures", "Use tmp_path instead of tmpdir in new tests"),
        ("Speed", "Run pytest with -x to stop at the first failing test"),
    ],
}


@pytest.fixture(scope="module")
def s3() -> Iterator[S3]:
    server = S3()
    yield server
    server.stop()


def seeded_home(environ: dict[str, str]) -> Settings:
    """A home with lessons in three skills."""
    settings = load_settings(environ)
    store = Store(settings)
    for tag, text in LESSONS[:3]:
        add_lesson(store, SKILL, text, tag, matcher=None)
    for skill, lessons in OTHER.items():
        for tag, text in lessons:
            add_lesson(store, skill, text, tag, matcher=None)
    return settings


def every_text() -> list[str]:
    return sorted([text for _, text in LESSONS[:3]] + [t for ls in OTHER.values() for _, t in ls])


def markdown(home: str) -> dict[str, bytes]:
    """Every markdown file under the home (the truth, and the pulled team layer), as bytes."""
    return {str(path): path.read_bytes() for path in sorted(Path(home).rglob("*.md"))}


def fails_in_one_line(result: Result, elapsed: float, timeout: float = TIMEOUT) -> str:
    """The one error line of a team command that failed within its timeout."""
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert result.exit_code == 1, result.output
    assert len(errors) == 1, result.output
    assert "team store" in errors[0], errors[0]
    assert elapsed < timeout + SLACK, f"{elapsed:.1f} s for a --timeout of {timeout} s"
    return errors[0]


def timed(cli: CliInvoker, *args: str) -> tuple[Result, float]:
    started = time.monotonic()
    result = cli(*args)
    return result, time.monotonic() - started


def team_rows(settings: Settings) -> list[TeamRow]:
    embedder = FakeEmbedder()
    return TeamTable(settings, embedder.model_id, embedder.dimension).read().rows


def pre_tool_use(environ: dict[str, str], tmp_path: Path, skill: str) -> tuple[int, str]:
    """The PreToolUse(Skill) hook as Claude Code runs it (the service kept down)."""
    run = Path(environ["AI_MEMORY_HOME"]) / "run"
    run.mkdir(parents=True, exist_ok=True)
    (run / "spawn.stamp").write_text("test: no service")  # the hook ranks in-process
    payload = claude_sample("PreToolUse(Skill)", tmp_path)
    payload["tool_input"] = {"skill": skill}
    done = subprocess.run(
        [sys.executable, "-E", str(REPO / "hooks" / "bin" / "pre_tool_use.py")],
        input=json.dumps(payload).encode(),
        env=environ,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout.decode()


# ---- a store that hangs, a store that refuses ---------------------------------------------
@pytest.fixture(params=["hangs", "refuses"])
def faulty_endpoint(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "refuses":
        yield closed_port()
        return
    with silent_listener() as endpoint:
        yield endpoint


def test_a_store_that_hangs_or_refuses_fails_team_commands_only(
    env: dict[str, str],
    tmp_path: Path,
    s3: S3,
    cli: CliInvoker,
    faulty_endpoint: str,
) -> None:
    environ = home_env(env, tmp_path, "dev", f"s3://{s3.bucket()}/m", s3)
    settings = seeded_home(environ)
    healthy = CliInvoker(environ)
    assert json.loads(healthy("team", "push", "--json").output)["added"] == 7
    assert json.loads(healthy("team", "pull", "--json").output)["lessons"] == 7
    lesson_id = Store(settings).lessons("docker")[0].id
    before = markdown(settings.home)

    faulty_env = {**environ, "AWS_ENDPOINT_URL": faulty_endpoint}
    faulty = CliInvoker(faulty_env)
    for command in (["status"], ["push"], ["pull"], ["retract", lesson_id]):
        result, elapsed = timed(faulty, "team", *command, "--timeout", str(TIMEOUT))
        fails_in_one_line(result, elapsed)
    # the console script itself ends too (no thread left waiting on the store holds its exit)
    started = time.monotonic()
    done = cli_process(faulty_env, "team", "status", "--timeout", str(TIMEOUT))
    assert done.returncode == 1 and done.stderr.count("Error:") == 1, done.stderr
    assert time.monotonic() - started < TIMEOUT + SLACK
    assert markdown(settings.home) == before  # no failed command changed a byte

    # local commands and hooks answer as before, the store still failing
    injected = faulty("inject", "--skill", "docker", "--task", "container logs after restart")
    assert injected.exit_code == 0 and "json-file driver" in injected.output
    found = faulty("search", "stop at the first failing test")
    assert found.exit_code == 0 and "-x to stop" in found.output
    code, out = pre_tool_use(faulty_env, tmp_path, "docker")
    assert code == 0 and "json-file driver" in out
    assert out.startswith(context_json("PreToolUse", "")[:40])
    added = faulty("add", "--skill", "docker", "Prune dangling images weekly to keep disk free")
    assert added.exit_code == 0

    # recovery: the same home, the store answering again
    pushed = json.loads(healthy("team", "push", "--json").output)
    assert (pushed["added"], pushed["unchanged"]) == (1, 7)
    status = json.loads(healthy("team", "status", "--json").output)
    assert (status["reachable"], status["lessons"], status["unpushed"]) == (True, 8, 0)
    assert json.loads(healthy("team", "pull", "--json").output)["lessons"] == 8


# ---- a store that fails half-way through a push -----------------------------------------
def test_a_push_cut_half_way_is_retried_with_nothing_lost_or_doubled(
    env: dict[str, str], tmp_path: Path, s3: S3, cli: CliInvoker
) -> None:
    with CuttingProxy(s3.endpoint) as proxy:
        # how many requests a push of such a home sends: a twin pushed to its own bucket
        twin = home_env(env, tmp_path, "twin", f"s3://{s3.bucket()}/m", s3)
        push_all(seeded_home({**twin, "AWS_ENDPOINT_URL": proxy.endpoint}))
        total = proxy.requests
        assert total > 4, total

        environ = home_env(env, tmp_path, "dev", f"s3://{s3.bucket()}/m", s3)
        settings = seeded_home(environ)
        cut_env = {**environ, "AWS_ENDPOINT_URL": proxy.endpoint}
        before = markdown(settings.home)
        proxy.requests, proxy.limit = 0, total // 2
        result, elapsed = timed(CliInvoker(cut_env), "team", "push", "--timeout", "20")
        line = fails_in_one_line(result, elapsed, timeout=20)
        assert proxy.cut >= 1, line
        assert markdown(settings.home) == before
        written = team_rows(settings)  # straight from moto: what the cut push left
        assert len(written) < 7

        proxy.limit = None
        retried = json.loads(CliInvoker(cut_env)("team", "push", "--json").output)
        assert retried["added"] + retried["unchanged"] == 7
        assert retried["added"] == 7 - len(written)

    rows = team_rows(settings)
    assert sorted(row.text for row in rows) == every_text()  # nothing lost, nothing twice
    author = "dev@example.com"
    for row in rows:
        assert list(row.contributions) == [f"{author}\x1f{row.id}"], row
        assert row.hits == 1 and row.state == "knowledge"
    again = json.loads(CliInvoker(environ)("team", "push", "--json").output)
    assert (again["added"], again["merged"], again["unchanged"]) == (0, 0, 7)
    reader = CliInvoker(home_env(env, tmp_path, "reader", environ["SKILL_MEMORY_TEAM_URI"], s3))
    assert json.loads(reader("team", "pull", "--json").output)["lessons"] == 7


# ---- two machines racing to update the same team row --------------------------------------
RACER = """
import sys
from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.team_support import push_all

settings = load_settings()
for _ in range(int(sys.argv[1])):
    add_lesson(Store(settings), sys.argv[2], sys.argv[3], "CI")  # the same lesson: HITs rise
    push_all(settings)
"""


def test_two_machines_racing_on_one_row_lose_no_hit(
    env: dict[str, str], tmp_path: Path, s3: S3
) -> None:
    uri = f"s3://{s3.bucket()}/m"
    tag, text = LESSONS[0]
    homes = [home_env(env, tmp_path, name, uri, s3) for name in ("ana", "ben")]
    for environ in homes:
        add_lesson(Store(load_settings(environ)), SKILL, text, tag, matcher=None)
    push_all(load_settings(homes[0]))  # the row exists: both machines update it
    rounds = 4
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(rounds), SKILL, text],
            env=environ,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for environ in homes
    ]
    for racer in racers:
        _, err = racer.communicate(timeout=600)
        assert racer.returncode == 0, err.decode()[-2000:]

    (row,) = team_rows(load_settings(homes[0]))
    hits = {Path(e["AI_MEMORY_HOME"]).name: Store(load_settings(e)).lessons(SKILL)[0].hit_count
            for e in homes}  # fmt: skip
    assert hits == {"ana": 1 + rounds, "ben": 1 + rounds}
    assert row.hits == sum(hits.values())
    assert sorted(row.authors) == ["ana@example.com", "ben@example.com"]
    assert row.rev == 1 + 2 * rounds  # every update went through the swap, none overwritten
