"""Malformed payloads: every hook exits 0, prints nothing and writes only inside the memory home.

A seeded generator makes 1,000 payloads per hook (not JSON, JSON that is not an object, wrong
types in every field of a real payload, multi-megabyte strings, deep nesting, unknown events,
path-traversal ids and names, NUL bytes, invalid UTF-8). They go through each hook's
`main(stdin, stdout)` in this process, and a sample of 30 per hook through the installed shim
as a real subprocess. HOME, TMPDIR, CODEX_HOME and the working directory all live in the
sandbox, whose tree outside the memory home is compared before and after.

The base payloads name skills without lessons, so no well-formed part of a payload can
legitimately produce output: any stdout is a failure.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.hooks import (
    dispatch,
    post_tool_use,
    post_tool_use_failure,
    pre_tool_use,
    session_start,
    stop,
    user_prompt_expansion,
    user_prompt_submit,
)
from fireworks_skill_memory.hooks import install as installer
from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.hook_support import run_command, run_main

PAYLOADS_PER_HOOK = 1000
SHIM_SAMPLE = 30
SEED = 20261129
MB = 1024 * 1024

HOOKS: dict[str, ModuleType] = {
    "PreToolUse": pre_tool_use,
    "PostToolUse": post_tool_use,
    "PostToolUseFailure": post_tool_use_failure,
    "UserPromptSubmit": user_prompt_submit,
    "UserPromptExpansion": user_prompt_expansion,
    "SessionStart": session_start,
    "Stop": stop,
}
SHIMS = {spec.event: spec for spec in installer.HOOKS if spec.event in HOOKS}

COMMON = {
    "session_id": "fuzz-session",
    "transcript_path": "/nonexistent/fuzz/transcript.jsonl",
    "cwd": "/nonexistent/fuzz/proj",
    "permission_mode": "default",
}
BASES: dict[str, dict[str, Any]] = {
    "PreToolUse": {
        **COMMON,
        "hook_event_name": "PreToolUse",
        "tool_name": "Skill",
        "tool_input": {"skill": "fuzz-skill", "args": "do it"},
        "tool_use_id": "toolu_1",
    },
    "PostToolUse": {
        **COMMON,
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": "/nonexistent/fuzz/proj/.claude/skills/fuzz-skill/SKILL.md"},
        "tool_response": {"type": "text", "file": {"filePath": "x", "content": "Error: boom"}},
        "tool_use_id": "toolu_2",
    },
    "PostToolUseFailure": {
        **COMMON,
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "cat /nonexistent/.codex/skills/fuzz-skill/SKILL.md"},
        "error": "Exit code 1\nError: boom",
        "is_interrupt": False,
        "tool_use_id": "toolu_3",
    },
    "UserPromptSubmit": {**COMMON, "hook_event_name": "UserPromptSubmit", "prompt": "fix it"},
    "UserPromptExpansion": {
        **COMMON,
        "hook_event_name": "UserPromptExpansion",
        "expansion_type": "slash_command",
        "command_name": "fuzz-skill",
        "command_args": "docker build cache",
        "prompt": "/fuzz-skill docker build cache",
    },
    "SessionStart": {**COMMON, "hook_event_name": "SessionStart", "source": "startup"},
    "Stop": {**COMMON, "hook_event_name": "Stop", "stop_hook_active": False},
}
SHELL_VARIANTS = [
    ("Bash", {"command": "cat .claude/skills/fuzz-skill/SKILL.md"}),
    ("exec_command", {"cmd": "sed -n 1,5p ~/.codex/skills/../../x/SKILL.md"}),
    ("Bash", {"command": "bash -lc \"cat '../../fuzz-skill/SKILL.md'\" && rm -rf /"}),
]
TRAVERSAL = [
    "../../x",
    "../../../../etc/passwd",
    "..",
    ".",
    "/",
    "/etc/shadow",
    "a/../../b",
    "..\\..\\x",
    "~/../../root",
    "x\x00y",
    "\x00",
    "fuzz-skill/../../../escape",
    "plugin:../../x",
    ":",
    "a" * 5000,
    "%2e%2e%2f",
    "$(touch /tmp/pwned)",
    "`id`",
]


# ---- the generator ----------------------------------------------------------------------
class Generator:
    """Seeded malformed payloads (bytes) for one hook."""

    def __init__(self, event: str, seed: int) -> None:
        self.event = event
        self.rng = random.Random(f"{seed}:{event}")
        self.big = {size: "x" * size for size in (2 * MB, 5 * MB)}
        self.kinds = [
            self.not_json,
            self.non_object,
            self.wrong_type,
            self.wrong_type,
            self.wrong_type,
            self.traversal,
            self.traversal,
            self.huge,
            self.deep,
            self.unknown_event,
            self.nul_bytes,
            self.bad_utf8,
            self.shell_variant,
        ]

    def payloads(self, count: int) -> Iterator[bytes]:
        for index in range(count):
            yield self.kinds[index % len(self.kinds)]()

    # -- helpers
    def base(self) -> dict[str, Any]:
        return copy.deepcopy(BASES[self.event])

    def paths(self, payload: dict[str, Any]) -> list[tuple[str, ...]]:
        found: list[tuple[str, ...]] = []

        def walk(value: Any, prefix: tuple[str, ...]) -> None:
            if isinstance(value, dict):
                for key, item in value.items():
                    found.append((*prefix, key))
                    walk(item, (*prefix, key))

        walk(payload, ())
        return found

    def put(self, payload: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
        target: Any = payload
        for key in path[:-1]:
            target = target.get(key) if isinstance(target, dict) else None
        if isinstance(target, dict):  # an earlier mutation may have replaced a parent
            target[path[-1]] = value

    def wrong_value(self) -> Any:
        choices: list[Any] = [
            None,
            True,
            False,
            0,
            -1,
            2**70,
            1.5,
            float("inf"),
            float("nan"),
            "",
            " ",
            [],
            {},
            [1, "a", None],
            {"a": {"b": []}},
            "ünïcödé ✓ \u2028",
            "\ud800",
            self.rng.choice(TRAVERSAL),
        ]
        return self.rng.choice(choices)

    def dump(self, value: Any) -> bytes:
        return json.dumps(value, ensure_ascii=self.rng.random() < 0.5).encode(
            "utf-8", "surrogatepass"
        )

    # -- kinds
    def not_json(self) -> bytes:
        choices = [
            b"",
            b" ",
            b"{",
            b"}",
            b'{"session_id": ',
            b"null garbage",
            b"\xef\xbb\xbf{}",
            b"{'single': 'quotes'}",
            b'{"a": 1,}',
            b"NaN",
            self.dump(self.base())[: self.rng.randrange(1, 40)],
            bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 300))),
        ]
        return self.rng.choice(choices)

    def non_object(self) -> bytes:
        base = self.base()
        choices: list[Any] = [
            None,
            True,
            0,
            3.14,
            "PreToolUse",
            [],
            [base],
            [[base]],
            list(base.items()),
            "x" * self.rng.randrange(1000),
        ]
        return self.dump(self.rng.choice(choices))

    def wrong_type(self) -> bytes:
        payload = self.base()
        paths = self.paths(payload)
        for _ in range(self.rng.randrange(1, 4)):
            self.put(payload, self.rng.choice(paths), self.wrong_value())
        return self.dump(payload)

    def traversal(self) -> bytes:
        payload = self.base()
        keys = [
            ("session_id",),
            ("cwd",),
            ("transcript_path",),
            ("tool_input", "skill"),
            ("tool_input", "file_path"),
            ("command_name",),
            ("tool_name",),
        ]
        for path in self.rng.sample(keys, self.rng.randrange(1, 4)):
            if len(path) == 1 or isinstance(payload.get(path[0]), dict):
                self.put(payload, path, self.rng.choice(TRAVERSAL))
        return self.dump(payload)

    def huge(self) -> bytes:
        payload = self.base()
        path = self.rng.choice(self.paths(payload))
        self.put(payload, path, self.big[self.rng.choice(list(self.big))])
        if self.rng.random() < 0.2:  # over the 8 MB payload cap
            payload["padding"] = self.big[5 * MB]
        return self.dump(payload)

    def deep(self) -> bytes:
        depth = self.rng.choice([50, 1000, 100_000])
        if self.rng.random() < 0.5:
            return b"[" * depth + b"]" * depth
        nested = b'{"a":' * depth + b"1" + b"}" * depth
        payload = self.dump(self.base())
        return payload[:-1] + b', "tool_input": ' + nested + b"}"

    def unknown_event(self) -> bytes:
        payload = self.base()
        payload["hook_event_name"] = self.rng.choice(
            ["", "PreCompact", "Nope", "preToolUse", "PreToolUse\x00", 7]
        )
        payload["tool_name"] = self.rng.choice(["", "skill", "SKILL", "Skill ", "mcp__x__y"])
        return self.dump(payload)

    def nul_bytes(self) -> bytes:
        payload = self.dump(self.base())
        if self.rng.random() < 0.5:
            return payload.replace(b"fuzz", b"fu\\u0000zz")
        position = self.rng.randrange(len(payload))
        return payload[:position] + b"\x00" + payload[position:]

    def bad_utf8(self) -> bytes:
        payload = self.dump(self.base())
        junk = self.rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"])
        return payload.replace(b"fuzz", b"fu" + junk + b"zz", 1)

    def shell_variant(self) -> bytes:
        payload = self.base()
        tool, tool_input = self.rng.choice(SHELL_VARIANTS)
        payload.update(tool_name=tool, tool_input=copy.deepcopy(tool_input))
        payload["tool_response"] = self.wrong_value()
        return self.dump(payload)


# ---- the sandbox ------------------------------------------------------------------------
class Sandbox:
    """HOME, TMPDIR, CODEX_HOME, cwd and the memory home, all under one folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.memory = root / "memory"
        self.home = root / "home"
        self.tmp = root / "tmp"
        self.codex = root / "codex"
        self.cwd = root / "cwd"
        for folder in (self.home, self.tmp, self.codex, self.cwd):
            folder.mkdir(parents=True)

    def environ(self) -> dict[str, str]:
        return {
            "AI_MEMORY_HOME": str(self.memory),
            "HOME": str(self.home),
            "TMPDIR": str(self.tmp),
            "CODEX_HOME": str(self.codex),
            "SKILLS_DISTILLER_BACKEND": "null",
        }

    def outside_memory(self) -> dict[str, str]:
        """Every path outside the memory home, with a digest of each file."""
        tree: dict[str, str] = {}
        for folder, dirs, files in os.walk(self.root):
            if Path(folder) == self.memory or self.memory in Path(folder).parents:
                dirs[:] = []
                continue
            for name in dirs:
                tree[os.path.relpath(os.path.join(folder, name), self.root)] = "dir"
            for name in files:
                path = os.path.join(folder, name)
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
                tree[os.path.relpath(path, self.root)] = digest
        return tree

    def hold_off_service(self) -> None:
        """Keep `ensure_service` inside its cooldown, so no real service is spawned."""
        stamp = self.memory / "run" / "spawn.stamp"
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text("fuzz")


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    """A sandbox with lessons for another skill, process spawns recorded instead of done."""
    box = Sandbox(tmp_path / "sandbox")
    for name in list(os.environ):
        if name.startswith(("AI_MEMORY_", "SKILL_MEMORY_", "SKILLS_", "CODEX_HOME")):
            monkeypatch.delenv(name, raising=False)
    for name, value in box.environ().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(tempfile, "tempdir", str(box.tmp))
    monkeypatch.chdir(box.cwd)
    store = Store(load_settings())
    add_lesson(
        store, "demo", "Copy the dependency manifest before the source tree", "Build", matcher=None
    )
    monkeypatch.setattr(
        "fireworks_skill_memory.memory.service.client.start_detached", lambda *a, **k: None
    )
    try:
        import fireworks_skill_memory.memory.distill.spawn  # noqa: F401
    except ImportError:
        pass
    else:
        monkeypatch.setattr(
            "fireworks_skill_memory.memory.distill.spawn.spawn_worker", lambda *a, **k: None
        )
    return box


# ---- the tests --------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("event", list(HOOKS))
def test_a_thousand_malformed_payloads_in_process(event: str, sandbox: Sandbox) -> None:
    before = sandbox.outside_memory()
    failures: list[str] = []
    for number, payload in enumerate(Generator(event, SEED).payloads(PAYLOADS_PER_HOOK)):
        code, out = run_main(HOOKS[event], payload)
        if code != 0 or out:
            failures.append(f"#{number} {payload[:120]!r} -> {code} {out[:200]!r}")
    assert not failures, "\n".join(failures[:10])
    assert sandbox.outside_memory() == before


@pytest.mark.slow
@pytest.mark.parametrize("event", list(HOOKS))
def test_malformed_payloads_through_the_installed_shim(event: str, sandbox: Sandbox) -> None:
    command = installer.hook_command(SHIMS[event])
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("AI_MEMORY_", "SKILL"))},
        **sandbox.environ(),
        "SKILL_MEMORY_DISTILLER_CHILD": "1",  # Stop: never start a real distill worker
    }
    rng = random.Random(f"{SEED}:shim:{event}")
    payloads = list(Generator(event, SEED).payloads(PAYLOADS_PER_HOOK))
    before = sandbox.outside_memory()
    failures: list[str] = []
    for payload in rng.sample(payloads, SHIM_SAMPLE):
        sandbox.hold_off_service()
        done = run_command(command, payload, env, sandbox.cwd)
        if done.returncode != 0 or done.stdout or done.stderr:
            failures.append(f"{payload[:120]!r} -> {done.returncode} {done.stdout[:200]!r}")
    assert not failures, "\n".join(failures[:10])
    assert sandbox.outside_memory() == before


def test_dispatch_ignores_unknown_events(sandbox: Sandbox) -> None:
    assert dispatch.main([]) == 0
    assert dispatch.main(["NoSuchEvent"]) == 0
    assert dispatch.main(["../../x"]) == 0


JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=30)
    | st.sampled_from(TRAVERSAL)
)
JSON_TREES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        key: JSON_TREES
        for key in (
            "session_id",
            "transcript_path",
            "cwd",
            "hook_event_name",
            "tool_name",
            "tool_input",
            "tool_response",
            "error",
            "prompt",
            "command_name",
            "command_args",
            "stop_hook_active",
            "is_interrupt",
        )
    },
)


@pytest.mark.slow
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(event=st.sampled_from(list(HOOKS)), payload=FIELDS)
def test_arbitrary_json_objects_never_print(sandbox: Sandbox, event: str, payload: Any) -> None:
    """Hypothesis: objects whose fields are arbitrary JSON (no lessons for them) print nothing."""
    code, out = run_main(HOOKS[event], json.dumps(payload).encode())
    assert (code, out) == (0, "")
