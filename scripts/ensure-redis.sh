#!/usr/bin/env bash
# Installs Debian's redis-server (the Redis backend's tests start real servers) when absent.
# Prints one line per package it installs, then one line; exits 0 when redis-server is on PATH
# afterwards, 1 otherwise.
set -u
. "$(dirname "$0")/lib/debian-packages.sh"
if command -v redis-server >/dev/null 2>&1; then echo "redis-server: $(command -v redis-server)"; exit 0; fi
install_debian_packages redis "the cluster-mode tests start their own Redis servers" redis-server
if command -v redis-server >/dev/null 2>&1; then echo "redis-server installed: $(redis-server --version | head -1)"; exit 0; fi
echo "redis-server could not be installed"; exit 1
