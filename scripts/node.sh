#!/usr/bin/env bash
# Runs a script with the project's Node (>= 22; Node 24 from the cache when
# the system one is older), so npm scripts work under any system Node.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
use_project_node
if [ "$(node_major node)" -lt 22 ]; then
  fail "Node.js >= 22 is needed and $(command -v node) is $(node -v): run 'bash scripts/setup.sh run' first"
fi
exec node "$@"
