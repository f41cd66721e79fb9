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
KIND=apache
DEFAULT_PORT=8084
PID_FILE=apache.pid
# shellcheck source=../launcher.sh
. "$(dirname "$0")/../launcher.sh"
launch_options "$@"
find_server_binary "${APACHE:-}" "$(command -v apache2 || true)" /usr/sbin/apache2 /usr/local/apache2/bin/httpd
fresh_prefix
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

sed -e "s|{{HOST}}|$(escape "$host")|g" -e "s|{{PORT}}|$port|g" \
    -e "s|{{ROOT}}|$(escape "$root")|g" -e "s|{{PREFIX}}|$(escape "$prefix")|g" \
    -e "s|{{HERE}}|$(escape "$hello_dir")|g" \
    "$here/httpd.conf.template" > "$prefix/httpd.conf.part"
# {{USER}} is a line or two, or nothing.
awk -v user="$user" '{ if ($0 == "{{USER}}") print user; else print }' "$prefix/httpd.conf.part" > "$prefix/httpd.conf"
rm -f "$prefix/httpd.conf.part"

"$bin" -t -f "$prefix/httpd.conf" >/dev/null 2>"$prefix/configtest.log" || { echo "apache launcher: the configuration was refused: $(head -1 "$prefix/configtest.log")" >&2; exit 1; }
exec "$bin" -X -f "$prefix/httpd.conf"
