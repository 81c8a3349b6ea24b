#!/usr/bin/env bash
# Sets up everything the tests need (Debian and Python packages) and runs every test.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
setup_scorekeeper --for-tests
cd "$ROOT"
ruff check .
ruff format --check .
python -m pytest -q -p no:cacheprovider "$@"
