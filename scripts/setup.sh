# Sourced by serve.sh and test.sh: installs what Scorekeeper needs when it is missing.
# Usage: setup_scorekeeper [--for-tests]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

missing_debian_packages() {
  local for_tests="$1" need=()
  command -v python3 >/dev/null || need+=(python3)
  if command -v python3 >/dev/null; then
    python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
  fi
  # WeasyPrint renders with Pango and needs at least one font on the machine.
  ldconfig -p 2>/dev/null | grep -q 'libpango-1.0.so.0' || need+=(libpango-1.0-0)
  ldconfig -p 2>/dev/null | grep -q 'libpangoft2-1.0.so.0' || need+=(libpangoft2-1.0-0)
  { command -v fc-list >/dev/null && fc-list | grep -qi dejavu; } || need+=(fontconfig fonts-dejavu-core)
  if [ "$for_tests" = yes ]; then
    [ -x /usr/bin/chromium ] || need+=(chromium)
    command -v pdftoppm >/dev/null || need+=(poppler-utils)
    command -v zbarimg >/dev/null || need+=(zbar-tools)
  fi
  echo "${need[@]:-}"
}

install_debian_packages() {
  local need
  need="$(missing_debian_packages "$1")"
  [ -z "$need" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian packages: $need"
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
  else
    echo "Scorekeeper needs these Debian packages, which are missing:" >&2
    echo "    apt-get install $need" >&2
    echo "Run that as root (or with sudo), then run this command again." >&2
    exit 1
  fi
}

install_python_packages() {
  if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "Scorekeeper needs Python 3.11 or newer; this python3 is $(python3 --version)." >&2
    exit 1
  fi
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  # Reinstall only when the package list changed.
  local stamp="$VENV/.scorekeeper-installed" want
  want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "Installing Python packages into $VENV"
    if ! "$VENV/bin/pip" install -q -e "$ROOT[test]" > "$VENV/pip.log" 2>&1; then
      cat "$VENV/pip.log" >&2
      echo "pip could not install Scorekeeper's Python packages (see above)." >&2
      exit 1
    fi
    echo "$want" > "$stamp"
  fi
}

setup_scorekeeper() {
  local for_tests=no
  [ "${1:-}" = "--for-tests" ] && for_tests=yes
  install_debian_packages "$for_tests"
  install_python_packages
  export PATH="$VENV/bin:$PATH"
}
