#!/usr/bin/env bash
# The differential tester: the same generated requests to two servers (Node and EM, or
# --pair A,B of node, em, async_http, async), every disagreement the contract does not document printed as
# a case to send again; with --corpus DIR, llhttp's own request tests from a checkout of llhttp.
# Usage: scripts/difftest.sh [--pair A,B] [--cases N] [--seed S] [--from I] [--concurrency C] | [--pair A,B] --seed S --case I | [--pair A,B] --corpus DIR [--case I]
set -euo pipefail
cd "$(dirname "$0")/.."
case " $* " in *" --help "* | *" -h "*) ;; *) bash scripts/setup.sh ;; esac
exec node test/difftest/cli.js "$@"
