#!/usr/bin/env bash
# Installs Debian's chromium (the console's browser tests drive it with playwright-core) when
# /usr/bin/chromium is absent. Never downloads a browser from anywhere else.
# Prints one line; exits 0 when /usr/bin/chromium is there afterwards, 1 otherwise.
set -u
BIN=/usr/bin/chromium
if [ -x "$BIN" ]; then echo "chromium: $BIN"; exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then echo "apt-get not available: cannot install chromium"; exit 1; fi
SUDO=""; if [ "$(id -u)" != "0" ]; then if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else echo "not root and no sudo: cannot install chromium"; exit 1; fi; fi
export DEBIAN_FRONTEND=noninteractive
{ $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; } >/tmp/ensure-chromium.log 2>&1
status=$?
if [ -x "$BIN" ]; then echo "chromium installed: $("$BIN" --version 2>/dev/null | head -1)"; exit 0; fi
echo "chromium could not be installed (apt-get exit $status; see /tmp/ensure-chromium.log)"; exit 1
