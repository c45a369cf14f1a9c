#!/usr/bin/env bash
# Sets up what is missing (Node 24, Redis, NATS, MinIO, the MongoDB-compatible
# dev server) and runs the whole suite: type check, lint, then every test
# against real servers. Extra arguments go to the test runner (test files).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bash "$IM_ROOT/scripts/setup.sh" test
cd "$IM_ROOT"
use_project_node
say "type check"
node node_modules/typescript/bin/tsc -b
say "lint"
node node_modules/eslint/bin/eslint.js --max-warnings=0 .
node node_modules/prettier/bin/prettier.cjs --check . >/dev/null || {
  node node_modules/prettier/bin/prettier.cjs --check .
  fail "formatting differs from Prettier's (npm run format fixes it)"
}
say "tests"
exec node packages/testkit/src/run-tests.ts "$@"
