"""euref.Thread: loading, stepping, register access, state JSON; expected values computed here
(wrapping 32-bit sums, the default state's undefined registers from docs/run.md)."""

import struct

import pytest

import euref
from conftest import dwords

PROG = (
    "add (8|M0) r10.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:d\n"
    "mov (8|M0) r12.0<1>:d r10.0<8;8,1>:d\n"
)
A = [1, 2, 0x7FFFFFFF, -1, 5, -6, 7, 0x80000000]
B = [10, 20, 1, -1, -5, 6, 0x7FFFFFFF, 0x80000000]
SUM = [(a + b) & 0xFFFFFFFF for a, b in zip(A, B)]


def loaded(gen="skl"):
    t = euref.Thread(gen)
    t.load_program(euref.assemble(PROG, gen))
    t.write("r2", dwords(A))
    t.write("r4", dwords(B))
    return t


def test_step_reports_what_the_instruction_wrote():
    t = loaded()
    s = t.step()
    assert (s["ip"], s["next_ip"], s["enabled"], s["ended"]) == (0, 16, 0xFF, False)
    assert s["insn"].startswith("add (8|M0) r10.0<1>:d")
    assert s["violations"] == []
    assert [w["reg"] for w in s["writes"]] == ["r10"]
    (w,) = s["writes"]
    assert w["bytes"] == dwords(SUM)
    assert w["undefined"] == bytes(32) and w["inexact"] == bytes(32)
    assert t.read("r10") == dwords(SUM)
    s = t.step()
    assert (s["ip"], s["next_ip"], s["ended"]) == (16, 32, True)
    assert t.read("r12") == dwords(SUM)
    assert t.ended
    with pytest.raises(euref.EurefError, match="ended"):
        t.step()


def test_undefined_sources_give_undefined_results():
    t = euref.Thread("skl")
    t.load_program(euref.assemble(PROG, "skl"))
    t.write("r2", dwords(A))  # r4 keeps the default state's undefined GRF
    (w,) = t.step()["writes"]
    assert w["undefined"] == b"\xff" * 32


def test_math_results_within_a_bound_are_marked_inexact():
    t = euref.Thread("skl")
    t.load_program(euref.assemble("math.sin (8|M0) r10.0<1>:f r2.0<8;8,1>:f null<8;8,1>:f", "skl"))
    t.write("r2", struct.pack("<8f", *[1.0] * 8))
    (w,) = t.step()["writes"]
    assert (w["reg"], w["undefined"], w["inexact"]) == ("r10", bytes(32), b"\xff" * 32)
    data, undefined, inexact = t.read("r10", masks=True)
    assert (data, undefined, inexact) == (w["bytes"], bytes(32), b"\xff" * 32)
    # sin(1) = 0.8414709848...: within a few float ulps of it.
    for v in struct.unpack("<8f", data):
        assert abs(v - 0.8414709848078965) < 1e-6


def test_registers_read_and_write_with_marks():
    t = euref.Thread("bdw")
    # The default state: GRF and flags undefined (docs/run.md).
    assert t.read("r20", masks=True)[1] == b"\xff" * 32
    assert t.read("f0", masks=True)[1] == b"\xff" * 4
    t.write("f0", b"\x5a\xa5\x0f\xf0")
    assert t.read("f0", masks=True) == (b"\x5a\xa5\x0f\xf0", bytes(4), bytes(4))
    t.write("g3", b"\x01\x02")
    assert t.read("r3")[:2] == b"\x01\x02" and t.read("r3", masks=True)[1][:2] == b"\0\0"
    with pytest.raises(euref.EurefError, match="no register `q7`"):
        t.read("q7")
    with pytest.raises(euref.EurefError, match=r"r0\.\.r127"):
        t.read("r128")
    with pytest.raises(euref.EurefError, match="f0"):
        t.write("f0", bytes(64))


def test_run_state_json_and_checkpoint():
    t = loaded()
    t.checkpoint()
    assert t.run() == 2 and t.ended
    after = t.state_json()
    t.restore()
    assert not t.ended and t.read("r12", masks=True)[1] == b"\xff" * 32
    first = t.step()
    t.restore()
    assert t.step() == first
    # The state JSON round trip: another thread loads what this one saved.
    u = euref.Thread("skl")
    u.load_state(after)
    assert u.read("r12") == dwords(SUM)
    with pytest.raises(euref.EurefError, match="state JSON"):
        u.load_state("{")


def test_thread_errors():
    t = euref.Thread("skl")
    with pytest.raises(euref.EurefError, match="no program"):
        t.step()
    with pytest.raises(euref.EurefError, match="multiple of 8"):
        t.load_program(b"", base=4)
    with pytest.raises(euref.EurefError, match="unknown generation"):
        euref.Thread("gen12")
    # The step limit: two instructions, one allowed.
    t.load_program(euref.assemble(PROG, "skl"))
    with pytest.raises(euref.EurefError, match="step limit"):
        t.run(1)
