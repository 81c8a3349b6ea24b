#!/usr/bin/env bash
# Sets up everything the tests need (Debian and Python packages) and runs every test:
# those without a browser, then the browser tests, each on two processes
# (pytest-xdist; each browser process serves its own app and drives its own Chromium).
# Arguments go to both runs.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
setup_scorekeeper --for-tests
cd "$ROOT"
ruff check .
ruff format --check .

# pytest's status 5 is "no test collected": arguments that name only browser tests,
# or only the others, leave one of the two runs empty, but not both.
empty=0
run_pytest() {
  local status=0
  python -m pytest -q -p no:cacheprovider "$@" || status=$?
  if [ "$status" = 5 ]; then
    empty=$((empty + 1))
  elif [ "$status" != 0 ]; then
    exit "$status"
  fi
}
run_pytest -m "not browser" -n 2 "$@"
run_pytest -m browser -n 2 "$@"
if [ "$empty" = 2 ]; then
  echo "No test was collected." >&2
  exit 5
fi
