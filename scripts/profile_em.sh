#!/usr/bin/env bash
# Profiles the EventMachine server with StackProf under wrk load and prints its top frames.
# Usage: scripts/profile_em.sh [--seconds N] [--mode cpu|wall] [--workload a,b] [--tree DIR] [--out DIR]
#   workloads  hello_keepalive  GET /hello, keep-alive
#              hello_close      GET /hello, Connection: close (a connection per request)
#              lipsum           GET /lipsum100k.txt, keep-alive
#              (default: all three, each on a fresh server)
#   --tree DIR profile the server of another checkout (e.g. a git worktree of an earlier
#              commit), with this checkout's gems and StackProf
# Per workload: the server under `ruby -r ruby/em/profile.rb` on the first CPU, sampling from
# when it is ready (SIGUSR1, so start-up is left out), wrk -t1 -c50 on the second CPU, SIGTERM
# (the dump is written on exit), then `stackprof --text --limit 25` and where the samples are
# (Ruby code, C functions, GC). Files: perf/results/profiles/<UTC time>/<workload>.*
# cpu mode samples at most at the kernel's tick rate (CONFIG_HZ: 250 a second on Debian), not
# every 1 ms: 10 s of a saturated server give about 2500 samples.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
NAME=profile_em.sh
WORKLOADS="hello_keepalive,hello_close,lipsum"

usage() { echo "usage: $NAME [--seconds N] [--mode cpu|wall] [--workload $WORKLOADS] [--tree DIR] [--out DIR]"; }
fail() { echo "$NAME: $*" >&2; exit 1; }
bad_usage() { echo "$NAME: $*" >&2; usage >&2; exit 2; }

seconds=10
mode=cpu
workloads="$WORKLOADS"
tree="$root"
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --seconds | --mode | --workload | --tree | --out)
      [ $# -ge 2 ] || bad_usage "$1 needs a value"
      case "$1" in
        --seconds) seconds="$2" ;;
        --mode) mode="$2" ;;
        --workload) workloads="$2" ;;
        --tree) tree="$2" ;;
        --out) out="$2" ;;
      esac
      shift 2 ;;
    *) bad_usage "unknown option '$1'" ;;
  esac
done
[[ "$seconds" =~ ^[1-9][0-9]{0,3}$ ]] || bad_usage "--seconds takes a whole number of seconds, 1 to 9999 (got '$seconds')"
case "$mode" in cpu | wall) ;; *) bad_usage "--mode takes cpu or wall (got '$mode')" ;; esac
IFS=, read -ra chosen <<<"$workloads"
[ "${#chosen[@]}" -gt 0 ] || bad_usage "--workload names no workload"
for w in "${chosen[@]}"; do
  case ",$WORKLOADS," in *",$w,"*) ;; *) bad_usage "unknown workload '$w' (known: $WORKLOADS)" ;; esac
done
[ -f "$tree/ruby/em/server.rb" ] || bad_usage "--tree $tree has no ruby/em/server.rb"
tree="$(cd "$tree" && pwd)"

bash "$root/scripts/setup.sh" --engines --profile
# `bundle exec` below sets up the groups installed for it, not the test group (rubocop,
# minitest), which only npm test's set-up installs.
export BUNDLE_WITHOUT=test

# The same CPUs as the benchmark runner: the server on the first allowed CPU, load on the second.
read -r server_cpu client_cpu pin_note < <(node -e '
  const p = require(process.argv[1]).planPinning();
  console.log(p.enabled ? `${p.server_cpu} ${p.client_cpu}` : `- - ${p.reason}`);' "$root/perf/lib/hosts/pinning.js")
if [ "$server_cpu" = "-" ]; then
  pin_server=()
  pin_client=()
  echo "pinning: off ($pin_note)"
else
  pin_server=(taskset -c "$server_cpu")
  pin_client=(taskset -c "$client_cpu")
  echo "pinning: server on CPU $server_cpu, wrk on CPU $client_cpu"
fi

dir="${out:-$root/perf/results/profiles/$(date -u +%Y-%m-%dT%H-%M-%SZ)}"
mkdir -p "$dir" || fail "cannot create $dir"
dir="$(cd "$dir" && pwd)"
commit="$(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo unknown)"
changed="$(git -C "$tree" status --porcelain -- ruby/em ruby/shared 2>/dev/null | awk '{print $2}' | paste -sd, - || true)"
dirty="${changed:+ with uncommitted changes to $changed}"
echo "profiling: $tree/ruby/em/server.rb at commit $commit$dirty; $mode mode, ${seconds} s per workload"
echo "results: $dir"

server_pid=""
# A server left running by an error or Ctrl-C is this script's own child: stop it.
trap '[ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null; true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  node -e 'require(process.argv[1]).findFreePort().then((p) => console.log(p))' "$root/perf/lib/hosts/server_process.js"
}

last_line() { grep -v '^\s*$' "$1" | tail -n 1 || true; }
# The server's own last words, not profile.rb's "no samples" that follows them.
server_last_line() { grep -v -e '^\s*$' -e '^profile: ' "$1" | tail -n 1 || true; }

profile_one() {
  local w="$1" path="/hello" close=()
  case "$w" in
    hello_close) close=(-H 'Connection: close') ;;
    lipsum) path="/lipsum100k.txt" ;;
  esac
  local port log="$dir/$w.server.log" dump="$dir/$w.dump"
  port="$(free_port)"
  rm -f "$dump"
  # exec: the pid is the server's own, so SIGUSR1 and SIGTERM reach it.
  (cd "$tree" && STACKPROF_OUT="$dump" STACKPROF_MODE="$mode" exec "${pin_server[@]}" \
    ruby -r "$root/ruby/em/profile.rb" ruby/em/server.rb --host 127.0.0.1 --port "$port") >"$log" 2>&1 &
  server_pid=$!
  local i
  for i in $(seq 150); do
    grep -q 'listening on http://' "$log" && break
    kill -0 "$server_pid" 2>/dev/null || fail "$w: the server exited before it was ready: $(server_last_line "$log")"
    [ "$i" -eq 150 ] && fail "$w: the server printed no ready line within 15 s: $(server_last_line "$log")"
    sleep 0.1
  done
  kill -USR1 "$server_pid"
  sleep 0.2 # the trap runs on the server's next pass through Ruby code
  echo "$w: server pid $server_pid ready, sampling; wrk -t1 -c50 -d${seconds}s ${close[*]} http://127.0.0.1:$port$path"
  timeout $((seconds + 30)) "${pin_client[@]}" wrk -t1 -c50 -d"${seconds}s" --timeout 5s "${close[@]}" \
    "http://127.0.0.1:$port$path" >"$dir/$w.wrk.txt" 2>&1 || fail "$w: wrk failed: $(last_line "$dir/$w.wrk.txt")"
  local rps errors
  rps="$(awk '/^Requests\/sec:/ {print $2}' "$dir/$w.wrk.txt")"
  errors="$(grep -o 'Socket errors: .*' "$dir/$w.wrk.txt" || echo 'no socket errors')"
  echo "$w: wrk ${rps:-?} req/s, $errors; stopping the server (SIGTERM), writing the dump"
  kill -TERM "$server_pid"
  for i in $(seq 300); do
    kill -0 "$server_pid" 2>/dev/null || break
    [ "$i" -eq 300 ] && fail "$w: the server did not exit within 30 s of SIGTERM (no dump)"
    sleep 0.1
  done
  wait "$server_pid" || true
  server_pid=""
  [ -s "$dump" ] || fail "$w: no dump written: $(last_line "$log")"
  {
    echo "workload: $w (GET $path${close[*]:+, Connection: close}, wrk -t1 -c50 -d${seconds}s: ${rps:-?} req/s, $errors)"
    echo "server: $tree/ruby/em/server.rb at commit $commit$dirty"
    echo "where: $(cd "$root" && bundle exec ruby ruby/em/profile.rb "$dump")"
    (cd "$root" && bundle exec stackprof --text --limit 25 "$dump")
  } >"$dir/$w.txt" || fail "$w: stackprof could not read $dump"
  echo
  cat "$dir/$w.txt"
  echo
}

for w in "${chosen[@]}"; do profile_one "$w"; done
echo "profiles: $dir (per workload: .txt the top frames, .dump for stackprof --method/--flamegraph, .wrk.txt, .server.log)"
