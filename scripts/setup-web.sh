#!/usr/bin/env bash
# Installs what the web playground needs to build and test, on top of scripts/setup.sh (Rust
# wasm target, wasm-bindgen-cli matching Cargo.lock, Chromium): Trunk, Node.js/npm, the npm
# build tools (esbuild, binaryen's wasm-opt, playwright-core) and the CodeMirror bundle.
# Idempotent: each step checks first. Downloads only from crates.io, npm and apt.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

scripts/setup.sh

# Trunk 0.21.14: the newest release that builds with this toolchain.
trunk_version=0.21.14
if ! trunk --version 2>/dev/null | grep -qF "$trunk_version"; then
  echo "setup-web: installing trunk $trunk_version"
  cargo install trunk --version "$trunk_version" --locked || cargo install trunk --version "$trunk_version"
fi

# Node.js and npm (Debian's are fine: node >= 18 for the test runner and CompressionStream).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup-web: installing nodejs and npm"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq nodejs npm >/dev/null
fi

# npm build tools, pinned by web/package-lock.json.
if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  echo "setup-web: installing npm packages (web/package-lock.json)"
  (cd web && npm ci --no-audit --no-fund)
fi

# The CodeMirror bundle (a static asset: the site needs no CDN).
if [ ! -f web/gen/editor.js ] || [ web/js/editor.js -nt web/gen/editor.js ] || [ web/package-lock.json -nt web/gen/editor.js ]; then
  echo "setup-web: bundling CodeMirror"
  (cd web && npm run --silent bundle)
fi

# Trunk's watcher ignores the screenshots folder, which must therefore exist.
mkdir -p web/screenshots

echo "setup-web: ok ($(trunk --version), node $(node --version), $(web/node_modules/.bin/wasm-opt --version))"
