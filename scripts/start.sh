#!/usr/bin/env bash
# Runs the whole system locally: against $KUBECONFIG if set, otherwise against a local control
# plane started (and left running) by the project. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
bash scripts/setup.sh
# One Node process (no tsx CLI parent relaying signals to it): Ctrl-C reaches it once from the
# terminal; its own handler runs the cleanup.
exec node --import tsx scripts/start.ts "$@"
