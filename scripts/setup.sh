#!/usr/bin/env bash
# Installs what this project needs and is missing; quick when everything is already there.
# Usage: scripts/setup.sh [--browser] [--lighter-engines] [--engines] [--references] [--backends]
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
#                 the upstream service of perf/c/ built on libevent-dev; without root, one line
#                 says how to install them and the set-up goes on (runs skip their scenarios)
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
want_lighter=0
want_engines=0
want_references=0
want_backends=0
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    --lighter-engines) want_lighter=1 ;;
    --engines) want_engines=1 ;;
    --references) want_references=1 ;;
    --backends) want_backends=1 ;;
    *) echo "setup: unknown option '$arg' (known: --browser, --lighter-engines, --engines, --references, --backends)" >&2; exit 2 ;;
  esac
done

fail() { echo "setup: $*" >&2; exit 1; }

command -v node >/dev/null || fail "node is not installed; install Node.js 20.19 or newer (Debian: apt-get install nodejs npm)"
command -v npm >/dev/null || fail "npm is not installed; install it (Debian: apt-get install npm)"
command -v ruby >/dev/null || fail "ruby is not installed; install Ruby 3.x (Debian: apt-get install ruby-full)"
command -v bundle >/dev/null || fail "bundler is not installed; run: gem install bundler"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || fail "Node $(node --version) is too old; this project needs Node 20.19 or newer"

# npm: reinstall only when the lock file changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)…"
  npm ci --no-audit --no-fund --loglevel=error
fi

# Gems go to vendor/bundle (see .bundle/config), so no root is needed.
if ! bundle check >/dev/null 2>&1; then
  echo "setup: installing gems (bundle install)…"
  command -v g++ >/dev/null || fail "g++ is missing; EventMachine compiles a C++ extension (Debian: apt-get install build-essential)"
  bundle install --quiet || fail "bundle install failed; see the messages above"
fi

# Debian packages: installed only when we are root, otherwise we say what to run.
apt_install() {
  local missing=("$@")
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing Debian packages: ${missing[*]}…"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
      apt-get update -qq >/dev/null 2>&1 || true
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
        || fail "apt-get could not install ${missing[*]}"
    fi
  else
    fail "missing ${missing[*]}; install with: sudo apt-get install ${missing[*]}"
  fi
}

# The lighter engines the default run calls: without root the run goes on without them (their
# scenarios' verdicts then come from the built-in engines, where those can give one).
if [ "$want_lighter" -eq 1 ] && [ "$want_engines" -eq 0 ]; then
  lighter=()
  command -v httperf >/dev/null || lighter+=(httperf)
  command -v wrk >/dev/null || lighter+=(wrk)
  if [ "${#lighter[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
      apt_install "${lighter[@]}"
    else
      echo "setup: note: the run calls ${lighter[*]} for the scenarios the built-in engine cannot judge; install with: sudo apt-get install ${lighter[*]} (going on without)" >&2
    fi
  fi
fi

pkgs=()
# The C load generator of kind rate (perf/c/rate_client.c, built below): without it the runs use
# the built-in constant_rate engine, heavier, and say so in one line.
want_rate_client=0
if [ "$want_lighter" -eq 1 ] || [ "$want_engines" -eq 1 ]; then
  want_rate_client=1
  if [ ! -f /usr/include/http_parser.h ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
      pkgs+=(libhttp-parser-dev)
    else
      echo "setup: note: the C load generator of kind rate needs Debian's libhttp-parser-dev; install with: sudo apt-get install libhttp-parser-dev (runs use the heavier built-in engine until then)" >&2
    fi
  fi
fi
[ "$want_browser" -eq 1 ] && ! command -v chromium >/dev/null && pkgs+=(chromium)
if [ "$want_engines" -eq 1 ]; then
  command -v httperf >/dev/null || pkgs+=(httperf)
  command -v wrk >/dev/null || pkgs+=(wrk)
  command -v slowhttptest >/dev/null || pkgs+=(slowhttptest)
  command -v tsung >/dev/null || pkgs+=(tsung)
fi
if [ "$want_references" -eq 1 ]; then
  [ -f /usr/include/event2/http.h ] || pkgs+=(libevent-dev)
  [ -f /usr/include/evhtp/evhtp.h ] || pkgs+=(libevhtp-dev)
fi
# The backends of the /upstream and /db routes (perf/lib/hosts/backends.js starts them): the
# upstream service built on libevent-dev, and Debian's redis-server (installed below, under the
# policy that starts no service). Without root the runs skip their scenarios, said in one line.
backends_missing=()
if [ "$want_backends" -eq 1 ]; then
  [ -f /usr/include/event2/http.h ] || [[ " ${pkgs[*]} " == *" libevent-dev "* ]] || backends_missing+=(libevent-dev)
  [ -x /usr/bin/redis-server ] || backends_missing+=(redis-server)
fi
if [ "${#backends_missing[@]}" -gt 0 ] && { [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; }; then
  echo "setup: note: the /upstream and /db scenarios need ${backends_missing[*]}; install with: sudo apt-get install ${backends_missing[*]} (runs skip them until then)" >&2
  backends_missing=()
fi
[[ " ${backends_missing[*]} " == *" libevent-dev "* ]] && pkgs+=(libevent-dev)
if [ "${#pkgs[@]}" -gt 0 ]; then apt_install "${pkgs[@]}"; fi

# Packages whose install would start a system-wide service on every address, which this
# project does not want: installed under a policy that lets no service start (policy-rc.d),
# unless the machine already has a policy of its own. openssh-server gives the netns load
# hosts their ssh daemons (perf/lib/hosts/load_hosts.js starts one per namespace, on its address
# only); apache2 and nginx-light are references, started by their launchers when a run asks;
# redis-server is started by the runner in a directory of its own.
services=()
[ "$want_engines" -eq 1 ] && [ ! -x /usr/sbin/sshd ] && services+=(openssh-server)
[ "$want_references" -eq 1 ] && [ ! -x /usr/sbin/apache2 ] && services+=(apache2)
# nginx lives in /usr/sbin, which is not on every user's PATH.
[ "$want_references" -eq 1 ] && ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ] && services+=(nginx-light)
[[ " ${backends_missing[*]} " == *" redis-server "* ]] && services+=(redis-server)
if [ "${#services[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
    apt_install "${services[@]}"
    rm -f /usr/sbin/policy-rc.d
    trap - EXIT
  else
    apt_install "${services[@]}"
  fi
fi

# The C reference servers (perf/c/), built with the system compiler; one that cannot be built
# is skipped by the runner with one line, as a missing nginx is.
if [ "$want_references" -eq 1 ] && command -v make >/dev/null; then
  make -s -k -C perf/c >/dev/null 2>perf/c/build.log || echo "setup: note: some C reference servers did not build (see perf/c/build.log); runs skip them" >&2
elif [ "$want_backends" -eq 1 ] && [ -f /usr/include/event2/http.h ] && command -v make >/dev/null; then
  make -s -C perf/c build/upstream >/dev/null 2>perf/c/build.log || echo "setup: note: the upstream service did not build (see perf/c/build.log); runs skip the /upstream scenarios" >&2
fi

if [ "$want_rate_client" -eq 1 ] && [ -f /usr/include/http_parser.h ] && command -v make >/dev/null; then
  make -s -C perf/c build/rate_client >/dev/null 2>perf/c/build_rate_client.log || echo "setup: note: the C load generator of kind rate did not build (see perf/c/build_rate_client.log); runs use the heavier built-in engine" >&2
fi

# The report's charts are set in Liberation Sans; without it they still render, less neatly.
if [ ! -f /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf ] && [ ! -f /usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    apt_install fonts-liberation
  else
    echo "setup: note: charts look best with Debian's fonts-liberation (sudo apt-get install fonts-liberation)" >&2
  fi
fi
exit 0
