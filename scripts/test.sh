#!/usr/bin/env bash
# Sets up the machine, then runs every test: unit and integration tests (including the
# conformance corpus), clippy, the engine's tests compiled to wasm32 in headless Chromium, the
# benchmark, the conformance check of the release binary, and the web playground's browser
# tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

echo "== cargo test (native)"
cargo test --workspace

echo "== clippy (workspace lints, warnings are errors)"
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p schedlab-web --target wasm32-unknown-unknown -- -D warnings

echo "== cargo test (wasm32, headless Chromium)"
CHROMEDRIVER="$(command -v chromedriver)" cargo test -p schedlab-core --target wasm32-unknown-unknown

echo "== release build + benchmark"
cargo build --release -p schedlab-cli
target/release/schedlab bench --nodes 5000 --pods 10000

echo "== conformance (check.py against the release binary)"
corpus=tests/conformance/scenarios
if [ -d ../shared/conformance/scenarios ]; then
  # Scenarios added to the shared corpus since it was copied in are checked too.
  python3 tests/conformance/check.py --scores --cmd 'target/release/schedlab run {scenario} --output json' ../shared/conformance/scenarios
fi
python3 tests/conformance/check.py --scores --cmd 'target/release/schedlab run {scenario} --output json' "$corpus"
if [ -d ../shared/conformance/timeline/scenarios ]; then
  python3 tests/conformance/check.py --scores --cmd 'target/release/schedlab run {scenario} --output json' ../shared/conformance/timeline/scenarios
fi
python3 tests/conformance/check.py --scores --cmd 'target/release/schedlab run {scenario} --output json' tests/conformance/timeline/scenarios

echo "== web playground (release build, browser tests in headless Chromium)"
scripts/test-web.sh
