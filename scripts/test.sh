#!/usr/bin/env bash
# Sets up what is missing (Node 24, Redis, NATS, MinIO, Chromium, the
# MongoDB-compatible dev server, the web client's build) and runs the whole
# suite: type check, lint, the web client's component tests, then every test
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
# The client's component tests (vitest, jsdom), once there are any; skipped
# when only some test files were asked for.
if [ "$#" -gt 0 ]; then
  say "client component tests skipped (test files given)"
elif [ -f client/vitest.config.ts ] || [ -n "$(find client/src -type f -name '*.test.tsx' -print -quit 2>/dev/null || true)" ]; then
  say "client component tests"
  [ -f node_modules/vitest/vitest.mjs ] || fail "vitest is missing (node_modules/vitest/vitest.mjs): run 'bash scripts/setup.sh test'"
  node node_modules/vitest/vitest.mjs run --root client --passWithNoTests || fail "client component tests failed (output above)"
else
  say "client component tests: none yet (no client/vitest.config.ts or client/src/**/*.test.tsx)"
fi
say "tests"
exec node packages/testkit/src/run-tests.ts "$@"
