//! The C example (capi/examples/step_kernel.c) built with the system C compiler against the
//! library and the committed header, run on a binary kernel made by `euref asm -o`, and its
//! trace checked against the thread runner's own run of the same bytes: per instruction the
//! IP, the channels, the registers written (euref::thread::trace::written_regs, as `euref run
//! --trace` lists them) and their bytes in the runner's state after the step.

use euref::exec::ExecOptions;
use euref::spec::Platform;
use euref::state::ThreadState;
use euref::thread::{trace, Image, Thread};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's target directory for this build (the test runs from target/<profile>/deps).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .to_path_buf()
}

/// The `euref` command: $EUREF_BIN, or target/<profile>/euref (built with cargo when absent).
fn euref_bin() -> PathBuf {
    if let Some(p) = std::env::var_os("EUREF_BIN") {
        return PathBuf::from(p);
    }
    let bin = target_dir().join("euref");
    if !bin.exists() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let st = Command::new(cargo)
            .args(["build", "-p", "euref", "--bin", "euref"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("run cargo build");
        assert!(st.success(), "cargo build --bin euref failed");
    }
    bin
}

/// The bytes of register `name` of `st` and whether each is undefined (any bit).
fn reg_bytes(st: &ThreadState, name: &str) -> Vec<Option<u8>> {
    if let Some(n) = name.strip_prefix('r').and_then(|n| n.parse::<usize>().ok()) {
        let rb = st.grf_reg_bytes();
        return (n * rb..(n + 1) * rb)
            .map(|o| (!st.grf_byte_undefined(o)).then(|| st.grf_bytes()[o]))
            .collect();
    }
    let i = st.arf_index(name).expect("an ARF register");
    let (bytes, und) = st.arf_reg(i).expect("in the layout");
    bytes
        .iter()
        .enumerate()
        .map(|(o, b)| ((und[o / 4] >> (8 * (o % 4))) & 0xff == 0).then_some(*b))
        .collect()
}

/// `r18-r19` as `r18`, `r19`.
fn expand(regs: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for r in regs {
        match r.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a[1..].parse().unwrap(), b[1..].parse().unwrap());
                out.extend((a..=b).map(|n| format!("r{n}")));
            }
            None => out.push(r.clone()),
        }
    }
    out
}

#[test]
fn the_c_example_traces_a_binary_kernel_as_the_runner_does() {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    // The kernel: the built-in example of `euref run`, assembled by the CLI.
    let kernel = tmp.path().join("k.bin");
    let o = Command::new(euref_bin())
        .args(["asm", "--gen", "skl", "-o"])
        .arg(&kernel)
        .arg(root.join("examples/kernels/saxpy.asm"))
        .output()
        .expect("run euref asm");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The example, compiled and linked against the shared library.
    // (`cargo test` builds the cdylib beside the rlib this test links, in target/<profile>/deps;
    // `cargo build` also copies it to target/<profile>.)
    let deps = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf));
    let lib_dir = deps
        .filter(|d| d.join("libeuref_capi.so").exists() || d.join("libeuref_capi.dylib").exists())
        .unwrap_or_else(target_dir);
    assert!(
        lib_dir.join("libeuref_capi.so").exists() || lib_dir.join("libeuref_capi.dylib").exists(),
        "no libeuref_capi in {}",
        lib_dir.display()
    );
    let exe = tmp.path().join("step_kernel");
    let o = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(root.join("capi/include"))
        .arg(root.join("capi/examples/step_kernel.c"))
        .arg("-L")
        .arg(&lib_dir)
        .arg("-leuref_capi")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run the C compiler");
    assert!(
        o.status.success(),
        "cc: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new(&exe).arg("skl").arg(&kernel).output().unwrap();
    assert!(
        o.status.success(),
        "step_kernel: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();

    // The runner's own run of the same bytes.
    let bytes = std::fs::read(&kernel).unwrap();
    let mut st = ThreadState::new(Platform::Skl);
    let mut th = Thread::new(Image::new(Platform::Skl, bytes, 0), &mut st).unwrap();
    let opts = ExecOptions {
        strict: true,
        ..ExecOptions::default()
    };
    let mut n = 0;
    while !th.ended() {
        let step = th.step(&mut st, &opts).unwrap();
        let line = lines
            .get(n)
            .unwrap_or_else(|| panic!("only {n} lines:\n{out}"));
        let mut words = line.split(' ');
        assert_eq!(words.next(), Some("ip"));
        assert_eq!(
            words.next(),
            Some(format!("{:#06x}", step.ip).as_str()),
            "{line}"
        );
        assert_eq!(words.next(), Some("en"));
        assert_eq!(
            words.next(),
            Some(format!("{:#010x}", step.enabled).as_str()),
            "{line}"
        );
        let mut names: Vec<String> = Vec::new();
        for w in words {
            let (reg, rest) = w.split_once('+').unwrap();
            let (off, hex) = rest.split_once(':').unwrap();
            let off: usize = off.parse().unwrap();
            let hex = hex.replace('~', "");
            let want: String = reg_bytes(&st, reg)[off..off + hex.len() / 2]
                .iter()
                .map(|b| b.map_or("??".to_string(), |v| format!("{v:02x}")))
                .collect();
            assert_eq!(hex, want, "{reg} at step {n}: {line}");
            if names.last().map(String::as_str) != Some(reg) {
                names.push(reg.to_string());
            }
        }
        assert_eq!(
            names,
            expand(&trace::written_regs(&st, &step)),
            "step {n}: {line}"
        );
        n += 1;
    }
    assert_eq!(lines.len(), n, "one line per instruction:\n{out}");
    assert!(n >= 12, "saxpy runs its 12 instructions");
}
