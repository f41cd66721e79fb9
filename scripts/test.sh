#!/usr/bin/env bash
# The project's one test command (`npm test`): installs what is missing (every gem group: the
# linter and the Ruby tests, and StackProf for the profilers' tests), lints, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser --engines --references --backends --async --test --profile
echo "== lint: eslint, rubocop"
npx --no-install eslint --max-warnings 0 .
bundle exec rubocop --format quiet ruby Gemfile
echo "== ruby unit tests"
for test_file in ruby/test/*_test.rb; do bundle exec ruby "$test_file"; done
echo "== mocha"
npx --no-install mocha "$@"
