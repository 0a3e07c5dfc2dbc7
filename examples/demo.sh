#!/usr/bin/env bash
# The demo behind `make demo`: a throwaway memory home seeded from examples/, the warm
# service on the bundled model, then inject and search. Nothing is downloaded.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
demo_home="$(mktemp -d "${TMPDIR:-/tmp}/skill-memory-demo.XXXXXX")"
export AI_MEMORY_HOME="$demo_home"
cp -R "$here/skills" "$here/global" "$AI_MEMORY_HOME/"
trap 'skill-memory service stop >/dev/null 2>&1 || true' EXIT

step() { printf '\n== %s\n' "$*"; }

step "memory home: $AI_MEMORY_HOME (seeded from examples/)"
skill-memory list

step "skill-memory reindex   (LanceDB table in $AI_MEMORY_HOME/index, bundled all-MiniLM-L6-v2)"
skill-memory reindex

step "skill-memory service start   (keeps the model warm for hooks and the CLI)"
skill-memory service start
for _ in $(seq 1 120); do
  skill-memory service status --json 2>/dev/null | grep -q '"ready": true' && break
  sleep 1
done
skill-memory service status

step 'skill-memory inject --skill docker --task "my app in a container cannot reach the postgres on my laptop"'
skill-memory inject --skill docker --task "my app in a container cannot reach the postgres on my laptop"

step 'skill-memory inject --skill docker --task "translate a French poem"   (nothing relevant: nothing injected)'
skill-memory inject --skill docker --task "translate a French poem" || true

step 'skill-memory search "adding an index froze writes on a big table" --top 3'
skill-memory search "adding an index froze writes on a big table" --top 3

step 'skill-memory add --skill docker "Build images for linux/amd64 when deploying from an M1 laptop" --dry-run'
skill-memory add --skill docker --dry-run "Build images for linux/amd64 when deploying from an M1 laptop"

step "skill-memory stats"
skill-memory stats
