#!/usr/bin/env bash
# Installs Debian's wrk (the HTTP load generator of the throughput benchmarks) when absent.
# Prints one line per package it installs, then one line; exits 0 when wrk is on PATH afterwards.
set -u
. "$(dirname "$0")/lib/debian-packages.sh"
if command -v wrk >/dev/null 2>&1; then echo "wrk: $(command -v wrk)"; exit 0; fi
install_debian_packages wrk "the throughput benchmarks load the service with it" wrk
if command -v wrk >/dev/null 2>&1; then echo "wrk installed"; exit 0; fi
echo "wrk could not be installed"; exit 1
