#!/usr/bin/env bash
# Starts nginx as the `nginx` reference server of perf/servers.json: renders
# perf/nginx/nginx.conf.template for one host and port into a fresh directory and execs nginx in
# the foreground, so the process the runner started (and measures: CPU, RSS) is nginx itself.
# Usage: perf/nginx/launch.sh --host HOST --port PORT [--root DIR]
# NGINX=/path/to/nginx picks the binary (default: nginx on PATH, else /usr/sbin/nginx).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
host=127.0.0.1
port=8082
root="$here/../../shared_www"
while [ $# -gt 0 ]; do
  case "$1" in
    --host) host="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --root) root="$2"; shift 2 ;;
    *) echo "nginx launcher: unknown option '$1' (usage: launch.sh --host HOST --port PORT [--root DIR])" >&2; exit 2 ;;
  esac
done
case "$port" in ''|*[!0-9]*) echo "nginx launcher: --port must be a number, not '$port'" >&2; exit 2 ;; esac

nginx_bin="${NGINX:-}"
if [ -z "$nginx_bin" ]; then
  for candidate in "$(command -v nginx || true)" /usr/local/sbin/nginx /usr/sbin/nginx /sbin/nginx; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then nginx_bin="$candidate"; break; fi
  done
fi
if [ -z "$nginx_bin" ]; then
  echo "nginx launcher: nginx is not installed (scripts/setup.sh --references installs it)" >&2
  exit 127
fi
root="$(cd "$root" && pwd)" || { echo "nginx launcher: no such folder: $root" >&2; exit 2; }

tmp="${TMPDIR:-/tmp}"
# Folders of earlier launches whose nginx has gone (nginx removes its pid file when it exits).
find "$tmp" -maxdepth 1 -name 'em-vs-node-nginx.*' -type d -user "$(id -u)" -mmin +1 2>/dev/null | while read -r old; do
  pid="$(cat "$old/nginx.pid" 2>/dev/null || true)"
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then rm -rf "$old" 2>/dev/null || true; fi
done || true
prefix="$(mktemp -d "$tmp/em-vs-node-nginx.XXXXXX")"

escape() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }
sed -e "s|{{HOST}}|$(escape "$host")|g" -e "s|{{PORT}}|$port|g" \
    -e "s|{{ROOT}}|$(escape "$root")|g" -e "s|{{PREFIX}}|$(escape "$prefix")|g" \
    "$here/nginx.conf.template" > "$prefix/nginx.conf"

exec "$nginx_bin" -e stderr -p "$prefix/" -c "$prefix/nginx.conf"
