#!/usr/bin/env bash
# The window check: a C stand-in pausing its loop 20 ms every 3 s, searched 10 times on a
# keep-alive ramp; its sustainable rate must not depend on where the pauses fall.
# Usage: scripts/window_check.sh [--searches 10] [--fixed-steps] [--pause-ms 20] [--every-ms 3000] [--out DIR]
# Details: perf/REFERENCE.md ("Ramps in detail", "A step as long as the pause"). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --lighter-engines
exec node perf/cli/window_check.js "$@"
