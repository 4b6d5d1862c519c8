#!/usr/bin/env python3
"""Example adapter for the euref simulator protocol (conformance/PROTOCOL.md).

  forward_sim.py --forward 'euref sim'   forward every request to another simulator
  forward_sim.py                         execute `mov`/`add` on :f operands itself (Gen8+,
                                         no predication, modifiers or immediates), answer
                                         an error for anything else

A real adapter replaces `execute` with a call into the simulator under test.
"""
import json, math, re, struct, subprocess, sys

OPERAND = re.compile(r"r(\d+)\.(\d+)(?:<(\d+);(\d+),(\d+)>|<(\d+)>):f$")

def execute(req):
    """The response's `final`, `unmodelled` and `ignored` (raises on anything else)."""
    m = re.fullmatch(r"(mov|add) \((\d+)\|M0\) (.*)", req["insn"].strip())
    if not m or req["gen"] in ("ivb", "hsw"):
        raise ValueError("unsupported instruction: " + req["insn"])
    cr0 = struct.unpack_from("<I", bytes.fromhex(req["initial"].get("cr0", "00" * 4)))[0]
    op, n, ops = m.group(1), int(m.group(2)), m.group(3).split()
    grf = bytearray(128 * 32)
    for k, v in req["initial"].items():
        if re.fullmatch(r"r\d+", k):
            grf[int(k[1:]) * 32:int(k[1:]) * 32 + 32] = bytes.fromhex(v)
    def parse(tok):
        o = OPERAND.fullmatch(tok)
        if not o:
            raise ValueError("unsupported operand: " + tok)
        base = int(o.group(1)) * 32 + int(o.group(2)) * 4
        if o.group(6) is not None:           # destination <stride>
            return base, 0, 1, int(o.group(6))
        return base, int(o.group(3)), int(o.group(4)), int(o.group(5))
    def at(src, i):
        base, v, w, h = src
        return base + ((i // w) * v + (i % w) * h) * 4
    def flush(x):                               # cr0.0 bit 7 clear: denormals to signed 0
        return math.copysign(0.0, x) if abs(x) < 2.0 ** -126 and not cr0 & 0x80 else x
    dst, srcs = parse(ops[0]), [parse(t) for t in ops[1:]]
    for i in range(n):
        o = dst[0] + i * dst[3] * 4
        if op == "mov":                         # a raw move: the bits as they are
            grf[o:o + 4] = grf[at(srcs[0], i):at(srcs[0], i) + 4]
            continue
        a, b = (flush(struct.unpack_from("<f", grf, at(s, i))[0]) for s in srcs)
        struct.pack_into("<f", grf, o, flush(a + b))   # rounds to nearest even
    final, unmodelled = {}, []
    for r in req["report"]:
        if re.fullmatch(r"r\d+", r):
            final[r] = grf[int(r[1:]) * 32:int(r[1:]) * 32 + 32].hex()
        elif r in req["initial"]:                # flags, cr0: mov/add leave them alone
            final[r] = req["initial"][r]
        else:
            unmodelled.append(r)                 # say so rather than invent bytes
    ignored = ["cr0.rounding"] if op == "add" and cr0 & 0x30 else []
    return final, unmodelled, ignored

def main():
    child = None
    if len(sys.argv) == 3 and sys.argv[1] == "--forward":
        child = subprocess.Popen(sys.argv[2], shell=True, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        if not line.strip():
            continue
        if child:
            child.stdin.write(line if line.endswith("\n") else line + "\n")
            child.stdin.flush()
            sys.stdout.write(child.stdout.readline())
        else:
            req = {}
            try:
                req = json.loads(line)
                final, unmodelled, ignored = execute(req)
                resp = {"id": req["id"], "final": final}
                if unmodelled:
                    resp["unmodelled"] = unmodelled
                if ignored:
                    resp["ignored"] = ignored
            except Exception as e:              # report, do not die
                resp = {"id": req.get("id", ""), "error": str(e)}
            sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()

if __name__ == "__main__":
    main()
