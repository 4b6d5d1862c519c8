#!/usr/bin/env python3
"""Example adapter for the euref simulator protocol (conformance/PROTOCOL.md).

  forward_sim.py --forward 'euref sim'   forward every request to another simulator
  forward_sim.py                         execute `mov`/`add` on :f operands itself (no
                                         predication, modifiers or immediates), answer
                                         an error for anything else

A real adapter replaces `execute` with a call into the simulator under test.
"""
import json, re, struct, subprocess, sys

OPERAND = re.compile(r"r(\d+)\.(\d+)(?:<(\d+);(\d+),(\d+)>|<(\d+)>):f$")

def execute(req):
    m = re.fullmatch(r"(mov|add) \((\d+)\|M0\) (.*)", req["insn"].strip())
    if not m:
        raise ValueError("unsupported instruction: " + req["insn"])
    op, n, ops = m.group(1), int(m.group(2)), m.group(3).split()
    regs = {k: bytearray.fromhex(v) for k, v in req["initial"].items() if k.startswith("r")}
    grf = bytearray(128 * 32)
    for k, v in regs.items():
        grf[int(k[1:]) * 32:int(k[1:]) * 32 + 32] = v
    def parse(tok):
        o = OPERAND.fullmatch(tok)
        if not o:
            raise ValueError("unsupported operand: " + tok)
        base = int(o.group(1)) * 32 + int(o.group(2)) * 4
        if o.group(6) is not None:           # destination <stride>
            return base, 0, 1, int(o.group(6))
        return base, int(o.group(3)), int(o.group(4)), int(o.group(5))
    def read(src, i):
        base, v, w, h = src
        off = base + ((i // w) * v + (i % w) * h) * 4
        return struct.unpack_from("<f", grf, off)[0]
    dst, srcs = parse(ops[0]), [parse(t) for t in ops[1:]]
    out = []
    for i in range(n):
        x = read(srcs[0], i) + (read(srcs[1], i) if op == "add" else 0.0)
        out.append(struct.pack("<f", x))      # IEEE single, round to nearest even
    for i, b in enumerate(out):
        off = dst[0] + i * dst[3] * 4
        grf[off:off + 4] = b
    return {r: grf[int(r[1:]) * 32:int(r[1:]) * 32 + 32].hex() for r in req["report"]}

def main():
    child = None
    if len(sys.argv) == 3 and sys.argv[1] == "--forward":
        child = subprocess.Popen(sys.argv[2], shell=True, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if child:
            child.stdin.write(line if line.endswith("\n") else line + "\n")
            child.stdin.flush()
            sys.stdout.write(child.stdout.readline())
        else:
            try:
                resp = {"id": req["id"], "final": execute(req)}
            except Exception as e:              # report, do not die
                resp = {"id": req["id"], "error": str(e)}
            sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()

if __name__ == "__main__":
    main()
