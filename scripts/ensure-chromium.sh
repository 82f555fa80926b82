#!/usr/bin/env bash
# Installs Debian's chromium (the console's browser tests drive it with playwright-core) when
# /usr/bin/chromium is absent. Never downloads a browser from anywhere else.
# Prints one line per package it installs, then one line; exits 0 when /usr/bin/chromium is there
# afterwards, 1 otherwise.
set -u
. "$(dirname "$0")/lib/debian-packages.sh"
BIN=/usr/bin/chromium
if [ -x "$BIN" ]; then echo "chromium: $BIN"; exit 0; fi
install_debian_packages chromium "the console's browser tests drive it" chromium fonts-dejavu-core
if [ -x "$BIN" ]; then echo "chromium installed: $("$BIN" --version 2>/dev/null | head -1)"; exit 0; fi
echo "chromium could not be installed"; exit 1
