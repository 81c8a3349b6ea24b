#!/usr/bin/env bash
# Sets up Scorekeeper and serves the table app with waitress on port 8000,
# reachable from phones on the same network. The database lives in instance/.
# Extra arguments go to `scorekeeper serve`: --local (this machine only), --port N.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
setup_scorekeeper
cd "$ROOT"
exec scorekeeper serve "$@"
