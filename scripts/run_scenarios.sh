#!/usr/bin/env bash
# The project's main job: benchmarks each server with every scenario and writes the results.
# Usage: scripts/run_scenarios.sh [--quick] [--servers node,em] [--scenarios a,b] [--out DIR] [--list] [--help]
# Details: perf/README.md. Installs what is missing first (scripts/setup.sh; quick when nothing
# is): the npm packages and the servers' gems; httperf and wrk, which the default run calls
# again for the scenarios its built-in engine cannot judge, and the C load generator of the
# ramps (not with --no-lighter-engines); without --quick (or with a backend_ scenario named in
# --scenarios) also the backends of the /upstream and /db scenarios (redis-server, the upstream
# service), which the quick run does not call; with --references or --seeds, or a reference
# server named in --servers, also the reference servers; with another --engine the load engines.
set -euo pipefail
cd "$(dirname "$0")/.."
setup=()
lighter=1
backends=1
backend_scenarios=0
listing=0
previous=""
for arg in "$@"; do
  case "$arg" in
    --no-lighter-engines) lighter=0 ;;
    --quick) backends=0 ;;
    --list | --help | -h) listing=1 ;;
    --references | --seeds) setup+=(--references) ;;
    --engine=httperf | --engine=wrk | --engine=tsung) setup+=(--engines) ;;
    httperf | wrk | tsung) [ "$previous" = "--engine" ] && setup+=(--engines) ;;
  esac
  case "$previous,$arg" in
    --servers,*nginx* | --servers,*apache* | --servers,*libev* | *,--servers=*nginx* | *,--servers=*apache* | *,--servers=*libev*) setup+=(--references) ;;
    --scenarios,*backend_* | *,--scenarios=*backend_*) backend_scenarios=1 ;;
  esac
  previous="$arg"
done
[ "$backend_scenarios" -eq 1 ] && backends=1
[ "$listing" -eq 1 ] && { lighter=0; backends=0; }
[ "$lighter" -eq 1 ] && setup+=(--lighter-engines)
[ "$backends" -eq 1 ] && setup+=(--backends)
bash scripts/setup.sh ${setup[@]+"${setup[@]}"}
exec node perf/cli/run.js "$@"
