//! From a failure to its cause (issue 24): the summary ranks the spec rows by how well they
//! explain the failures, semantic apart from structural, and the injected fault's row comes
//! first; the report keeps every differing element and the simulator's reply; `--ops`, `--id`
//! and `--explain` narrow a check down to the vectors at hand; a partial simulator that says
//! what it does not model or ignored gets statuses of their own.

use crate::golden_util::{check, golden, vectors_of, EUREF};
use crate::scratch_util::Scratch;
use euref::conformance::check::ReportLine;
use euref::golden::Vector;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A ranked line of the summary: its score and its rows.
type Ranked = (f64, Vec<String>);

/// The ranked lines of the summary's table of `kind` (`semantic rows`, `structural rows`);
/// empty when it says that none stands out.
fn ranked(out: &str, kind: &str) -> Vec<Ranked> {
    let mut groups = Vec::new();
    let start = format!("{kind} (");
    for l in out.lines().skip_while(|l| !l.starts_with(&start)).skip(1) {
        let t: Vec<&str> = l.split_whitespace().collect();
        if !l.starts_with("  ") || l.starts_with("  (") || l.contains("none stands out") {
            break;
        }
        if t[0] == "score" {
            continue;
        }
        let rows = t[3..].iter().filter(|r| **r != "=").map(|r| r.to_string());
        groups.push((t[0].parse().unwrap(), rows.collect()));
    }
    groups
}

/// The places of the summary's "where the failing vectors differ" table, most vectors first.
fn differ_places(out: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.starts_with("where the failing vectors differ"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t[..t.len() - 1].join(" ")
        })
        .collect()
}

fn skl(tmp: &Scratch, count: &str) -> PathBuf {
    let v = tmp.join(&format!("skl-{count}.jsonl"));
    golden(&["--gen", "skl", "--count", count, "--seed", "7"], &v, "2");
    v
}

/// Under each injected fault, the row the fault breaks comes first among the semantic rows
/// (the structural ones for a region fault). Faults no row describes (predication ignored,
/// the other flag register written) rank no semantic row, or none that explains much, and
/// the summary shows where the failing vectors differ instead; when every vector fails it
/// says that no row can tell the causes apart.
#[test]
fn the_injected_fault_ranks_its_row_first() {
    let tmp = Scratch::new("cause");
    let v = skl(&tmp, "8000");
    let mut seen = Vec::new();
    for fault in euref::conformance::inject::Fault::ALL {
        let name = fault.name();
        let r = tmp.join(&format!("{name}.report.jsonl"));
        let sim = format!("{EUREF} sim --inject {name}");
        let (code, out, _) = check(&sim, &v, &r, &["--show", "0"]);
        assert_eq!(code, 1, "{name}: {out}");
        let sem = ranked(&out, "semantic rows");
        let st = ranked(&out, "structural rows");
        let first = |g: &[Ranked], want: &dyn Fn(&str) -> bool| {
            g.first()
                .is_some_and(|(_, rows)| rows.iter().any(|r| want(r)))
        };
        let places = differ_places(&out);
        let ok = match name {
            "no-denorm-flush" => first(&sem, &|r| r.starts_with("fp.ieee.denorm.")),
            "cmpn-nan-swap" => first(&sem, &|r| {
                r == "fp.ieee.cmpn-nan" || r.starts_with("cmpn.rule.")
            }),
            "no-sat" => first(&sem, &|r| r == "sat.float"),
            "sel-sets-flags" => {
                first(&sem, &|r| r == "cmpn.rule.sel-flags-untouched") && places == ["f0 (flags)"]
            }
            // A source region fault: the structural rows of source regions; no semantic row.
            "region-off-by-one" => {
                sem.is_empty()
                    && first(&st, &|r| {
                        r == "align.src-natural" || r == "region.vstride-legal"
                    })
            }
            // No row says what predication does: the failures are those of predicated
            // instructions (op.pred-unsupported is listed exactly on them) and they differ
            // in the destination first; no semantic row explains a tenth of them.
            "ignore-predication" => {
                sem.iter().all(|(score, _)| *score < 0.1)
                    && st
                        .first()
                        .is_some_and(|(_, r)| r == &["op.pred-unsupported"])
                    && places.first().is_some_and(|p| p == "destination")
            }
            // The other flag register is written: no row stands out, and both flag registers
            // differ.
            "flag-swap" => {
                sem.is_empty()
                    && places.iter().any(|p| p == "f0 (flags)")
                    && places.iter().any(|p| p == "f1 (flags)")
            }
            "error-all" => out.contains("every checked vector failed: no row explains"),
            other => panic!("a fault without an expectation: {other}"),
        };
        assert!(ok, "{name}: {sem:?} / {st:?} / {places:?}\n{out}");
        seen.push(name);
    }
    assert_eq!(seen.len(), 8);
}

/// The size of an element of a type as reports name it.
fn type_bytes(t: &str) -> usize {
    match t {
        "b" | "ub" => 1,
        "w" | "uw" | "hf" => 2,
        "q" | "uq" | "df" => 8,
        _ => 4,
    }
}

fn bytes_of(hex: &str) -> Vec<Option<u8>> {
    (0..hex.len() / 2)
        .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).ok())
        .collect()
}

/// The report of a failing vector holds every differing element and the simulator's reply:
/// recomputed from the reply and the vector, every byte (flag: bit) that differs on its
/// defined bits lies in exactly one reported element, and every reported element holds one;
/// its hex values are the expected and actual bytes. The printed text names every differing
/// register.
#[test]
fn the_report_keeps_every_difference_and_the_reply() {
    let tmp = Scratch::new("cause");
    let v = skl(&tmp, "2000");
    let vs: BTreeMap<String, Vector> = vectors_of(&v)
        .into_iter()
        .map(|x| (x.id.clone(), x))
        .collect();
    let r = tmp.join("region.report.jsonl");
    let sim = format!("{EUREF} sim --inject region-off-by-one");
    let (code, out, lines) = check(&sim, &v, &r, &["--show", "5"]);
    assert_eq!(code, 1, "{out}");
    let (mut checked, mut several, mut flags) = (0, 0, 0);
    for l in lines.iter().filter(|l| l.status == "fail") {
        let x = &vs[&l.id];
        let d = l.detail.as_ref().unwrap();
        let reply: serde_json::Value =
            serde_json::from_str(d["response"].as_str().unwrap()).unwrap();
        assert_eq!(reply["id"], l.id.as_str());
        let diffs = d["differences"].as_array().unwrap();
        if !x.alternatives.is_empty() || d.get("more").is_some() {
            continue;
        }
        let mut regs = BTreeSet::new();
        for (reg, exp) in &x.expected {
            let act = bytes_of(reply["final"][reg].as_str().unwrap());
            let exp = bytes_of(exp);
            let undef = x.undefined.get(reg).map(|u| bytes_of(u));
            let mine: Vec<&serde_json::Value> =
                diffs.iter().filter(|e| e["reg"] == reg.as_str()).collect();
            // Differing bits, per byte.
            let differing: Vec<(usize, u8)> = (0..exp.len())
                .filter_map(|k| {
                    let m = undef.as_ref().and_then(|u| u[k]).unwrap_or(0);
                    let bits = match act[k] {
                        Some(a) => (a ^ exp[k].unwrap()) & !m,
                        None => !m,
                    };
                    (bits != 0).then_some((k, bits))
                })
                .collect();
            if differing.is_empty() {
                assert!(mine.is_empty(), "{}: {reg} reported, equal", l.id);
                continue;
            }
            regs.insert(reg.clone());
            if reg.starts_with('f') {
                // One entry per differing bit: `fN.s bit b`.
                let want: BTreeSet<usize> = differing
                    .iter()
                    .flat_map(|(k, bits)| {
                        (0..8)
                            .filter(move |b| bits >> b & 1 == 1)
                            .map(move |b| k * 8 + b)
                    })
                    .collect();
                let got: BTreeSet<usize> = mine
                    .iter()
                    .map(|e| {
                        let note = e["note"].as_str().unwrap();
                        let (sub, bit) = note.split_once(" bit ").unwrap();
                        let s: usize = sub.rsplit('.').next().unwrap().parse().unwrap();
                        s * 16 + bit.parse::<usize>().unwrap()
                    })
                    .collect();
                assert_eq!(got, want, "{}: {reg}", l.id);
                flags += 1;
                continue;
            }
            let ranges: Vec<(usize, usize)> = mine
                .iter()
                .map(|e| {
                    let b = e["byte"].as_u64().unwrap() as usize;
                    (b, b + type_bytes(e["type"].as_str().unwrap()))
                })
                .collect();
            for (k, _) in &differing {
                let n = ranges.iter().filter(|(a, b)| a <= k && k < b).count();
                assert_eq!(n, 1, "{}: {reg} byte {k} in {n} elements", l.id);
            }
            for (e, (a, b)) in mine.iter().zip(&ranges) {
                assert!(
                    differing.iter().any(|(k, _)| a <= k && k < b),
                    "{}: {e} holds no difference",
                    l.id
                );
                let hex = |v: &[Option<u8>]| {
                    let s: String = v[*a..*b]
                        .iter()
                        .rev()
                        .map(|x| format!("{:02x}", x.unwrap()))
                        .collect();
                    format!("0x{s}")
                };
                assert_eq!(e["expected"].as_str(), Some(hex(&exp).as_str()), "{}", l.id);
                if act[*a..*b].iter().all(Option::is_some) {
                    assert_eq!(e["actual"].as_str(), Some(hex(&act).as_str()), "{}", l.id);
                }
            }
        }
        several += usize::from(regs.len() > 1);
        checked += 1;
    }
    assert!(
        checked > 200 && several > 20 && flags > 20,
        "{checked} {several} {flags}"
    );
    // The printed text: every register with differences, then the reply.
    let block = out.split("\n\n").find(|b| b.starts_with("FAIL")).unwrap();
    let id = block.split_whitespace().nth(1).unwrap();
    let regs: BTreeSet<&str> = lines
        .iter()
        .find(|l| l.id == id)
        .and_then(|l| l.detail.as_ref())
        .and_then(|d| d["differences"].as_array())
        .unwrap()
        .iter()
        .map(|e| e["reg"].as_str().unwrap())
        .collect();
    for reg in &regs {
        assert!(
            block.contains(&format!("\n    {reg:<5} ")),
            "{reg}: {block}"
        );
    }
    assert!(
        block.contains(&format!("\n  response: {{\"id\":\"{id}\",\"final\"")),
        "{block}"
    );
}

/// A reply that leaves out a reported register is `incomplete`, and says which register and
/// what to do (not a typed comparison of nothing).
#[test]
fn a_register_missing_from_the_reply_is_named() {
    let tmp = Scratch::new("cause");
    let v = skl(&tmp, "200");
    let r = tmp.join("nof1.report.jsonl");
    let sim = format!("{EUREF} sim | sed -u -e 's/,\"f1\":\"[0-9a-fx]*\"//'");
    let (code, out, lines) = check(&sim, &v, &r, &["--show", "1"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(lines.len(), 200);
    assert!(lines.iter().all(|l| l.status == "incomplete"), "{out}");
    let says = concat!(
        "reported registers: f1 (report every register of the request's `report`, or name ",
        "those the simulator does not model in `unmodelled`"
    );
    assert!(out.contains(says), "{out}");
    assert!(!out.contains("(ub )"), "{out}");
}

/// `--ops` and `--id` send only the vectors asked for: the simulator never sees the others
/// (it logs what it reads), and the summary counts only those. An opcode that does not exist,
/// or a filter that matches nothing, is an error that says so.
#[test]
fn ops_and_id_filters_send_only_the_chosen_vectors() {
    let tmp = Scratch::new("cause");
    let v = skl(&tmp, "3000");
    let vs = vectors_of(&v);
    let log = tmp.join("requests.log");
    let sim = format!("tee -a {} | {EUREF} sim", log.display());
    let sent = |log: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let _ = std::fs::remove_file(log);
        text.lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let r = tmp.join("ops.report.jsonl");
    let (code, out, lines) = check(&sim, &v, &r, &["--ops", "mad,sel"]);
    assert_eq!(code, 0, "{out}");
    let want: Vec<String> = vs
        .iter()
        .filter(|x| x.op == "mad" || x.op == "sel")
        .map(|x| x.id.clone())
        .collect();
    assert!(want.len() > 100, "{}", want.len());
    assert_eq!(sent(&log), want);
    let got: Vec<&String> = lines.iter().map(|l| &l.id).collect();
    assert_eq!(got, want.iter().collect::<Vec<_>>());
    assert!(
        out.contains(&format!("{n} vectors: {n} passed", n = want.len())),
        "{out}"
    );

    let ids = format!("{},{},skl-7-nope", vs[5].id, vs[2999].id);
    let (code, out, lines) = check(&sim, &v, &r, &["--id", &ids]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(sent(&log), [vs[5].id.clone(), vs[2999].id.clone()]);
    assert_eq!(lines.len(), 2);
    assert!(out.contains("has id skl-7-nope"), "{out}");

    let (code, out, _) = check(&sim, &v, &r, &["--ops", "madd"]);
    assert_eq!(code, 2, "{out}");
    let (code, _, _) = check(&sim, &v, &r, &["--id", "skl-7-nope"]);
    assert_eq!(code, 2);
    assert!(sent(&log).is_empty());
}

/// `euref check --explain ID`: the request, the reply, expected and actual registers, every
/// differing element and the vector's rows with their text and citation from the spec; exit
/// 1 for a failing vector, 0 for a passing one, 2 for an id that is not there.
#[test]
fn explain_prints_one_vector_from_request_to_rows() {
    let tmp = Scratch::new("cause");
    let v = skl(&tmp, "1500");
    let r = tmp.join("nosat.report.jsonl");
    let faulty = format!("{EUREF} sim --inject no-sat");
    let (_, _, lines) = check(&faulty, &v, &r, &["--show", "0"]);
    let failing: &ReportLine = lines
        .iter()
        .find(|l| l.status == "fail" && l.rules.iter().any(|r| r == "sat.float"))
        .unwrap();
    let explain = |sim: &str, id: &str| {
        let o = Command::new(EUREF)
            .args(["check", "--sim", sim, "--explain", id])
            .arg(&v)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        (o.status.code(), text, err)
    };
    let id = &failing.id;
    let (code, text, _) = explain(&faulty, id);
    assert_eq!(code, Some(1), "{text}");
    let x = vectors_of(&v).into_iter().find(|x| &x.id == id).unwrap();
    let request = euref::conformance::protocol::Request::from_vector(&x).to_line();
    assert!(
        text.contains(&format!(
            "request (sent on the simulator's standard input):\n  {request}\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("response:\n  {{\"id\":\"{id}\",\"final\":{{")),
        "{text}"
    );
    assert!(text.contains("status: fail"), "{text}");
    for (reg, hex) in &x.expected {
        assert!(
            text.contains(&format!("  {reg:<6} expected  {hex}\n")),
            "{reg}: {text}"
        );
    }
    assert!(text.contains("differs   "), "{text}");
    let diffs = text.split("differences (every element):\n").nth(1).unwrap();
    let n = failing.detail.as_ref().unwrap()["differences"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(
        diffs.lines().take_while(|l| l.starts_with("  ")).count(),
        n,
        "{text}"
    );
    // The saturation row, its place, text and citation as the spec has them.
    let sat = euref::spec::conversions::SATURATIONS
        .iter()
        .find(|s| s.id == "sat.float")
        .unwrap();
    let row = "  sat.float  (spec/conversions.toml [[saturation]])\n";
    assert!(text.contains(row), "{text}");
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains(&format!(
            "    {}\n    cite: {}\n",
            words(sat.text),
            sat.cite
        )),
        "{text}"
    );
    assert!(text.contains("structural rows (spec/rules"), "{text}");

    let (code, text, _) = explain(&format!("{EUREF} sim"), id);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("status: pass") && !text.contains("differences (every"),
        "{text}"
    );
    let (code, _, err) = explain(&format!("{EUREF} sim"), "skl-7-nope");
    assert_eq!(code, Some(2));
    assert!(err.contains("no vector has id `skl-7-nope`"), "{err}");
}

/// python3, or a notice that the test is skipped.
pub fn python3(test: &str) -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIPPED {test}: python3 is not installed");
    }
    ok
}

/// A simulator without accumulators that says so (`unmodelled`) gets `unmodelled` for the
/// vectors that expect an accumulator and passes the others; one that ignores predication
/// and says so (`ignored`) gets `ignored` for every predicated vector, never `pass` nor
/// `fail`. Neither fails the check: exit 3, "not fully checked", with the registers and
/// features counted.
#[test]
fn partial_simulators_are_checked_honestly() {
    if !python3("partial_simulators_are_checked_honestly") {
        return;
    }
    let tmp = Scratch::new("cause");
    let v = skl(&tmp, "1500");
    let vs = vectors_of(&v);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/partial_sim.py");
    let r = tmp.join("partial.report.jsonl");
    let (code, out, lines) = check(
        &format!("python3 {script} no-acc {EUREF}"),
        &v,
        &r,
        &["--show", "1"],
    );
    assert_eq!(code, 3, "{out}");
    let with_acc = |x: &Vector| x.expected.keys().any(|k| k.starts_with("acc"));
    let n = vs.iter().filter(|x| with_acc(x)).count();
    assert!(n > 50, "{n}");
    for (x, l) in vs.iter().zip(&lines) {
        let want = if with_acc(x) { "unmodelled" } else { "pass" };
        assert_eq!(l.status, want, "{}", x.id);
    }
    let acc0 = vs
        .iter()
        .filter(|x| x.expected.contains_key("acc0"))
        .count();
    assert!(
        out.contains(&format!("{n} not fully checked (unmodelled {n})")),
        "{out}"
    );
    assert!(
        out.contains("registers the simulator does not model"),
        "{out}"
    );
    assert!(
        out.contains(&format!("  {:<40} {acc0:>9}", "acc0")),
        "{out}"
    );

    let (code, out, lines) = check(
        &format!("python3 {script} ignore-pred {EUREF}"),
        &v,
        &r,
        &["--show", "1"],
    );
    assert_eq!(code, 3, "{out}");
    for (x, l) in vs.iter().zip(&lines) {
        let want = if x.insn.starts_with('(') {
            "ignored"
        } else {
            "pass"
        };
        assert_eq!(l.status, want, "{}", x.id);
    }
    let p = vs.iter().filter(|x| x.insn.starts_with('(')).count();
    assert!(
        out.contains(&format!("  {:<40} {p:>9}", "predication")),
        "{out}"
    );
}
