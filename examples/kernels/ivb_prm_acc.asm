// ivb_prm_acc.asm: PRM syntax (seed000 style) on Ivy Bridge: `euref run --gen ivb FILE`.
//
// A 64-bit product through the accumulator (mul + mach), a word add with a condition
// modifier and a predicated sel. Inputs from immediates.
mov (8) r2.0<1>:d 0x76543210:v                    // 0 .. 7
mul (8) r3.0<1>:d r2.0<8;8,1>:d 0x10000:d         // r3 = i << 16
mov (8) r4.0<1>:d 0x30000:d
mul (8) acc0.0<1>:d r3.0<8;8,1>:d r4.0<8;8,1>:d    // acc = low 32 bits x low 16 bits (Gen7 rule)
mach (8) r5.0<1>:d r3.0<8;8,1>:d r4.0<8;8,1>:d {AccWrEn}   // high 32 bits of the 64-bit product
mov (8) r6.0<1>:d acc0.0<8;8,1>:d                  // low 32 bits
add.g.f0.0 (8) r7.0<1>:w r2.0<16;8,2>:w -3:w       // i - 3, f0.0: lanes with i > 3
(f0.0) sel (8) r8.0<1>:w r7.0<8;8,1>:w 0:w         // max(i - 3, 0) by predication
