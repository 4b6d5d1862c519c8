#!/usr/bin/env bash
# Write the generated specification reference to docs/SPEC.md and docs/spec.json.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs
cargo run -q --release -- spec > docs/SPEC.md
cargo run -q --release -- spec --json > docs/spec.json
echo "wrote docs/SPEC.md and docs/spec.json"
