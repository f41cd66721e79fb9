#!/usr/bin/env bash
# The project's one test command (`npm test`): installs what is missing (every gem group: the
# linter and the Ruby tests, and StackProf for the profilers' tests; every runtime the project
# installs, for the contract tests on each), lints, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

# ESLint needs the npm packages only: when they are installed and current (setup.sh would not
# reinstall them), it lints while set-up installs the rest (a minute on a fresh machine), else
# from when set-up has installed them; its report comes once it is needed.
eslint_log=$(mktemp)
eslint_pid=
trap 'rm -f "$eslint_log"; if [ -n "$eslint_pid" ]; then kill "$eslint_pid" 2>/dev/null || true; fi' EXIT
if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
  npx --no-install eslint --max-warnings 0 . >"$eslint_log" 2>&1 &
  eslint_pid=$!
fi
bash scripts/setup.sh --browser --engines --references --backends --test --profile --runtimes
if [ -z "$eslint_pid" ]; then
  npx --no-install eslint --max-warnings 0 . >"$eslint_log" 2>&1 &
  eslint_pid=$!
fi
# ESLint's report and status (0 when clean), once it has finished.
eslint_status=0
eslint_report() {
  echo "== lint: eslint"
  wait "$eslint_pid" || eslint_status=$?
  eslint_pid=
  cat "$eslint_log"
}
ruby_checks() {
  echo "== lint: rubocop"
  bundle exec rubocop --format quiet ruby Gemfile
  echo "== ruby unit tests"
  for test_file in ruby/test/*_test.rb; do bundle exec ruby "$test_file"; done
}
if [ "$#" -gt 0 ]; then
  eslint_report
  [ "$eslint_status" -eq 0 ] || exit "$eslint_status"
  ruby_checks
  echo "== mocha $*"
  npx --no-install mocha "$@"
  exit 0
fi
# Two lanes (test/lanes/lanes.js): the files that share the machine well two at a time (and
# ESLint, rubocop and the Ruby unit tests beside them), then the others alone. Each runs whatever the
# one before gives; any failing fails the command. What failed is said again at the very end,
# where a reader of the last lines (CI keeps only the tail) finds it.
ruby_log=$(mktemp)
together_log=$(mktemp)
trap 'rm -f "$eslint_log" "$ruby_log" "$together_log"; if [ -n "$eslint_pid" ]; then kill "$eslint_pid" 2>/dev/null || true; fi' EXIT
ruby_checks >"$ruby_log" 2>&1 &
ruby_pid=$!
echo "== mocha: the tests that share the machine, two files at a time"
together_status=0
color=()
[ -t 1 ] && color=(--color) # through tee, as on a terminal
lane_started=$SECONDS
npx --no-install mocha --config test/lanes/together.js "${color[@]}" 2>&1 | tee "$together_log" || together_status=$?
echo "== the two-at-a-time lane took $((SECONDS - lane_started)) s"
eslint_report
[ "$eslint_status" -eq 0 ] || echo "== eslint failed (above)"
ruby_status=0
wait "$ruby_pid" || ruby_status=$?
cat "$ruby_log"
[ "$ruby_status" -eq 0 ] || echo "== rubocop or the Ruby unit tests failed (above)"
echo "== mocha: the tests that need the machine to themselves, one at a time"
alone_status=0
lane_started=$SECONDS
npx --no-install mocha --config test/lanes/alone.js || alone_status=$?
echo "== the alone lane took $((SECONDS - lane_started)) s; npm test $SECONDS s in all"
if [ "$together_status" -ne 0 ]; then
  echo "== failed in the lane of tests two at a time (again, from its report above)"
  sed -n '/[0-9][0-9]* failing/,$p' "$together_log"
fi
if [ "$eslint_status" -ne 0 ]; then
  echo "== failed: eslint (again, its last lines)"
  tail -n 40 "$eslint_log"
fi
if [ "$ruby_status" -ne 0 ]; then
  echo "== failed: rubocop or the Ruby unit tests (again, their last lines)"
  tail -n 40 "$ruby_log"
fi
[ "$eslint_status" -eq 0 ] && [ "$ruby_status" -eq 0 ] && [ "$together_status" -eq 0 ] && [ "$alone_status" -eq 0 ]
