#!/usr/bin/env bash
# The project's main job: benchmarks each server with every scenario and writes the results.
# Usage: scripts/run_scenarios.sh [--quick] [--servers node,em] [--scenarios a,b] [--out DIR] [--list] [--help]
# Details: perf/README.md. Installs what is missing first (scripts/setup.sh; quick when nothing
# is): the npm packages and the servers' gems; httperf and wrk, which the default run calls
# again for the scenarios its built-in engine cannot judge, and the C load generator of the
# ramps (not with --no-lighter-engines); the backends of the /upstream and /db routes
# (redis-server, the upstream service), which every run starts for the servers that serve those
# routes, so that a quick run measures them as a full run does; with --references or --seeds, or
# a reference server named in --servers, also the reference servers; with another --engine the
# load engines.
set -euo pipefail
cd "$(dirname "$0")/.."
setup=()
lighter=1
backends=1
listing=0
previous=""
for arg in "$@"; do
  case "$arg" in
    --no-lighter-engines) lighter=0 ;;
    --list | --help | -h) listing=1 ;;
    --references | --seeds) setup+=(--references) ;;
    --engine=httperf | --engine=wrk | --engine=tsung) setup+=(--engines) ;;
    httperf | wrk | tsung) [ "$previous" = "--engine" ] && setup+=(--engines) ;;
  esac
  case "$previous,$arg" in
    --servers,*nginx* | --servers,*apache* | --servers,*libev* | *,--servers=*nginx* | *,--servers=*apache* | *,--servers=*libev*) setup+=(--references) ;;
  esac
  previous="$arg"
done
[ "$listing" -eq 1 ] && { lighter=0; backends=0; }
[ "$lighter" -eq 1 ] && setup+=(--lighter-engines)
[ "$backends" -eq 1 ] && setup+=(--backends)
bash scripts/setup.sh ${setup[@]+"${setup[@]}"}
exec node perf/cli/run.js "$@"
