#!/usr/bin/env bash
# Runs the whole system locally: against $KUBECONFIG if set, otherwise against a local control
# plane started (and left running) by the project. Installs what it needs first (with $KUBECONFIG:
# no control plane build and nothing that needs root, see setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
KS_SETUP_FOR=start bash scripts/setup.sh
# One Node process (no tsx CLI parent relaying signals to it): Ctrl-C reaches it once from the
# terminal; its own handler runs the cleanup.
exec node --import tsx scripts/start.ts "$@"
