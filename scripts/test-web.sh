#!/usr/bin/env bash
# Sets up, builds the playground for release (dist/), then runs the browser tests in headless
# Chromium (web/tests/*.test.mjs: node's test runner + playwright-core; they serve dist/ on a
# local port with a tiny static server and check the page against the engine's CLI).
# Screenshots of each state go to web/screenshots/. Prints the site's sizes (gzip: scripts/build-site.sh).
# Files named *.dev.test.mjs run against a development build instead (dist-dev/: Leptos' warnings,
# which a release build compiles out, are logged only there); it is built only when one of them
# is chosen (by default: all of them, one build).
# Each test fails after 5 minutes (the slowest takes about 20 s): a wait that never ends fails
# with the test's name instead of stalling CI.
set -euo pipefail
cd "$(dirname "$0")/.."
node_test=(node --test --test-concurrency=1 --test-timeout=300000)
scripts/setup-web.sh
source scripts/web-env.sh

# Arguments choose test files (relative to web/); default: every tests/*.test.mjs.
if [ "$#" -gt 0 ]; then files=("$@"); else files=(web/tests/*.test.mjs); files=("${files[@]#web/}"); fi
release_files=(); dev_files=()
for f in "${files[@]}"; do
  case "$f" in
    *.dev.test.mjs) dev_files+=("$f") ;;
    *) release_files+=("$f") ;;
  esac
done

echo "== CLI (the tests' oracle)"
cargo build -p schedlab-cli

if [ "${#dev_files[@]}" -gt 0 ]; then
  echo "== trunk build (development: dist-dev)"
  trunk build --dist dist-dev
fi

if [ "${#release_files[@]}" -eq 0 ]; then
  echo "== browser tests (development build)"
  cd web
  DIST=dist-dev SCHEDLAB_CLI="$PWD/../target/debug/schedlab" "${node_test[@]}" "${dev_files[@]}"
  exit 0
fi

scripts/build-site.sh dist

echo "== browser tests"
cd web
SCHEDLAB_CLI="$PWD/../target/debug/schedlab" "${node_test[@]}" "${release_files[@]}"
if [ "${#dev_files[@]}" -gt 0 ]; then
  echo "== browser tests (development build)"
  DIST=dist-dev SCHEDLAB_CLI="$PWD/../target/debug/schedlab" "${node_test[@]}" "${dev_files[@]}"
fi
