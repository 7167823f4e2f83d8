#!/usr/bin/env bash
# The playground's benchmark: sets up like scripts/test-web.sh, builds the site once
# (`trunk build --release`) and the native CLI (release), then measures the built site in
# headless Chromium (web/bench/bench.mjs): download size, navigation → first (animated) frame,
# the 5000 × 10000 generated cluster in the worker against the same scenario natively, and the
# longest main-thread tasks during that run and while typing in its 10 000-pod document.
# A benchmark, not a test: it prints figures (and targets) and fails only if it cannot measure.
#   scripts/bench-web.sh [--runs N] [--nodes N] [--pods M] [--json FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-web.sh
source scripts/web-env.sh

echo "== native CLI (release)"
cargo build --release -p schedlab-cli

scripts/build-site.sh dist

echo "== benchmark"
node web/bench/bench.mjs "$@"
