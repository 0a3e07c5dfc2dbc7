"""The hook's service-down path: its light modules, its cache, its guard, a read-only home.

- `memory.light_json` and the regex-free tokenizer give exactly what `json` and the former
  regex tokenizer gave (property tests against them);
- the per-skill lexical cache is used when fresh, and rebuilt from the markdown whenever the
  file changed (size, inode, ctime), the tokenizer changed or the cache is damaged;
- a hook exits 0 with no output even when logging its failure fails (subprocesses with
  imports made to fail and an unwritable log path);
- on a read-only memory home the hooks still inject: once with a real read-only bind mount
  (`unshare --mount`, root only: as root `chmod -R a-w` stops nothing) and once in-process
  with every write under the home made to raise EROFS.
"""

from __future__ import annotations

import builtins
import errno
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fireworks_skill_memory.hooks import install as installer
from fireworks_skill_memory.hooks import post_tool_use, pre_tool_use, user_prompt_submit
from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.light_json import dumps, loads
from fireworks_skill_memory.memory.retrieval import lexical, lexical_cache
from fireworks_skill_memory.memory.store.files import write_atomic
from fireworks_skill_memory.memory.store.markdown_store import Store
from tests.hook_support import claude_sample, injections, run_main

LESSONS = [
    ("Build cache", "Copy the dependency manifest before the source tree for the build cache"),
    ("Tests", "Run pytest with -x to stop at the first failing test"),
    ("Release", "Tag the release only after the changelog is merged"),
]
TASK = "speed up the docker build cache"
OLD_NS = 1_600_000_000 * 10**9  # an mtime long past: the file is not "racy"


# ---- fixtures ---------------------------------------------------------------------------
@pytest.fixture
def demo(settings: Settings) -> Path:
    """The `demo` skill with three lessons, aged so its cache may be written; no spawns."""
    store = Store(settings)
    for tag, text in LESSONS:
        add_lesson(store, "demo", text, tag, matcher=None)
    path = Path(settings.skills_dir) / "demo" / "KNOWLEDGE.md"
    os.utime(path, ns=(OLD_NS, OLD_NS))
    stamp = Path(settings.run_dir) / "spawn.stamp"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text("test: no service spawn")
    return path


def payload(root: Path, args: str = TASK) -> dict[str, Any]:
    found = claude_sample("PreToolUse(Skill)", root)
    found["tool_input"] = {"skill": "demo", "args": args}
    return found


def context(out: str) -> str:
    text: str = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    return text


def inject(root: Path, args: str = TASK) -> str:
    code, out = run_main(pre_tool_use, payload(root, args))
    assert code == 0
    return context(out) if out else ""


# ---- light json -------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(json_values, st.booleans())
def test_light_json_is_json(value: object, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert dumps(value, ensure_ascii=ascii_only) == text
    assert loads(text) == value
    assert loads(text.encode("utf-8", "surrogatepass")) == value
    assert loads(f" \n{text}\t ") == value


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=40).map(lambda t: t.encode("utf-8", "replace")))
def test_light_json_rejects_what_json_rejects(data: bytes) -> None:
    try:
        expected: object = json.loads(data)
    except (ValueError, RecursionError):
        with pytest.raises(ValueError):
            loads(data)
        return
    assert repr(loads(data)) == repr(expected)  # NaN too


def test_light_json_special_values() -> None:
    assert dumps([float("nan"), float("inf"), -float("inf"), 1e300, True, None]) == json.dumps(
        [float("nan"), float("inf"), -float("inf"), 1e300, True, None]
    )
    assert loads(b"\xef\xbb\xbf{}") == {}
    assert loads('{"a": 1}'.encode("utf-16")) == {"a": 1}
    with pytest.raises(TypeError):
        dumps({1: "key not a string"})


# ---- the tokenizer against its former regular expressions -------------------------------
_WORD = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def regex_tokenize(text: str, stopwords: frozenset[str] = lexical.STOPWORDS) -> list[str]:
    """The tokenizer as it was written with regular expressions (the oracle)."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    out: list[str] = []
    for raw in _WORD.findall(text):
        if not raw.isascii() and _CJK.search(raw):
            start = 0
            for m in _CJK.finditer(raw):
                word(raw[start : m.start()], stopwords, out)
                seg = m.group()
                pairs = [seg[i : i + 2] for i in range(len(seg) - 1)]
                out.extend(pairs or [seg])
                start = m.end()
            word(raw[start:], stopwords, out)
            continue
        word(raw, stopwords, out)
        if raw.lower() != raw and not raw.isupper():
            parts = _CAMEL.findall(raw)
            if len(parts) > 1:
                for part in parts:
                    word(part, stopwords, out)
    return out


def word(text: str, stopwords: frozenset[str], out: list[str]) -> None:
    low = text.lower()
    if len(low) >= 2 and low not in stopwords:
        out.append(lexical.stem(low))


MIXED = st.text(
    st.sampled_from(
        [
            *"aAbBzZ09_- .,camelCaseHTTPÉéß٣²½ⅫＡｆ缓存失效用한글かなカナ\t\n\x1c",
            *("\u3040", "\u30ff", "\u4dbf", "\uac00", "\ud7af", "\uf900", "\ufaff", "\udc80"),
        ]
    )
)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(MIXED | st.text())
def test_tokenize_is_the_regex_tokenizer(text: str) -> None:
    assert lexical.tokenize(text) == regex_tokenize(text)
    custom = frozenset({"ab", "cache"})
    assert lexical.tokenize(text, stopwords=custom) == regex_tokenize(text, custom)
    assert lexical.camel_parts(text) == _CAMEL.findall(text)


# ---- the lexical cache ------------------------------------------------------------------
@pytest.fixture
def no_markdown_parsing(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Calling the result makes any markdown parse fail (proves the cache was used)."""

    def forbid() -> None:
        def parse(*_: object, **__: object) -> None:
            raise AssertionError("the markdown was parsed")

        monkeypatch.setattr(
            "fireworks_skill_memory.memory.store.knowledge_doc.KnowledgeDoc.parse", parse
        )

    return forbid


def test_the_fallback_writes_the_cache_and_then_reads_only_it(
    tmp_path: Path, settings: Settings, demo: Path, no_markdown_parsing: Callable[[], None]
) -> None:
    first = inject(tmp_path)
    assert LESSONS[0][1] in first
    assert Path(lexical_cache.cache_path(settings, "demo")).is_file()
    no_markdown_parsing()
    assert inject(tmp_path) == first


def test_a_file_written_moments_ago_gets_no_cache(
    tmp_path: Path, settings: Settings, demo: Path
) -> None:
    os.utime(demo)  # now: a same-size rewrite in the same clock tick would go unseen
    assert LESSONS[0][1] in inject(tmp_path)
    assert not Path(lexical_cache.cache_path(settings, "demo")).exists()


def edit_in_place(path: Path, old: str, new: str) -> None:
    """Same size, same inode, mtime set back: only the ctime tells."""
    stat = path.stat()
    text = path.read_text(encoding="utf-8")
    assert len(old) == len(new)
    with open(path, "r+", encoding="utf-8") as handle:
        handle.write(text.replace(old, new))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_ino == stat.st_ino


def rewrite_atomically(path: Path, old: str, new: str) -> None:
    """Same size, a new inode."""
    write_atomic(str(path), path.read_text(encoding="utf-8").replace(old, new))
    os.utime(path, ns=(OLD_NS, OLD_NS))


@pytest.mark.parametrize("edit", [edit_in_place, rewrite_atomically])
def test_a_changed_file_is_read_again(
    tmp_path: Path, settings: Settings, demo: Path, edit: Callable[[Path, str, str], None]
) -> None:
    assert "for the build cache" in inject(tmp_path)
    edit(demo, "for the build cache", "for any build cache")
    text = inject(tmp_path)
    assert "for any build cache" in text and "for the build cache" not in text


def test_a_new_lesson_is_seen(tmp_path: Path, settings: Settings, demo: Path) -> None:
    inject(tmp_path)
    add_lesson(Store(settings), "demo", "Prune the docker build cache weekly", "Disk", matcher=None)
    assert "Prune the docker build cache weekly" in inject(tmp_path)


def test_another_tokenizer_or_a_damaged_cache_is_rebuilt(
    tmp_path: Path, settings: Settings, demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = inject(tmp_path)
    cache = Path(lexical_cache.cache_path(settings, "demo"))
    monkeypatch.setattr(lexical, "TOKENIZER_VERSION", lexical.TOKENIZER_VERSION + 1)
    built = cache.stat().st_mtime_ns
    assert inject(tmp_path) == expected
    assert cache.stat().st_mtime_ns != built  # rewritten for the new version
    for damage in (b"", lexical_cache.MAGIC + b"\x00garbage", cache.read_bytes()[:-7]):
        cache.write_bytes(damage)
        assert inject(tmp_path) == expected


def test_the_service_refreshes_the_cache(settings: Settings, demo: Path) -> None:
    cache = Path(lexical_cache.cache_path(settings, "demo"))
    lexical_cache.ensure_fresh(settings, "demo")
    assert cache.is_file()
    records = lexical_cache.skill_lessons(settings, "demo")
    assert [r.text for r in records] == [text for _, text in LESSONS]
    assert records[0].tokens == tuple(lexical.tokenize(f"{LESSONS[0][0]} {LESSONS[0][1]}"))


def test_the_service_checks_a_fresh_cache_with_a_stat_only(
    settings: Settings, demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    caches = lexical_cache.FreshCaches()  # the service keeps one for its life
    caches.ensure(settings, "demo")
    reads: list[str] = []
    real = lexical_cache._fresh_rows
    monkeypatch.setattr(lexical_cache, "_fresh_rows", lambda *a: reads.append(a[0]) or real(*a))
    caches.ensure(settings, "demo")
    assert reads == []  # unchanged markdown: the cache is not read again
    add_lesson(Store(settings), "demo", "Pin the base image digest in CI", "Images", matcher=None)
    os.utime(demo, ns=(OLD_NS + 10**9, OLD_NS + 10**9))
    caches.ensure(settings, "demo")
    assert reads  # an edit is noticed and the cache rebuilt
    monkeypatch.undo()
    assert "Pin the base image digest in CI" in [
        r.text for r in lexical_cache.skill_lessons(settings, "demo")
    ]


def test_a_vanished_file_has_no_lessons(settings: Settings, demo: Path) -> None:
    lexical_cache.ensure_fresh(settings, "demo")
    demo.unlink()
    assert lexical_cache.skill_lessons(settings, "demo") == []


# ---- the budget and the guard -----------------------------------------------------------
def test_the_budget_comes_from_settings(
    tmp_path: Path, demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[float] = []

    def exchange(
        event: str, raw: bytes, home: str, budget: float, settings: str
    ) -> tuple[str, None]:
        seen.append(budget)
        return "absent", None

    monkeypatch.setattr("fireworks_skill_memory.hooks.fast.exchange", exchange)
    monkeypatch.setenv("SKILL_MEMORY_HOOK_BUDGET_MS", "1234")
    assert inject(tmp_path)
    assert seen == [1.234]


def test_a_bad_budget_is_logged_and_prints_nothing(
    tmp_path: Path, settings: Settings, demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILL_MEMORY_HOOK_BUDGET_MS", "soon")
    assert run_main(pre_tool_use, payload(tmp_path)) == (0, "")
    log = Path(settings.log_file).read_text(encoding="utf-8")
    assert "SKILL_MEMORY_HOOK_BUDGET_MS='soon' is not an integer" in log


BLOCKED_RUN = """
import runpy, sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name in BLOCKED:
            raise ImportError("blocked by the test: " + name)
        return None

BLOCKED = set(sys.argv[1].split(","))
sys.meta_path.insert(0, Block())
sys.argv = [sys.argv[2]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.mark.parametrize(
    "blocked",
    [
        "fireworks_skill_memory.hooks.runtime",  # the in-process path and the failure log both
        # the handler fails, then formatting its traceback
        "fireworks_skill_memory.hooks.inject_flow,traceback",
        "fireworks_skill_memory.hooks.fast",  # the shim cannot even import the hook
    ],
)
def test_a_failure_while_logging_a_failure_still_exits_0_silently(
    tmp_path: Path, env: dict[str, str], demo: Path, blocked: str
) -> None:
    shim = installer.shim_path(installer.HOOKS[0])
    unwritable = {**env, "SKILLS_MEMORY_LOG": "/dev/null/cannot/log.txt"}  # even for root
    done = subprocess.run(
        [sys.executable, "-E", "-c", BLOCKED_RUN, blocked, shim],
        input=json.dumps(payload(tmp_path)).encode(),
        capture_output=True,
        env=unwritable,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


# ---- a read-only memory home ------------------------------------------------------------
def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
    }


def can_bind_read_only(folder: Path) -> bool:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}"'
    probe = subprocess.run(
        ["unshare", "--mount", "sh", "-c", f"{script} && ! touch '{folder}/probe'"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0 and not (folder / "probe").exists()


def run_read_only(
    home: Path, command: str, data: dict[str, Any], env: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[bytes]:
    """`command` in a private mount namespace where `home` is a read-only bind mount."""
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec sh -c "$2"'
    return subprocess.run(
        ["unshare", "--mount", "sh", "-c", script, "sh", str(home), command],
        input=json.dumps(data).encode(),
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("cached", [False, True])
def test_a_read_only_home_still_gets_its_injection(
    tmp_path: Path, env: dict[str, str], settings: Settings, demo: Path, cached: bool
) -> None:
    home = Path(settings.home)
    if not can_bind_read_only(home):
        pytest.skip("needs root and `unshare --mount` for a read-only bind mount")
    (Path(settings.run_dir) / "spawn.stamp").unlink()  # the hook will try to write it
    if cached:
        lexical_cache.ensure_fresh(settings, "demo")
    before = snapshot(home)
    pre = installer.hook_command(installer.HOOKS[0])
    done = run_read_only(home, pre, payload(tmp_path), env, tmp_path)
    assert (done.returncode, done.stderr) == (0, b""), done.stderr.decode()
    assert LESSONS[0][1] in context(done.stdout.decode())
    submit = claude_sample("UserPromptSubmit", tmp_path)
    prompt_command = installer.hook_command(installer.HOOKS[3])
    done = run_read_only(home, prompt_command, submit, env, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert snapshot(home) == before


def refuse_writes_under(root: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, in this process, every write under `root` raises EROFS."""
    root = os.path.abspath(root)

    def inside(path: object) -> bool:
        if isinstance(path, int):
            return False
        full = os.path.abspath(os.fsdecode(os.fspath(path)))  # type: ignore[call-overload]
        return full == root or full.startswith(root + os.sep)

    def refuse(path: object) -> OSError:
        return OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    real_open, real_os_open = builtins.open, os.open
    real_makedirs, real_mkdir, real_replace = os.makedirs, os.mkdir, os.replace
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC

    def fake_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(flag in mode for flag in "wax+") and inside(file):
            raise refuse(file)
        return real_open(file, mode, *args, **kwargs)

    def fake_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & write_flags and inside(path):
            raise refuse(path)
        return real_os_open(path, flags, *args, **kwargs)

    def fake_makedirs(path: Any, *args: Any, **kwargs: Any) -> None:
        if inside(path) and not os.path.isdir(path):
            raise refuse(path)
        real_makedirs(path, *args, **kwargs)

    def fake_mkdir(path: Any, *args: Any, **kwargs: Any) -> None:
        if inside(path):
            raise refuse(path)
        real_mkdir(path, *args, **kwargs)

    def fake_replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        if inside(src) or inside(dst):
            raise refuse(dst)
        real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(os, "open", fake_os_open)
    monkeypatch.setattr(os, "makedirs", fake_makedirs)
    monkeypatch.setattr(os, "mkdir", fake_mkdir)
    monkeypatch.setattr(os, "replace", fake_replace)


def test_every_hook_write_failing_with_erofs_still_injects(
    tmp_path: Path, settings: Settings, demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same in-process: each write under the home raises OSError(EROFS)."""
    (Path(settings.run_dir) / "spawn.stamp").unlink()
    spawned: list[str] = []
    monkeypatch.setattr(
        "fireworks_skill_memory.memory.service.client.start_detached",
        lambda home, **_: spawned.append(home),
    )
    before = snapshot(Path(settings.home))
    refuse_writes_under(settings.home, monkeypatch)
    submit = {**claude_sample("UserPromptSubmit", tmp_path), "prompt": TASK}
    assert run_main(user_prompt_submit, submit) == (0, "")
    assert LESSONS[0][1] in inject(tmp_path)
    skill_md = tmp_path / "proj" / ".claude" / "skills" / "demo" / "SKILL.md"
    skill_md.parent.mkdir(parents=True)
    skill_md.write_text("---\nname: demo\ndescription: test skill\n---\nBody.\n")
    read = claude_sample("PostToolUse(Read)", tmp_path)
    read.update(session_id="read-only", tool_input={"file_path": str(skill_md)})
    code, out = run_main(post_tool_use, read)
    assert code == 0 and LESSONS[0][1] in context(out)  # a SKILL.md read injects too
    monkeypatch.undo()
    assert spawned == []  # no stamp could be written: no service is started either
    assert snapshot(Path(settings.home)) == before
    assert injections(Path(settings.home)) == []
