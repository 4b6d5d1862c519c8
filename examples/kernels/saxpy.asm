// saxpy.asm: the built-in example of `euref run` (IGA syntax, Skylake by default).
//
// z = a*x + y over 16 float lanes, then |z| by cmp + predicated sel, a sel.l clamp, a
// float -> integer conversion and integer shl/or. The default state's GRF is undefined
// (docs/run.md), so the inputs are built from immediates first.
mov (8|M0)   r10.0<1>:w   0x76543210:v                              // i = 0 .. 7
mov (8|M0)   r10.8<1>:w   0xFEDCBA98:v                              // i = -8 .. -1
mov (16|M0)  r12.0<1>:f   r10.0<8;8,1>:w                            // x = float(i)  (W -> F)
mov (16|M0)  r14.0<1>:f   0.75:f                                    // y = 0.75
mov (16|M0)  r16.0<1>:f   2.5:f                                     // a = 2.5
mad (16|M0)  r18.0<1>:f   r14.0<4;4,1>:f  r16.0<4;4,1>:f  r12.0<4;4,1>:f {Align16}  // z = y + a*x (3-src: Align16)
cmp (16|M0)  (lt)f0.0  null<1>:f  r18.0<8;8,1>:f  0.0:f            // f0.0: lanes with z < 0
(f0.0) sel (16|M0)  r20.0<1>:f  -r18.0<8;8,1>:f  r18.0<8;8,1>:f     // w = |z|
sel.l (16|M0)  r22.0<1>:f  r20.0<8;8,1>:f  10.0:f                   // w = min(w, 10)
mov (16|M0)  r24.0<1>:d   r22.0<8;8,1>:f                            // n = int(w)  (F -> D, toward zero)
shl (16|M0)  r26.0<1>:ud  r24.0<8;8,1>:ud  0x8:ud                   // n << 8
(f0.0) or (16|M0)  r26.0<1>:ud  r26.0<8;8,1>:ud  0x1:ud             // bit 0 marks z < 0
