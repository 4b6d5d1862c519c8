//! The branch files of the Mesa assembler corpus (mesa/asm/gen{7,7.5,8,9}/{if,else,endif,while,
//! break,cont,halt}.asm with their `.expected` encodings):
//! - assembling them to the `.expected` bytes is tests/codec/codec_corpus.rs
//!   (`assembling_the_corpus_gives_the_expected_bytes`, every corpus file), not repeated here;
//! - the `.expected` bytes disassemble to a program with labels in IGA and in Mesa syntax,
//!   which assembles back to the same bytes and prints to the same text again;
//! - the bytes run on the file's platform from a stated initial state (zeroed registers, SPF
//!   off, DMask and flags as each case says). Each case lists, derived by hand from
//!   spec/flow.toml, the instructions executed (address, dispatched channels on it) and how
//!   the run ends: at the end of the image (every dispatched PcIP there, no register other
//!   than ip changed: the files hold branches only), or refused at an address naming a row.
//!
//! The corpus files are encoder tests, not programs: many have shapes the rows do not cover
//! (a while jumping to itself, a break or cont whose UIP is not a while, halts to different
//! UIPs); the refusals below say which row and why.

use crate::codec_util::{self, expected};
use crate::flow_util::state;
use euref::asm::{self, Dialect, PrintOptions};
use euref::codec;
use euref::exec::ExecOptions;
use euref::isa::Insn;
use euref::spec::{OpClass, Platform};
use euref::thread::{Image, RunError, Thread};
use std::path::PathBuf;

/// The branch files' names.
const NAMES: [&str; 7] = ["if", "else", "endif", "while", "break", "cont", "halt"];

/// `(dir, platform, name, .asm path)` of every branch file present (gen7 has no cont).
fn branch_files() -> Vec<(&'static str, Platform, &'static str, PathBuf)> {
    let root = codec_util::mesa_asm_dir();
    let mut out = vec![];
    for (dir, p) in codec_util::GENS {
        for name in NAMES {
            let path = root.join(dir).join(format!("{name}.asm"));
            if path.is_file() {
                out.push((dir, p, name, path));
            }
        }
    }
    assert_eq!(
        out.len(),
        27,
        "7 branch files in each of 4 folders, gen7 without cont"
    );
    out
}

/// The `.expected` bytes of a file, one image.
fn image_bytes(path: &std::path::Path) -> Vec<u8> {
    expected(&path.with_extension("expected"))
        .into_iter()
        .flatten()
        .collect()
}

fn decode_all(bytes: &[u8], p: Platform, what: &str) -> Vec<Insn> {
    bytes
        .chunks(16)
        .enumerate()
        .map(|(k, w)| match codec::decode(w, p) {
            Ok((i, 16)) => i,
            other => panic!("{what}: word {k}: {other:?}"),
        })
        .collect()
}

#[test]
fn branch_files_disassemble_with_labels_and_reassemble_to_the_same_bytes() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    for (dir, p, name, path) in branch_files() {
        let bytes = image_bytes(&path);
        let what = format!("{dir}/{name}");
        let insns = decode_all(&bytes, p, &what);
        for d in [Dialect::Iga, Dialect::Mesa] {
            let o = PrintOptions {
                dialect: d,
                platform: p,
            };
            let text = asm::print_program(&insns, &o);
            // Every jump target is an instruction of the file or its end: each branch line
            // names its targets by label, and the labels are defined on lines of their own.
            assert!(asm::defines_labels(text.as_bytes()), "{what} {d}:\n{text}");
            let (branches, labelled) = text
                .lines()
                .filter(|l| !l.ends_with(':'))
                .fold((0, 0), |(b, l), line| {
                    (b + 1, l + usize::from(line.contains("LABEL")))
                });
            assert_eq!(branches, insns.len(), "{what} {d}:\n{text}");
            assert_eq!(
                labelled,
                insns.len(),
                "{what} {d}: a target printed as a number\n{text}"
            );
            let prog = asm::parse(text.as_bytes(), Some(d), p)
                .unwrap_or_else(|e| panic!("{what} {d}:{}:{}: {}\n{text}", e.line, e.col, e.msg));
            let again: Vec<u8> = prog
                .insns
                .iter()
                .flat_map(|i| codec::encode(i, p).unwrap_or_else(|e| panic!("{what} {d}: {e}")))
                .collect();
            assert_eq!(again, bytes, "{what} {d}: bytes -> text -> bytes\n{text}");
            let text2 = asm::print_program(&prog.insns, &o);
            assert_eq!(text2, text, "{what} {d}: text -> bytes -> text");
        }
    }
}

/// How a corpus run ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// IP reached the end of the image.
    Ends,
    /// Refused at this address, naming this row.
    Refused(u32, &'static str),
}

/// One run: the file, the initial DMask and f0/f1, the executed (IP, dispatched channels on
/// the instruction) in order, and the end.
struct Case {
    dir: &'static str,
    name: &'static str,
    dmask: u32,
    f0: u32,
    f1: u32,
    trace: Vec<(u32, u32)>,
    end: End,
    why: &'static str,
}

const M16: u32 = 0xffff;
const M32: u32 = 0xffff_ffff;

/// The expected runs, derived by hand (JIP/UIP from the .expected words: 8-byte units on
/// gen7/gen7.5, bytes on gen8/gen9; instructions 16 bytes apart).
fn cases() -> Vec<Case> {
    let mut v =
        vec![
        // gen7/if: 0 (+f0.0.x) if a16 JIP 0x10; 0x10 (+f0.0) if a16 JIP 0x60; 0x20, 0x30
        // (+f0.0) if JIP 0x60; 0x40, 0x50 (-f0.0) if JIP 0x60; end 0x60.
        Case {
            dir: "gen7",
            name: "if",
            dmask: M16,
            f0: 0x00f1,
            f1: 0,
            trace: vec![(0, M16), (0x10, M16), (0x20, 0xf1), (0x30, 0xf1), (0x40, 0xf1)],
            end: End::Ends,
            why: "flow.if and flow.predicate.group: at 0 the .x replicate predicate takes groups \
                  0-1 (flag bits 0 and 4 set), the others leave to JIP = the next instruction; \
                  at 0x10 the channels of f0.0 = 0xf1 go on, the rest leave to 0x60; at 0x40 \
                  (-f0.0) sends the 0xf1 channels to 0x60 and no channel is left at 0x50, so IP \
                  = JIP = 0x60, the end (flow.channel.no-channel-left)",
        },
        Case {
            dir: "gen7",
            name: "if",
            dmask: M16,
            f0: 0,
            f1: 0,
            trace: vec![(0, M16), (0x10, M16)],
            end: End::Ends,
            why: "flow.if: every predicate false: all leave to 0x10, then to 0x60 (the end)",
        },
        // gen7.5/if: 0 (-f0.0) if JIP 0x10; 0x10 (-f0.0) if(16) JIP 0x60; 0x20 (+f0.0.x) if
        // a16 JIP 0x60; 0x30 (+f0.0) if a16; 0x40 (+f0.0) if; 0x50 (+f0.0) if(16); all JIP 0x60.
        Case {
            dir: "gen7.5",
            name: "if",
            dmask: M16,
            f0: 0x00f1,
            f1: 0,
            trace: vec![(0, M16), (0x10, M16), (0x20, 0xff0e), (0x30, 0x000e)],
            end: End::Ends,
            why: "flow.if, flow.predicate.group: 0 and 0x10 keep !f0.0 = 0xff0e (the others wait \
                  at 0x60); the .x predicate at 0x20 reads flag bit 4k for group k (set for \
                  k = 0 and 1): channels 1-3 go on, 8-15 leave (a sequential predicate would \
                  send all to 0x60 and end here); at 0x30 f0.0 & 0xe = 0: all leave, no channel \
                  is left at 0x40, IP = JIP = the end",
        },
        Case {
            dir: "gen7.5",
            name: "if",
            dmask: M16,
            f0: 0xffff,
            f1: 0,
            trace: vec![(0, M16), (0x10, M16)],
            end: End::Ends,
            why: "flow.if: (-f0.0) false everywhere: all leave to 0x10, then to the end",
        },
    ];
    // gen8/gen9 if: 0 (+f0.0) if(8) JIP 0x20; 0x10 (-f0.0) if(8) JIP 0x20; 0x20 (-f0.0)
    // if(16), 0x30 (+f0.0) if(16), 0x40 (+f0.0) if(32), JIP 0x50 (the end).
    for dir in ["gen8", "gen9"] {
        v.push(Case {
            dir,
            name: "if",
            dmask: M32,
            f0: 0x0000_ff00,
            f1: 0,
            trace: vec![(0, M32), (0x10, 0xff00), (0x20, M32), (0x30, 0xffff_00ff)],
            end: End::Ends,
            why: "flow.if over the 32 dispatched channels (flow.channel.dispatched): 0 keeps \
                  channels 8-15, the others wait at 0x20; 0x10 sends 8-15 there too; 0x20 \
                  keeps !f0 = 0xffff00ff; 0x30 sends them all to 0x50 and IP = JIP = the end",
        });
    }
    // else: every else sends its channels to the endif (JIP on gen7, UIP on gen8+): the end.
    for (dir, m) in [("gen7", M16), ("gen7.5", M16), ("gen8", M32), ("gen9", M32)] {
        v.push(Case {
            dir,
            name: "else",
            dmask: m,
            f0: 0,
            f1: 0,
            trace: vec![(0, m)],
            end: End::Ends,
            why: "flow.else.gen7 / flow.else.gen8: the channels leave to 0x30, the end; none is \
                  left at 0x10, so IP = JIP = 0x30",
        });
        v.push(Case {
            dir,
            name: "endif",
            dmask: m,
            f0: 0,
            f1: 0,
            trace: vec![(0, m), (0x10, m), (0x20, m)],
            end: End::Ends,
            why: "flow.endif: the channels go on to the next instruction each time",
        });
        v.push(Case {
            dir,
            name: "while",
            dmask: m,
            f0: 0,
            f1: 0,
            trace: vec![],
            end: End::Refused(0, "flow.while"),
            why: "the first while's JIP is 0 (LABEL0 is the while itself): flow.while says JIP \
                  is negative; an unpredicated while jumping to itself would loop forever",
        });
    }
    for dir in ["gen7", "gen7.5", "gen8", "gen9"] {
        v.push(Case {
            dir,
            name: "break",
            dmask: M16,
            f0: 0,
            f1: 0,
            trace: vec![],
            end: End::Refused(0, "flow.break"),
            why: "the first break's UIP holds no while (gen7: the break at 0x10; the others: the \
                  end of the program): flow.break needs the loop's while at UIP",
        });
        if dir != "gen7" {
            v.push(Case {
                dir,
                name: "cont",
                dmask: M16,
                f0: 0,
                f1: 0,
                trace: vec![],
                end: End::Refused(0, "flow.cont"),
                why: "the first cont's UIP is the end of the program, not a while (flow.cont)",
            });
        }
        // halt: 0 (-f0.1.any4h) halt(8) JIP = UIP = 0x40; 0x10 halt(8) JIP = UIP = 0x20;
        // 0x20 (-f0.1.any4h) halt(16) to 0x40; 0x30 halt(16) to 0x40; end 0x40.
        v.extend([
            Case {
                dir,
                name: "halt",
                dmask: M16,
                f0: 0,
                f1: 0,
                trace: vec![(0, M16)],
                end: End::Ends,
                why: "flow.halt, flow.predicate.group: f0.1 = 0, no group of four has a bit \
                      set, so every channel halts to 0x40; none is left at 0x10, IP = JIP = the \
                      end",
            },
            Case {
                dir,
                name: "halt",
                dmask: M16,
                f0: 0xffff_0000,
                f1: 0,
                trace: vec![(0, M16), (0x10, M16), (0x20, M16), (0x30, M16)],
                end: End::Ends,
                why: "every group has bits set: the predicated halts take no channel; the halt \
                      at 0x10 sends all to 0x20 (they resume there), the one at 0x30 to the end",
            },
            Case {
                dir,
                name: "halt",
                dmask: M16,
                f0: 0x1111_0000,
                f1: 0,
                trace: vec![(0, M16), (0x10, M16), (0x20, M16), (0x30, M16)],
                end: End::Ends,
                why: "f0.1 = 0x1111: one bit in every group of four, so .any4h holds for every \
                      channel and (-) halts none (a sequential predicate would halt 0xeeee to \
                      0x40 and the halt at 0x10 would then be refused)",
            },
            Case {
                dir,
                name: "halt",
                dmask: M16,
                f0: 0x00f1_0000,
                f1: 0,
                trace: vec![(0, M16)],
                end: End::Refused(0x10, "flow.halt.same-uip"),
                why: "groups 2 and 3 of f0.1 = 0x00f1 are clear: channels 8-15 halt to 0x40; \
                      the halt at 0x10 halts channels 0-7 to 0x20 while they wait at 0x40",
            },
        ]);
    }
    v
}

fn platform_of(dir: &str) -> Platform {
    codec_util::GENS
        .iter()
        .find(|(d, _)| *d == dir)
        .map(|&(_, p)| p)
        .expect("a corpus folder")
}

#[test]
fn branch_files_run_as_the_rows_say() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let root = codec_util::mesa_asm_dir();
    let cases = cases();
    // Every branch file runs at least once.
    for (dir, _, name, _) in branch_files() {
        assert!(
            cases.iter().any(|c| c.dir == dir && c.name == name),
            "{dir}/{name} has no case"
        );
    }
    let opts = ExecOptions {
        strict: true,
        ..ExecOptions::default()
    };
    for c in &cases {
        let p = platform_of(c.dir);
        let what = format!(
            "{}/{} (DMask {:#x}, f0 {:#x}, f1 {:#x}): {}",
            c.dir, c.name, c.dmask, c.f0, c.f1, c.why
        );
        let bytes = image_bytes(&root.join(c.dir).join(format!("{}.asm", c.name)));
        let end = bytes.len() as u32;
        let insns = decode_all(&bytes, p, &what);
        assert!(insns.iter().all(|i| i.op.info().class == OpClass::Flow));
        let init = state(p, c.dmask, c.f0, c.f1);
        let mut st = init.clone();
        let mut t = Thread::new(Image::new(p, bytes, 0), &mut st).expect(&what);
        let mut trace = vec![];
        let got = loop {
            if t.ended() {
                break End::Ends;
            }
            match t.step_limited(&mut st, &opts, 1000) {
                Ok(s) => trace.push((s.ip, s.enabled)),
                Err(RunError::Refused { ip, row, .. }) => break End::Refused(ip, row.id),
                Err(e) => panic!("{what}: {e}"),
            }
        };
        assert_eq!(trace, c.trace, "{what}");
        assert_eq!(got, c.end, "{what}");
        if got == End::Ends {
            for n in (0..32).filter(|n| c.dmask >> n & 1 == 1) {
                assert_eq!(t.pcip(n), end, "{what}: channel {n}'s PcIP");
            }
            let mut want = init.clone();
            want.set_ip(end);
            assert!(st == want, "{what}: a register other than ip changed");
        }
    }
}

/// The same runs through `euref run` on the corpus `.asm` text (Mesa syntax, assembled by the
/// CLI to the `.expected` bytes; strict execution, which also checks spec/rules before each
/// instruction): the `--trace --json` steps are the cases' traces, exit status 0 at the end,
/// 1 with the row's ID on standard error when refused.
#[test]
fn branch_files_run_the_same_through_the_cli() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let root = codec_util::mesa_asm_dir();
    let tmp = crate::scratch_util::Scratch::new("run-corpus");
    for (k, c) in cases().iter().enumerate() {
        let gen = match c.dir {
            "gen7" => "7",
            "gen7.5" => "7.5",
            "gen8" => "8",
            _ => "9",
        };
        let st = tmp.file(
            &format!("st{k}.json"),
            format!(
                r#"{{"base": "zero", "sr0": {{"dmask": {}}}, "f0": "{:#x}", "f1": "{:#x}"}}"#,
                c.dmask, c.f0, c.f1
            ),
        );
        let asm = root.join(c.dir).join(format!("{}.asm", c.name));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_euref"))
            .args(["run", "--gen", gen, "--trace", "--json", "--state"])
            .arg(&st)
            .arg(&asm)
            .output()
            .expect("euref runs");
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        let what = format!("{}/{} (f0 {:#x}): {err}", c.dir, c.name, c.f0);
        let steps: Vec<(u32, u32)> = out
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON line"))
            .filter(|v| v.get("final").is_none())
            .map(|v| {
                let hex = |x: &serde_json::Value| {
                    let s = x.as_str().expect("hex text");
                    u32::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex")
                };
                let ip = u32::try_from(v["ip"].as_u64().expect("ip")).expect("u32");
                (ip, hex(&v["channels"]))
            })
            .collect();
        assert_eq!(steps, c.trace, "{what}");
        match c.end {
            End::Ends => assert_eq!(o.status.code(), Some(0), "{what}"),
            End::Refused(_, row) => {
                assert_eq!(o.status.code(), Some(1), "{what}");
                assert!(err.contains(&format!("[{row}]")), "{what}");
            }
        }
    }
}
