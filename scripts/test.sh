#!/usr/bin/env bash
# Runs the whole test suite, with the floating-point oracles (rug = MPFR, softfloat-wrapper =
# Berkeley SoftFloat). Their builds need m4 and cmake: installed here when missing (apt-get).
# On hosts where the oracles cannot build (not x86_64 Linux, or no apt-get), the suite runs
# without them and says so. Intel's IGA assembler (iga64, Debian's libigc-tools) is installed
# the same way for the differential test against IGA, and Verilator for the SystemVerilog DPI-C
# testbench. Extra arguments go to `cargo test`. Then the Python bindings' tests
# (scripts/test_python.sh: pytest in target/pyenv; skipped with a notice without python3, a
# failure under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."

# apt_install WHAT PACKAGE...: install Debian packages (quietly; true when installed). apt's
# messages go to a log shown afterwards without debconf's notices ("debconf: delaying package
# configuration, since apt-utils is not installed", "debconf: unable to initialize
# frontend"), which say nothing about the install; errors stay visible.
apt_install() {
  local what="$1" sudo="" log ok=0
  shift
  [ "$(id -u)" = 0 ] || sudo="sudo"
  log="$(mktemp)"
  if command -v apt-get >/dev/null 2>&1 \
    && $sudo apt-get update -qq >/dev/null 2>>"$log" \
    && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null 2>>"$log"; then
    echo "scripts/test.sh: installed $what" >&2
  else
    ok=1
  fi
  grep -v '^debconf: ' "$log" >&2 || true
  rm -f "$log"
  return $ok
}

features=(--features oracles)
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "scripts/test.sh: oracles need x86_64 Linux; running without them" >&2
  features=()
else
  missing=()
  command -v m4 >/dev/null 2>&1 || missing+=(m4)
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  if [ ${#missing[@]} -gt 0 ] && ! apt_install "${missing[*]}" "${missing[@]}"; then
    echo "scripts/test.sh: could not install ${missing[*]}; running without the oracles" >&2
    features=()
  fi
fi

# Intel's IGA assembler (iga64, Debian's libigc-tools) for the differential test against IGA
# (tests/asm/asm_iga_differential.rs; it skips with a notice without it, and fails under CI=true).
if ! command -v iga64 >/dev/null 2>&1 && [ -z "${EUREF_IGA:-}" ]; then
  apt_install "libigc-tools (iga64)" libigc-tools \
    || echo "scripts/test.sh: could not install libigc-tools; the IGA differential test will skip" >&2
fi

# Verilator (Debian's verilator) for the SystemVerilog DPI-C lockstep testbench
# (capi/tests/dpi_verilator.rs; it skips with a notice without it, and fails under CI=true).
if ! command -v verilator >/dev/null 2>&1 && [ -z "${EUREF_VERILATOR:-}" ]; then
  apt_install verilator verilator \
    || echo "scripts/test.sh: could not install verilator; the DPI-C testbench test will skip" >&2
fi

cargo test --workspace "${features[@]}" "$@"

# The Python bindings (python/, pyproject.toml): pytest in a virtual environment.
bash scripts/test_python.sh
