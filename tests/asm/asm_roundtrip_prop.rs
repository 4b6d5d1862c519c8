//! Printing then parsing gives back the same instruction, for random instructions covering
//! every field of the model (within what text can express: subregisters that are multiples of
//! the type size, and no flag register without a predicate or condition modifier), in every
//! dialect and on every generation.

use euref::asm::{self, Dialect, PrintOptions};
use euref::isa::{
    Addr, Controls, Dst, Flag, Imm, Insn, Reg, RegSrc, Region, SendDesc, SendInfo, Src, Swizzle,
    ThreadCtrl,
};
use euref::spec::{AccessMode, CondMod, DataType, MathFn, OpClass, Opcode, Platform, PredCtrl};
use proptest::prelude::*;

/// A small deterministic generator driven by proptest's seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
}

fn reg(r: &mut Rng) -> Reg {
    if r.below(4) > 0 {
        // r0-r127 of regfile.grf: the numbers above are reserved (enc.grf-reg-nr).
        let count = euref::spec::registers::file("grf")
            .and_then(|f| f.count)
            .unwrap_or(128);
        Reg::Grf(r.below(count as u64) as u8)
    } else {
        Reg::Arf(r.below(256) as u8)
    }
}

fn addr(r: &mut Rng, ty: DataType) -> Addr {
    if r.below(6) == 0 {
        Addr::Indirect {
            a0: r.below(16) as u8,
            off: r.below(1024) as i16 - 512,
        }
    } else {
        let size = ty.bytes().max(1) as u64;
        Addr::Direct {
            reg: reg(r),
            sub: (r.below(32 / size) * size) as u8,
        }
    }
}

const REG_TYPES: [DataType; 14] = DataType::ALL;

fn region(r: &mut Rng) -> Region {
    Region::new(
        r.pick(&[0, 1, 2, 4, 8, 16, 32, Region::VXH]),
        r.pick(&[1, 2, 4, 8, 16]),
        r.pick(&[0, 1, 2, 4]),
    )
}

fn imm(r: &mut Rng, p: Platform) -> Imm {
    let ty = loop {
        let t = r.pick(&REG_TYPES);
        if t.imm_enc(p).is_some() || t.info().imm_enc.iter().any(Option::is_some) {
            break t;
        }
    };
    let bits = match ty {
        DataType::Q | DataType::UQ | DataType::DF => r.next(),
        DataType::F if r.below(8) == 0 => r.next() | 1 << 40,
        // W/UW hold 16 replicated bits (enc.imm-word-replicated); HF may fill its field.
        DataType::W | DataType::UW => r.below(0x10000) * 0x1_0001,
        DataType::HF if r.bool() => (r.below(0x10000)) * 0x1_0001,
        _ => r.next() & 0xFFFF_FFFF,
    };
    Imm::new(ty, bits)
}

fn src(r: &mut Rng, p: Platform, allow_imm: bool) -> Src {
    if allow_imm && r.below(4) == 0 {
        return Src::Imm(imm(r, p));
    }
    let ty = r.pick(&REG_TYPES);
    Src::Reg(RegSrc {
        addr: addr(r, ty),
        ty,
        region: region(r),
        swizzle: Swizzle(r.below(256) as u8),
        neg: r.bool(),
        abs: r.bool(),
    })
}

fn dst(r: &mut Rng) -> Dst {
    let ty = r.pick(&REG_TYPES);
    Dst {
        addr: addr(r, ty),
        ty,
        // Destination stride 0 is reserved (enc.dst-hstride).
        hstride: r.pick(&[1, 2, 4]),
        wrmask: r.below(16) as u8,
    }
}

fn desc(r: &mut Rng, ex: bool) -> SendDesc {
    if r.below(5) == 0 {
        SendDesc::A0(r.below(8) as u8)
    } else if ex {
        SendDesc::Imm(r.next() as u32 & !0x2F)
    } else {
        SendDesc::Imm(r.next() as u32)
    }
}

fn random_insn(seed: u64) -> (Platform, Insn) {
    let mut r = Rng(seed | 1);
    let p = r.pick(&Platform::ALL);
    let ops: Vec<Opcode> = Opcode::ALL.iter().copied().filter(|o| o.on(p)).collect();
    let op = r.pick(&ops);
    let mut i = Insn::new(op);
    let info = op.info();
    i.exec_size = r.pick(&[1, 2, 4, 8, 16, 32]);
    i.chan_off = (r.below(8) * 4) as u8;
    i.access = if info.class == OpClass::ThreeSrc || r.below(3) == 0 {
        AccessMode::Align16
    } else {
        AccessMode::Align1
    };
    if r.bool() {
        let preds = if i.access == AccessMode::Align16 {
            &PredCtrl::ALL[1..8]
        } else {
            &PredCtrl::ALL[1..]
        };
        i.pred = r.pick(preds);
        i.pred_inv = r.bool();
    }
    let send = info.class == OpClass::Send;
    if !send && op != Opcode::Math && r.bool() {
        i.cmod = r.pick(&CondMod::ALL[1..]);
    }
    if i.pred != PredCtrl::None || i.cmod != CondMod::None {
        i.flag = Flag {
            reg: r.below(2) as u8,
            sub: r.below(2) as u8,
        };
    }
    i.sat = r.bool();
    // NoSrcDepSet is bit 28 of a Gen9 send, which Mesa's text calls AccWrEnable: the two
    // are not set together.
    let nsds_bit = send && euref::codec::send_has_no_src_dep_set(p);
    i.ctrl = Controls {
        no_mask: r.bool(),
        acc_wr: !nsds_bit && r.bool(),
        branch_ctrl: r.bool(),
        no_src_dep_set: nsds_bit && r.bool(),
        no_dd_clr: r.bool(),
        no_dd_chk: r.bool(),
        thread: r.pick(&[
            ThreadCtrl::Normal,
            ThreadCtrl::Atomic,
            ThreadCtrl::Switch,
            ThreadCtrl::NoPreempt,
        ]),
        breakpoint: r.bool(),
        eot: r.bool(),
        compacted: r.bool(),
    };
    let jump16 = p.gen_x10() < 80;
    let jump = |r: &mut Rng| -> i32 {
        if jump16 {
            r.below(65536) as i32 - 32768
        } else {
            r.next() as i32
        }
    };
    match op {
        Opcode::Nop | Opcode::Illegal => {}
        Opcode::Jmpi => i.src[1] = Some(src(&mut r, p, true)),
        // ret reads a register (enc.ret-src0-register).
        Opcode::Ret => i.src[0] = Some(src(&mut r, p, false)),
        Opcode::Wait => i.dst = Some(dst(&mut r)),
        Opcode::Call | Opcode::Calla => {
            i.dst = Some(dst(&mut r));
            i.jip = Some(jump(&mut r));
            if r.bool() {
                i.uip = Some(jump(&mut r));
            }
        }
        _ if info.class == OpClass::Flow => {
            i.jip = Some(jump(&mut r));
            if r.bool() {
                i.uip = Some(jump(&mut r));
            }
        }
        _ if send => {
            i.dst = Some(dst(&mut r));
            let n = if i.is_split_send() { 2 } else { 1 };
            for k in 0..n {
                i.src[k] = Some(src(&mut r, p, false));
            }
            i.send = Some(SendInfo {
                sfid: r.below(16) as u8,
                desc: desc(&mut r, false),
                ex_desc: desc(&mut r, true),
            });
        }
        _ => {
            i.dst = Some(dst(&mut r));
            if op == Opcode::Math {
                i.math = r.pick(&MathFn::ALL);
            }
            // Math: the function's sources; a one-source function may have a src1 of its
            // own unless it is the implicit operand (enc.implicit.math-src1), which the
            // model leaves out.
            let n = match euref::math::source_count(i.math) {
                _ if op != Opcode::Math => info.srcs as usize,
                Some(1) => 1 + r.below(2) as usize,
                Some(n) => n as usize,
                None => 1 + r.below(2) as usize,
            };
            for k in 0..n {
                i.src[k] = Some(src(&mut r, p, true));
            }
            if op == Opcode::Math {
                i.canonicalize();
                euref::codec::drop_implicit_math_src1(&mut i, p);
            }
        }
    }
    // (Before the send's ExDesc is settled from its src0.)
    keep_listed_arf_types(p, &mut i);
    i.canonicalize();
    // A Gen9 send's ExDesc[31:16] beside an immediate descriptor is the bits of its src0
    // region (enc.gen9.send-a1-ex-desc): taken from the region, as the parsers settle it.
    if send && euref::codec::send_ex_desc_in_src0(&i, p) {
        if let Some(s) = &mut i.send {
            s.ex_desc = SendDesc::Imm(0);
        }
        euref::codec::settle_send_ex_desc(&mut i, p, false);
    }
    (p, i)
}

/// A register type the platform does not list is reserved (enc.arf-reg-type) and refused by
/// the assemblers: such an ARF operand becomes a GRF register (r0-r127).
fn keep_listed_arf_types(p: Platform, i: &mut Insn) {
    let fix = |a: &mut Addr| {
        if let Addr::Direct {
            reg: reg @ Reg::Arf(_),
            ..
        } = a
        {
            if let Reg::Arf(n) = *reg {
                if !euref::isa::arf_type_exists(n, p) {
                    *reg = Reg::Grf(n & 0x7F);
                }
            }
        }
    };
    if let Some(d) = &mut i.dst {
        fix(&mut d.addr);
    }
    for s in i.src.iter_mut().flatten() {
        if let Src::Reg(r) = s {
            fix(&mut r.addr);
        }
    }
}

fn roundtrip(p: Platform, i: &Insn) -> Result<(), TestCaseError> {
    for d in Dialect::ALL {
        let o = PrintOptions {
            dialect: d,
            platform: p,
        };
        let text = asm::print_insn(i, &o);
        let back = asm::parse_insn(&text, d, p);
        prop_assert!(
            back.is_ok(),
            "{d} `{text}` does not parse on {}: {:?}\n{i:?}",
            p.name(),
            back.err()
        );
        prop_assert_eq!(back.unwrap(), i.clone(), "{} `{}`", d, text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn random_insns_roundtrip(seed in any::<u64>()) {
        let (p, i) = random_insn(seed);
        roundtrip(p, &i)?;
    }
}
