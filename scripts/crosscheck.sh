#!/usr/bin/env bash
# Cross-check: runs scenarios with two load generators on each server and reports where their
# numbers agree and where they differ, beyond the spread of the trials.
# Usage: scripts/crosscheck.sh [--scenarios a,b] [--engines autocannon,httperf] [--servers node,em] [--repeat N] [--quick] [--out DIR]
# Details: perf/ENGINES.md. Installs what is missing first, httperf and wrk included (scripts/setup.sh --engines).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --engines
exec node perf/cli/crosscheck.js "$@"
