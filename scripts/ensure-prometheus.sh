#!/usr/bin/env bash
# Installs Debian's prometheus package (prometheus + promtool) when absent. Used by the Prometheus
# test (npm test); prints one line and exits 0 when the binaries are available, 1 otherwise.
set -u
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
  echo "prometheus: $(command -v prometheus)"; exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then echo "apt-get not available: cannot install prometheus"; exit 1; fi
SUDO=""; if [ "$(id -u)" != "0" ]; then if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else echo "not root and no sudo: cannot install prometheus"; exit 1; fi; fi
export DEBIAN_FRONTEND=noninteractive
# Keep the package's service from starting (there is no init system in CI containers).
policy=/usr/sbin/policy-rc.d; created=0
if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null && $SUDO chmod +x "$policy" && created=1; fi
{ $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends prometheus; } >/tmp/ensure-prometheus.log 2>&1
status=$?
[ "$created" = 1 ] && $SUDO rm -f "$policy"
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then echo "prometheus installed: $(prometheus --version 2>&1 | head -1)"; exit 0; fi
echo "prometheus could not be installed (apt-get exit $status; see /tmp/ensure-prometheus.log)"; exit 1
