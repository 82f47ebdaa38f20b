#!/usr/bin/env bash
# Build, then run the integration suites inside a real VS Code extension host (offline: code-server +
# headless Chromium; LC_VSCODE=electron: desktop VS Code via @vscode/test-electron, needs a download).
#
#   bash scripts/test-integration.sh                      suites "trusted", "untrusted" and "course"
#   bash scripts/test-integration.sh --suite trusted      any run-integration-tests.mjs arguments
#   LC_SELFCHECK_FAIL=1 bash scripts/test-integration.sh  adds a deliberately failing test (expect exit 1)
#
# Exit code: 0 pass, 1 test failures, 2 harness/build error. Mocha output on stdout, harness lines on stderr.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() { echo "[test-integration] $*" >&2; exit 2; }

# code-server is installed per checkout (gitignored .code-server/), so a fresh machine installs it first.
if [ "${LC_VSCODE:-}" != "electron" ] && [ -z "${CODE_SERVER_DIR:-}" ] &&
   [ ! -f .code-server/node_modules/code-server/out/node/entry.js ]; then
  echo "[test-integration] code-server missing: running scripts/install-code-server.sh" >&2
  bash scripts/install-code-server.sh || fail "install-code-server.sh failed"
fi

# Extension + CLI + webview bundles (dist/), then the integration tests only (tsconfig.test.json -> out/),
# so unrelated work in progress elsewhere in the tree cannot break this build.
t0=$(date +%s%N)
npm run -s build >/dev/null || fail "npm run build failed"
rm -rf out/test/integration # stale compiled tests of deleted .ts files would still be globbed
npx tsc -p tsconfig.test.json || fail "tsc -p tsconfig.test.json failed"
echo "[test-integration] build done in $(( ($(date +%s%N) - t0) / 1000000 )) ms" >&2

[ "$#" -gt 0 ] || set -- --suite trusted --suite untrusted --suite course
# A suite has 7 minutes (the trusted suite is about 40 tests, several of which bundle, install and check packs).
export TEST_TIMEOUT_MS="${TEST_TIMEOUT_MS:-420000}"
exec node scripts/harness/run-integration-tests.mjs "$@"
