# Sourced by scripts/ensure-*.sh: installs Debian packages the tests or benchmarks drive, saying so first.
#
#   install_debian_packages <log name> <why> <package>...
#
# Prints one line per package before installing it ("installing Debian package redis-server (...)"),
# installs them with apt-get (as root, or with `sudo -n`), its output in /tmp/ensure-<log name>.log,
# with the packages' own services kept from starting (policy-rc.d: no init system in CI containers;
# the tests start their own servers; POLICY_RC_D moves that file, for the script's own test).
# Returns apt-get's status; prints why when it cannot try.
install_debian_packages() {
  local log="/tmp/ensure-$1.log" why="$2"
  shift 2
  if ! command -v apt-get >/dev/null 2>&1; then echo "apt-get not available: cannot install $*"; return 1; fi
  local sudo=""
  if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else echo "not root and no sudo: cannot install $*"; return 1; fi
  fi
  local pkg
  for pkg in "$@"; do echo "installing Debian package $pkg ($why)"; done
  export DEBIAN_FRONTEND=noninteractive
  local policy="${POLICY_RC_D:-/usr/sbin/policy-rc.d}" created=0 status
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy" && created=1; fi
  { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1
  status=$?
  [ "$created" = 1 ] && $sudo rm -f "$policy"
  [ "$status" = 0 ] || echo "apt-get exit $status; see $log"
  return "$status"
}
