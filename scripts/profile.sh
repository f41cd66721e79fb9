#!/usr/bin/env bash
# Where each server's time goes, as flame graphs: each server profiled (Node: V8's --cpu-prof;
# Ruby: StackProf, ruby/em/profile.rb) under the same wrk load, one after the other, each fresh.
# Usage: scripts/profile.sh [--servers node_tuned,em_tuned] [--workload hello_keepalive|hello_close|lipsum]
#                           [--seconds N] [--warmup N] [--connections N] [--mode cpu|wall] [--out DIR] [--no-pin]
# Writes SERVER.svg, SERVER.folded, the raw profile and index.html (both graphs, the top frames,
# GC and idle) under perf/results/profiles/<UTC time>/. Details: perf/REFERENCE.md ("scripts/profile.sh: flame graphs").
# Installs what is missing first, wrk and StackProf (the Gemfile's profile group) included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --lighter-engines --profile
# `bundle exec stackprof` sets up the groups installed for it, not the test group (rubocop,
# minitest), which only npm test's set-up installs.
export BUNDLE_WITHOUT=test
exec node perf/cli/profile.js "$@"
