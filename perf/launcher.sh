# What the reference launchers share (perf/nginx/launch.sh, perf/apache/launch.sh source it):
# their options, finding the server's binary, a fresh directory per launch (removing those of
# earlier launches whose server has gone), and escaping for sed. Set before sourcing:
#   KIND          the server's name in messages and directory names (nginx, apache)
#   DEFAULT_PORT  the port without --port
#   PID_FILE      the pid file's name in the directory (the server removes or leaves it)
# launch_options "$@" sets host, port and root; find_server_binary ENV_VALUE CANDIDATE… sets
# bin; fresh_prefix sets prefix.

usage_line="usage: launch.sh --host HOST --port PORT [--root DIR]"
here="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"

launch_options() {
  host=127.0.0.1
  port="$DEFAULT_PORT"
  root="$here/../../shared_www"
  while [ $# -gt 0 ]; do
    case "$1" in
      --host | --port | --root)
        [ $# -ge 2 ] || { echo "$KIND launcher: $1 needs a value ($usage_line)" >&2; exit 2; }
        case "$1" in --host) host="$2" ;; --port) port="$2" ;; --root) root="$2" ;; esac
        shift 2 ;;
      *) echo "$KIND launcher: unknown option '$1' ($usage_line)" >&2; exit 2 ;;
    esac
  done
  case "$port" in '' | *[!0-9]*) echo "$KIND launcher: --port must be a number, not '$port'" >&2; exit 2 ;; esac
  root="$(cd "$root" 2>/dev/null && pwd)" || { echo "$KIND launcher: no such folder: $root" >&2; exit 2; }
}

# The first executable of: the value of the server's environment variable, then the candidates.
find_server_binary() {
  bin="$1"
  shift
  if [ -n "$bin" ] && [ ! -x "$bin" ]; then
    echo "$KIND launcher: $bin (from the environment) is not an executable; point it at the $KIND binary or leave it unset" >&2
    exit 127
  fi
  if [ -z "$bin" ]; then
    for candidate in "$@"; do
      if [ -n "$candidate" ] && [ -x "$candidate" ]; then bin="$candidate"; break; fi
    done
  fi
  if [ -z "$bin" ]; then
    echo "$KIND launcher: $KIND is not installed (scripts/setup.sh --references installs it)" >&2
    exit 127
  fi
}

fresh_prefix() {
  local tmp="${TMPDIR:-/tmp}"
  find "$tmp" -maxdepth 1 -name "em-vs-node-$KIND.*" -type d -user "$(id -u)" -mmin +1 2>/dev/null | while read -r old; do
    local pid
    pid="$(cat "$old/$PID_FILE" 2>/dev/null || true)"
    if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then rm -rf "$old" 2>/dev/null || true; fi
  done || true
  prefix="$(mktemp -d "$tmp/em-vs-node-$KIND.XXXXXX")"
}

escape() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }
