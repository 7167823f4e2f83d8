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

echo "== the light engine (the worker without CEL and import: scenarios with CEL, and imports, are handed to the full one)"
cargo test -p schedlab-worker --no-default-features

echo "== explanation cross-check (every cell of every corpus scenario and preset against the trace)"
# Also part of the run above; run again to print how many cells it checked.
cargo test -q -p schedlab-core --test explain_cross_check -- --nocapture 2>&1 | grep -E "cross-check|test result"

echo "== clippy (workspace lints, warnings are errors)"
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p schedlab-web --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p schedlab-worker --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p schedlab-worker --target wasm32-unknown-unknown --no-default-features -- -D warnings

echo "== cargo test (wasm32, headless Chromium)"
# The runner's requests to the page wait for the page's thread, which a test binary holds from
# its first test to its last (the embedded corpus runs ~300 scenarios three times, and the ~300
# of its v1.35 answers once: ~45 s here);
# the default of 20 s would cut it off.
WASM_BINDGEN_TEST_TIMEOUT=600 CHROMEDRIVER="$(command -v chromedriver)" cargo test -p schedlab-core --target wasm32-unknown-unknown

echo "== release build + benchmark"
cargo build --release -p schedlab-cli
target/release/schedlab bench --nodes 5000 --pods 10000

echo "== lesson gallery (schedlab check --solution: every goal of every lesson passes)"
lessons=$(target/release/schedlab check --solution assets/lessons/*.yaml)
echo "$(ls assets/lessons/*.yaml | wc -l) lessons, $(grep -c '^    pass ' <<<"$lessons") goals pass"

echo "== conformance (check.py against the release binary; the corpora run with controllers off)"
# Each corpus is checked against the version that answered it: the corpora of v1.34.1 as
# 1.34, their v1.35.4 answers (tests/conformance/v1.35) as 1.35.
check() {
  local version=$1
  shift
  python3 tests/conformance/check.py --scores \
    --cmd "target/release/schedlab run {scenario} --output json --controllers off --kubernetes-version $version" "$@"
}
if [ -d ../shared/conformance/scenarios ]; then
  # Scenarios added to the shared corpus since it was copied in are checked too.
  check 1.34 ../shared/conformance/scenarios
fi
check 1.34 tests/conformance/scenarios
# The addenda (their READMEs extend the corpus's): workloads / Dynamic Resource Allocation, a
# cluster that changes over time, and generated random mixes.
for addendum in workloads-dra timeline random; do
  if [ -d ../shared/conformance/$addendum/scenarios ]; then
    check 1.34 ../shared/conformance/$addendum/scenarios
  fi
  check 1.34 tests/conformance/$addendum/scenarios
done
# The same corpora as kube-scheduler v1.35.4 answered them.
for folder in scenarios workloads-dra timeline random; do
  if [ -d ../shared/conformance/v1.35/$folder ]; then
    check 1.35 ../shared/conformance/v1.35/$folder
  fi
  check 1.35 tests/conformance/v1.35/$folder
done

echo "== web playground (release build, browser tests in headless Chromium)"
scripts/test-web.sh
