#!/usr/bin/env bash
# The project's main job: benchmarks each server with every scenario and writes the results.
# Usage: scripts/run_scenarios.sh [--quick] [--servers node,em] [--scenarios a,b] [--out DIR] [--list] [--help]
# Details: perf/README.md. Installs what is missing first (scripts/setup.sh; quick when nothing is).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node perf/cli.js "$@"
