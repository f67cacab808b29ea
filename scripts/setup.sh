#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine, idempotently:
# Debian packages (openssl, etcd, Go toolchain for the control-plane build), npm packages,
# and the Kubernetes control plane binaries (built once, cached under ~/.cache/kruise-serverless).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
if ! command -v openssl >/dev/null; then
  $SUDO apt-get update >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends openssl >&2
fi

# npm packages: reinstall when the lockfile changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] npm ci" >&2
  npm ci --no-audit --no-fund >&2
fi

bash test/cluster/build-control-plane.sh
