#!/usr/bin/env bash
# What one more held connection costs each server, and what holds it (resident memory by kind,
# the runtime's objects by class, fibers): keep-alive connections each waiting on GET /delay,
# at a few counts. Usage: scripts/held_memory.sh [--servers node,em,async_http,async] [--counts 0,1000,2000,4000]
# Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node perf/cli/held_memory.js "$@"
