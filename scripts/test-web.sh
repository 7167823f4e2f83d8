#!/usr/bin/env bash
# Sets up, builds the playground for release (dist/), then runs the browser tests in headless
# Chromium (web/tests/*.test.mjs: node's test runner + playwright-core; they serve dist/ on a
# local port with a tiny static server and check the page against the engine's CLI).
# Screenshots of each state go to web/screenshots/. Prints the wasm sizes (gzip).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-web.sh
source scripts/web-env.sh

echo "== CLI (the tests' oracle)"
cargo build -p schedlab-cli

echo "== trunk build --release"
trunk build --release

echo "== sizes (bytes, gzip -9)"
for f in dist/*.wasm dist/*.js dist/*.css; do
  printf '%-34s %9d %9d\n' "$(basename "$f")" "$(stat -c%s "$f")" "$(gzip -9c "$f" | wc -c)"
done
total=$(cat dist/*.wasm dist/*.js dist/*.css dist/*.html | gzip -9c | wc -c)
echo "total (one gzip stream): $total"

echo "== browser tests"
cd web
# Arguments choose test files (relative to web/); default: every tests/*.test.mjs.
if [ "$#" -gt 0 ]; then files=("$@"); else files=(tests/*.test.mjs); fi
SCHEDLAB_CLI="$PWD/../target/debug/schedlab" node --test --test-concurrency=1 "${files[@]}"
