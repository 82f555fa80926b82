#!/usr/bin/env bash
# Installs Debian's redis-server (the Redis backend's tests start real servers) when absent.
# Prints one line; exits 0 when redis-server is on PATH afterwards, 1 otherwise.
set -u
if command -v redis-server >/dev/null 2>&1; then echo "redis-server: $(command -v redis-server)"; exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then echo "apt-get not available: cannot install redis-server"; exit 1; fi
SUDO=""; if [ "$(id -u)" != "0" ]; then if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else echo "not root and no sudo: cannot install redis-server"; exit 1; fi; fi
export DEBIAN_FRONTEND=noninteractive
# Keep the package's service from starting (there is no init system in CI containers; tests start their own servers).
policy=/usr/sbin/policy-rc.d; created=0
if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null && $SUDO chmod +x "$policy" && created=1; fi
{ $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends redis-server; } >/tmp/ensure-redis.log 2>&1
status=$?
[ "$created" = 1 ] && $SUDO rm -f "$policy"
if command -v redis-server >/dev/null 2>&1; then echo "redis-server installed: $(redis-server --version | head -1)"; exit 0; fi
echo "redis-server could not be installed (apt-get exit $status; see /tmp/ensure-redis.log)"; exit 1
