#!/usr/bin/env bash
# Installs Debian's wrk (the HTTP load generator of the throughput benchmarks) when absent.
set -u
if command -v wrk >/dev/null 2>&1; then echo "wrk: $(command -v wrk)"; exit 0; fi
SUDO=""; if [ "$(id -u)" != "0" ]; then SUDO="sudo -n"; fi
export DEBIAN_FRONTEND=noninteractive
{ $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends wrk; } >/tmp/ensure-wrk.log 2>&1
if command -v wrk >/dev/null 2>&1; then echo "wrk installed"; exit 0; fi
echo "wrk could not be installed (see /tmp/ensure-wrk.log)"; exit 1
