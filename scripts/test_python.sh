#!/usr/bin/env bash
# The Python bindings' tests (python/tests, pytest), run by scripts/test.sh after the Rust
# suite: a virtual environment in target/pyenv with maturin and pytest (pip), the `euref`
# module built into it (`maturin develop`, the crate's dev profile, in the same target folder
# as cargo so the dependencies the Rust suite built are reused), then pytest. `euref check`'s
# tests run `$EUREF_BIN sim`, by default target/debug/euref (built here when missing).
# Without python3 (3.9 or later, with venv) the tests are skipped with a notice; under CI=true
# that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

ci=false
case "${CI:-}" in true | TRUE | True | 1) ci=true ;; esac

py="$(command -v python3 || true)"
if [ -z "$py" ] || ! "$py" -c 'import sys, venv; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
  if $ci; then
    echo "scripts/test_python.sh: python3 (3.9 or later, with venv) is required under CI=true" >&2
    exit 1
  fi
  echo "scripts/test_python.sh: SKIPPED the Python binding tests: no python3 3.9+ with venv" >&2
  exit 0
fi

venv=target/pyenv
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "maturin>=1.5,<2" pytest
export CARGO_TARGET_DIR="$PWD/target"
# (`cargo test` before this built it, with the test profile; a build here would be another.)
[ -n "${EUREF_BIN:-}" ] || [ -x target/debug/euref ] || cargo build -q --bin euref
VIRTUAL_ENV="$PWD/$venv" "$venv/bin/maturin" develop -q
EUREF_BIN="${EUREF_BIN:-$PWD/target/debug/euref}" "$venv/bin/python" -m pytest -q python/tests
