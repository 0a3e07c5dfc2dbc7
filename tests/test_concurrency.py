"""Many processes writing the same skill at once: nothing is lost, the file always parses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from memory.config import Settings
from memory.knowledge_doc import KnowledgeDoc
from memory.store import Store

WRITER = """
import sys
from memory.config import load_settings
from memory.store import Store
store = Store(load_settings())
worker = int(sys.argv[1])
for n in range(10):
    store.add("shared", f"worker {worker} lesson {n}: distinct text", "Load")
"""


def test_eight_processes_adding_ten_lessons_each(settings: Settings, env: dict[str, str]) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(worker)], env=env)
        for worker in range(8)
    ]
    assert [proc.wait(timeout=120) for proc in procs] == [0] * 8
    store = Store(settings)
    path = Path(store.knowledge_path("shared"))
    lessons = KnowledgeDoc.parse(path.read_text(), "shared").lessons()
    assert len(lessons) == 80
    assert {lesson.text for lesson in lessons} == {
        f"worker {w} lesson {n}: distinct text" for w in range(8) for n in range(10)
    }
    assert not [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")]
