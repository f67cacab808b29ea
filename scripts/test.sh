#!/usr/bin/env bash
# The full test suite: installs what it needs, typechecks, then runs unit and e2e tests (the e2e
# project starts its own Kubernetes control plane on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
bash scripts/setup.sh
echo "[test] typecheck" >&2
npx tsc --noEmit -p .
npx vitest run "$@"
