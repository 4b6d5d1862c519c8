"""assemble, disassemble, validate: against the Mesa corpus's encodings (an independent
assembler's output), the opcode numbers of the PRM, and the restrictions of spec/rules."""

import pytest

import euref
from conftest import dwords  # noqa: F401  (shared helpers live in conftest)

# seed000 (the PRM's opcode table): add is opcode 0x40, mov 0x01; bits 6:0 of byte 0.
ADD, MOV = 0x40, 0x01
# Bit 29 of the first dword: CmptCtrl, set in a compacted (8-byte) instruction (seed000 §3.2).
CMPT_CTRL_BYTE3 = 0x20


def mesa_pairs(corpus, gen, name):
    """(assembly line, expected bytes) of a Mesa corpus test file."""
    asm = (corpus / "mesa" / "asm" / gen / f"{name}.asm").read_text().splitlines()
    hexes = (corpus / "mesa" / "asm" / gen / f"{name}.expected").read_text().splitlines()
    assert len(asm) == len(hexes)
    return [(a, bytes.fromhex(h)) for a, h in zip(asm, hexes)]


def test_assemble_gives_the_encoding_of_mesas_assembler(corpus):
    pairs = mesa_pairs(corpus, "gen9", "add")
    for text, expected in pairs:
        assert euref.assemble(text, "skl", syntax="mesa") == expected, text


def test_disassemble_gives_mesas_text_back(corpus):
    pairs = mesa_pairs(corpus, "gen9", "add")
    data = b"".join(b for _, b in pairs)
    texts = euref.disassemble(data, "9", syntax="mesa")
    # The same instructions, up to spacing.
    assert [" ".join(t.split()) for t in texts] == [" ".join(a.split()) for a, _ in pairs]


def test_assemble_writes_the_opcode_and_compacts_on_request():
    text = "add (8|M0) r10.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:d\nmov (8|M0) r12.0<1>:d r10.0<8;8,1>:d\n"
    native = euref.assemble(text, "skl")
    assert len(native) == 32
    assert [native[0] & 0x7F, native[16] & 0x7F] == [ADD, MOV]
    assert native[3] & CMPT_CTRL_BYTE3 == 0
    compact = euref.assemble(text, "skl", compact=True)
    assert len(compact) == 16
    assert compact[3] & CMPT_CTRL_BYTE3 and compact[11] & CMPT_CTRL_BYTE3
    # Both forms mean the same instructions (the compact ones marked so).
    marked = [t + " {Compacted}" for t in euref.disassemble(native, "skl")]
    assert euref.disassemble(compact, "skl") == marked


def test_disassemble_names_the_instruction():
    data = euref.assemble("add (8|M0) r10.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:d", "bdw")
    (text,) = euref.disassemble(data, "bdw")
    assert text.split()[:3] == ["add", "(8|M0)", "r10.0<1>:d"]


def test_errors_are_euref_errors_with_the_place():
    with pytest.raises(euref.EurefError, match=r"^1:\d+: "):
        euref.assemble("add (8|M0) r10.0<1>:d r2.0<8;8,1>:d\n", "skl")
    with pytest.raises(euref.EurefError, match="unknown generation"):
        euref.assemble("nop", "gen42")
    with pytest.raises(euref.EurefError, match="unknown syntax"):
        euref.assemble("nop", "skl", syntax="att")
    # Three bytes: no instruction fits.
    with pytest.raises(euref.EurefError, match="byte offset 0x0"):
        euref.disassemble(b"\x40\x00\x60", "skl")
    # An EurefError is an Exception (a plain `except Exception` catches it).
    assert issubclass(euref.EurefError, Exception)


def test_validate_reports_the_rule_violated_with_its_place():
    # src0 <4;8,1> with ExecSize = Width = 8 and HorzStride 1: VertStride must be 8
    # (seed004 Register Region Restrictions 2.2, region.vstride-eq-width-hstride).
    text = (
        "add (8|M0) r10.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:d\n"
        "add (8|M0) r10.0<1>:d r2.0<4;8,1>:d r4.0<8;8,1>:d\n"
    )
    found = euref.validate(text, "skl")
    assert [(f["index"], f["line"], f["rule"], f["src"]) for f in found] == [
        (1, 2, "region.vstride-eq-width-hstride", 0)
    ]
    assert "VertStride" in found[0]["message"]
    assert found[0]["cite"].startswith("seed004")
    # The same program as bytes: the violation is located by byte offset.
    found = euref.validate(euref.assemble(text, "skl"), "skl")
    assert [(f["index"], f["offset"], f["rule"]) for f in found] == [
        (1, 16, "region.vstride-eq-width-hstride")
    ]
    assert euref.validate(text.splitlines()[0], "skl") == []
    with pytest.raises(euref.EurefError, match="str.*bytes"):
        euref.validate(12, "skl")
