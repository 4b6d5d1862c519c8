//! Issue 32: the SystemVerilog DPI-C package (dpi/euref_dpi.sv, dpi/euref_dpi.c) and its
//! lockstep testbench (dpi/tb/), built with Verilator (Debian's `verilator`, installed by
//! scripts/test.sh; `$EUREF_VERILATOR` names another) against libeuref.
//!
//! The program dpi/tb/lockstep.asm is assembled here with `euref asm -o`; the testbench reads
//! its bytes, runs its SystemVerilog model of `mov`/`add`/`and` and euref in lockstep, and
//! compares each write-back with euref_compare_grf:
//! - the model as written must agree with euref on every instruction (PASS);
//! - the model with its injected bug (`+inject_bug`: `add` with an immediate adds one too
//!   many) must be flagged at the first such instruction of the program, and only there (the
//!   testbench copies euref's register into the model after a mismatch).
//!
//! Without Verilator the tests skip with a notice; with `CI=true` (or
//! `EUREF_REQUIRE_CORPUS=1`) they fail. The build (one model, about 10 s of C++ on one
//! core) goes to `$CARGO_TARGET_TMPDIR/dpi-verilator`, where Verilator's make reuses it.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The repository root (capi/ is one level down).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("capi/ has a parent")
        .to_path_buf()
}

/// Whether a missing tool fails the test (`CI=true` or `EUREF_REQUIRE_CORPUS=1`), as the
/// main crate's tests decide for the corpus and iga64 (tests/common/material.rs).
fn required() -> bool {
    let on = |var: &str| {
        std::env::var(var)
            .map(|v| v.eq_ignore_ascii_case("true") || v == "1")
            .unwrap_or(false)
    };
    on("CI") || on("EUREF_REQUIRE_CORPUS")
}

/// Verilator: `$EUREF_VERILATOR` or `verilator` on the PATH; None (with a notice) when absent.
fn verilator(test: &str) -> Option<PathBuf> {
    let named = std::env::var_os("EUREF_VERILATOR").map(PathBuf::from);
    let found = named.clone().or_else(|| {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join("verilator"))
                .find(|p| p.is_file())
        })
    });
    if let Some(p) = found.filter(|p| p.is_file()) {
        return Some(p);
    }
    let why = match named {
        Some(p) => format!("EUREF_VERILATOR={} is not a file", p.display()),
        None => "verilator is not on the PATH".to_string(),
    };
    if required() {
        panic!(
            "{test} needs Verilator: {why} (CI=true or EUREF_REQUIRE_CORPUS=1 require it): run \
             scripts/test.sh, which installs Debian's verilator, or set EUREF_VERILATOR"
        );
    }
    // Straight to the process's standard error: the harness captures eprintln! of a passing
    // test, and this notice must be seen.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: needs Verilator: {why} (scripts/test.sh installs Debian's verilator; \
         or set EUREF_VERILATOR; CI=true or EUREF_REQUIRE_CORPUS=1 make this a failure)"
    );
    None
}

/// The profile directory of this build (target/debug), where cargo puts the euref binary and
/// libeuref_capi: this test runs from target/debug/deps.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its executable");
    let deps = exe.parent().expect("the test executable is in a directory");
    deps.parent().unwrap_or(deps).to_path_buf()
}

/// The `euref` binary: `$EUREF_BIN`, or the one `cargo test --workspace` builds; built here
/// when it is missing (`cargo test -p euref-capi` builds only this package).
fn euref_exe() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("EUREF_BIN") {
        return Ok(PathBuf::from(p));
    }
    let exe = profile_dir().join(format!("euref{}", std::env::consts::EXE_SUFFIX));
    if exe.is_file() {
        return Ok(exe);
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root())
        .args(["build", "-p", "euref", "--bin", "euref"])
        .output()
        .map_err(|e| format!("cannot run cargo to build the euref binary: {e}"))?;
    if !out.status.success() || !exe.is_file() {
        return Err(format!(
            "cargo build --bin euref did not give {}:\n{}",
            exe.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(exe)
}

/// The directory holding libeuref_capi.so (cargo builds it beside the rlib this test links).
fn library_dir() -> Result<PathBuf, String> {
    let name = format!(
        "{}euref_capi{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let profile = profile_dir();
    [profile.join("deps"), profile.clone()]
        .into_iter()
        .find(|d| d.join(&name).is_file())
        .ok_or_else(|| {
            format!(
                "{name} is neither in {0}/deps nor in {0}",
                profile.display()
            )
        })
}

/// Verilator's options for the testbench: a simulator binary from one top module, all
/// warnings on except unused names (the package declares every status code and write kind).
const VERILATOR_FLAGS: &[&str] = &[
    "--binary",
    "-O1",
    "-Wall",
    "-Wno-DECLFILENAME",
    "-Wno-UNUSEDPARAM",
    "-Wno-UNUSEDSIGNAL",
    "--top-module",
    "euref_lockstep_tb",
    "-o",
    "tb",
];

/// What one build of the testbench left: the simulator and the assembled program.
struct Bench {
    sim: PathBuf,
    program: PathBuf,
}

fn run(cmd: &mut Command, what: &str) -> Result<Output, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out)
}

/// Assembles the program and builds the testbench once for all the tests of this file.
fn build(verilator: &Path) -> Result<Bench, String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dpi-verilator");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let root = root();
    let dpi = root.join("dpi");

    let program = dir.join("lockstep.bin");
    run(
        Command::new(euref_exe()?)
            .args(["asm", "--gen", "skl", "-o"])
            .arg(&program)
            .arg(dpi.join("tb/lockstep.asm")),
        "euref asm",
    )?;

    let lib = library_dir()?;
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let started = Instant::now();
    let mut cmd = Command::new(verilator);
    cmd.args(VERILATOR_FLAGS)
        .arg("--Mdir")
        .arg(dir.join("obj"))
        .arg("-CFLAGS")
        .arg(format!("-I{}", include.display()))
        // The shim's definitions checked against Verilator's prototypes of the imports.
        .arg("-CFLAGS")
        .arg(r#"-DEUREF_DPI_HEADER=\"Veuref_lockstep_tb__Dpi.h\""#)
        .arg("-LDFLAGS")
        .arg(format!("-L{0} -leuref_capi -Wl,-rpath,{0}", lib.display()))
        .arg(dpi.join("euref_dpi.sv"))
        .arg(dpi.join("tb/gen_alu_model.sv"))
        .arg(dpi.join("tb/euref_lockstep_tb.sv"))
        .arg(dpi.join("euref_dpi.c"));
    run(&mut cmd, "verilator --binary")?;
    let _ = writeln!(
        std::io::stderr(),
        "dpi_verilator: testbench built in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(Bench {
        sim: dir.join("obj/tb"),
        program,
    })
}

/// The testbench, built once (None when Verilator is absent and not required).
fn bench(test: &str) -> Option<&'static Bench> {
    static BENCH: OnceLock<Option<Result<Bench, String>>> = OnceLock::new();
    let mut first = false;
    let built = BENCH.get_or_init(|| {
        first = true;
        verilator(test).map(|v| build(&v))
    });
    match built {
        None => {
            // Another test found Verilator absent first: this one skips too, with its notice.
            if !first {
                verilator(test);
            }
            None
        }
        Some(Ok(b)) => Some(b),
        Some(Err(e)) => panic!("{e}"),
    }
}

/// How long one run of the testbench may take (it runs seven instructions in milliseconds).
const RUN_LIMIT: Duration = Duration::from_secs(60);

/// Runs the testbench; returns whether it exited successfully and everything it printed. A
/// run beyond RUN_LIMIT is killed and fails the test.
fn simulate(bench: &Bench, extra: &[&str]) -> (bool, String) {
    let mut child = Command::new(&bench.sim)
        .arg(format!("+program={}", bench.program.display()))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bench.sim.display()));
    // Read both pipes on threads, so that a full pipe cannot stall the simulator.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if started.elapsed() < RUN_LIMIT => {
                std::thread::sleep(Duration::from_millis(20))
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "the testbench ({} {extra:?}) ran over {RUN_LIMIT:?} and was killed",
                    bench.sim.display()
                );
            }
            Err(e) => panic!("cannot wait for {}: {e}", bench.sim.display()),
        }
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.join().unwrap_or_default()),
        String::from_utf8_lossy(&err.join().unwrap_or_default())
    );
    (status.success(), text)
}

/// The instruction lines of dpi/tb/lockstep.asm (comments and blank lines left out).
fn program_lines() -> Vec<String> {
    let path = root().join("dpi/tb/lockstep.asm");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(str::to_string)
        .collect()
}

#[test]
fn dpi_lockstep_model_agrees_with_euref() {
    let Some(bench) = bench("dpi_lockstep_model_agrees_with_euref") else {
        return;
    };
    let n = program_lines().len();
    let (ok, text) = simulate(bench, &[]);
    assert!(ok, "the testbench failed:\n{text}");
    assert!(
        text.contains(&format!("PASS: {n} instructions in lockstep with euref")),
        "no PASS over the {n} instructions:\n{text}"
    );
    assert!(
        !text.contains("MISMATCH"),
        "a mismatch was flagged:\n{text}"
    );
    // The testbench's checks of the package: an unknown platform and a missing file fail with
    // a message, and a second thread loaded from the file ends with the same registers.
    assert!(
        text.contains("second thread from ") && text.contains(": same registers"),
        "the second thread's check did not pass:\n{text}"
    );
    // euref reported a write of each instruction's destination (the testbench flags one it
    // does not see) and the trace shows them: r10..r16, whole registers.
    for r in 10..10 + n {
        assert!(
            text.contains(&format!("euref wrote r{r} bytes 0..31")),
            "no write of r{r} in the trace:\n{text}"
        );
    }
}

#[test]
fn dpi_lockstep_flags_the_injected_bug_at_its_instruction() {
    let Some(bench) = bench("dpi_lockstep_flags_the_injected_bug_at_its_instruction") else {
        return;
    };
    // The bug is in `add` with an immediate source: the first such line of the program.
    let lines = program_lines();
    let k = lines
        .iter()
        .position(|l| {
            l.starts_with("add ")
                && l.split_whitespace()
                    .last()
                    .is_some_and(|src1| !src1.starts_with('r'))
        })
        .expect("the program has an add with an immediate");
    let at = format!("MISMATCH at instruction {k} (ip 0x{:x},", 16 * k);

    // Verilator's default error limit: the first mismatch's $error ends the run, failing.
    let (ok, text) = simulate(bench, &["+inject_bug"]);
    assert!(!ok, "the testbench passed the buggy model:\n{text}");
    let flagged: Vec<&str> = text.lines().filter(|l| l.contains("MISMATCH")).collect();
    assert!(
        flagged.len() == 1 && flagged[0].contains(&at),
        "the run must stop at `{at}` ({}):\n{text}",
        lines[k]
    );
    assert!(
        !text.contains(&format!("step {} ", k + 1)),
        "the run went on past the mismatch:\n{text}"
    );

    // With the limit raised the run goes on to its summary: the model takes euref's value of
    // the register, so no later instruction is flagged.
    let (_, text) = simulate(bench, &["+inject_bug", "+verilator+error+limit+100"]);
    let flagged: Vec<&str> = text.lines().filter(|l| l.contains("MISMATCH")).collect();
    assert_eq!(
        flagged.len(),
        1,
        "exactly one instruction must be flagged:\n{text}"
    );
    assert!(
        flagged[0].contains(&at),
        "the mismatch is not at instruction {k} ({}):\n{text}",
        lines[k]
    );
    assert!(
        text.contains(&format!("step {} ", lines.len() - 1)),
        "the run did not reach the last instruction:\n{text}"
    );
    // euref's report names the register and channel 0 with both values. The testbench sets
    // r2 and r3 (initial_reg in euref_lockstep_tb.sv) and the program computes
    // r11 = r2 + r3 and r12 = r11 - 100; the buggy model adds one more.
    let r2 = |c: u32| 0x9e37_79b9u32.wrapping_mul(c + 1);
    let r3 = |c: u32| 0x7fff_fff0u32.wrapping_add(0x0101_0101u32.wrapping_mul(c));
    let r12 = r2(0).wrapping_add(r3(0)).wrapping_sub(100);
    let channel0 = format!(
        "r12 differs from euref on 8 channel(s): channel 0 (bytes 0..4): euref 0x{r12:08x}, \
         design 0x{:08x}",
        r12.wrapping_add(1)
    );
    assert!(
        flagged[0].contains(&channel0),
        "the report does not say `{channel0}`:\n{text}"
    );
    assert!(
        flagged[0].contains("; rows: ") && flagged[0].contains("opcode.add"),
        "the report names no spec rows of the add:\n{text}"
    );
    assert!(
        text.contains(&format!(
            "FAIL: 1 mismatch(es), first at instruction {k} (ip 0x{:x})",
            16 * k
        )),
        "no FAIL summary:\n{text}"
    );
}
