#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine, idempotently:
# Debian packages (openssl, etcd, Go toolchain for the control-plane build), npm packages,
# and the Kubernetes control plane binaries (built once, cached under ~/.cache/kruise-serverless).
set -euo pipefail
cd "$(dirname "$0")/.."

#
# KS_SETUP_FOR=start (npm start) with $KUBECONFIG set: the system runs against that cluster, so no
# control plane is built and nothing needs root; only what `npm start` itself uses is checked.

START_ON_OWN_CLUSTER=""
[ "${KS_SETUP_FOR:-}" = start ] && [ -n "${KUBECONFIG:-}" ] && START_ON_OWN_CLUSTER=1

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
if ! command -v openssl >/dev/null; then
  if [ -n "$START_ON_OWN_CLUSTER" ]; then
    echo "[setup] openssl is missing: npm start makes the local edge's TLS certificates with it. Install it (Debian: sudo apt-get install openssl) and run again." >&2
    exit 1
  fi
  $SUDO apt-get update >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends openssl >&2
fi

# npm packages: reinstall when the lockfile changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] npm ci" >&2
  npm ci --no-audit --no-fund >&2
fi

if [ -n "$START_ON_OWN_CLUSTER" ]; then
  echo "[setup] \$KUBECONFIG is set: using that cluster, no local control plane to build" >&2
  exit 0
fi
bash test/cluster/build-control-plane.sh
