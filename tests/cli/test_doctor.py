"""`skill-memory doctor`: every failure exits 1 and names its fix; a healthy home exits 0."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fireworks_skill_memory.cli import doctor as doctor_module
from tests.conftest import CliInvoker


@pytest.fixture
def doctor(cli: CliInvoker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DoctorRun]:
    """Run `doctor --json` in an empty project folder; returns (exit code, findings)."""
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    yield DoctorRun(cli)


class DoctorRun:
    def __init__(self, cli: CliInvoker) -> None:
        self.cli = cli

    def __call__(self, **env: str) -> tuple[int, list[dict[str, Any]]]:
        saved = dict(self.cli.env)
        self.cli.env.update(env)
        try:
            result = self.cli("doctor", "--json")
        finally:
            self.cli.env.clear()
            self.cli.env.update(saved)
        return result.exit_code, json.loads(result.output)


def failures(findings: list[dict[str, Any]], check: str | None = None) -> list[dict[str, Any]]:
    return [f for f in findings if f["status"] == "fail" and check in (None, f["check"])]


def only(findings: list[dict[str, Any]], check: str) -> list[dict[str, Any]]:
    return [f for f in findings if f["check"] == check]


# ---- healthy ------------------------------------------------------------------------------
def test_a_healthy_home_exits_0(doctor: DoctorRun, cli: CliInvoker) -> None:
    assert cli("add", "--skill", "demo", "Pin the docker image tag").exit_code == 0
    assert cli("search", "docker").exit_code == 0  # builds the index (fake model)
    code, findings = doctor()
    assert code == 0, findings
    assert not failures(findings)
    assert {f["check"] for f in findings} == {check.name for check in doctor_module.CHECKS}
    assert all(set(f) == {"check", "status", "detail", "fix"} for f in findings)
    assert all(f["fix"] for f in findings if f["status"] in ("warn", "fail"))
    statuses = {f["check"]: f["status"] for f in findings}
    assert statuses["home"] == statuses["settings"] == statuses["model"] == "ok"
    assert statuses["service"] == "note"  # not running is not a failure


def test_text_output_shows_each_fix(
    doctor: DoctorRun, cli: CliInvoker, env: dict[str, str]
) -> None:
    Path(env["AI_MEMORY_HOME"]).write_text("a file, not a folder\n")
    result = cli("doctor")
    assert result.exit_code == 1
    assert "[fail] home" in result.output
    assert "fix: mv " in result.output


def test_help_lists_every_check(cli: CliInvoker) -> None:
    result = cli("doctor", "--help")
    for check in doctor_module.CHECKS:
        assert check.name in result.output


# ---- the home and the settings ------------------------------------------------------------
def test_home_that_is_a_regular_file_fails(doctor: DoctorRun, env: dict[str, str]) -> None:
    home = Path(env["AI_MEMORY_HOME"])
    home.write_text("oops\n")
    code, findings = doctor()
    assert code == 1
    (failure,) = failures(findings, "home")  # its sub-folders are not reported again
    assert "not a folder" in failure["detail"]
    assert failure["fix"].startswith(f"mv {home} ")


def test_home_below_a_regular_file_fails(doctor: DoctorRun, tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("x")
    code, findings = doctor(AI_MEMORY_HOME=str(tmp_path / "blocker" / "memory"))
    assert code == 1
    (failure,) = failures(findings, "home")
    assert (
        "cannot be created" in failure["detail"] and "blocker is not a folder" in failure["detail"]
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_unwritable_home_fails(doctor: DoctorRun, env: dict[str, str]) -> None:
    home = Path(env["AI_MEMORY_HOME"])
    home.mkdir()
    home.chmod(0o500)
    try:
        code, findings = doctor()
    finally:
        home.chmod(0o700)
    assert code == 1
    assert failures(findings, "home")[0]["fix"].startswith("chmod u+rwx")


def test_a_missing_home_is_only_a_note(doctor: DoctorRun) -> None:
    code, findings = doctor()
    assert code == 0
    assert only(findings, "home")[0]["status"] == "note"


def test_relative_home_fails_with_the_absolute_path_as_fix(
    doctor: DoctorRun, tmp_path: Path
) -> None:
    code, findings = doctor(AI_MEMORY_HOME="relative-memory")
    assert code == 1
    (failure,) = failures(findings, "settings")
    assert "AI_MEMORY_HOME=relative-memory is relative" in failure["detail"]
    absolute = tmp_path / "project" / "relative-memory"
    assert failure["fix"].startswith(f"export AI_MEMORY_HOME={absolute}")


def test_other_relative_paths_fail_too(doctor: DoctorRun) -> None:
    code, findings = doctor(SKILLS_KNOWLEDGE_DIR="legacy/skills")
    assert code == 1
    assert "SKILLS_KNOWLEDGE_DIR" in failures(findings, "settings")[0]["detail"]


def test_a_bad_setting_is_reported_not_raised(doctor: DoctorRun) -> None:
    code, findings = doctor(SKILL_MAX="many")
    assert code == 1
    assert "SKILL_MAX" in failures(findings, "settings")[0]["detail"]


# ---- the model ------------------------------------------------------------------------------
def test_model_path_that_does_not_exist_fails(doctor: DoctorRun, tmp_path: Path) -> None:
    code, findings = doctor(SKILL_MEMORY_EMBED_MODEL=str(tmp_path / "no-such-model"))
    assert code == 1
    (failure,) = failures(findings, "model")
    assert "no such folder" in failure["detail"]
    assert "SKILL_MEMORY_EMBED_MODEL" in failure["fix"]


def test_model_folder_without_a_model_fails(doctor: DoctorRun, tmp_path: Path) -> None:
    (tmp_path / "empty-model").mkdir()
    code, findings = doctor(SKILL_MEMORY_EMBED_MODEL=str(tmp_path / "empty-model"))
    assert code == 1
    assert "not a sentence-transformers model" in failures(findings, "model")[0]["detail"]


def test_relative_model_folder_fails(doctor: DoctorRun, tmp_path: Path) -> None:
    model = tmp_path / "project" / "my-model"
    model.mkdir()
    (model / "modules.json").write_text("[]")
    code, findings = doctor(SKILL_MEMORY_EMBED_MODEL="./my-model")
    assert code == 1
    assert failures(findings, "model")[0]["fix"] == f"export SKILL_MEMORY_EMBED_MODEL={model}"


def test_hub_name_not_available_offline_fails(
    doctor: DoctorRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    code, findings = doctor(SKILL_MEMORY_EMBED_MODEL="someorg/not-downloaded")
    assert code == 1
    (failure,) = failures(findings, "model")
    assert "not in the local Hugging Face cache" in failure["detail"]
    assert 'snapshot_download("someorg/not-downloaded")' in failure["fix"]


def test_hub_name_in_the_local_cache_is_ok(
    doctor: DoctorRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "hub" / "models--someorg--tiny"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("abc123")
    (repo / "snapshots" / "abc123").mkdir(parents=True)
    (repo / "snapshots" / "abc123" / "config.json").write_text("{}")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    code, findings = doctor(SKILL_MEMORY_EMBED_MODEL="someorg/tiny")
    assert code == 0, findings
    assert only(findings, "model")[0]["status"] == "ok"


# ---- the embedding backend -------------------------------------------------------------------
def test_embedder_names_torch_when_asked_for(doctor: DoctorRun) -> None:
    _, findings = doctor(SKILL_MEMORY_EMBED_BACKEND="torch")
    (finding,) = only(findings, "embedder")
    assert finding["status"] == "ok" and finding["detail"].startswith("torch")


def test_embedder_names_torch_for_a_hub_model(
    doctor: DoctorRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    _, findings = doctor(SKILL_MEMORY_EMBED_MODEL="someorg/not-downloaded")
    (finding,) = only(findings, "embedder")
    assert finding["status"] == "note" and "no ONNX path" in finding["detail"]


def test_embedder_before_the_export_is_made(doctor: DoctorRun, tmp_path: Path) -> None:
    _, findings = doctor(SKILL_MEMORY_MODELS_DIR=str(tmp_path / "models"))
    (finding,) = only(findings, "embedder")
    assert finding["status"] == "note" and "made on first use" in finding["detail"]
    assert finding["fix"] == "skill-memory export-model"


def test_embedder_checks_the_export_digest(doctor: DoctorRun, tmp_path: Path) -> None:
    from fireworks_skill_memory.models.bundled import bundled_model_dir
    from fireworks_skill_memory.models.onnx_store import export_folder, weights_digest
    from tests.models.test_onnx_embedder import fake_export

    models = str(tmp_path / "models")
    folder = Path(export_folder(models, weights_digest(bundled_model_dir(), models)))
    fake_export(folder, folder.name)
    _, findings = doctor(SKILL_MEMORY_MODELS_DIR=models)
    assert only(findings, "embedder")[0]["status"] == "ok"
    (folder / "model.onnx").write_bytes(b"damaged")
    code, findings = doctor(SKILL_MEMORY_MODELS_DIR=models)
    assert code == 0  # it heals itself: a warning, not a failure
    (finding,) = only(findings, "embedder")
    assert finding["status"] == "warn" and "damaged" in finding["detail"]
    assert "model.onnx has SHA-256" in finding["detail"]
    assert finding["fix"] == "skill-memory export-model"


@pytest.mark.real_model
def test_embedder_reports_a_valid_export(doctor: DoctorRun, shared_models_dir: Path) -> None:
    from fireworks_skill_memory.models.bundled import bundled_model_dir
    from fireworks_skill_memory.models.onnx_store import ensure_export

    ensure_export(bundled_model_dir(), str(shared_models_dir))
    _, findings = doctor()
    (finding,) = only(findings, "embedder")
    assert finding["status"] == "ok" and finding["detail"].startswith("onnx, export ")
    assert "SHA-256 of model.onnx, words.npy, tokenizer.json verified" in finding["detail"]


# ---- the index ------------------------------------------------------------------------------
def test_corrupt_index_fails_and_names_reindex(
    doctor: DoctorRun, cli: CliInvoker, env: dict[str, str]
) -> None:
    assert cli("add", "--skill", "demo", "Pin the docker image tag").exit_code == 0
    assert cli("search", "docker").exit_code == 0
    data = list((Path(env["AI_MEMORY_HOME"]) / "index").rglob("data/*.lance"))
    assert data
    for path in data:
        path.write_bytes(b"")
    code, findings = doctor()
    assert code == 1
    (failure,) = failures(findings, "index")
    assert "skill-memory reindex" in failure["fix"]


# ---- the service ----------------------------------------------------------------------------
HUNG_SERVICE = textwrap.dedent(
    """
    import fcntl, os, socket, sys, time
    run = sys.argv[1]
    os.makedirs(run, exist_ok=True)
    fd = os.open(os.path.join(run, "service.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.write(fd, str(os.getpid()).encode())
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(os.path.join(run, "service.sock"))
    server.listen(8)  # connections queue up; nothing ever answers
    print("ready", flush=True)
    time.sleep(120)
    """
)


@pytest.fixture
def hung_service(env: dict[str, str]) -> Iterator[int]:
    """A process that holds the home's service lock and socket but never answers."""
    run = os.path.join(env["AI_MEMORY_HOME"], "run")
    process = subprocess.Popen(
        [sys.executable, "-c", HUNG_SERVICE, run], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        yield process.pid
    finally:
        process.kill()
        process.wait()


def test_hung_service_fails(doctor: DoctorRun, hung_service: int) -> None:
    started = time.monotonic()
    code, findings = doctor()
    assert time.monotonic() - started < 30
    assert code == 1
    (failure,) = failures(findings, "service")
    assert "not responding" in failure["detail"] and str(hung_service) in failure["detail"]
    assert "skill-memory service stop" in failure["fix"]


def test_service_that_is_not_running_is_a_note(doctor: DoctorRun) -> None:
    code, findings = doctor()
    assert code == 0
    (service,) = only(findings, "service")
    assert service["status"] == "note" and service["fix"] == "skill-memory service start"


# ---- the hooks ------------------------------------------------------------------------------
def test_hooks_not_installed_is_a_note(doctor: DoctorRun) -> None:
    code, findings = doctor()
    assert code == 0
    (hooks,) = only(findings, "hooks")
    assert hooks["status"] == "note" and "skill-memory hooks install" in hooks["fix"]


def test_hooks_installed_here_are_ok(
    doctor: DoctorRun, cli: CliInvoker, env: dict[str, str]
) -> None:
    assert cli("hooks", "install").exit_code == 0
    assert cli("codex", "install").exit_code == 0
    code, findings = doctor()
    assert code == 0, findings
    hooks = only(findings, "hooks")
    assert [f["status"] for f in hooks] == ["ok", "ok"]
    settings = Path(env["HOME"]) / ".claude" / "settings.json"
    assert str(settings) in hooks[0]["detail"] and "this interpreter" in hooks[0]["detail"]
    assert str(Path(env["HOME"]) / ".codex" / "hooks.json") in hooks[1]["detail"]


def _rewrite_commands(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))


def test_claude_hooks_with_a_missing_interpreter_fail(
    doctor: DoctorRun, cli: CliInvoker, env: dict[str, str], tmp_path: Path
) -> None:
    assert cli("hooks", "install").exit_code == 0
    settings = Path(env["HOME"]) / ".claude" / "settings.json"
    gone = str(tmp_path / "deleted-venv" / "bin" / "python")
    _rewrite_commands(settings, json.dumps(shlex.quote(sys.executable))[1:-1], gone)
    code, findings = doctor()
    assert code == 1
    (failure,) = failures(findings, "hooks")
    assert "missing interpreter" in failure["detail"] and gone in failure["detail"]
    assert failure["fix"] == "skill-memory hooks install --scope user"


def test_claude_hooks_of_another_installation_warn(
    doctor: DoctorRun, cli: CliInvoker, env: dict[str, str]
) -> None:
    assert cli("hooks", "install").exit_code == 0
    settings = Path(env["HOME"]) / ".claude" / "settings.json"
    _rewrite_commands(settings, json.dumps(shlex.quote(sys.executable))[1:-1], "/bin/sh")
    code, findings = doctor()
    assert code == 0
    (hooks,) = [f for f in only(findings, "hooks") if "Claude" in f["detail"]]
    assert hooks["status"] == "warn" and "another installation (/bin/sh)" in hooks["detail"]


def test_codex_hooks_with_a_missing_interpreter_fail(
    doctor: DoctorRun, cli: CliInvoker, env: dict[str, str], tmp_path: Path
) -> None:
    assert cli("codex", "install").exit_code == 0
    hooks_file = Path(env["HOME"]) / ".codex" / "hooks.json"
    gone = str(tmp_path / "old-venv" / "bin" / "python")
    _rewrite_commands(hooks_file, json.dumps(shlex.quote(sys.executable))[1:-1], gone)
    code, findings = doctor()
    assert code == 1
    (failure,) = failures(findings, "hooks")
    assert "Codex" in failure["detail"] and "skill-memory codex install" in failure["fix"]


def test_project_hooks_are_found_in_the_current_folder(
    doctor: DoctorRun, cli: CliInvoker, tmp_path: Path
) -> None:
    assert cli("hooks", "install", "--scope", "project").exit_code == 0
    code, findings = doctor()
    assert code == 0
    (hooks,) = only(findings, "hooks")
    assert "project settings" in hooks["detail"] and hooks["status"] == "ok"
    assert str(tmp_path / "project" / ".claude" / "settings.json") in hooks["detail"]


# ---- text -------------------------------------------------------------------------------------
def test_undecodable_lines_are_named_with_file_and_line(
    doctor: DoctorRun, cli: CliInvoker, env: dict[str, str]
) -> None:
    assert cli("add", "--skill", "demo", "Pin the docker image tag").exit_code == 0
    path = Path(env["AI_MEMORY_HOME"]) / "skills" / "demo" / "KNOWLEDGE.md"
    lines = path.read_bytes().count(b"\n")
    with path.open("ab") as handle:
        handle.write(b"- [2026-01] [Enc] caf\xe9 au lait\n")
    code, findings = doctor()
    assert code == 0  # a skipped line is a warning: everything else works
    (text,) = only(findings, "text")
    assert text["status"] == "warn"
    assert text["detail"].startswith(f"{path}:{lines + 1}: not valid UTF-8 (byte 0xe9")
    assert "caf\\xe9 au lait" in text["detail"]
    assert text["fix"].startswith("edit those lines")  # the file also holds valid UTF-8 (—)


def test_a_latin1_file_gets_iconv_as_fix(doctor: DoctorRun, env: dict[str, str]) -> None:
    path = Path(env["AI_MEMORY_HOME"]) / "skills" / "demo" / "KNOWLEDGE.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"# demo\n\n- [A] caf\xe9\n- [B] na\xefve\n- [C] plain\n")
    code, findings = doctor()
    assert code == 0
    text = only(findings, "text")
    assert [f["detail"].split(": ")[0] for f in text] == [f"{path}:3", f"{path}:4"]
    assert text[0]["fix"].startswith("iconv -f latin1 -t utf-8")
