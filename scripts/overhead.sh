#!/usr/bin/env bash
# What each layer costs: each project server against its bare runtime on GET /hello, server CPU
# per request and req/s, keep-alive and Connection: close, in interleaved wrk rounds.
# Usage: scripts/overhead.sh [--rounds 5] [--seconds 3] [--pairs node:node_bare,em:em_bare,async:async_bare] [--out DIR]
# Details: perf/REFERENCE.md ("What each layer costs"). Installs what is missing first, wrk included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --engines
exec node perf/cli/overhead.js "$@"
