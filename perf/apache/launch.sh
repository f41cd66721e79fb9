#!/usr/bin/env bash
# Starts Apache httpd as the `apache` reference server of perf/servers.json: renders
# perf/apache/httpd.conf.template for one host and port into a fresh directory and execs
# apache2 -X (one process, in the foreground), so the process the runner started (and
# measures: CPU, RSS) is Apache itself. No system service or configuration is touched.
# Run as root, Apache serves as www-data: the site and /hello are copied into the fresh
# directory, readable by it (a checkout under a private folder would not be).
# Usage: perf/apache/launch.sh --host HOST --port PORT [--root DIR]
# APACHE=/path/to/apache2 picks the binary (default: apache2 on PATH, else /usr/sbin/apache2).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
host=127.0.0.1
port=8084
root="$here/../../shared_www"
while [ $# -gt 0 ]; do
  case "$1" in
    --host) host="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --root) root="$2"; shift 2 ;;
    *) echo "apache launcher: unknown option '$1' (usage: launch.sh --host HOST --port PORT [--root DIR])" >&2; exit 2 ;;
  esac
done
case "$port" in ''|*[!0-9]*) echo "apache launcher: --port must be a number, not '$port'" >&2; exit 2 ;; esac

apache_bin="${APACHE:-}"
if [ -z "$apache_bin" ]; then
  for candidate in "$(command -v apache2 || true)" /usr/sbin/apache2 /usr/local/apache2/bin/httpd; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then apache_bin="$candidate"; break; fi
  done
fi
if [ -z "$apache_bin" ]; then
  echo "apache launcher: apache2 is not installed (scripts/setup.sh --references installs it)" >&2
  exit 127
fi
root="$(cd "$root" && pwd)" || { echo "apache launcher: no such folder: $root" >&2; exit 2; }

tmp="${TMPDIR:-/tmp}"
# Folders of earlier launches whose Apache has gone.
find "$tmp" -maxdepth 1 -name 'em-vs-node-apache.*' -type d -user "$(id -u)" -mmin +1 2>/dev/null | while read -r old; do
  pid="$(cat "$old/apache.pid" 2>/dev/null || true)"
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then rm -rf "$old" 2>/dev/null || true; fi
done || true
prefix="$(mktemp -d "$tmp/em-vs-node-apache.XXXXXX")"
chmod 755 "$prefix"
user=""
if [ "$(id -u)" -eq 0 ]; then
  # Apache will not serve as root: it serves as www-data, from copies it can read.
  cp -R "$root" "$prefix/site"
  mkdir "$prefix/hello_dir" && cp "$here/hello" "$prefix/hello_dir/hello"
  chmod -R a+rX "$prefix/site" "$prefix/hello_dir"
  root="$prefix/site"
  hello_dir="$prefix/hello_dir"
  user="User www-data
Group www-data"
  id www-data >/dev/null 2>&1 || { echo "apache launcher: run as root, Apache needs the user www-data, which is missing" >&2; exit 1; }
else
  hello_dir="$here"
fi

escape() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }
sed -e "s|{{HOST}}|$(escape "$host")|g" -e "s|{{PORT}}|$port|g" \
    -e "s|{{ROOT}}|$(escape "$root")|g" -e "s|{{PREFIX}}|$(escape "$prefix")|g" \
    -e "s|{{HERE}}|$(escape "$hello_dir")|g" \
    "$here/httpd.conf.template" > "$prefix/httpd.conf.part"
# {{USER}} is a line or two, or nothing.
awk -v user="$user" '{ if ($0 == "{{USER}}") print user; else print }' "$prefix/httpd.conf.part" > "$prefix/httpd.conf"
rm -f "$prefix/httpd.conf.part"

"$apache_bin" -t -f "$prefix/httpd.conf" >/dev/null 2>"$prefix/configtest.log" || { echo "apache launcher: the configuration was refused: $(head -1 "$prefix/configtest.log")" >&2; exit 1; }
exec "$apache_bin" -X -f "$prefix/httpd.conf"
