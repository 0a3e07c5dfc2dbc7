"""Team memory test support: a moto S3 server on loopback, homes that share a team URI.

Shared by tests/memory/team/test_team.py and tests/memory/team/test_faults_team.py (and
usable from benchmarks).
"""

from __future__ import annotations

import logging
import socket
import uuid
from pathlib import Path

import boto3
import moto.server as moto_server

from fireworks_skill_memory.memory.config import Settings, load_settings
from fireworks_skill_memory.memory.ingest import add_lesson
from fireworks_skill_memory.memory.screen import RULES_SCREEN
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.memory.team.push import push
from tests.conftest import FakeEmbedder

SKILL = "browser-use"
LESSONS = [
    ("CI", "Run the browser headless on CI runners without a display"),
    ("Auth", "Reuse the saved storage state so login pages are skipped"),
    ("Waits", "Wait for the network to go idle before reading the page text"),
    ("Files", "Downloads land in a temporary folder that is removed at exit"),
    ("Tabs", "Close popup tabs or later clicks hit the wrong page"),
    ("Proxy", "Corporate proxies need the PAC file passed as a launch argument"),
]
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "test",
    "AWS_SECRET_ACCESS_KEY": "test",
    "AWS_REGION": "us-east-1",
    "AWS_ALLOW_HTTP": "true",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class S3:
    """A moto S3 server on loopback."""

    def __init__(self) -> None:
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        self.port = free_port()
        self.server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=self.port)
        self.server.start()
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def bucket(self) -> str:
        name = f"team-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def stop(self) -> None:
        self.server.stop()

    def client(self):  # type: ignore[no-untyped-def]
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id="test",
            aws_secret_access_key="test",
            region_name="us-east-1",
        )

    def all_bytes(self, bucket: str) -> bytes:
        client = self.client()
        found = b""
        for item in client.list_objects_v2(Bucket=bucket).get("Contents", []):
            found += client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
        return found


def home_env(env: dict[str, str], tmp_path: Path, name: str, uri: str, s3: S3) -> dict[str, str]:
    return {
        **env,
        **CREDENTIALS,
        "AWS_ENDPOINT_URL": s3.endpoint,
        "AI_MEMORY_HOME": str(tmp_path / name),
        "SKILL_MEMORY_AUTHOR": f"{name}@example.com",
        "SKILL_MEMORY_TEAM_URI": uri,
    }


def seeded(environ: dict[str, str], lessons: list[tuple[str, str]]) -> Settings:
    settings = load_settings(environ)
    store = Store(settings)
    for tag, text in lessons:
        add_lesson(store, SKILL, text, tag)
    return settings


def push_all(settings: Settings) -> dict[str, object]:
    return push(settings, FakeEmbedder(), RULES_SCREEN).as_json()
