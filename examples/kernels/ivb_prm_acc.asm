// ivb_prm_acc.asm: PRM syntax (seed000 style) on Ivy Bridge: `euref run --gen ivb FILE`.
//
// A 32 x 32-bit product through the accumulator (mul with the low 16 bits of src1, then mach
// for the high half), a word add with a condition modifier and a predicated sel. Inputs from
// immediates.
mov (8) r9.0<1>:w 0x76543210:v                             // i = 0 .. 7 (a V immediate needs a word-strided dst)
mov (8) r2.0<1>:d r9.0<8;8,1>:w                            // widened to dwords
shl (8) r3.0<1>:d r2.0<8;8,1>:d 28:d                       // a = i << 28
mov (8) r4.0<1>:d 0x31:d                                   // b = 49
mul (8) acc0.0<1>:d r3.0<8;8,1>:d r4.0<16;8,2>:uw          // acc = a x low 16 bits of b
mach (8) r5.0<1>:d r3.0<8;8,1>:d r4.0<8;8,1>:d {AccWrEn}   // high 32 bits of a x b
mov (8) r6.0<1>:d acc0.0<8;8,1>:d                          // low 32 bits of a x b
add.g.f0.0 (8) r7.0<1>:w r2.0<16;8,2>:w -3:w               // i - 3; f0.0: lanes with i > 3
(f0.0) sel (8) r8.0<1>:w r7.0<8;8,1>:w 0:w                 // max(i - 3, 0) by predication
