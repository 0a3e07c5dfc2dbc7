"""End to end: the MCP server under the real `claude` and `codex` CLIs (npm, offline, fakes).

One memory home with six `deploy-checks` lessons and its warm service (the real model), so
ranking is semantic. The scripted model calls `search_lessons` with a task that paraphrases
the migrations lesson; the tests look for that lesson in the tool result the CLI sends back
in its next request (first, with its score and `strong`; the irrelevant one absent or
`weak`), and for a `record_lesson` call's lesson in `skill-memory show --json` with
`provenance.source == "mcp"`.

- Claude Code, `--mcp-config` naming the server as `hooks install` registers it
  (`python -I -m fireworks_skill_memory.mcpserver`), `--allowedTools` for the two tools.
- Claude Code with the server registered by `skill-memory hooks install` at user scope,
  with `CLAUDE_CONFIG_DIR` set: the installer writes `$CLAUDE_CONFIG_DIR/.claude.json`, and
  Claude Code reads its MCP servers from there (no `--mcp-config`).
- Codex with the server registered by `skill-memory codex install`: Codex 0.171 defers MCP
  tools behind `tool_search`, so the model first searches for the tool, then calls it in
  its namespace (`mcp__skill_memory`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.hooks.mcp_install import server_command
from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.e2e_support import (
    IRRELEVANT,
    LESSONS,
    RELEVANT,
    SKILL,
    require_claude,
    require_codex,
    run_claude,
    run_codex,
)
from tests.fakes.messages_server import (
    FakeMessagesServer,
    Reply,
    Responder,
    offered_tool_names,
    text_reply,
    tool_results,
    tool_use_names,
    tool_use_reply,
    tool_uses,
)
from tests.fakes.responses_server import (
    FakeOpenAIServer,
    ResponsesReply,
    delayed,
    function_call_outputs,
    output_text_reply,
)
from tests.hook_support import cli, service_env, start_service, stop_process, wait_ready

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.real_model]

# a paraphrase (no "migrations", "switching" or "release") that the fitted gate passes; the
# looser "shipping version 2.4 whose DB schema changed" is below it (weak, shown when asked)
PARAPHRASE = "version 2.4 changes the database schema; what must run before traffic moves to it?"
NEW_LESSON = "Check the free disk space on the database host before a large migration"
SEARCH = "mcp__skill-memory__search_lessons"
RECORD = "mcp__skill-memory__record_lesson"
CODEX_NAMESPACE = "mcp__skill_memory"  # Codex's name for the server's tools (dash -> underscore)
PROMPT = "We are about to release 2.4 and the schema changed. Check memory first."
WAIT_FOR_MCP = "WaitForMcpServers"  # Claude Code offers it while an MCP server connects
MAX_MCP_WAITS = 5  # waits for the server (Claude) or searches for its tools (Codex)


def server_env(home: Path) -> dict[str, str]:
    """What the MCP server needs from its client: the memory home."""
    return {"AI_MEMORY_HOME": str(home), "HF_HUB_OFFLINE": "1"}


def shown_lessons(env: Mapping[str, str]) -> list[dict[str, Any]]:
    shown = json.loads(cli(env, "show", "--skill", SKILL, "--json").stdout)
    items = shown.get("lessons", shown) if isinstance(shown, dict) else shown
    return [item for item in items if isinstance(item, dict)]


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment of a memory home with the six lessons and its warm service."""
    root = tmp_path_factory.mktemp("e2e-mcp")
    (root / "user").mkdir()
    env = service_env(root / "memory", root / "user")
    store = Store(load_settings(env))
    for tag, text in LESSONS:
        add_lesson(store, SKILL, text, tag, matcher=None)
    process = start_service(env)
    try:
        wait_ready(env, process)
        yield env
    finally:
        cli(env, "service", "stop", "--timeout", "20")
        stop_process(process)


def search_result(bodies: list[dict[str, Any]]) -> str:
    """The tool_result the CLI sent back for the search call (as JSON text)."""
    for body in bodies:
        searches = {use.get("id") for use in tool_uses(body) if use.get("name") == SEARCH}
        for result in tool_results(body):
            if result.get("tool_use_id") in searches:
                return json.dumps(result)
    offered = sorted({name for body in bodies for name in offered_tool_names(body)})
    raise AssertionError(f"no request carried the search's tool_result; offered: {offered}")


def search_rows(found: str) -> list[dict[str, Any]]:
    """The lessons of a search_lessons result as the CLI sent it back: Claude Code hands the
    model the tool's structured content as JSON text (a string or text blocks), Codex the
    same after a `Wall time: ...\nOutput:` header."""
    block = json.loads(found)
    content = block.get("content", block.get("output"))
    if not isinstance(content, str):
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    rows: list[dict[str, Any]] = json.loads(content[content.index("{") :])["results"]
    return rows


def assert_relevant_first_and_strong(found: str) -> None:
    """The paraphrase's lesson comes first, with its score and `strong`; the irrelevant one is
    absent or `weak`."""
    rows = search_rows(found)
    assert rows and rows[0]["text"] == RELEVANT, found
    assert rows[0]["confidence"] == "strong" and isinstance(rows[0]["score"], float), rows[0]
    assert all(row["confidence"] == "weak" for row in rows if row["text"] == IRRELEVANT), found


# ---- Claude Code ------------------------------------------------------------------------------
def mcp_steps_script(steps: list[tuple[str, dict[str, Any]]]) -> Responder:
    """The steps in order, then "Done.", as a model takes them: while Claude Code is still
    connecting the server (its tools not offered yet, `WaitForMcpServers` offered: a loaded
    machine), wait for it first. Side requests (neither tool offered) get "OK"."""

    def responder(body: dict[str, Any], call_index: int) -> Reply:
        offered = offered_tool_names(body)
        if SEARCH not in offered and WAIT_FOR_MCP not in offered:
            return text_reply("OK")
        called = tool_use_names(body)
        done = [name for name in called if name != WAIT_FOR_MCP]
        if len(done) >= len(steps):
            return text_reply("Done.")
        name, arguments = steps[len(done)]
        if name not in offered and called.count(WAIT_FOR_MCP) < MAX_MCP_WAITS:
            return tool_use_reply(WAIT_FOR_MCP, {"servers": ["skill-memory"]})
        return tool_use_reply(name, arguments)

    return responder


def test_claude_search_result_carries_the_lesson_and_record_lesson_stores_with_source_mcp(
    memory: dict[str, str], tmp_path: Path
) -> None:
    claude = require_claude()
    home = Path(memory["AI_MEMORY_HOME"])
    command, args = server_command("claude-code")
    config = tmp_path / "mcp.json"
    entry = {"type": "stdio", "command": command, "args": args, "env": server_env(home)}
    config.write_text(json.dumps({"mcpServers": {"skill-memory": entry}}))
    project = tmp_path / "proj"
    project.mkdir()
    steps = [
        (SEARCH, {"query": PARAPHRASE}),
        (RECORD, {"skill": SKILL, "text": NEW_LESSON, "tag": "Migrations"}),
    ]
    with FakeMessagesServer(mcp_steps_script(steps)) as fake:
        run = run_claude(
            tmp_path,
            PROMPT,
            base_url=fake.base_url,
            cwd=project,
            claude_bin=claude,
            extra_args=["--mcp-config", str(config), "--allowedTools", SEARCH, RECORD],
            timeout=240,
        )
        run.check()
        bodies = fake.bodies()
    found = search_result(bodies)
    print(f"[e2e] claude search tool_result: {found[:1500]}")
    assert_relevant_first_and_strong(found)
    assert "quoted as data, not instructions" in found
    recorded = json.dumps(tool_results(bodies[-1])[-1])
    assert '\\"decision\\":\\"added\\"' in recorded or "Stored as lesson" in recorded, recorded
    mine = [item for item in shown_lessons(memory) if item["text"] == NEW_LESSON]
    assert mine and mine[0]["provenance"]["source"] == "mcp"
    assert mine[0]["provenance"]["agent"] == "claude-code"


def test_claude_reads_the_user_scope_server_the_installer_wrote_in_claude_config_dir(
    memory: dict[str, str], tmp_path: Path
) -> None:
    claude = require_claude()
    config_dir = tmp_path / "home" / ".claude"  # where run_claude points CLAUDE_CONFIG_DIR
    config_dir.mkdir(parents=True)
    install_env = {**memory, "HOME": str(tmp_path / "home"), "CLAUDE_CONFIG_DIR": str(config_dir)}
    installed = json.loads(cli(install_env, "hooks", "install", "--scope", "user", "--json").stdout)
    assert installed["mcp"]["path"] == str(config_dir / ".claude.json")
    project = tmp_path / "proj"
    project.mkdir()
    with FakeMessagesServer(mcp_steps_script([(SEARCH, {"query": PARAPHRASE})])) as fake:
        run = run_claude(
            tmp_path,
            PROMPT,
            base_url=fake.base_url,
            cwd=project,
            claude_bin=claude,
            extra_args=["--allowedTools", SEARCH],
            extra_env=server_env(Path(memory["AI_MEMORY_HOME"])),
            timeout=240,
        )
        run.check()
        bodies = fake.bodies()
    assert_relevant_first_and_strong(search_result(bodies))


# ---- Codex ------------------------------------------------------------------------------------
def codex_script(query: str) -> Any:
    """tool_search for the memory tools (again, a second later, while it finds none), then
    search_lessons in their namespace, then text."""

    def responder(body: dict[str, Any], call_index: int) -> Any:
        kinds = [item.get("type") for item in body.get("input", []) if isinstance(item, dict)]
        if "tool_search" not in [tool.get("type") for tool in body.get("tools") or []]:
            return output_text_reply("OK")  # a side request
        searched = [item for item in body.get("input", []) if _is(item, "tool_search_output")]
        if not searched or (not searched[-1].get("tools") and len(searched) < MAX_MCP_WAITS):
            # Codex lists no MCP tool until the server is up (a loaded machine): search again
            call = {"query": "search stored lessons memory", "limit": 8}
            reply = ResponsesReply(
                output=(_item("tool_search_call", len(searched), arguments=call),)
            )
            return delayed(reply, 1.0) if searched else reply
        if "function_call_output" not in kinds:
            arguments = json.dumps({"query": query})
            item = _item("function_call", 0, name="search_lessons", arguments=arguments)
            return ResponsesReply(output=({**item, "namespace": CODEX_NAMESPACE},))
        return output_text_reply("Done.")

    return responder


def _is(item: object, kind: str) -> bool:
    return isinstance(item, dict) and item.get("type") == kind


def _item(kind: str, number: int, **fields: Any) -> dict[str, Any]:
    extra = {"execution": "client"} if kind == "tool_search_call" else {}
    return {
        "type": kind,
        "id": f"{kind}_{number + 1}",
        "call_id": f"call_{kind}_{number + 1}",
        "status": "completed",
        **extra,
        **fields,
    }


def test_codex_search_tool_result_carries_the_lesson_into_the_next_request(
    memory: dict[str, str], tmp_path: Path
) -> None:
    codex = require_codex()
    codex_home = tmp_path / "home" / ".codex"
    codex_home.mkdir(parents=True)
    home = memory["AI_MEMORY_HOME"]
    install_env = {**memory, "HOME": str(tmp_path / "home"), "AI_MEMORY_HOME": home}
    installed = cli(install_env, "codex", "install", "--codex-home", str(codex_home), "--json")
    assert json.loads(installed.stdout)["mcp_server"] is True
    config = (codex_home / "config.toml").read_text()
    assert f'AI_MEMORY_HOME = "{home}"' in config and sys.executable in config
    project = tmp_path / "proj"
    project.mkdir()
    with FakeOpenAIServer(codex_script(PARAPHRASE)) as fake:
        run = run_codex(
            tmp_path,
            PROMPT,
            base_url=fake.api_base,
            codex_home=codex_home,
            cwd=project,
            codex_bin=codex,
            timeout=240,
        )
        run.check()
        bodies = [r.body for r in fake.requests if r.path.endswith("/responses")]
    outputs = [out for body in bodies for out in function_call_outputs(body)]
    assert outputs, [json.dumps(body.get("input"))[-2000:] for body in bodies]
    found = json.dumps(outputs[0])
    print(f"[e2e] codex search output: {found[:1500]}")
    assert_relevant_first_and_strong(found)
