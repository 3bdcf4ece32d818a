# Shared by scripts/run and scripts/test: installs what a fresh Debian/Ubuntu machine lacks.
# Sourced, not run.

say() { printf 'routemap: %s\n' "$*" >&2; }

# Swift itself is a prerequisite (swift.org's toolchain is not a Debian package).
require_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    say "Swift 6.3 is required and 'swift' is not on PATH."
    say "Install the Swift 6.3 toolchain for your distribution from swift.org, put its usr/bin on PATH, and run this again."
    exit 1
  fi
}

# Installs the Debian packages named in $@ that are missing (apt-get update once, first).
apt_install_missing() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { say "need root (or sudo) to install: ${missing[*]}"; exit 1; }
    sudo="sudo"
  fi
  say "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The system libraries routemap builds against.
install_build_dependencies() {
  apt_install_missing libmicrohttpd-dev libgnutls28-dev libsqlite3-dev pkg-config
}

# A Python virtualenv in .venv with the given PyPI packages (Debian's python3 refuses a
# system-wide pip install).
python_venv() {
  apt_install_missing python3 python3-venv
  if [ ! -x .venv/bin/python ]; then
    /usr/bin/python3 -m venv .venv
  fi
  .venv/bin/python -m pip install -q --disable-pip-version-check "$@"
}
