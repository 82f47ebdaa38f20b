#!/usr/bin/env bash
# `npm test`: every check this project has, in order of cost. Installs code-server (and Chromium) on first
# use, so it works on a fresh machine. Prints a closing "N passed, N failed" line summed over all suites.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
log_dir="test-output"; mkdir -p "$log_dir"
passed=0; failed=0; broken=()
declare -a timings=()

run_step() {
  local name="$1"; shift
  local log="$log_dir/$name.log" start=$SECONDS
  echo "=== $name: $*"
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  # mocha prints "N passing" / "N failing"; strip colour codes before reading them.
  local p f
  p=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -Eo '^ *[0-9]+ passing' | grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')
  f=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -Eo '^ *[0-9]+ failing' | grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  [ "$rc" -eq 0 ] || broken+=("$name (exit $rc)")
  timings+=("$(printf '%-12s %4ss' "$name" $((SECONDS - start)))")
}

run_step typecheck npx tsc --noEmit -p .
run_step lint npx eslint src test
run_step format npx prettier --check .
run_step build node esbuild.mjs
# The unit folder two files at a time (the machine this must hold on has 2 cores): each file runs in a worker
# process of its own, so files share no module state; unit tests start no process that another could see.
run_step unit npx mocha --parallel --jobs 2 'test/unit/**/*.test.ts'
# The real-process suites two files at a time, each in a worker process of its own: a verdict must not depend on
# the machine's load (a program is charged its own CPU time, not the clock: src/node/run/programClock.ts), and every
# test finds its processes by a marker of its own (a temporary path or token), never by name.
# Not beside them, run one after another: the four that run `npm pack`, whose prepack rebuilds dist/ in place
# while others run it, and those that load both cores on purpose: sandboxed runs stopped as they start
# beside busy loops, the corpus under busy loops, and twelve
# spinning hangs in one check service (beside it, a cancelled check's program in checkService.test.ts, at nice
# 10, took more than 1.5 s to be ended), and the engine worker starved on one core on purpose. And the real-style
# corpus, long enough to run alone. (It was once told, beside the other worker, that a program stopped answering
# mid-batch: sandboxNodeModules.test.ts installs lesson-companion globally and removes it, and every later run of a
# check under way failed to set up its sandbox over the folder gone; contain.ts now looks again at each run.)
on_their_own=(classroom classroomRegistry engineStarved gradeWorkflow packageTarball realStyle realStyleUnderLoad sandboxServiceLifetime sandboxStopEarly)
run_step node npx mocha --parallel --jobs 2 'test/node/**/*.test.ts' \
  $(printf -- "--exclude test/node/%s.test.ts " "${on_their_own[@]}")
run_step node-alone npx mocha $(printf -- "test/node/%s.test.ts " "${on_their_own[@]}")
# The hostile corpus again, without the sandbox (the node step ran it with the sandbox where there is one):
# the process-group fallback must hold what it promises too.
run_step hostile-nosandbox env LESSON_COMPANION_SANDBOX=off npx mocha --no-config --require tsx/cjs --timeout 20000 test/node/hostile.test.ts
if [ -z "${SKIP_VSCODE_TESTS:-}" ]; then
  [ -f .code-server/node_modules/code-server/out/node/entry.js ] || run_step install-vscode bash scripts/install-code-server.sh
  run_step integration npm run --silent test:integration
  if npm run 2>/dev/null | grep -q '^  test:ui$'; then run_step ui npm run --silent test:ui; fi
fi

echo; printf '%s\n' "${timings[@]}"
if [ ${#broken[@]} -gt 0 ]; then
  # CI shows only the end of this output: repeat each failed step's failures here, where they will be seen.
  for step in "${broken[@]}"; do
    log="$log_dir/${step%% (*}.log"
    echo; echo "--- failures of ${step}:"
    sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '/^ *[0-9]+ failing/ {on=1} on' | head -60
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^\[(harness|ui[a-z-]*)\] .*FAIL' | head -10
  done
  echo; echo "failed steps: ${broken[*]}"
fi
echo "tests: $passed passed, $failed failed"
[ ${#broken[@]} -eq 0 ] && [ "$failed" -eq 0 ]
