// bdw_mesa_hf.asm: Mesa syntax on Broadwell: `euref run --gen bdw FILE`.
//
// Word-to-float conversion, a multiply by a float immediate (Mesa writes its bits), a
// round-down, a half-float conversion and an integer average.
mov(8)          g9<1>W          0xfedcba98V                     { align1 1Q };
mov(8)          g10<1>F         g9<8,8,1>W                      { align1 1Q };
mul(8)          g11<1>F         g10<8,8,1>F     0x3fc00000F  /* 1.5F */ { align1 1Q };
rndd(8)         g12<1>F         g11<8,8,1>F                     { align1 1Q };
mov(8)          g13<2>HF        g11<8,8,1>F                     { align1 1Q };
mov(8)          g14<1>UW        0x76543210V                     { align1 1Q };
avg(8)          g15<1>UW        g14<8,8,1>UW    0x0007UW        { align1 1Q };
