#!/usr/bin/env bash
# Sets up, then builds and serves the playground on http://127.0.0.1:8080/, rebuilding on changes
# to web/, crates/ and assets/. By default the release build (what users get: optimised wasm,
# the same as scripts/build-site.sh), whose rebuilds take minutes; `--dev` serves the
# development build instead (rebuilds in seconds, several times larger and slower, Leptos'
# warnings in the console). Other arguments go to `trunk serve` (e.g. --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(--release)
args=()
for a in "$@"; do
  case "$a" in
    --dev) mode=() ;;
    --release) mode=(--release) ;;
    *) args+=("$a") ;;
  esac
done
scripts/setup-web.sh
source scripts/web-env.sh
if [ "${#mode[@]}" -gt 0 ]; then
  echo "serve: the release build (scripts/serve.sh --dev: the development build, faster to rebuild)"
else
  echo "serve: the development build (scripts/serve.sh without --dev: the release build users get)"
fi
exec trunk serve "${mode[@]}" "${args[@]}"
