#!/usr/bin/env bash
# Sets up the machine, builds the CLI and schedules a scenario (default: a preemption example
# from the conformance corpus). Usage: scripts/run.sh [FILE] [--output json|text|trace]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release -p schedlab-cli
file=${1:-tests/conformance/scenarios/preemption-victims-several-priorities.yaml}
shift || true
exec target/release/schedlab run "$file" --output text "$@"
