//! Past one machine (issue 24): `--shard K/N` of `euref golden` and `euref check`, and
//! `euref report merge`. The N shards' outputs concatenated in order are the unsharded output
//! byte for byte (vectors file, report file), each shard is the slice
//! floor((K-1)*count/N) .. floor(K*count/N) (computed here from the unsharded output), and the
//! merged summary of the shards' reports is the unsharded check's summary.

use crate::golden_util::{euref_output as euref, output_text as text, read_bytes as read};
use crate::scratch_util::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EUREF: &str = env!("CARGO_BIN_EXE_euref");

/// `euref golden --gen GEN --count COUNT --seed SEED` into `tmp/g.jsonl`.
fn golden_file(tmp: &Scratch, gen: &str, count: &str, seed: &str) -> PathBuf {
    let path = tmp.join("g.jsonl");
    let out = path.to_str().unwrap();
    let o = euref(&[
        "golden", "--gen", gen, "--count", count, "--seed", seed, "-o", out,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    path
}

/// `euref check --sim SIM VECTORS --report REPORT --show 0`.
fn check_quiet(sim: &str, vectors: &Path, report: &Path) -> Output {
    let (v, r) = (vectors.to_str().unwrap(), report.to_str().unwrap());
    euref(&["check", "--sim", sim, v, "--report", r, "--show", "0"])
}

/// The shard's slice of `count` items, computed without the program's code.
fn slice(k: u64, n: u64, count: u64) -> std::ops::Range<usize> {
    let at = |j: u64| (u128::from(j) * u128::from(count) / u128::from(n)) as usize;
    at(k - 1)..at(k)
}

/// Lines with their line ends.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|b| *b == b'\n').collect()
}

/// The summary table of `euref check --show 0` output: from the "N vectors:" line on.
fn table_of(stdout: &[u8]) -> String {
    let s = String::from_utf8_lossy(stdout);
    let at = s
        .find(" vectors: ")
        .and_then(|i| s[..i].rfind('\n').map(|j| j + 1).or(Some(0)))
        .unwrap_or_else(|| panic!("no summary in {s}"));
    s[at..].to_string()
}

const GOLDEN: [&str; 7] = ["golden", "--gen", "skl", "--count", "50", "--seed", "0x2a"];

#[test]
fn golden_shards_concatenate_to_the_unsharded_file() {
    let tmp = Scratch::new("shards");
    let whole = tmp.join("whole.jsonl");
    let o = euref(&[&GOLDEN[..], &["-o", whole.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let whole = read(&whole);
    let all = lines(&whole);
    assert_eq!(all.len(), 50);
    // (53: more shards than vectors, most of them empty.)
    for n in [1u64, 2, 3, 7, 50, 53] {
        let mut joined = Vec::new();
        for k in 1..=n {
            let p = tmp.join(&format!("s{k}of{n}.jsonl"));
            let shard = format!("{k}/{n}");
            let o = euref(&[&GOLDEN[..], &["--shard", &shard, "-o", p.to_str().unwrap()]].concat());
            assert!(o.status.success(), "{shard}: {}", text(&o));
            let got = read(&p);
            assert!(
                got == all[slice(k, n, 50)].concat(),
                "shard {shard} is not vectors {:?}",
                slice(k, n, 50)
            );
            joined.extend_from_slice(&got);
        }
        assert!(joined == whole, "{n} shards");
    }
}

/// With `--ops` and `--types` selections (tasks of another length) and on stdout, a shard is
/// the same slice; with `--coverage` the vectors are unchanged and the coverage report says
/// that it is the shard's.
#[test]
fn golden_shards_of_selections_and_with_coverage() {
    let args = [
        "golden",
        "--gen",
        "bdw",
        "--count",
        "3000",
        "--seed",
        "9",
        "--ops",
        "mad,sel,cmp",
    ];
    let whole = euref(&args);
    assert!(whole.status.success(), "{}", text(&whole));
    let all = lines(&whole.stdout);
    assert_eq!(all.len(), 3000);
    for (k, n) in [(1, 3), (2, 3), (3, 3), (5, 7)] {
        let shard = format!("{k}/{n}");
        let o = euref(&[&args[..], &["--shard", &shard]].concat());
        assert!(o.status.success(), "{shard}: {}", text(&o));
        assert!(o.stdout == all[slice(k, n, 3000)].concat(), "{shard}");
    }
    let tmp = Scratch::new("shards");
    let p = tmp.join("cov.jsonl");
    let o = euref(
        &[
            &args[..],
            &["--shard", "2/3", "--coverage", "-o", p.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(read(&p) == all[1000..2000].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("shard 2/3: vectors 1000..2000 of 3000 only"),
        "{out}"
    );
    assert!(out.contains("coverage of 1000 vectors (bdw)"), "{out}");
}

#[test]
fn bad_shards_are_refused_with_what_to_do() {
    let tmp = Scratch::new("shards");
    let v = tmp.file("v.jsonl", "");
    for (shard, says) in [
        ("0/3", "shards count from 1"),
        ("4/3", "K must be at most N"),
        ("1/0", "must be at least 1"),
        ("2", "expected K/N"),
        ("x/3", "is not a whole number"),
    ] {
        let g = euref(&[&GOLDEN[..], &["--shard", shard]].concat());
        let c = euref(&[
            "check",
            "--sim",
            "true",
            v.to_str().unwrap(),
            "--shard",
            shard,
        ]);
        for o in [g, c] {
            assert_eq!(o.status.code(), Some(2), "{shard}: {}", text(&o));
            let e = String::from_utf8_lossy(&o.stderr);
            assert!(e.contains(says) && e.contains("--shard"), "{shard}: {e}");
        }
    }
}

/// `check --shard` counts the lines first: a named pipe is refused at once (not opened: that
/// would wait for a writer), saying what to do, and no report is written.
#[test]
fn check_shard_of_a_pipe_is_refused() {
    let tmp = Scratch::new("shards");
    let fifo = tmp.join("v.fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let r = tmp.join("r.jsonl");
    let o = euref(&[
        "check",
        "--sim",
        "true",
        fifo.to_str().unwrap(),
        "--shard",
        "1/2",
        "--report",
        r.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("is not a regular file"), "{e}");
    assert!(e.contains("euref golden --shard 1/2"), "{e}");
    assert!(!r.exists());
}

/// A vectors file with lines that are no vector and blank lines, checked whole and in shards
/// (more shards than lines too) against a simulator that fails some vectors.
struct Checked {
    tmp: Scratch,
    vectors: PathBuf,
    /// The unsharded report's bytes and stdout's summary table.
    report: Vec<u8>,
    table: String,
    sim: String,
}

fn checked_whole(sim: String) -> Checked {
    let tmp = Scratch::new("shards");
    let gen = golden_file(&tmp, "hsw", "70", "11");
    let g = String::from_utf8(read(&gen)).unwrap();
    let mut v: Vec<&str> = g.lines().collect();
    v.insert(3, "");
    v.insert(10, "{\"v\":1,\"id\":");
    v.insert(11, "   ");
    v.insert(40, "not json");
    let vectors = tmp.file("v.jsonl", v.join("\n") + "\n\n");
    let r = tmp.join("whole.report.jsonl");
    let o = check_quiet(&sim, &vectors, &r);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let report = read(&r);
    assert_eq!(lines(&report).len(), 72);
    Checked {
        table: table_of(&o.stdout),
        report,
        tmp,
        vectors,
        sim,
    }
}

impl Checked {
    /// Check shard `k` of `n`: the report file and the stdout table.
    fn shard(&self, k: u64, n: u64, extra: &[&str]) -> (PathBuf, String) {
        let r = self.tmp.join(&format!("r{k}of{n}.jsonl"));
        let shard = format!("{k}/{n}");
        let o = euref(
            &[
                &[
                    "check",
                    "--sim",
                    &self.sim,
                    self.vectors.to_str().unwrap(),
                    "--shard",
                    &shard,
                ],
                &["--report", r.to_str().unwrap(), "--show", "0"][..],
                extra,
            ]
            .concat(),
        );
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{shard}: {}",
            text(&o)
        );
        (r, table_of(&o.stdout))
    }

    /// `euref report merge` of `reports` (-o merged): its output.
    fn merge(&self, reports: &[PathBuf], merged: &Path) -> Output {
        let mut args = vec!["report".to_string(), "merge".to_string()];
        args.extend(reports.iter().map(|r| r.to_str().unwrap().to_string()));
        args.extend(["-o".to_string(), merged.to_str().unwrap().to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        euref(&args)
    }
}

#[test]
fn check_shards_concatenate_to_the_unsharded_report_and_merge_to_its_summary() {
    let c = checked_whole(format!("{EUREF} sim --inject region-off-by-one"));
    let whole = lines(&c.report);
    // Some vectors fail, some pass, the lines that are no vector are reported by file line.
    let report = String::from_utf8_lossy(&c.report);
    assert!(report.contains("\"status\":\"pass\"") && report.contains("\"status\":\"fail\""));
    assert!(report.contains("{\"id\":\"line-11\"") && report.contains("{\"id\":\"line-41\""));
    assert!(c.table.contains("72 vectors: "), "{}", c.table);
    for n in [1u64, 3, 4, 100] {
        let mut joined = Vec::new();
        let mut reports = Vec::new();
        for k in 1..=n {
            let (r, _) = c.shard(k, n, &[]);
            let got = read(&r);
            // The vector lines of the file are 72 (blank lines are none): this shard's slice.
            assert!(got == whole[slice(k, n, 72)].concat(), "shard {k}/{n}");
            joined.extend_from_slice(&got);
            reports.push(r);
        }
        assert!(joined == c.report, "{n} shards");
        let merged = c.tmp.join(&format!("merged{n}.jsonl"));
        let o = c.merge(&reports, &merged);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        assert_eq!(String::from_utf8_lossy(&o.stdout), c.table, "{n} shards");
        assert!(read(&merged) == c.report, "{n} shards");
    }
}

/// The report follows the input's order, lines that are no vector included, whatever the
/// window (before, they were reported when read, up to a window ahead of the vectors before
/// them): so a shard's report can be the slice of the whole report.
#[test]
fn the_report_is_in_input_order_whatever_the_window() {
    let c = checked_whole(format!("{EUREF} sim --inject region-off-by-one"));
    let ids: Vec<String> = lines(&c.report)
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_slice(l).unwrap();
            v["id"].as_str().unwrap().to_string()
        })
        .collect();
    // (Vector lines 1-9 of the file are vectors 0-8, line 11 is the first line that is no
    // vector, line 41 the second.)
    assert_eq!(ids[8], "hsw-b-8", "{ids:?}");
    assert_eq!(ids[9], "line-11", "{ids:?}");
    assert_eq!(ids[38], "line-41", "{ids:?}");
    for window in ["1", "2", "7", "1000"] {
        let r = c.tmp.join(&format!("w{window}.jsonl"));
        let o = check_into(&c, &r, &["--window", window]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        assert!(read(&r) == c.report, "window {window}");
    }
}

/// `euref check` of `c`'s vectors against its simulator, reporting to `report`, with `extra`
/// options.
fn check_into(c: &Checked, report: &Path, extra: &[&str]) -> Output {
    let (vectors, report) = (c.vectors.to_str().unwrap(), report.to_str().unwrap());
    let mut args = vec!["check", "--sim", &c.sim, vectors, "--report", report];
    args.extend_from_slice(extra);
    euref(&args)
}

/// A report resumed after the lines that are no vector keeps them once (they are skipped as
/// vectors are, by their report id `line-<number>`), and is the uninterrupted report.
#[test]
fn a_resumed_report_keeps_lines_that_are_no_vector_once() {
    let c = checked_whole(format!("{EUREF} sim --inject region-off-by-one"));
    let whole = lines(&c.report);
    for keep in [9, 10, 12, 40] {
        let r = c.tmp.join(&format!("resumed{keep}.jsonl"));
        std::fs::write(&r, whole[..keep].concat()).unwrap();
        let o = check_into(&c, &r, &["--resume", "--show", "0"]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        assert!(read(&r) == c.report, "resumed after {keep} lines");
        assert_eq!(table_of(&o.stdout), c.table, "resumed after {keep} lines");
    }
}

/// A crashing simulator: the restarts a merged summary shows are those of the unsharded run
/// (one per crash), and a shard interrupted in the middle of a line and resumed gives the
/// same report as an uninterrupted one (the cut-off line dropped), with the restarts of both
/// its runs.
#[test]
fn merged_and_resumed_summaries_keep_the_restarts() {
    let tmp = Scratch::new("shards");
    let gen = golden_file(&tmp, "skl", "30", "5");
    let g = String::from_utf8(read(&gen)).unwrap();
    let id = |i: usize| {
        let l = g.lines().nth(i).unwrap();
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["id"].as_str().unwrap().to_string()
    };
    // (Vector 17, in shard 2 of 2, crashes the simulator.)
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/flaky_sim.py");
    let sim = format!("python3 {script} crash {} {EUREF}", id(17));
    let c = Checked {
        report: Vec::new(),
        table: String::new(),
        vectors: gen.clone(),
        sim: sim.clone(),
        tmp,
    };
    let whole = c.tmp.join("whole.jsonl");
    let o = check_quiet(&sim, &gen, &whole);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let table = table_of(&o.stdout);
    assert!(table.contains("simulator restarts: 1"), "{table}");
    let (r1, _) = c.shard(1, 2, &[]);
    let (r2, t2) = c.shard(2, 2, &[]);
    assert!(t2.contains("simulator restarts: 1"), "{t2}");
    let merged = c.tmp.join("merged.jsonl");
    let o = c.merge(&[r1.clone(), r2.clone()], &merged);
    assert_eq!(String::from_utf8_lossy(&o.stdout), table);
    // Shard 2 interrupted after 10 lines and part of the 11th, then resumed.
    let full2 = read(&r2);
    let cut: usize = lines(&full2)[..10].iter().map(|l| l.len()).sum::<usize>() + 20;
    std::fs::write(&r2, &full2[..cut]).unwrap();
    let (r2b, t2b) = c.shard(2, 2, &["--resume"]);
    assert_eq!(r2b, r2);
    assert!(
        read(&r2) == full2,
        "the resumed report is the uninterrupted one"
    );
    assert_eq!(t2b, t2, "the resumed summary is the uninterrupted one");
    let o = c.merge(&[r1, r2], &merged);
    assert_eq!(String::from_utf8_lossy(&o.stdout), table);
}

#[test]
fn merge_refuses_duplicates_and_damaged_lines_by_file_and_line() {
    let c = checked_whole(format!("{EUREF} sim --inject no-sat"));
    let (r1, _) = c.shard(1, 2, &[]);
    let (r2, _) = c.shard(2, 2, &[]);
    let merged = c.tmp.join("merged.jsonl");
    let err = |o: &Output| {
        assert_eq!(o.status.code(), Some(2), "{}", text(o));
        assert!(!merged.exists(), "no half-merged report is left");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let (n1, n2) = (r1.display().to_string(), r2.display().to_string());
    // The same shard twice: the first line of the second copy is a duplicate.
    let e = err(&c.merge(&[r1.clone(), r2.clone(), r2.clone()], &merged));
    assert!(e.contains(&format!("{n2}:1: vector `")), "{e}");
    assert!(e.contains(&format!("is already reported at {n2}:1")), "{e}");
    // A damaged line in the middle: file:line:column.
    let t = String::from_utf8(read(&r2)).unwrap();
    let mut ls: Vec<&str> = t.lines().collect();
    ls[4] = "{\"id\":\"x\",\"op\":3}";
    let bad = c.tmp.file("bad.jsonl", ls.join("\n") + "\n");
    let e = err(&c.merge(&[r1.clone(), bad.clone()], &merged));
    assert!(
        e.contains(&format!("{}:5:16: not a report line", bad.display())),
        "{e}"
    );
    // A cut-off last line.
    let cut = c.tmp.file("cut.jsonl", &t[..t.len() - 30]);
    let e = err(&c.merge(&[r1.clone(), cut.clone()], &merged));
    let last = t.lines().count();
    assert!(
        e.contains(&format!(
            "{}:{last}: the last line is cut off",
            cut.display()
        )),
        "{e}"
    );
    assert!(e.contains("--resume"), "{e}");
    // A file that is missing, and -o naming an input.
    let e = err(&c.merge(&[r1.clone(), c.tmp.join("none.jsonl")], &merged));
    assert!(e.contains("none.jsonl: "), "{e}");
    let o = c.merge(&[r1.clone(), r2.clone()], &r1);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("one of the reports to merge"));
    assert!(read(&r1).starts_with(b"{\"id\":"), "{n1} untouched");
}
