#!/usr/bin/env bash
# Installs everything schedlab needs to build and test on a fresh machine. Idempotent: each step
# checks first and does nothing when the tool is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Rust target for the engine and the web app.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen-cli must equal the wasm-bindgen crate's version in Cargo.lock.
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -qF "$wb_version"; then
  echo "setup: installing wasm-bindgen-cli $wb_version"
  cargo install wasm-bindgen-cli --version "$wb_version" --force
fi

# Headless Chromium and its driver, for wasm tests and browser tests.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "setup: installing chromium and chromium-driver"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium chromium-driver >/dev/null
fi
echo "setup: ok (wasm-bindgen $wb_version, $(chromium --version 2>/dev/null | head -1))"
