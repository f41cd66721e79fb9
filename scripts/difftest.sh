#!/usr/bin/env bash
# The differential tester: the same generated requests to the Node and EM servers, every
# disagreement the contract does not document printed as a case to send again.
# Usage: scripts/difftest.sh [--cases N] [--seed S] [--from I] [--concurrency C] | --seed S --case I
set -euo pipefail
cd "$(dirname "$0")/.."
case " $* " in *" --help "* | *" -h "*) ;; *) bash scripts/setup.sh ;; esac
exec node test/difftest/cli.js "$@"
