# Sourced by serve.sh and test.sh: installs what Scorekeeper needs when it is missing.
# Usage: setup_scorekeeper [--for-tests]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

# Whether fontconfig lists a font matching a pattern (never without fc-list).
has_font() {
  command -v fc-list >/dev/null && [ -n "$(fc-list "$1" family)" ]
}

missing_debian_packages() {
  local for_tests="$1" need=()
  command -v python3 >/dev/null || need+=(python3)
  if command -v python3 >/dev/null; then
    python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
  fi
  # WeasyPrint renders with Pango and needs at least one font on the machine.
  # (grep reads to the end: with -q it would quit early, and the writer's
  # SIGPIPE would fail the pipe under pipefail although the library is there.)
  ldconfig -p 2>/dev/null | grep 'libpango-1.0.so.0' >/dev/null || need+=(libpango-1.0-0)
  ldconfig -p 2>/dev/null | grep 'libpangoft2-1.0.so.0' >/dev/null || need+=(libpangoft2-1.0-0)
  has_font 'DejaVu Sans' || need+=(fontconfig fonts-dejavu-core)
  # Names from a phone in the PDF: colour emoji, and Chinese, Japanese and
  # Korean from one small font (what no font has is printed as U+XXXX).
  has_font ':color=true:charset=1f600' || need+=(fonts-noto-color-emoji)
  has_font ':charset=738b 3055 ae40' || need+=(fonts-wqy-microhei)
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
  # The translations' .mo files, from the .po files that changed (never committed).
  "$VENV/bin/python" -m scorekeeper.translations >/dev/null
  export PATH="$VENV/bin:$PATH"
}
