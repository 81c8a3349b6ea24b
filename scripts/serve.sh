#!/usr/bin/env bash
# Sets up Scorekeeper and runs it. Extra arguments go to `scorekeeper serve`
# (e.g. --local to listen on this machine only, --port 8080).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
setup_scorekeeper
cd "$ROOT"
scorekeeper --help
echo
echo "A scored example (examples/top-game.json):"
scorekeeper score examples/top-game.json
