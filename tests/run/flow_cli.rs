//! `euref run` with branches: the final state of flow-facts X1, `--trace` (text and JSON
//! lines), the step limit naming the loop, and a refused branch naming its row.

use crate::scratch_util::Scratch;
use std::process::{Command, Output};

fn euref(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(args)
        .output()
        .expect("euref runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const X1: &str = "mov (8|M0) r10.0<1>:ud 0x0:ud
(f0.0) if (8|M0) ELSE0 ENDIF0
mov (8|M0) r10.0<1>:ud 0x1:ud
else (8|M0) ENDIF0 ENDIF0
ELSE0:
mov (8|M0) r10.0<1>:ud 0x2:ud
ENDIF0:
endif (8|M0) NEXT0
NEXT0:
add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x10:ud
";

const STATE: &str = r#"{"base": "zero", "sr0": {"dmask": 255}, "f0": {"f0_0": 178}}"#;

#[test]
fn run_executes_if_else_and_traces_each_instruction() {
    let tmp = Scratch::new("run-flow");
    let prog = tmp.file("x1.asm", X1);
    let st = tmp.file("st.json", STATE);
    let (p, s) = (prog.to_str().unwrap(), st.to_str().unwrap());
    let o = euref(&["run", p, "--state", s, "--trace"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let trace: Vec<&str> = out.lines().take(7).collect();
    // IPs in order; the then-block mov ran on channels 1,4,5,7 (0xb2), the else-block mov on
    // 0,2,3,6 (0x4d); branches show the channels on them.
    let want = [
        (0x00, 0xff, "mov (8|M0) r10.0<1>:ud 0x0:ud", "r10"),
        (0x10, 0xff, "(f0.0) if (8|M0) ELSE0 ENDIF0", ""),
        (0x20, 0xb2, "mov (8|M0) r10.0<1>:ud 0x1:ud", "r10"),
        (0x30, 0xb2, "else (8|M0) ENDIF0 ENDIF0", ""),
        (0x40, 0x4d, "mov (8|M0) r10.0<1>:ud 0x2:ud", "r10"),
        (0x50, 0xff, "endif (8|M0) NEXT0", ""),
        (
            0x60,
            0xff,
            "add (8|M0) r10.0<1>:ud r10.0<8;8,1>:ud 0x10:ud",
            "r10",
        ),
    ];
    for (k, (line, (ip, ch, insn, wrote))) in trace.iter().zip(want).enumerate() {
        let head = format!("{:>6}  ip {ip:#06x}  ch {ch:#010x}  `{insn}`", k + 1);
        assert!(line.starts_with(&head), "{line}\nwant {head}");
        if wrote.is_empty() {
            assert!(!line.contains("->"), "{line}");
        } else {
            assert!(line.ends_with(&format!("-> {wrote}")), "{line}");
        }
    }
    assert!(out.contains("7 instructions executed"), "{out}");
    // JSON lines: one object per step, then the final state on one line.
    let o = euref(&["run", p, "--state", s, "--trace", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[2]["ip"], 0x20);
    assert_eq!(lines[2]["channels"], "0x000000b2");
    assert_eq!(lines[2]["wrote"][0], "r10");
    assert!(lines[7]["final"].is_object());
    // {Compacted} on the first instruction: it takes 8 bytes, every later IP moves by 8 and
    // the jumps are re-resolved to the moved targets (the same channels run each block).
    let compacted = X1.replacen("0x0:ud\n", "0x0:ud {Compacted}\n", 1);
    let prog = tmp.file("x1c.asm", compacted);
    let o = euref(&[
        "run",
        prog.to_str().unwrap(),
        "--state",
        s,
        "--trace",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let steps: Vec<(u64, String)> = out
        .lines()
        .take(7)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            (v["ip"].as_u64().expect("ip"), v["channels"].to_string())
        })
        .collect();
    let ips: Vec<u64> = steps.iter().map(|s| s.0).collect();
    assert_eq!(ips, [0x00, 0x08, 0x18, 0x28, 0x38, 0x48, 0x58]);
    assert_eq!(steps[2].1, "\"0x000000b2\"");
    assert_eq!(steps[4].1, "\"0x0000004d\"");
}

#[test]
fn run_step_limit_names_the_loop() {
    let tmp = Scratch::new("run-flow");
    let prog = tmp.file(
        "loop.asm",
        "mov (8|M0) r3.0<1>:ud 0x0:ud\nLOOP:\nadd (8|M0) r3.0<1>:ud r3.0<8;8,1>:ud 0x1:ud\nwhile (8|M0) LOOP\n",
    );
    let st = tmp.file("st.json", STATE);
    let o = euref(&[
        "run",
        prog.to_str().unwrap(),
        "--state",
        st.to_str().unwrap(),
        "--max-steps",
        "99",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("the step limit of 99 executed instructions"),
        "{err}"
    );
    assert!(
        err.contains("ip 0x0010") && err.contains(":3:1  `add (8|M0)"),
        "{err}"
    );
    assert!(
        err.contains("ip 0x0020") && err.contains(":4:1  `while (8|M0) LOOP`"),
        "{err}"
    );
    assert!(!err.contains("ip 0x0000"), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn run_refuses_an_undefined_branch_naming_its_row() {
    let tmp = Scratch::new("run-flow");
    let prog = tmp.file("goto.asm", "goto (8|M0) 32 32\nnop\njoin (8|M0) 16\n");
    let st = tmp.file("st.json", STATE);
    let o = euref(&[
        "run",
        prog.to_str().unwrap(),
        "--state",
        st.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains(":1:1: IP 0x0: [flow.goto.unpredicated]"),
        "{err}"
    );
}

/// `euref run` runs a divergent call (flow.call, flow.ret) and a goto/join (flow.goto,
/// flow.join) on Skylake: f0.0 = 0xb2, so channels 1, 4, 5, 7 enter SUB (the trace shows
/// 0xb2 on the subroutine's add) and, in the goto, the predicate-false channels 0, 2, 3, 6
/// wait at J0 (the mov after the goto runs on 0xb2).
#[test]
fn run_executes_call_and_goto() {
    let tmp = Scratch::new("run-flow");
    let prog = tmp.file(
        "call.asm",
        "(f0.0) call (8|M0) r10.0<1>:ud SUB
(f0.0) goto (8|M0) J0 J0
mov (8|M0) r11.0<1>:ud 0x1:ud
J0:
join (8|M0) J1
J1:
(W) jmpi (1|M0) 48
SUB:
add (8|M0) r12.0<1>:ud r12.0<8;8,1>:ud 0x10:ud
ret (8|M0) r10.0<2;2,1>:ud
",
    );
    let st = tmp.file("st.json", STATE);
    let (p, s) = (prog.to_str().unwrap(), st.to_str().unwrap());
    let o = euref(&["run", p, "--state", s, "--trace"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let ips: Vec<(String, String)> = out
        .lines()
        .take_while(|l| l.contains("  ip 0x"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[2].to_string(), w[4].to_string())
        })
        .collect();
    // call (0), SUB's add (80) and ret (96) on the entering channels, back to the goto
    // (16), the mov (32) on the true channels, join (48), jmpi (64) to the end (112).
    let want = [
        ("0x0000", "0x000000ff"),
        ("0x0050", "0x000000b2"),
        ("0x0060", "0x000000b2"),
        ("0x0010", "0x000000ff"),
        ("0x0020", "0x000000b2"),
        ("0x0030", "0x000000ff"),
        ("0x0040", "0x000000ff"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(ips, want, "{out}");
    // The call wrote its return address to r10 (flow.call.return-ip): the trace says so.
    let call = out.lines().next().unwrap_or("");
    assert!(call.ends_with("-> r10"), "{call}");
}

/// `euref asm --compact` re-resolves a jmpi's label (flow.jmpi: bytes from the next
/// instruction): the `mov` between the jmpi and its target compacts to 8 bytes, so the offset
/// becomes 8 (16 when every instruction is native).
#[test]
fn compaction_re_resolves_jmpi_labels() {
    let tmp = Scratch::new("jmpi-compact");
    let prog = tmp.file(
        "j.asm",
        "(W) jmpi (1|M0) SKIP\nmov (8|M0) r2.0<1>:ud 0x1:ud\nSKIP:\nnop\n",
    );
    let p = prog.to_str().unwrap();
    // The jmpi's immediate is its last dword (bytes 12-15 of the native word).
    let offset = |args: &[&str]| -> (u8, usize) {
        let o = euref(args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let out = text(&o.stdout);
        let first: Vec<&str> = out.lines().next().unwrap().split_whitespace().collect();
        let mov_len = out.lines().nth(1).unwrap().split_whitespace().count();
        (u8::from_str_radix(first[12], 16).unwrap(), mov_len)
    };
    assert_eq!(offset(&["asm", "--gen", "skl", "--hex", p]), (16, 16));
    assert_eq!(offset(&["asm", "--gen", "skl", "--compact", p]), (8, 8));
}
