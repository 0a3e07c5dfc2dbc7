"""The distill worker, started detached after a session: `python -m ...memory.distill.worker`.

The process boundary only: parse the arguments, load the settings, run one distillation
(`memory.distill.run.distill_session`), and turn its result into an exit status; a crash is
logged, never raised to the hook that started it.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence

from fireworks_skill_memory.memory.config import load_settings
from fireworks_skill_memory.memory.distill.run import distill_session
from fireworks_skill_memory.memory.distill.state import log_line
from fireworks_skill_memory.memory.errors import SkillMemoryError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m fireworks_skill_memory.memory.distill.worker",
        description="Distil a finished Claude Code or Codex session into lessons.",
    )
    parser.add_argument("--transcript", required=True, help="transcript or rollout (.jsonl)")
    parser.add_argument("--session-id", required=True, help="the agent's session id")
    parser.add_argument("--agent", choices=("claude", "codex"), help="default: detected")
    parser.add_argument(
        "--force", action="store_true", help="ignore MIN_TOOL_CALLS and DISTILL_EVERY"
    )
    parser.add_argument(
        "--no-index",
        action="store_true",
        help="load no embedding model: exact-text dedup, BM25 nearest lessons, and the "
        "index catches up at its next sync",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one distillation; 0 when stored or skipped, 1 when it failed, 2 on bad settings."""
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
    except SkillMemoryError as error:
        print(f"distill: {error}", file=sys.stderr)
        return 2
    try:
        result = distill_session(
            settings,
            args.transcript,
            args.session_id,
            agent=args.agent,
            force=args.force,
            index=not args.no_index,
        )
    except Exception:  # noqa: BLE001 - the process boundary: nobody above us reports it
        log_line(settings, f"worker crashed:\n{traceback.format_exc()}")
        return 1
    if result.status == "failed":
        print(f"distill {args.session_id}: failed: {result.reason}", file=sys.stderr)
        return 1
    if result.status == "stored":
        print(f"distill {args.session_id}: {result.reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
