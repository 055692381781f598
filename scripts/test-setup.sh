# Sourced by scripts/test: installs what the tests need when it is missing, and starts a
# throwaway PostgreSQL when none is named, so that the first run on a clean Debian machine
# passes. Set WAYMARK_TEST_POSTGRES=0 to run the server tests on SQLite only.

# Debian packages the tests run: PostgreSQL (server tests), SQLite's shell (reliability
# checks), Chromium and its driver (browser tests), zbar (QR codes read back).
install_missing_debian_packages() {
  local need=""
  command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3"
  command -v chromium >/dev/null 2>&1 || need="$need chromium"
  command -v chromedriver >/dev/null 2>&1 || need="$need chromium-driver"
  # The QR code tests read the tickets they draw with a real reader (PLN-9).
  command -v zbarimg >/dev/null 2>&1 || need="$need zbar-tools"
  if [ "${WAYMARK_TEST_POSTGRES:-1}" != 0 ] && [ -z "${WAYMARK_TEST_POSTGRES_URL:-}" ] && ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    need="$need postgresql"
  fi
  [ -z "$need" ] && return 0
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; else
      echo "The tests need these Debian packages:$need. Install them (apt-get install$need) and run again." >&2
      return 1
    fi
  fi
  echo "Installing Debian packages:$need"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
}

# The Python packages of the contract check, the browser tests and the reliability suite. A
# Python that refuses packages of its own (Debian's, PEP 668) gets a virtual environment in
# .build/test-python instead.
install_python_packages() {
  local reqs=(-r scripts/requirements.txt -r Tests/Browser/requirements.txt -r Reliability/requirements.txt)
  if python3 -m pip install -q --disable-pip-version-check "${reqs[@]}" 2>/tmp/waymark-pip.$$; then
    rm -f /tmp/waymark-pip.$$
    return 0
  fi
  if ! grep -q externally-managed /tmp/waymark-pip.$$; then cat /tmp/waymark-pip.$$ >&2; rm -f /tmp/waymark-pip.$$; return 1; fi
  rm -f /tmp/waymark-pip.$$
  local venv=.build/test-python
  [ -x $venv/bin/python3 ] || python3 -m venv $venv
  $venv/bin/python3 -m pip install -q --disable-pip-version-check "${reqs[@]}"
  export PATH="$PWD/$venv/bin:$PATH"
}

# A PostgreSQL cluster of its own on a free port, stopped by stop_throwaway_postgres.
pg_data=""
pg_bin=""
start_throwaway_postgres() {
  if [ "${WAYMARK_TEST_POSTGRES:-1}" = 0 ] || [ -n "${WAYMARK_TEST_POSTGRES_URL:-}" ]; then return 0; fi
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  pg_data=$(mktemp -d /tmp/waymark-test-pg.XXXXXX)
  local port as=""
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # PostgreSQL will not run as root.
  if [ "$(id -u)" = 0 ]; then chown postgres "$pg_data"; as="su postgres -s /bin/sh -c"; else as="sh -c"; fi
  $as "$pg_bin/initdb -D $pg_data -A trust -U postgres >/dev/null"
  $as "$pg_bin/pg_ctl -D $pg_data -o '-p $port -k $pg_data -c max_connections=300 -c fsync=off' -l $pg_data/server.log start -w >/dev/null"
  export WAYMARK_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL for the tests: $WAYMARK_TEST_POSTGRES_URL (stopped at the end)"
}

stop_throwaway_postgres() {
  [ -n "$pg_data" ] || return 0
  local as="sh -c"
  [ "$(id -u)" = 0 ] && as="su postgres -s /bin/sh -c"
  $as "$pg_bin/pg_ctl -D $pg_data stop -m fast >/dev/null" || true
  rm -rf "$pg_data"
}
