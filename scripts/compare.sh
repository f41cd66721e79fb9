#!/usr/bin/env bash
# Compares two results of scripts/run_scenarios.sh and exits 1 on a significant regression.
# Usage: scripts/compare.sh RUN_A RUN_B [--threshold PCT] [--metric m1,m2]   (details: perf/REFERENCE.md, "Comparing two runs")
# RUN_A and RUN_B are read relative to the current directory (or `latest`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -d "$root/node_modules/commander" ] || [ ! -d "$root/node_modules/jstat" ]; then
  echo "compare.sh: the npm packages are missing; run: npm ci in $root (or scripts/setup.sh)" >&2
  exit 2
fi
exec node "$root/perf/cli/compare.js" "$@"
