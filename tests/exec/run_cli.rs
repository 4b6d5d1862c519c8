//! `euref run`: the built-in example's exact results (expected values computed here, compared
//! as bits), state input, JSON output, strict and lenient execution of runtime-rule violations,
//! and the errors (parse, send, state JSON, step limit).

use crate::scratch_util;
use scratch_util::Scratch;
use std::process::{Command, Output};

fn euref(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(args)
        .output()
        .expect("euref runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The lines of the diff block of register `head` (e.g. `r18:f`).
fn block<'a>(out: &'a str, head: &str) -> Vec<&'a str> {
    let mut lines = out
        .lines()
        .skip_while(|l| l.split_whitespace().next() != Some(head));
    let Some(first) = lines.next() else {
        panic!("no `{head}` block in\n{out}")
    };
    let mut v = vec![first];
    v.extend(lines.take_while(|l| l.starts_with(' ')));
    v
}

/// The tokens of the rows labelled `label` (`hex`, `was`) or the value rows (`[..]`) of a block.
fn row_tokens(block: &[&str], label: &str) -> Vec<String> {
    let mut out = vec![];
    for l in &block[1..] {
        let t = l.trim_start();
        let rest = if label == "value" {
            if !t.starts_with('[') {
                continue;
            }
            &t[t.find(']').unwrap() + 1..]
        } else if let Some(r) = t.strip_prefix(label) {
            r
        } else {
            continue;
        };
        out.extend(rest.split_whitespace().map(String::from));
    }
    out
}

fn hex_u32(block: &[&str]) -> Vec<u32> {
    row_tokens(block, "hex")
        .iter()
        .map(|h| u32::from_str_radix(h, 16).unwrap_or_else(|_| panic!("bad hex `{h}`")))
        .collect()
}

/// The 16 lanes of the built-in example: i, x = float(i), z = 0.75 + 2.5 x.
fn example_lanes() -> Vec<(i32, f32)> {
    (0..8)
        .chain(-8..0)
        .map(|i| (i, 2.5f32.mul_add(i as f32, 0.75)))
        .collect()
}

#[test]
fn builtin_example_results_are_exact() {
    let o = euref(&["run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "examples/kernels/saxpy.asm (built-in): 12 instructions executed on skl (strict)"
        ),
        "{out}"
    );
    let lanes = example_lanes();
    // x (W -> F conversion): r12-r13.
    let x: Vec<u32> = [
        hex_u32(&block(&out, "r12:f")),
        hex_u32(&block(&out, "r13:f")),
    ]
    .concat();
    let want: Vec<u32> = lanes.iter().map(|(i, _)| (*i as f32).to_bits()).collect();
    assert_eq!(x, want);
    // z = y + a*x (mad): r18-r19.
    let z: Vec<u32> = [
        hex_u32(&block(&out, "r18:f")),
        hex_u32(&block(&out, "r19:f")),
    ]
    .concat();
    let want: Vec<u32> = lanes.iter().map(|(_, z)| z.to_bits()).collect();
    assert_eq!(z, want);
    // |z| by the predicated sel, then min(|z|, 10) by sel.l: r22-r23.
    let w: Vec<u32> = [
        hex_u32(&block(&out, "r22:f")),
        hex_u32(&block(&out, "r23:f")),
    ]
    .concat();
    let want: Vec<u32> = lanes
        .iter()
        .map(|(_, z)| z.abs().min(10.0).to_bits())
        .collect();
    assert_eq!(w, want);
    // n = int(w) toward zero, n << 8, | 1 where z < 0 (predicated or): r26-r27.
    let n: Vec<u32> = [
        hex_u32(&block(&out, "r26:ud")),
        hex_u32(&block(&out, "r27:ud")),
    ]
    .concat();
    let want: Vec<u32> = lanes
        .iter()
        .map(|(_, z)| ((z.abs().min(10.0) as u32) << 8) | u32::from(*z < 0.0))
        .collect();
    assert_eq!(n, want);
    // The values are printed too (decimal), e.g. lane 8 of z is -19.25.
    let vals = row_tokens(&block(&out, "r19:f"), "value");
    assert_eq!(vals[0], format!("{}", lanes[8].1));
    // f0.0: the cmp set the bits of the negative lanes (8-15); f0.1 stays undefined.
    let f0 = block(&out, "f0");
    assert_eq!(f0[0].split_whitespace().nth(1), Some("????ff00"), "{out}");
    // Registers the program does not write are not in the diff.
    assert!(!out.contains("\nr11:"), "{out}");
}

#[test]
fn other_example_kernels_run_on_their_platforms() {
    // Ivy Bridge, PRM syntax: a 32 x 32 product by mul (low 16 bits of src1) and mach.
    let o = euref(&["run", "examples/kernels/ivb_prm_acc.asm", "--gen", "ivb"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let prod = |i: u64| (i << 28) * 49;
    let hi: Vec<u32> = (0..8).map(|i| (prod(i) >> 32) as u32).collect();
    let lo: Vec<u32> = (0..8).map(|i| prod(i) as u32).collect();
    assert_eq!(hex_u32(&block(&out, "r5:d")), hi);
    assert_eq!(hex_u32(&block(&out, "r6:d")), lo);
    // (f0.0) sel of i - 3 (flag: i - 3 > 0) and 0.
    let sel: Vec<String> = row_tokens(&block(&out, "r8:w"), "value");
    let want: Vec<String> = (0..8).map(|i: i32| (i - 3).max(0).to_string()).collect();
    assert_eq!(sel, want);

    // Broadwell, Mesa syntax: float(i) * 1.5 rounded down.
    let o = euref(&["run", "examples/kernels/bdw_mesa_hf.asm", "--gen", "bdw"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let want: Vec<u32> = (-8..0)
        .map(|i: i32| (i as f32 * 1.5).floor().to_bits())
        .collect();
    assert_eq!(hex_u32(&block(&out, "r12:f")), want);
}

#[test]
fn state_json_input_changes_the_result() {
    let tmp = Scratch::new("run-cli");
    let prog = tmp.file("add.asm", "add (8|M0) r3.0<1>:f r2.0<8;8,1>:f 1.0:f\n");
    let p = prog.to_str().unwrap();
    // Default state: r2 is undefined, so is the sum.
    let o = euref(&["run", p]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(row_tokens(&block(&out, "r3:f"), "value"), vec!["??"; 8]);
    assert_eq!(row_tokens(&block(&out, "r3:f"), "hex"), vec!["????????"; 8]);
    // r2 from a typed element list.
    let state = tmp.file(
        "r2.json",
        r#"{"r2": {"type": "f", "values": [0.5, 1, 2, 3, -4, 5, 6, 1e10]}}"#,
    );
    let o = euref(&["run", p, "--state", state.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let want: Vec<u32> = [0.5f32, 1., 2., 3., -4., 5., 6., 1e10]
        .iter()
        .map(|v| (v + 1.0).to_bits())
        .collect();
    assert_eq!(hex_u32(&block(&out, "r3:f")), want);
    assert!(
        !out.contains("\nr2:"),
        "the input register did not change: {out}"
    );
    // r3 given as hex bytes: the diff shows what it was.
    let state = tmp.file(
        "r2r3.json",
        r#"{"r2": {"type": "f", "values": [1, 1, 1, 1, 1, 1, 1, 1]}, "r3": "0000803f"}"#,
    );
    let o = euref(&["run", p, "--state", state.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let b = block(&out, "r3:f");
    assert_eq!(hex_u32(&b), vec![2.0f32.to_bits(); 8]);
    let was = row_tokens(&b, "was");
    assert_eq!(was[0], "1");
    assert_eq!(&was[1..], vec!["??"; 7]);
}

#[test]
fn json_output_holds_the_final_state() {
    let tmp = Scratch::new("run-cli");
    let o = euref(&["run", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(v["platform"], "skl");
    // r10: the words 0..7, -8..-1 in memory order.
    let want: String = (0..8i16)
        .chain(-8..0)
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(v["r10"], want.as_str());
    // r18: z as F.
    let want: String = example_lanes()[..8]
        .iter()
        .flat_map(|(_, z)| z.to_bits().to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(v["r18"], want.as_str());
    // Never-written registers stay undefined and are left out.
    assert!(v.get("r11").is_none());
    // The JSON loads back as a state: running an empty program on it changes nothing.
    let state = tmp.file("final.json", stdout(&o));
    let empty = tmp.file("empty.asm", "// nothing\n");
    let o = euref(&[
        "run",
        empty.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("no register changed"), "{}", stdout(&o));
}

#[test]
fn runtime_rule_violation_strict_refuses_lenient_marks_undefined() {
    let tmp = Scratch::new("run-cli");
    let prog = tmp.file(
        "acc.asm",
        "mov (8|M0) acc0.0<1>:f 1.5:f\n  mov (8|M0) r2.0<1>:d acc0.0<8;8,1>:d\n",
    );
    let p = prog.to_str().unwrap();
    // Strict (default): refused with the rule ID, message, citation and line:column.
    let o = euref(&["run", p]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{p}:2:3: [runtime.acc-read-type-mismatch]")),
        "{err}"
    );
    assert!(
        err.contains("cite: seed004 §Accumulator Registers"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
    // Lenient: executed; the destination is undefined, the violation is reported.
    let state = tmp.file("zero.json", r#"{"base": "zero"}"#);
    let o = euref(&["run", p, "--lenient", "--state", state.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning:") && stderr(&o).contains("runtime.acc-read-type-mismatch")
    );
    let out = stdout(&o);
    let b = block(&out, "r2:d");
    assert_eq!(row_tokens(&b, "value"), vec!["??"; 8]);
    assert_eq!(row_tokens(&b, "hex"), vec!["????????"; 8]);
    assert_eq!(row_tokens(&b, "was"), vec!["0"; 8]);
    // Without a state file r2 was undefined already; it is shown because it was written.
    let o = euref(&["run", p, "--lenient"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        row_tokens(&block(&stdout(&o), "r2:d"), "value"),
        vec!["??"; 8]
    );
}

#[test]
fn element_outside_the_grf_is_refused_in_both_modes() {
    let tmp = Scratch::new("run-cli");
    let prog = tmp.file("oob.asm", "mov (16|M0) r127.0<1>:d 0:d\n");
    let p = prog.to_str().unwrap();
    // Strict: the static rule (spec/rules) refuses it before execution.
    let o = euref(&["run", p]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("{p}:1:1: [align.dst-grf-in-range]")),
        "{}",
        stderr(&o)
    );
    // Lenient: executed, but the runtime rule finds no address to write to.
    let o = euref(&["run", p, "--lenient"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("{p}:1:1: [runtime.grf-out-of-range]")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn parse_errors_show_line_and_column() {
    let tmp = Scratch::new("run-cli");
    let prog = tmp.file(
        "bad.asm",
        "mov (8|M0) r2.0<1>:f 1.0:f\nadd (8|M0) r3.0<1>:f r2.0<8;8,1>:f r9\n",
    );
    let p = prog.to_str().unwrap();
    let o = euref(&["run", p]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with(&format!("{p}:2:36: ")),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn send_is_refused_naming_the_line() {
    let tmp = Scratch::new("run-cli");
    // A send anywhere refuses the program before anything executes (branches run: tests/run).
    let prog = tmp.file(
        "send.asm",
        "mov (8|M0) r2.0<1>:f 1.0:f\n\nsend (8|M0) null r5 0xC 0x60680FF {EOT}\n",
    );
    let p = prog.to_str().unwrap();
    let o = euref(&["run", p]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with(&format!("{p}:3:1: `send")), "{err}");
    assert!(err.contains("is a send"), "{err}");
    // Nothing executed: no state printed.
    assert!(stdout(&o).is_empty());
}

#[test]
fn garbage_state_json_is_a_located_error() {
    let tmp = Scratch::new("run-cli");
    let state = tmp.file("garbage.json", "{\"r2\": \"0011\",\n  \"r3\": [1, 2,]\n}");
    let o = euref(&["run", "--state", state.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("garbage.json: $: invalid JSON"), "{err}");
    assert!(err.contains("line 2 column"), "{err}");
    // Valid JSON, bad content: the JSON path names the place.
    let state = tmp.file(
        "badreg.json",
        r#"{"r2": {"type": "f", "values": [1, "x"]}}"#,
    );
    let o = euref(&["run", "--state", state.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("$.r2.values[1]"), "{}", stderr(&o));
}

#[test]
fn step_limit_stops_with_an_error() {
    let o = euref(&["run", "--max-steps", "3"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(":9:1: stopped: the step limit of 3 executed instructions"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
}

/// Issue 28: `run` refuses what `validate` refuses for the seed statements that had no row
/// (strict mode names the row and its seed citation).
#[test]
fn issue_28_seed_rows_are_refused_by_run() {
    let tmp = Scratch::new("run-cli");
    let cases = [
        (
            "skl",
            "mov (4|M0) r2.1<1>:f r3.0<4;4,1>.xyzw:f {Align16}",
            "align.align16-dst-16-byte",
            "seed000 §3.2.3",
        ),
        (
            "ivb",
            "mov (16|M0) acc0.0<1>:f r4.0<8;8,1>:f",
            "acc.simd16-float-explicit",
            "seed000 §3.3.3.5",
        ),
        (
            "ivb",
            "mov (8|M0) r2.4<1>:d r3.4<4;4,1>:d",
            "align.dst-one-reg-per-native-half",
            "seed000 §3.3.2",
        ),
    ];
    for (k, (gen, text, id, cite)) in cases.iter().enumerate() {
        let prog = tmp.file(&format!("i28-{k}.asm"), format!("{text}\n"));
        let p = prog.to_str().unwrap();
        let o = euref(&["run", p, "--gen", gen]);
        assert_eq!(o.status.code(), Some(1), "{text}");
        let err = stderr(&o);
        assert!(err.contains(&format!("{p}:1:1: [{id}]")), "{text}: {err}");
        assert!(err.contains(cite), "{text}: {err}");
        let o = euref(&["validate", p, "--gen", gen]);
        assert_eq!(o.status.code(), Some(1), "{text}");
        assert!(stdout(&o).contains(id), "{text}: {}", stdout(&o));
    }
}

#[test]
fn static_rule_violation_strict_refuses_lenient_marks_what_the_row_names() {
    let tmp = Scratch::new("run-cli");
    // imm.vector-dst-stride (undefined = "dst"): a V immediate into a dword-strided
    // destination; then a cmp whose flags are defined, for contrast.
    let prog = tmp.file(
        "vimm.asm",
        "mov (8|M0) r11.0<1>:d 0x76543210:v\ncmp (8|M0) (eq)f0.0 null<1>:d r3.0<8;8,1>:d 0x0:d\n",
    );
    let p = prog.to_str().unwrap();
    let o = euref(&["run", p]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{p}:1:1: [imm.vector-dst-stride]")),
        "{err}"
    );
    assert!(err.contains("cite: seed000 §3.3.4"), "{err}");
    // Lenient on a zeroed state: r11 executed but is undefined in all 8 channels; the valid
    // cmp still sets f0.0 bits 0-7 (r3 is zero, so every lane is equal).
    let state = tmp.file("zero.json", r#"{"base": "zero"}"#);
    let o = euref(&["run", p, "--lenient", "--state", state.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("imm.vector-dst-stride"),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    let b = block(&out, "r11:d");
    assert_eq!(row_tokens(&b, "value"), vec!["??"; 8], "{out}");
    assert!(out.contains("f0  000000ff"), "{out}");
}

#[test]
fn state_json_duplicates_bytes_and_big_integers_are_located() {
    let tmp = Scratch::new("run-cli");
    // A key given twice: the JSON path and place of the second.
    let doc = "{\"r2\": \"0011\",\n  \"r2\": \"2233\"}";
    let state = tmp.file("dup.json", doc);
    let o = euref(&["run", "--state", state.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("dup.json: $.r2: duplicate key `r2` at line 2, column 3 (byte offset 17)"),
        "{err}"
    );
    // A byte that is not UTF-8 (0xe9, Latin-1 for é) in a string on line 3.
    let state = tmp.file("latin1.json", b"{\n \"r2\": \"00\",\n \"r3\": \"caf\xe9\"}");
    let o = euref(&["run", "--state", state.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(
            "latin1.json: $: not UTF-8 text: byte 0xe9 at line 3, column 12 (byte offset 26)"
        ),
        "{err}"
    );
    // 2^64 for a uq value: out of range, the number as written.
    let state = tmp.file(
        "uq.json",
        r#"{"r2": {"type": "uq", "values": [18446744073709551616]}}"#,
    );
    let o = euref(&["run", "--state", state.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "uq.json: $.r2.values[0]: {} is out of range for uq (0..={})",
            1u128 << 64,
            u64::MAX
        )),
        "{err}"
    );
}

#[test]
fn long_instruction_lines_are_cut_in_messages() {
    let tmp = Scratch::new("run-cli");
    // A refused instruction with a long block comment and a control byte on its line.
    let line = format!(
        "  send (8|M0) null r5 0xC 0x60680FF {{EOT}} /* {} \u{1b}[2J */\n",
        "x".repeat(100_000)
    );
    let prog = tmp.file("long.asm", format!("mov (8|M0) r2.0<1>:f 1.0:f\n{line}"));
    let p = prog.to_str().unwrap();
    let o = euref(&["run", p]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.len() < 500, "{} bytes", err.len());
    assert!(!err.contains('\u{1b}'));
    let len = line.trim().len();
    assert!(
        err.starts_with(&format!(
            "{p}:2:3: `send (8|M0) null r5 0xC 0x60680FF {{EOT}} /* xxx"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("... ({len} bytes) is a send")),
        "{err}"
    );
}

/// A program that is not UTF-8, from a file or standard input, is refused with the place of
/// the first byte that is not (issue 26: standard input gave "stream did not contain valid
/// UTF-8" with no place).
#[test]
fn a_program_that_is_not_utf8_is_located() {
    let text: &[u8] = b"mov (8|M0) r2.0<1>:ud 0x1:ud\nab\xff\n";
    // Line 2, column 3: offset 29 (the first line and its newline) + 2.
    let want = "not UTF-8 text: byte 0xff at line 2, column 3 (byte offset 31)";
    let tmp = Scratch::new("run-not-utf8");
    let path = tmp.join("latin1.asm");
    std::fs::write(&path, text).unwrap();
    let o = euref(&["run", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("latin1.asm: {want}")),
        "{}",
        stderr(&o)
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_euref"))
        .args(["run", "-"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(text).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("<stdin>: {want}")),
        "{}",
        stderr(&o)
    );
}
