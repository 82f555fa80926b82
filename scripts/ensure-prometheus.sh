#!/usr/bin/env bash
# Installs Debian's prometheus package (prometheus + promtool) when absent. Used by the Prometheus
# tests (npm test); prints one line per package it installs, then one line, and exits 0 when the
# binaries are available, 1 otherwise.
set -u
. "$(dirname "$0")/lib/debian-packages.sh"
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
  echo "prometheus: $(command -v prometheus)"; exit 0
fi
install_debian_packages prometheus "the tests scrape the service and check the alert rules with promtool" prometheus
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then echo "prometheus installed: $(prometheus --version 2>&1 | head -1)"; exit 0; fi
echo "prometheus could not be installed"; exit 1
