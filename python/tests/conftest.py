"""Shared fixtures of the Python binding tests.

Material outside the repository, as the Rust tests find it (tests/common/material.rs): the Mesa
corpus at $EUREF_CORPUS, by default ../shared/corpus beside the checkout. The `euref` command
(for `check` against `euref sim`) at $EUREF_BIN, by default target/debug/euref. A test that
needs what is absent skips with the reason; under CI=true (or EUREF_REQUIRE_CORPUS=1) it fails.
"""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _required():
    on = lambda var, yes: os.environ.get(var, "").lower() in yes
    return on("CI", ("true", "1")) or on("EUREF_REQUIRE_CORPUS", ("true", "1"))


def _absent(what):
    if _required():
        pytest.fail(f"{what} is required (CI=true or EUREF_REQUIRE_CORPUS=1)")
    pytest.skip(f"{what} is absent")


@pytest.fixture(scope="session")
def corpus():
    """The corpus folder holding mesa/."""
    root = pathlib.Path(os.environ.get("EUREF_CORPUS", ROOT.parent / "shared" / "corpus"))
    if not (root / "mesa" / "README.md").is_file():
        _absent(f"the Mesa corpus ({root}; set EUREF_CORPUS)")
    return root


@pytest.fixture(scope="session")
def euref_bin():
    """The euref command line (for `euref sim`)."""
    exe = pathlib.Path(os.environ.get("EUREF_BIN", ROOT / "target" / "debug" / "euref"))
    if not exe.is_file():
        _absent(f"the euref command ({exe}; build it with `cargo build` or set EUREF_BIN)")
    return exe


def dwords(values):
    """Little-endian bytes of 32-bit values."""
    return b"".join((v & 0xFFFFFFFF).to_bytes(4, "little") for v in values)
