#!/usr/bin/env bash
# Sets up what is missing and runs the single instance (all services and the
# gateway in one process) on http://${HOST:-127.0.0.1}:${PORT:-3000}.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bash "$IM_ROOT/scripts/setup.sh" run
cd "$IM_ROOT"
exec bash scripts/node.sh server/src/start.ts
