//! SPF (cr0.0 bit 2, flow.channel.spf) on generated programs without divergence: if/else/endif
//! on flags that are all-true or all-false over the dispatched channels, do-while loops with a
//! trip count the same in every channel, and ALU instructions. With SPF on and off the runner
//! executes the same instructions and ends in the same state; the registers are those of the
//! program interpreted here, channel by channel (flow_nested.rs checks one fixed program).

use crate::flow_util::{put_ud, run, set_spf, state, ud};
use euref::spec::Platform;
use proptest::prelude::*;

/// Data registers (SIMD16 UD: two registers each).
const DATA: [usize; 4] = [10, 12, 14, 16];
/// The first loop counter register (one per loop nesting depth, two registers apart).
const COUNTER: usize = 30;
/// The destination of the loops' cmp.
const SCRATCH: usize = 40;

#[derive(Debug, Clone)]
enum Alu {
    /// dst = src + imm
    Add(usize, usize, u32),
    /// dst = a ^ b
    Xor(usize, usize, usize),
    /// dst = src << (imm & 7)
    Shl(usize, usize, u32),
    /// dst = imm
    Mov(usize, u32),
}

#[derive(Debug, Clone)]
enum Stmt {
    Alu(Alu),
    /// `(f0.<flag>) if`, then the block, an else block when present, endif.
    If {
        flag: u8,
        then: Vec<Stmt>,
        els: Option<Vec<Stmt>>,
    },
    /// A do-while loop running its body `trips` times (counter, cmp, `(f1.0) while`).
    Loop {
        trips: u32,
        body: Vec<Stmt>,
    },
}

fn alu() -> impl Strategy<Value = Alu> {
    (0u8..4, 0usize..4, 0usize..4, 0usize..4, any::<u32>()).prop_map(|(k, d, a, b, imm)| {
        let (d, a, b) = (DATA[d], DATA[a], DATA[b]);
        match k {
            0 => Alu::Add(d, a, imm),
            1 => Alu::Xor(d, a, b),
            2 => Alu::Shl(d, a, imm & 7),
            _ => Alu::Mov(d, imm),
        }
    })
}

fn block() -> impl Strategy<Value = Vec<Stmt>> {
    let leaf = alu().prop_map(Stmt::Alu);
    let stmt = leaf.prop_recursive(3, 24, 4, |inner| {
        let body = prop::collection::vec(inner, 0..4);
        prop_oneof![
            (0u8..2, body.clone(), prop::option::of(body.clone()))
                .prop_map(|(flag, then, els)| Stmt::If { flag, then, els }),
            (1u32..4, body).prop_map(|(trips, body)| Stmt::Loop { trips, body }),
        ]
    });
    prop::collection::vec(stmt, 1..6)
}

/// IGA text of a program (labels resolved by the assembler).
struct Gen {
    n: u32,
    /// Gen8+: else takes JIP and UIP.
    two: bool,
    label: usize,
    out: String,
}

impl Gen {
    fn fresh(&mut self) -> usize {
        self.label += 1;
        self.label
    }

    fn region(&self, r: usize) -> String {
        format!("r{r}.0<8;8,1>:ud")
    }

    fn alu(&mut self, a: &Alu) {
        let n = self.n;
        let line = match *a {
            Alu::Add(d, s, imm) => {
                format!("add ({n}|M0) r{d}.0<1>:ud {} {imm:#x}:ud", self.region(s))
            }
            Alu::Xor(d, x, y) => format!(
                "xor ({n}|M0) r{d}.0<1>:ud {} {}",
                self.region(x),
                self.region(y)
            ),
            Alu::Shl(d, s, imm) => {
                format!("shl ({n}|M0) r{d}.0<1>:ud {} {imm:#x}:ud", self.region(s))
            }
            Alu::Mov(d, imm) => format!("mov ({n}|M0) r{d}.0<1>:ud {imm:#x}:ud"),
        };
        self.out.push_str(&line);
        self.out.push('\n');
    }

    fn block(&mut self, b: &[Stmt], depth: usize) {
        for s in b {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        let n = self.n;
        match s {
            Stmt::Alu(a) => self.alu(a),
            Stmt::If { flag, then, els } => {
                let k = self.fresh();
                let jip = if els.is_some() { "ELSE" } else { "ENDIF" };
                self.out
                    .push_str(&format!("(f0.{flag}) if ({n}|M0) {jip}{k} ENDIF{k}\n"));
                self.block(then, depth);
                if let Some(e) = els {
                    let t = if self.two {
                        format!("ENDIF{k} ENDIF{k}")
                    } else {
                        format!("ENDIF{k}")
                    };
                    self.out.push_str(&format!("else ({n}|M0) {t}\nELSE{k}:\n"));
                    self.block(e, depth);
                }
                self.out
                    .push_str(&format!("ENDIF{k}:\nendif ({n}|M0) NEXT{k}\nNEXT{k}:\n"));
            }
            Stmt::Loop { trips, body } => {
                let k = self.fresh();
                let c = COUNTER + 2 * depth;
                self.out
                    .push_str(&format!("mov ({n}|M0) r{c}.0<1>:ud 0x0:ud\nLOOP{k}:\n"));
                self.block(body, depth + 1);
                self.out.push_str(&format!(
                    "add ({n}|M0) r{c}.0<1>:ud {r} 0x1:ud\n\
                     cmp ({n}|M0) (lt)f1.0 r{SCRATCH}.0<1>:ud {r} {trips:#x}:ud\n\
                     (f1.0) while ({n}|M0) LOOP{k}\n",
                    r = self.region(c)
                ));
            }
        }
    }
}

fn program(p: Platform, n: u32, b: &[Stmt]) -> String {
    let mut g = Gen {
        n,
        two: p.gen_x10() >= 80,
        label: 0,
        out: String::new(),
    };
    g.block(b, 0);
    // An instruction after the last label.
    g.out
        .push_str(&format!("mov ({n}|M0) r18.0<1>:ud 0x1234:ud\n"));
    g.out
}

/// The program run channel by channel: `regs[r]` holds register r's channel values.
struct Model {
    regs: std::collections::BTreeMap<usize, Vec<u32>>,
    flags: [bool; 2],
}

impl Model {
    fn get(&self, r: usize) -> Vec<u32> {
        self.regs[&r].clone()
    }

    fn map(&mut self, d: usize, f: impl Fn(usize) -> u32, n: usize) {
        let v: Vec<u32> = (0..n).map(f).collect();
        self.regs.insert(d, v);
    }

    fn block(&mut self, b: &[Stmt], depth: usize, n: usize) {
        for s in b {
            match s {
                Stmt::Alu(Alu::Add(d, a, imm)) => {
                    let a = self.get(*a);
                    self.map(*d, |c| a[c].wrapping_add(*imm), n);
                }
                Stmt::Alu(Alu::Xor(d, a, b)) => {
                    let (a, b) = (self.get(*a), self.get(*b));
                    self.map(*d, |c| a[c] ^ b[c], n);
                }
                Stmt::Alu(Alu::Shl(d, a, imm)) => {
                    let a = self.get(*a);
                    self.map(*d, |c| a[c] << imm, n);
                }
                Stmt::Alu(Alu::Mov(d, imm)) => self.map(*d, |_| *imm, n),
                Stmt::If { flag, then, els } => {
                    if self.flags[usize::from(*flag)] {
                        self.block(then, depth, n);
                    } else if let Some(e) = els {
                        self.block(e, depth, n);
                    }
                }
                Stmt::Loop { trips, body } => {
                    for _ in 0..*trips {
                        self.block(body, depth + 1, n);
                    }
                    self.map(COUNTER + 2 * depth, |_| *trips, n);
                }
            }
        }
    }
}

const PLATFORMS: [Platform; 4] = [Platform::Ivb, Platform::Hsw, Platform::Bdw, Platform::Skl];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn uniform_programs_end_the_same_with_and_without_spf(
        b in block(),
        pi in 0usize..4,
        wide in any::<bool>(),
        flags in any::<[bool; 2]>(),
        init in prop::collection::vec(any::<u32>(), 64),
    ) {
        let p = PLATFORMS[pi];
        let n: u32 = if wide { 16 } else { 8 };
        let nn = n as usize;
        let text = program(p, n, &b);
        // f0.0 and f0.1 each all-true or all-false over every channel.
        let f0 = (u32::from(flags[0]) * 0xffff) | (u32::from(flags[1]) * 0xffff_0000);
        let mut off = state(p, (1u32 << n) - 1, f0, 0);
        let mut model = Model { regs: Default::default(), flags };
        for (k, &r) in DATA.iter().enumerate() {
            let v = &init[16 * k..16 * k + nn];
            put_ud(&mut off, r, v);
            model.regs.insert(r, v.to_vec());
        }
        let mut on = off.clone();
        set_spf(&mut on, true);
        let ips_off = run(&mut off, &text);
        let ips_on = run(&mut on, &text);
        prop_assert_eq!(&ips_off, &ips_on, "{}", text);
        set_spf(&mut on, false);
        prop_assert!(on == off, "SPF on and off end in different states\n{}", text);
        model.block(&b, 0, nn);
        model.regs.insert(18, vec![0x1234; nn]);
        for (&r, want) in &model.regs {
            prop_assert_eq!(&ud(&off, r, nn), want, "r{}\n{}", r, text);
        }
    }
}
