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
# Every file the site serves (the page's wasm-bindgen snippets included), one by one; then what a
# visitor downloads: the playground all of it, an embed (?embed) all but CodeMirror's editor.js.
all=0; editor=0
while IFS= read -r f; do
  gz=$(gzip -9c "$f" | wc -c)
  printf '%-44s %9d %9d\n' "${f#dist/}" "$(stat -c%s "$f")" "$gz"
  all=$((all + gz))
  if [ "$(basename "$f")" = editor.js ]; then editor=$gz; fi
done < <(find dist -type f | sort)
echo "playground downloads (file by file, gzip): $all"
echo "an embed downloads (all but editor.js):    $((all - editor))"

echo "== browser tests"
cd web
# Arguments choose test files (relative to web/); default: every tests/*.test.mjs.
if [ "$#" -gt 0 ]; then files=("$@"); else files=(tests/*.test.mjs); fi
SCHEDLAB_CLI="$PWD/../target/debug/schedlab" node --test --test-concurrency=1 "${files[@]}"
