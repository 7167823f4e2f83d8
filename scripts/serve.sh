#!/usr/bin/env bash
# Sets up, then builds and serves the playground on http://127.0.0.1:8080/ (rebuilding on
# changes to web/, crates/ and assets/). Extra arguments go to `trunk serve` (e.g. --release,
# --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-web.sh
source scripts/web-env.sh
exec trunk serve "$@"
