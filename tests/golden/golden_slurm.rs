//! The Slurm scripts of conformance/cluster/ on a real Slurm (issue 24), opt-in:
//! `cargo test --test golden -- --ignored slurm`. scripts/slurm-local.sh installs Debian's
//! slurm-wlm and munge when missing (apt-get: root), starts a single-node cluster on localhost
//! and stops it at the end. The test submits the array job (3 shards of 300 vectors, checked
//! against `euref sim` with an injected fault, so that the summary has failures) and its merge
//! job, waits, and compares the shards' vectors and reports concatenated, the merged report
//! and the merged summary with an unsharded run on this machine; then the same with one
//! vectors file that every shard checks its slice of (`check --shard`).
//!
//! Also here: the Kubernetes Indexed Job's command (conformance/cluster/k8s-indexed-job.yaml)
//! run for each 0-based JOB_COMPLETION_INDEX, without Kubernetes.

use crate::scratch_util::Scratch;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const EUREF: &str = env!("CARGO_BIN_EXE_euref");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn read_text(p: &Path) -> String {
    String::from_utf8(read(p)).unwrap()
}

/// The unsharded run: vectors, report and the check's summary table (`--show 0`: after the
/// line that counts the failures not shown).
struct Whole {
    vectors: Vec<u8>,
    report: Vec<u8>,
    table: String,
}

fn whole_run(tmp: &Scratch, gen: &str, count: &str, seed: &str, sim: &str) -> Whole {
    let v = tmp.join("whole.jsonl");
    let r = tmp.join("whole.report.jsonl");
    let st = Command::new(EUREF)
        .args([
            "golden", "--gen", gen, "--count", count, "--seed", seed, "-o",
        ])
        .arg(&v)
        .status()
        .unwrap();
    assert!(st.success());
    let o = Command::new(EUREF)
        .args(["check", "--sim", sim])
        .arg(&v)
        .arg("--report")
        .arg(&r)
        .args(["--show", "0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "the injected fault fails vectors");
    let out = String::from_utf8(o.stdout).unwrap();
    let table = match out.split_once(" not shown; see the report)\n") {
        Some((_, t)) => t.to_string(),
        None => out,
    };
    Whole {
        vectors: read(&v),
        report: read(&r),
        table,
    }
}

/// The files `name.K.jsonl` of shards 1..=n, concatenated.
fn joined(dir: &Path, name: &str, n: u64) -> Vec<u8> {
    (1..=n)
        .flat_map(|k| read(&dir.join(format!("{name}.{k}.jsonl"))))
        .collect()
}

/// Stops the local Slurm when dropped (also when the test fails).
struct LocalSlurm {
    dir: PathBuf,
}

impl LocalSlurm {
    fn script() -> String {
        format!("{ROOT}/scripts/slurm-local.sh")
    }

    fn start(dir: PathBuf) -> LocalSlurm {
        let st = Command::new("bash")
            .arg(Self::script())
            .arg("start")
            .env("EUREF_SLURM_DIR", &dir)
            .status()
            .unwrap();
        let s = LocalSlurm { dir };
        assert!(st.success(), "scripts/slurm-local.sh start failed");
        s
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }
}

impl Drop for LocalSlurm {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(Self::script())
            .arg("stop")
            .env("EUREF_SLURM_DIR", &self.dir)
            .status();
    }
}

/// Submit a run with slurm-submit.sh and wait for its merge job's `merge.status`: the status.
fn submit_and_wait(slurm: &LocalSlurm, out: &Path, env: &[(&str, &str)]) -> String {
    let o = Command::new("bash")
        .arg(format!("{ROOT}/conformance/cluster/slurm-submit.sh"))
        .env("SLURM_CONF", slurm.conf())
        .env("OUT", out)
        .env("EUREF", EUREF)
        .env("CPUS_PER_TASK", "1")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "slurm-submit.sh: {said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    eprintln!("slurm jobs (array, merge): {}", said.trim());
    let status = out.join("merge.status");
    let started = Instant::now();
    while !status.exists() {
        if started.elapsed() > Duration::from_secs(600) {
            let q = Command::new("squeue")
                .env("SLURM_CONF", slurm.conf())
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default();
            panic!("no merge after 600 s; squeue:\n{q}");
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    eprintln!("slurm run done in {:.1} s", started.elapsed().as_secs_f64());
    read_text(&status).trim().to_string()
}

#[test]
#[ignore = "installs and starts Slurm (root, apt-get): cargo test --test golden -- --ignored slurm"]
fn slurm_array_job_shards_merge_to_the_unsharded_run() {
    let tmp = Scratch::new("slurm");
    let sim = format!("{EUREF} sim --inject region-off-by-one");
    let (gen, count, seed) = ("skl", "300", "7");
    let whole = whole_run(&tmp, gen, count, seed, &sim);
    let slurm = LocalSlurm::start(tmp.join("slurm"));

    // Each shard generates its vectors and checks them.
    let out = tmp.join("generated");
    let env = [
        ("SHARDS", "3"),
        ("GEN", gen),
        ("COUNT", count),
        ("SEED", seed),
        ("SIM", sim.as_str()),
    ];
    let status = submit_and_wait(&slurm, &out, &env);
    assert_eq!(status, "1", "merge: failures found (the injected fault)");
    assert!(joined(&out, "vectors", 3) == whole.vectors, "vectors");
    assert!(joined(&out, "report", 3) == whole.report, "reports");
    assert!(
        read(&out.join("report.jsonl")) == whole.report,
        "merged report"
    );
    assert_eq!(read_text(&out.join("summary.txt")), whole.table);

    // Each shard checks its slice of one vectors file.
    let out = tmp.join("sliced");
    let vectors = tmp.join("whole.jsonl");
    let env = [
        ("SHARDS", "3"),
        ("VECTORS", vectors.to_str().unwrap()),
        ("SIM", sim.as_str()),
    ];
    let status = submit_and_wait(&slurm, &out, &env);
    assert_eq!(status, "1");
    assert!(joined(&out, "report", 3) == whole.report, "reports");
    assert_eq!(read_text(&out.join("summary.txt")), whole.table);
    drop(slurm);
}

/// The Indexed Job's container command, run for JOB_COMPLETION_INDEX 0, 1, 2 with the
/// manifest's mount of the scripts pointed at conformance/cluster/: shards 1/3 .. 3/3, which
/// merge (merge job's command) to the unsharded run. The manifest's N agrees in its three
/// places.
#[test]
fn kubernetes_indexed_job_command_runs_shard_index_plus_one() {
    let manifest = read_text(Path::new(&format!(
        "{ROOT}/conformance/cluster/k8s-indexed-job.yaml"
    )));
    let merge_manifest = read_text(Path::new(&format!(
        "{ROOT}/conformance/cluster/k8s-merge-job.yaml"
    )));
    let field = |text: &str, key: &str| -> String {
        let at = text.find(key).unwrap_or_else(|| panic!("no `{key}`"));
        text[at + key.len()..]
            .lines()
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    let n = field(&manifest, "completions:");
    assert_eq!(n, "4");
    assert_eq!(
        field(&manifest, "name: SHARDS\n              value:"),
        "\"4\""
    );
    assert!(merge_manifest.contains("\"/euref-cluster/merge.sh\", \"4\"]"));
    assert_eq!(field(&manifest, "completionMode:"), "Indexed");
    // The command: the argument of `sh -c` (a single-quoted YAML string).
    let line = manifest
        .lines()
        .find(|l| l.contains("JOB_COMPLETION_INDEX") && l.trim().starts_with("- "))
        .unwrap();
    let command = line
        .trim()
        .strip_prefix("- '")
        .and_then(|c| c.strip_suffix('\''))
        .unwrap_or_else(|| panic!("not a single-quoted list item: {line}"));
    let command = command.replace("/euref-cluster/", &format!("{ROOT}/conformance/cluster/"));

    let tmp = Scratch::new("k8s");
    let sim = format!("{EUREF} sim --inject region-off-by-one");
    let whole = whole_run(&tmp, "bdw", "200", "3", &sim);
    let out = tmp.join("results");
    for index in 0..3 {
        let st = Command::new("/bin/sh")
            .arg("-c")
            .arg(&command)
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env("SHARDS", "3")
            .env("OUT", &out)
            .env("EUREF", EUREF)
            .env("GEN", "bdw")
            .env("COUNT", "200")
            .env("SEED", "3")
            .env("SIM", &sim)
            .status()
            .unwrap();
        assert!(st.success(), "index {index}");
    }
    assert!(joined(&out, "vectors", 3) == whole.vectors);
    assert!(joined(&out, "report", 3) == whole.report);
    let o = Command::new("/bin/sh")
        .arg(format!("{ROOT}/conformance/cluster/merge.sh"))
        .arg("3")
        .env("OUT", &out)
        .env("EUREF", EUREF)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout), whole.table);
    assert_eq!(read_text(&out.join("merge.status")).trim(), "1");
}
