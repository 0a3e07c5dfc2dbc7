"""The background team pull the SessionStart hook starts (`python -I -m ...team.worker`).

Runs detached, never in a hook's process; its output goes to `<home>/logs/team-pull.out`.
"""

from __future__ import annotations

import sys

from fireworks_skill_memory.memory.config import load_settings


def main() -> int:
    from fireworks_skill_memory.memory.embedding import embedder_for
    from fireworks_skill_memory.memory.screen import screen_for
    from fireworks_skill_memory.memory.team.pull import pull

    settings = load_settings()
    if not settings.team_uri:
        return 0
    embedder = embedder_for(settings)
    report = pull(settings, embedder, screen_for(settings, embedder))
    print(f"team pull: version {report.version}, {report.updated} updated, "
          f"{report.removed} removed, {report.quarantined} quarantined", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
