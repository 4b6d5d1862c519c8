"""golden and check: the vectors' expected results agree with a Thread step (the same model
through another path), and check tells `euref sim` (passes) from `euref sim --inject no-sat`
(a simulator that ignores saturation: fails, on saturating vectors only)."""

import pytest

import euref


def masked(data, mask):
    return bytes(d & ~m & 0xFF for d, m in zip(data, mask))


def test_golden_vectors_are_deterministic_dicts():
    a = euref.golden("skl", 20, seed=7, ops=["add", "and"], types=["d", "ud"])
    assert len(a) == 20
    assert {v["op"] for v in a} <= {"add", "and"}
    assert all(v["gen"] == "skl" and v["id"].startswith("skl-") for v in a)
    assert len({v["id"] for v in a}) == 20
    assert euref.golden("skl", 20, seed=7, ops=["add", "and"], types=["d", "ud"]) == a
    assert euref.golden("skl", 20, seed=8, ops=["add", "and"], types=["d", "ud"]) != a


def test_a_golden_vectors_expected_is_what_a_thread_step_gives():
    for v in euref.golden("bdw", 24, seed=3, ops=["add", "and", "mov"], types=["d", "ud"]):
        t = euref.Thread(v["gen"])
        for reg, hexbytes in v["initial"].items():
            t.write(reg, bytes.fromhex(hexbytes))
        t.load_program(bytes.fromhex(v["bytes"]))
        step = t.step()
        assert step["insn"] == v["insn"]
        undefined = v.get("undefined", {})
        for reg, hexbytes in v["expected"].items():
            want = bytes.fromhex(hexbytes)
            mask = bytes.fromhex(undefined[reg]) if reg in undefined else bytes(len(want))
            got = t.read(reg)[: len(want)]
            assert masked(got, mask) == masked(want, mask), (v["id"], reg)


def test_golden_errors():
    with pytest.raises(euref.EurefError, match="ops"):
        euref.golden("skl", 1, ops=["frobnicate"])
    with pytest.raises(euref.EurefError, match="no vector can be made"):
        euref.golden("skl", 1, ops=["and"], types=["f"])
    with pytest.raises(euref.EurefError, match="programs"):
        euref.golden("skl", 1, ops=["add"], programs=True)


def test_check_passes_euref_sim_and_catches_an_injected_bug(euref_bin):
    vectors = euref.golden("skl", 256, seed=1, ops=["add"], types=["f"])
    report = euref.check(vectors, f"{euref_bin} sim")
    assert len(report) == len(vectors)
    assert {r["status"] for r in report} == {"pass"}
    assert [r["id"] for r in report] == [v["id"] for v in vectors]
    # JSON lines are accepted too.
    import json

    lines = [json.dumps(v) for v in vectors[:5]]
    assert [r["status"] for r in euref.check(lines, f"{euref_bin} sim")] == ["pass"] * 5

    report = euref.check(vectors, f"{euref_bin} sim --inject no-sat")
    # The saturating vectors carry the coverage label `sat` (conformance/README.md).
    saturating = {v["id"] for v in vectors if "sat" in v["classes"]}
    failed = {r["id"] for r in report if r["status"] == "fail"}
    assert failed, "no saturating vector failed"
    assert failed <= saturating


def test_program_vectors_and_their_check(euref_bin):
    programs = euref.golden("skl", 3, seed=0, programs=True)
    assert len(programs) == 3 and len({p["id"] for p in programs}) == 3
    report = euref.check(programs, f"{euref_bin} sim")
    assert [r["status"] for r in report] == ["pass"] * 3


def test_check_errors(euref_bin):
    with pytest.raises(euref.EurefError, match="vector 0"):
        euref.check([1], f"{euref_bin} sim")
