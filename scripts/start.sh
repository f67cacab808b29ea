#!/usr/bin/env bash
# Runs the whole system locally: against $KUBECONFIG if set, otherwise against a local control
# plane started (and left running) by the project. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
bash scripts/setup.sh
exec npx tsx scripts/start.ts "$@"
