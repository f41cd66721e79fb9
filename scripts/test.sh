#!/usr/bin/env bash
# The project's one test command (`npm test`): installs what is missing, lints, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
npx --no-install eslint --max-warnings 0 .
npx --no-install mocha "$@"
