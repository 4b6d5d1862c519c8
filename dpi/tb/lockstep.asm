// The program of the DPI-C lockstep testbench (dpi/tb/euref_lockstep_tb.sv), assembled at test
// time with `euref asm --gen skl -o lockstep.bin`: SIMD8 dword mov, add and and, with
// register and immediate sources. The testbench sets r2 and r3 first.
mov (8|M0) r10.0<1>:ud 0x12345678:ud
add (8|M0) r11.0<1>:d r2.0<8;8,1>:d r3.0<8;8,1>:d
add (8|M0) r12.0<1>:d r11.0<8;8,1>:d -100:d
and (8|M0) r13.0<1>:ud r12.0<8;8,1>:ud r10.0<8;8,1>:ud
and (8|M0) r14.0<1>:ud r3.0<8;8,1>:ud 0xff00ff0:ud
mov (8|M0) r15.0<1>:d r2.1<0;1,0>:d
add (8|M0) r16.0<1>:ud r14.0<8;8,1>:ud r15.0<8;8,1>:ud
