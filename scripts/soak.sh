#!/usr/bin/env bash
# Soak test of the servers' memory under mixed load. Usage: scripts/soak.sh [--servers node,em] [--seconds N | --short]
set -euo pipefail
cd "$(dirname "$0")/.."
case " $* " in *" --help "* | *" -h "*) ;; *) bash scripts/setup.sh ;; esac
exec node perf/cli/soak.js "$@"
