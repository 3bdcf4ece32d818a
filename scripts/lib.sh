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

# Runs COMMAND when the script exits, after the commands added before it: a script's own
# cleanup and a helper's (postgres_start's) both run, neither replacing the other. Use it
# instead of `trap ... EXIT` in scripts that source this file.
exit_commands=()
on_exit() { # COMMAND
  exit_commands+=("$1")
  trap run_exit_commands EXIT
}
run_exit_commands() {
  local command
  for command in "${exit_commands[@]}"; do eval "$command"; done
}

# Starts a throwaway PostgreSQL server for the tests and exports ROUTEMAP_TEST_DATABASE_URL
# (postgres://postgres@127.0.0.1:PORT/postgres; the tests create a database of their own in it).
# Debian's `postgresql` package; a cluster in a new temporary folder owned by the `postgres`
# user (initdb and postgres refuse to run as root), on a free loopback port, with fsync off (a
# test cluster is thrown away: it need not survive a power loss, and CI's disk is slow;
# POSTGRES_FSYNC=on keeps it, as bench/run --postgres does). It is
# stopped, and its folder removed, when the calling script exits. PGBIN and PGDATA name the
# server's programs and folder, for tests that restart it (`pg_ctl -D "$PGDATA" restart`).
postgres_start() {
  apt_install_missing postgresql postgresql-client
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  local user=postgres run=()
  if [ "$(id -u)" -eq 0 ]; then
    run=(runuser -u postgres --)
  else
    # Not root: the cluster is this user's own (initdb only refuses root).
    user=$(id -un)
  fi
  local root
  root=$(mktemp -d /tmp/routemap-postgres.XXXXXX)
  chmod 755 "$root"
  [ "$user" = postgres ] && chown postgres "$root"
  PGDATA="$root/data"
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  "${run[@]}" "$PGBIN/initdb" -D "$PGDATA" -A trust -U postgres --no-sync >/dev/null
  # In the cluster's configuration, so a plain `pg_ctl start` (a test restarting it) keeps them.
  cat >>"$PGDATA/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$root'
fsync = ${POSTGRES_FSYNC:-off}
max_connections = 300
shared_buffers = 64MB
CONF
  "${run[@]}" "$PGBIN/pg_ctl" -D "$PGDATA" -l "$root/server.log" -w start >/dev/null
  POSTGRES_RUN=("${run[@]}")
  POSTGRES_ROOT=$root
  export PGBIN PGDATA POSTGRES_ROOT
  export ROUTEMAP_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  export ROUTEMAP_TEST_POSTGRES_CTL="${run[*]:+${run[*]} }$PGBIN/pg_ctl"
  on_exit postgres_stop
  say "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $PGDATA)"
}

# Stops the server postgres_start started and removes its folder.
postgres_stop() {
  [ -n "${POSTGRES_ROOT:-}" ] || return 0
  "${POSTGRES_RUN[@]}" "$PGBIN/pg_ctl" -D "$PGDATA" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$POSTGRES_ROOT"
  POSTGRES_ROOT=""
}
