#!/usr/bin/env bash
# The demo behind `make demo`: a throwaway memory home seeded from examples/, then the main job.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
demo_home="$(mktemp -d "${TMPDIR:-/tmp}/skill-memory-demo.XXXXXX")"
export AI_MEMORY_HOME="$demo_home"
cp -R "$here/skills" "$here/global" "$AI_MEMORY_HOME/"
echo "== memory home: $AI_MEMORY_HOME"

echo; echo "== skill-memory list"
skill-memory list

echo; echo "== skill-memory inject --skill docker --top 3"
skill-memory inject --skill docker --top 3
