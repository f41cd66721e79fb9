#!/usr/bin/env bash
# Installs what this project needs and is missing; quick when everything is already there.
# Usage: scripts/setup.sh [--browser] [--lighter-engines] [--engines] [--references] [--backends] [--test] [--profile] [--runtimes]
# Always: the npm packages (npm ci) and the gems the servers run on (the Gemfile's default group,
# into vendor/bundle), and, as root, Debian's fonts-liberation (the report's charts). The npm
# packages, the gems and Debian's packages are installed side by side, each with one line saying
# so; all missing Debian packages in one apt-get call (apt-get update only when it fails).
#   --browser     also Debian's chromium (the report's browser test needs it)
#   --lighter-engines  also Debian's httperf and wrk, which the runner's default run calls to
#                 run some scenarios again where the built-in engine cannot give a verdict, and
#                 the C load generator of kind rate (perf/c/rate_client.c, on Debian's
#                 libhttp-parser-dev); without root, one line says how to install them and the
#                 set-up goes on
#   --engines     also Debian's httperf and wrk (the cross-checking load engines), slowhttptest
#                 (the slow-read attack the hostile-client tests make), tsung (the distributed
#                 engine) and openssh-server (the ssh daemons of --load-hosts netns:N)
#   --references  also the reference servers: Debian's nginx-light (perf/nginx/) and apache2
#                 (perf/apache/), and the C servers of perf/c/ built on Debian's libevent-dev
#                 and libevhtp-dev
#   --backends    also the backends of the /upstream and /db routes: Debian's redis-server and
#                 the upstream service of perf/c/ built on libevent-dev (and the libevent
#                 reference the runs calibrate the host with); without root, one line says how
#                 to install them and the set-up goes on (runs skip their scenarios)
#   --test        also the gems of the Gemfile's test group (rubocop, minitest: npm test)
#   --profile     also the gems of the Gemfile's profile group (StackProf: scripts/profile.sh,
#                 scripts/profile_em.sh)
#   --runtimes    also every runtime the project installs itself (perf/runtimes.json: Node 22 and
#                 24 from the npm registry, Ruby 3.3 built with YJIT from Debian's source, about
#                 5 min on 2 cores, and its gems), once per checkout, into .runtimes/ (npm run
#                 runtimes -- install); a run installs the ones it needs by itself
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
want_lighter=0
want_engines=0
want_references=0
want_backends=0
want_test=0
want_profile=0
want_runtimes=0
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    --lighter-engines) want_lighter=1 ;;
    --engines) want_engines=1 ;;
    --references) want_references=1 ;;
    --backends) want_backends=1 ;;
    --test) want_test=1 ;;
    --profile) want_profile=1 ;;
    --runtimes) want_runtimes=1 ;;
    *) echo "setup: unknown option '$arg' (known: --browser, --lighter-engines, --engines, --references, --backends, --test, --profile, --runtimes)" >&2; exit 2 ;;
  esac
done

fail() { echo "setup: $*" >&2; exit 1; }

command -v node >/dev/null || fail "node is not installed; install Node.js 20.19 or newer (Debian: apt-get install nodejs npm)"
command -v npm >/dev/null || fail "npm is not installed; install it (Debian: apt-get install npm)"
command -v ruby >/dev/null || fail "ruby is not installed; install Ruby 3.x (Debian: apt-get install ruby-full)"
command -v bundle >/dev/null || fail "bundler is not installed; run: gem install bundler"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || fail "Node $(node --version) is too old; this project needs Node 20.19 or newer"

as_root=0
[ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && as_root=1

# What Debian packages are missing. As root they are all installed by one apt-get call below;
# without root, those a run can go without are named in a note, the others stop the set-up.
pkgs=()     # missing, installed as root
needed=()   # missing and required: without root, the set-up stops and says how to install them
notes=()    # without root: what the runs go without, and how to install it
need() { pkgs+=("$1"); needed+=("$1"); }
optional() { # optional PACKAGE NOTE
  if [ "$as_root" -eq 1 ]; then pkgs+=("$1"); else notes+=("$2"); fi
}
has() { [[ " ${pkgs[*]} " == *" $1 "* ]]; }

# The lighter engines the default run calls: without root the run goes on without them (their
# scenarios' verdicts then come from the built-in engines, where those can give one).
if [ "$want_lighter" -eq 1 ] && [ "$want_engines" -eq 0 ]; then
  lighter=()
  command -v httperf >/dev/null || lighter+=(httperf)
  command -v wrk >/dev/null || lighter+=(wrk)
  if [ "${#lighter[@]}" -gt 0 ]; then
    if [ "$as_root" -eq 1 ]; then
      pkgs+=("${lighter[@]}")
    else
      notes+=("the run calls ${lighter[*]} for the scenarios the built-in engine cannot judge; install with: sudo apt-get install ${lighter[*]} (going on without)")
    fi
  fi
fi
# The C load generator of kind rate (perf/c/rate_client.c, built below): without it the runs use
# the built-in constant_rate engine, heavier, and say so in one line.
want_rate_client=0
if [ "$want_lighter" -eq 1 ] || [ "$want_engines" -eq 1 ]; then
  want_rate_client=1
  [ -f /usr/include/http_parser.h ] || optional libhttp-parser-dev \
    "the C load generator of kind rate needs Debian's libhttp-parser-dev; install with: sudo apt-get install libhttp-parser-dev (runs use the heavier built-in engine until then)"
fi
[ "$want_browser" -eq 1 ] && ! command -v chromium >/dev/null && need chromium
if [ "$want_engines" -eq 1 ]; then
  command -v httperf >/dev/null || need httperf
  command -v wrk >/dev/null || need wrk
  command -v slowhttptest >/dev/null || need slowhttptest
  command -v tsung >/dev/null || need tsung
fi
if [ "$want_references" -eq 1 ]; then
  [ -f /usr/include/event2/http.h ] || need libevent-dev
  [ -f /usr/include/evhtp/evhtp.h ] || need libevhtp-dev
fi
# The backends of the /upstream and /db routes (perf/lib/hosts/backends.js starts them): the
# upstream service built on libevent-dev, and Debian's redis-server (under the policy that
# starts no service, below). Without root the runs skip their scenarios, said in one line.
if [ "$want_backends" -eq 1 ]; then
  backends_missing=()
  [ -f /usr/include/event2/http.h ] || has libevent-dev || backends_missing+=(libevent-dev)
  [ -x /usr/bin/redis-server ] || backends_missing+=(redis-server)
  if [ "${#backends_missing[@]}" -gt 0 ]; then
    if [ "$as_root" -eq 1 ]; then
      pkgs+=("${backends_missing[@]}")
    else
      notes+=("the /upstream and /db scenarios need ${backends_missing[*]}; install with: sudo apt-get install ${backends_missing[*]} (runs skip them until then)")
    fi
  fi
fi
# Packages whose install would start a system-wide service on every address, which this
# project does not want: installed under a policy that lets no service start (policy-rc.d),
# unless the machine already has a policy of its own. openssh-server gives the netns load
# hosts their ssh daemons (perf/lib/hosts/load_hosts.js starts one per namespace, on its address
# only); apache2 and nginx-light are references, started by their launchers when a run asks;
# redis-server is started by the runner in a directory of its own.
[ "$want_engines" -eq 1 ] && [ ! -x /usr/sbin/sshd ] && need openssh-server
[ "$want_references" -eq 1 ] && [ ! -x /usr/sbin/apache2 ] && need apache2
# nginx lives in /usr/sbin, which is not on every user's PATH.
[ "$want_references" -eq 1 ] && ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ] && need nginx-light
services=()
for p in openssh-server apache2 nginx-light redis-server; do has "$p" && services+=("$p"); done
# The report's charts are set in Liberation Sans; without it they still render, less neatly.
if [ ! -f /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf ] && [ ! -f /usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf ]; then
  optional fonts-liberation "charts look best with Debian's fonts-liberation (sudo apt-get install fonts-liberation)"
fi

if [ "$as_root" -eq 0 ] && [ "${#needed[@]}" -gt 0 ]; then
  fail "missing ${needed[*]}; install with: sudo apt-get install ${needed[*]}"
fi
for note in ${notes[@]+"${notes[@]}"}; do echo "setup: note: $note" >&2; done

# The installs run side by side (npm and apt-get mostly wait on the network and the disk, the
# gems' C extensions on the CPUs); each says what it installs in one line, and on failure
# prints its own messages and one line saying what failed. A failed step lets the others
# finish (an apt-get cut short can leave dpkg half done) before the set-up exits.
logs="$(mktemp -d "${TMPDIR:-/tmp}/em-vs-node-setup.XXXXXX")"
pids=()
made_policy=0
cleanup() {
  local pid
  for pid in ${pids[@]+"${pids[@]}"}; do wait "$pid" 2>/dev/null || true; done
  [ "$made_policy" -eq 1 ] && rm -f /usr/sbin/policy-rc.d
  rm -rf "$logs"
}
trap cleanup EXIT
# Ctrl-C: npm stops at once; apt-get (which ignores it, as a background job) is let finish.
trap '[ -n "${npm_pid:-}" ] && kill "$npm_pid" 2>/dev/null; exit 130' INT
trap '[ -n "${npm_pid:-}" ] && kill "$npm_pid" 2>/dev/null; exit 143' TERM

# npm: reinstall only when the lock file changed since the last install.
npm_pid=""
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)…"
  npm ci --no-audit --no-fund --loglevel=error >"$logs/npm.log" 2>&1 &
  npm_pid=$!
  pids+=("$npm_pid")
fi

apt_pid=""
if [ "${#pkgs[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${pkgs[*]}…"
  # A package that would start a service (above) puts the whole call under a policy that lets
  # no service start, when the machine has no policy of its own.
  if [ "${#services[@]}" -gt 0 ] && [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  (
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -qq "${pkgs[@]}" >"$logs/apt.log" 2>&1; then
      apt-get update -qq >/dev/null 2>&1 || true
      apt-get install -y -qq "${pkgs[@]}" >"$logs/apt.log" 2>&1
    fi
  ) &
  apt_pid=$!
  pids+=("$apt_pid")
fi

# The gems go to vendor/bundle (see .bundle/config), so no root is needed: only the groups asked
# for, so the servers' own gems (the default group) are all a run waits for. The groups and the
# parallel build are given in the environment, which bundler does not write to .bundle/config.
without=()
[ "$want_test" -eq 1 ] || without+=(test)
[ "$want_profile" -eq 1 ] || without+=(profile)
bundle_without="$(IFS=:; echo "${without[*]}")"
gems_failed=0
if ! BUNDLE_WITHOUT="$bundle_without" bundle check >/dev/null 2>&1; then
  groups="default"
  [ "$want_test" -eq 1 ] && groups+=", test"
  [ "$want_profile" -eq 1 ] && groups+=", profile"
  echo "setup: installing gems (bundle install: $groups)…"
  if ! command -v g++ >/dev/null; then
    echo "setup: g++ is missing; EventMachine compiles a C++ extension (Debian: apt-get install build-essential)" >&2
    gems_failed=1
  else
    jobs="$(nproc 2>/dev/null || echo 2)"
    BUNDLE_WITHOUT="$bundle_without" BUNDLE_JOBS="$jobs" MAKEFLAGS="${MAKEFLAGS:--j$jobs}" \
      bundle install --quiet || { echo "setup: bundle install failed; see the messages above" >&2; gems_failed=1; }
  fi
fi

failed=0
if [ -n "$npm_pid" ] && ! wait "$npm_pid"; then
  cat "$logs/npm.log" >&2
  echo "setup: npm ci failed; see the messages above" >&2
  failed=1
fi
if [ -n "$apt_pid" ] && ! wait "$apt_pid"; then
  grep -v '^\s*$' "$logs/apt.log" >&2 || true
  echo "setup: apt-get could not install ${pkgs[*]}; see the messages above" >&2
  failed=1
fi
pids=()
[ "$gems_failed" -eq 0 ] && [ "$failed" -eq 0 ] || exit 1

# The C reference servers (perf/c/), built with the system compiler; one that cannot be built
# is skipped by the runner with one line, as a missing nginx is.
if [ "$want_references" -eq 1 ] && command -v make >/dev/null; then
  make -s -k -C perf/c >/dev/null 2>perf/c/build.log || echo "setup: note: some C reference servers did not build (see perf/c/build.log); runs skip them" >&2
elif [ "$want_backends" -eq 1 ] && [ -f /usr/include/event2/http.h ] && command -v make >/dev/null; then
  # The upstream service, and the libevent reference every quick and full run calibrates the host with.
  make -s -C perf/c build/upstream build/libevent_server >/dev/null 2>perf/c/build.log || echo "setup: note: the upstream service or the libevent reference did not build (see perf/c/build.log); runs skip the /upstream scenarios or the host's calibration" >&2
fi

if [ "$want_rate_client" -eq 1 ] && [ -f /usr/include/http_parser.h ] && command -v make >/dev/null; then
  make -s -C perf/c build/rate_client >/dev/null 2>perf/c/build_rate_client.log || echo "setup: note: the C load generator of kind rate did not build (see perf/c/build_rate_client.log); runs use the heavier built-in engine" >&2
fi

# The runtimes last: Ruby's build takes both cores for minutes, after everything else is in.
# Each says its progress; quick when they are installed (it checks their gems).
if [ "$want_runtimes" -eq 1 ]; then
  node perf/cli/runtimes.js install | sed -u 's/^/setup: /' || { echo "setup: a runtime could not be installed (above)" >&2; exit 1; }
fi
exit 0
