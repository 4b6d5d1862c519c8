//! Issue 26, `euref check` at the edges: a report cut off or damaged before `--resume`, a run
//! killed with SIGKILL and resumed, a simulator that prints without line ends, and vector
//! files with one bad line (not UTF-8, an unknown format version, a mask or an `expected`
//! value of the wrong length, an id given twice): each bad line is a `bad_vector` by its line,
//! and the rest of the file is checked.

use crate::golden_util::{euref_output as euref, output_text as text, read_bytes as read};
use crate::scratch_util::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const EUREF: &str = env!("CARGO_BIN_EXE_euref");

/// Lines with their line ends.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|b| *b == b'\n').collect()
}

/// `euref golden --gen GEN --count COUNT --seed SEED` into `tmp/NAME`.
fn golden_file(tmp: &Scratch, name: &str, gen: &str, count: &str, seed: &str) -> PathBuf {
    let path = tmp.join(name);
    let o = euref(&[
        "golden",
        "--gen",
        gen,
        "--count",
        count,
        "--seed",
        seed,
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    path
}

/// `euref check --sim SIM VECTORS --report REPORT --show 0 EXTRA..`.
fn check(sim: &str, vectors: &Path, report: &Path, extra: &[&str]) -> Output {
    let (v, r) = (vectors.to_str().unwrap(), report.to_str().unwrap());
    let args = [
        &["check", "--sim", sim, v, "--report", r, "--show", "0"][..],
        extra,
    ]
    .concat();
    euref(&args)
}

/// The report lines as JSON values.
fn report_values(report: &Path) -> Vec<serde_json::Value> {
    lines(&read(report))
        .iter()
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

/// A checked vectors file and its uninterrupted report.
struct Checked {
    tmp: Scratch,
    vectors: PathBuf,
    sim: String,
    report: Vec<u8>,
}

fn checked(count: &str) -> Checked {
    let tmp = Scratch::new("check-edges");
    let vectors = golden_file(&tmp, "v.jsonl", "bdw", count, "26");
    // (Some vectors fail: the report has lines with details.)
    let sim = format!("{EUREF} sim --inject no-sat");
    let r = tmp.join("whole.jsonl");
    let o = check(&sim, &vectors, &r, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let report = read(&r);
    Checked {
        tmp,
        vectors,
        sim,
        report,
    }
}

impl Checked {
    /// `--resume` of a report holding `start`: the output.
    fn resume(&self, name: &str, start: &[u8]) -> (PathBuf, Output) {
        let r = self.tmp.join(name);
        std::fs::write(&r, start).unwrap();
        let o = check(&self.sim, &self.vectors, &r, &["--resume"]);
        (r, o)
    }
}

/// A report cut off in the middle of a line (a run stopped while writing it) is resumed into
/// the uninterrupted report, and the checker says that it removed the cut-off line.
#[test]
fn a_cut_off_report_line_is_removed_and_said() {
    let c = checked("40");
    let whole = lines(&c.report);
    let start = [whole[..10].concat(), whole[10][..30].to_vec()].concat();
    let (r, o) = c.resume("cut.jsonl", &start);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        read(&r) == c.report,
        "the resumed report is the uninterrupted one"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    let at = format!("{}:11: the last line was cut off (30 bytes", r.display());
    assert!(err.contains(&at), "{err}");
    assert!(
        err.contains("removed; its vector is checked again"),
        "{err}"
    );
}

/// `lines` with `line` inserted before line index `at`.
fn inserted(lines: &[&[u8]], at: usize, line: &[u8]) -> Vec<u8> {
    [lines[..at].concat(), line.to_vec(), lines[at..].concat()].concat()
}

/// A report with a second line for a vector, a vector of another file or a line that is no
/// report line is refused on `--resume`, naming the file and line and what to do, and is left
/// as it was.
#[test]
fn a_damaged_report_is_refused_by_file_and_line() {
    let c = checked("40");
    let whole = lines(&c.report);
    let other = br#"{"id":"ivb-1-999","op":"add","status":"pass","rules":["x"]}"#;
    let cases: [(&str, Vec<u8>, usize, &str); 4] = [
        (
            "duplicate",
            inserted(&whole[..12], 8, whole[3]),
            9,
            "is reported again (first on line 4): a report has one line per vector",
        ),
        (
            "unknown",
            inserted(&whole[..9], 5, &[&other[..], b"\n"].concat()),
            6,
            "vector `ivb-1-999` is not in",
        ),
        (
            "not-json",
            inserted(&whole[..9], 6, b"{\"id\":\"x\", oops\n"),
            7,
            "not a report line of `euref check`",
        ),
        (
            "not-utf8",
            inserted(&whole[..9], 2, b"\xff\xfe\n"),
            3,
            "is not UTF-8",
        ),
    ];
    for (name, start, line, what) in cases {
        let (r, o) = c.resume(&format!("{name}.jsonl"), &start);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        let at = format!("{}:{line}", r.display());
        assert!(err.contains(&at) && err.contains(what), "{name}: {err}");
        assert!(
            err.contains("or check afresh without --resume"),
            "{name}: {err}"
        );
        assert!(read(&r) == start, "{name}: the report is left as it was");
        assert!(o.stdout.is_empty(), "{name}: nothing checked");
    }
}

/// `euref check` killed with SIGKILL in the middle of a run (its simulator slowed down so that
/// the kill comes while vectors are still in flight), then resumed: the report is the
/// uninterrupted run's, line for line.
#[test]
fn a_killed_check_resumed_gives_the_uninterrupted_report() {
    use std::os::unix::process::CommandExt;
    let c = checked("150");
    let r = c.tmp.join("killed.jsonl");
    // Each request goes to the simulator 10 ms after the one before.
    let slow = format!(
        "sh -c 'while IFS= read -r l; do printf \"%s\\n\" \"$l\"; sleep 0.01; done | {}'",
        c.sim
    );
    let args = [
        "check",
        "--sim",
        &slow,
        c.vectors.to_str().unwrap(),
        "--report",
        r.to_str().unwrap(),
        "--show",
        "0",
    ];
    // In a process group of its own, killed with its simulator.
    let mut child = Command::new(EUREF)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let t = Instant::now();
    let reported = loop {
        let n = std::fs::read(&r).map_or(0, |b| lines(&b).len());
        if n >= 30 || t.elapsed() > Duration::from_secs(120) {
            break n;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let group = format!("-{}", child.id());
    let killed = Command::new("kill")
        .args(["-KILL", "--", &group])
        .status()
        .unwrap();
    assert!(killed.success());
    let st = child.wait().unwrap();
    assert_eq!(st.code(), None, "killed by a signal");
    let left = read(&r);
    assert!(
        (30..150).contains(&reported) && lines(&left).len() < 150,
        "killed after {reported} lines"
    );
    let o = check(&c.sim, &c.vectors, &r, &["--resume"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        read(&r) == c.report,
        "the resumed report is the uninterrupted one"
    );
}

/// A simulator that prints without line ends (`cat /dev/zero`) costs each vector one line of
/// at most 4 MiB: the vector is `garbage` with the reason, the simulator is restarted, and
/// the checker runs in bounded memory (under a limit of its address space that the bytes
/// printed before the timeout would exceed many times over).
#[test]
fn a_simulator_without_line_ends_costs_a_bounded_line() {
    let tmp = Scratch::new("check-edges");
    let vectors = golden_file(&tmp, "v.jsonl", "skl", "3", "1");
    let r = tmp.join("zero.jsonl");
    let script = format!(
        "ulimit -v 1000000 && exec {EUREF} check --sim 'cat /dev/zero' {} --report {} \
         --timeout 20000 --show 0",
        vectors.display(),
        r.display()
    );
    let t = Instant::now();
    let o = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "no timeout waited for"
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("simulator restarts: 3"), "{out}");
    let report = report_values(&r);
    assert_eq!(report.len(), 3);
    for l in &report {
        assert_eq!(l["status"], "garbage", "{l}");
        let m = l["detail"]["message"].as_str().unwrap();
        assert!(
            m.starts_with("response line longer than 4194304 bytes"),
            "{m}"
        );
        // The start of the line is kept to show.
        let resp = l["detail"]["response"].as_str().unwrap();
        assert!(
            resp.starts_with('\0') && resp.len() <= 256,
            "{}",
            resp.len()
        );
    }
    // The limit is in the help.
    let help = euref(&["check", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("longer than 4 MiB (4194304 bytes)"), "{help}");
}

/// Vector files with one bad line each kind: a byte that is not UTF-8, `"v":99`, an
/// `undefined` mask shorter than its register, an `expected` value shorter than its register,
/// an id of an earlier line. Each is a `bad_vector` reported as `line-<number>` with what is
/// wrong and where, the simulator is never blamed (no restart), and every other vector is
/// checked; a report cut before the repeated id resumes into the same report (the repeated
/// id does not make `--resume` skip its line).
#[test]
fn one_bad_line_does_not_sink_a_run() {
    let tmp = Scratch::new("check-edges");
    let g = golden_file(&tmp, "g.jsonl", "skl", "20", "7");
    let good = String::from_utf8(read(&g)).unwrap();
    let mut v: Vec<Vec<u8>> = good.lines().map(|l| l.as_bytes().to_vec()).collect();
    let edit = |line: &[u8], f: &dyn Fn(&mut serde_json::Value)| -> Vec<u8> {
        let mut x: serde_json::Value = serde_json::from_slice(line).unwrap();
        f(&mut x);
        serde_json::to_vec(&x).unwrap()
    };
    // Line 3: a byte 0xff inside the instruction text.
    let insn_at = v[2].windows(8).position(|w| w == b"\"insn\":\"").unwrap() + 9;
    v[2][insn_at] = 0xff;
    // Line 5: an unknown format version.
    v[4] = edit(&v[4], &|x| x["v"] = 99.into());
    // Line 7: a mask of one byte for a flag register of four.
    v[6] = edit(&v[6], &|x| x["undefined"]["f1"] = "ff".into());
    // Line 9: `expected.f0` one byte short.
    v[8] = edit(&v[8], &|x| x["expected"]["f0"] = "000000".into());
    // Line 12: the id of line 2.
    let id2 = serde_json::from_slice::<serde_json::Value>(&v[1]).unwrap()["id"].clone();
    v[11] = edit(&v[11], &|x| x["id"] = id2.clone());
    let mut bytes: Vec<u8> = v.join(&b'\n');
    bytes.push(b'\n');
    let vectors = tmp.file("v.jsonl", &bytes);
    let r = tmp.join("r.jsonl");
    let o = check(&format!("{EUREF} sim"), &vectors, &r, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let report = report_values(&r);
    assert_eq!(report.len(), 20);
    let offset_3 = v[0].len() + v[1].len() + 2 + insn_at;
    let bad = [
        (
            3,
            format!(
                "line 3: byte {insn_at} of the line (byte {offset_3} of the file) is 0xff, \
                 which is not UTF-8"
            ),
        ),
        (5, "format version 99 (`\"v\":99`)".to_string()),
        (
            7,
            "undefined.f1 has 2 hex digits, expected.f1 has 8".to_string(),
        ),
        (
            9,
            "expected.f0 has 6 hex digits, the register has 4 bytes".to_string(),
        ),
        (
            12,
            format!("vector {id2} again: line 2 has that id").replace('"', "`"),
        ),
    ];
    // (Every line's verdict first, then the wrong ones together.)
    let mut wrong = Vec::new();
    for (k, l) in report.iter().enumerate() {
        let line = k + 1;
        let ok = match bad.iter().find(|b| b.0 == line) {
            Some((_, what)) => {
                let m = l["detail"]["message"].as_str().unwrap_or("");
                l["id"] == format!("line-{line}")
                    && l["status"] == "bad_vector"
                    && m.starts_with(&format!("line {line}: "))
                    && m.contains(what.as_str())
            }
            None => l["status"] == "pass",
        };
        if !ok {
            wrong.push(format!("line {line}: {l}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("20 vectors: 15 passed, 5 failed") && out.contains("simulator restarts: 0"),
        "{out}"
    );
    // `--explain` of the vector cut short says why it is not sent.
    let id9 = serde_json::from_slice::<serde_json::Value>(&v[8]).unwrap()["id"].clone();
    let (sim, vf) = (
        format!("{EUREF} sim"),
        vectors.to_str().unwrap().to_string(),
    );
    let o = euref(&[
        "check",
        "--sim",
        &sim,
        &vf,
        "--explain",
        id9.as_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("expected.f0 has 6 hex digits"), "{err}");
    // Resumed from a report cut before the repeated id: the same report.
    let whole = read(&r);
    let start: Vec<u8> = lines(&whole)[..10].concat();
    std::fs::write(&r, start).unwrap();
    let o = check(&format!("{EUREF} sim"), &vectors, &r, &["--resume"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        read(&r) == whole,
        "the resumed report is the uninterrupted one"
    );
}
