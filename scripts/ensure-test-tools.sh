#!/usr/bin/env bash
# Installs, where missing, the Debian packages the test suite drives (redis-server, chromium,
# prometheus + promtool), before any test runs: `npm test` calls it from `pretest`, so the install
# time on a fresh CI machine never counts against a test file's timeout. The tests call the same
# scripts again (a no-op once installed) and fail loudly when a tool is still missing. Each package
# is announced in one line before it is installed (scripts/lib/debian-packages.sh).
# Exits 1 when any tool could not be installed.
set -u
cd "$(dirname "$0")"
status=0
for tool in redis chromium prometheus; do
  bash "./ensure-$tool.sh" || status=1
done
exit $status
