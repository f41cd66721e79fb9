#!/usr/bin/env bash
# Starts nginx as the `nginx` reference server of perf/servers.json: renders
# perf/nginx/nginx.conf.template for one host and port into a fresh directory and execs nginx in
# the foreground, so the process the runner started (and measures: CPU, RSS) is nginx itself.
# Usage: perf/nginx/launch.sh --host HOST --port PORT [--root DIR]
# NGINX=/path/to/nginx picks the binary (default: nginx on PATH, else /usr/sbin/nginx).
set -euo pipefail
KIND=nginx
DEFAULT_PORT=8082
PID_FILE=nginx.pid
# shellcheck source=../launcher.sh
. "$(dirname "$0")/../launcher.sh"
launch_options "$@"
find_server_binary "${NGINX:-}" "$(command -v nginx || true)" /usr/local/sbin/nginx /usr/sbin/nginx /sbin/nginx
fresh_prefix

sed -e "s|{{HOST}}|$(escape "$host")|g" -e "s|{{PORT}}|$port|g" \
    -e "s|{{ROOT}}|$(escape "$root")|g" -e "s|{{PREFIX}}|$(escape "$prefix")|g" \
    "$here/nginx.conf.template" > "$prefix/nginx.conf"

exec "$bin" -e stderr -p "$prefix/" -c "$prefix/nginx.conf"
