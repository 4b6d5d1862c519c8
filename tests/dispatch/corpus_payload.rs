//! Every corpus kernel (shared/corpus/kernels): the converter's description parses, its
//! buffers hold the kernel's input files, and each thread's payload registers equal
//! curbe.bin's bytes at the places layout.json gives.

use euref::dispatch::{corpus, payload, Dispatch, DispatchFile};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The kernel folders, or None (after the material module's notice) without the corpus.
fn kernels() -> Option<Vec<PathBuf>> {
    let root = crate::material::corpus()?.join("kernels");
    assert!(root.is_dir(), "{} is missing", root.display());
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("kernels folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("io.json").is_file())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 12, "the README lists twelve kernels");
    Some(dirs)
}

fn json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The description as a program would read it: serialized to JSON and parsed back.
fn convert(dir: &Path, gen: &str) -> (DispatchFile, Dispatch) {
    let file = corpus::describe(dir, gen).unwrap_or_else(|e| panic!("{e}"));
    let text = serde_json::to_string_pretty(&file).unwrap();
    let d = Dispatch::parse(&text, dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    (file, d)
}

#[test]
fn every_corpus_kernel_converts_with_its_inputs() {
    let Some(dirs) = kernels() else { return };
    for dir in &dirs {
        let io = json(&dir.join("io.json"));
        for gen in ["gen8", "gen9"] {
            let layout = json(&dir.join(gen).join("layout.json"));
            let (_, d) = convert(dir, gen);
            let what = format!("{} {gen}", dir.display());
            assert_eq!(
                u64::from(d.simd),
                layout["simd_width"].as_u64().unwrap(),
                "{what}"
            );
            assert_eq!(
                u64::from(d.threads_per_group()),
                layout["threads_per_workgroup"].as_u64().unwrap(),
                "{what}"
            );
            assert_eq!(
                u64::from(d.slm_size),
                layout["total_shared_bytes"].as_u64().unwrap()
            );
            assert_eq!(d.kernel, Some(dir.join(gen).join("kernel.bin")));
            for (k, n) in d
                .local_size
                .iter()
                .zip(io["local_size"].as_array().unwrap())
            {
                assert_eq!(u64::from(*k), n.as_u64().unwrap(), "{what}");
            }
            // Inputs: binding k at BTI 2 + k holds inputs/bk.bin; expected-only bindings zero.
            for b in io["inputs"].as_array().unwrap() {
                let k = b["binding"].as_u64().unwrap();
                let s = d
                    .surfaces
                    .iter()
                    .find(|s| u64::from(s.bti) == 2 + k)
                    .unwrap();
                let want = std::fs::read(dir.join("inputs").join(format!("b{k}.bin"))).unwrap();
                assert_eq!(s.init, want, "{what} binding {k}");
                assert_eq!(s.size, b["size_bytes"].as_u64().unwrap());
            }
            for b in io["expected"].as_array().unwrap() {
                let k = b["binding"].as_u64().unwrap();
                let s = d
                    .surfaces
                    .iter()
                    .find(|s| u64::from(s.bti) == 2 + k)
                    .unwrap();
                assert_eq!(
                    s.size,
                    b["size_bytes"].as_u64().unwrap(),
                    "{what} binding {k}"
                );
                if !io["inputs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|i| i["binding"] == b["binding"])
                {
                    assert!(s.init.iter().all(|&x| x == 0) && s.init.len() as u64 == s.size);
                }
            }
        }
    }
}

#[test]
fn every_corpus_thread_payload_holds_curbe_bin() {
    let Some(dirs) = kernels() else { return };
    let mut threads = 0;
    for dir in &dirs {
        for gen in ["gen8", "gen9"] {
            let layout = json(&dir.join(gen).join("layout.json"));
            let curbe = std::fs::read(dir.join(gen).join("curbe.bin")).unwrap();
            let (_, d) = convert(dir, gen);
            let what = format!("{} {gen}", dir.display());
            let cross = layout["push"]["cross_thread"]["regs"].as_u64().unwrap() as usize;
            let per = layout["push"]["per_thread"]["regs"].as_u64().unwrap() as usize;
            let tpg = layout["threads_per_workgroup"].as_u64().unwrap() as usize;
            assert_eq!(curbe.len(), 32 * (cross + per * tpg), "{what}");
            let right = u32::from_str_radix(
                layout["right_execution_mask"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("0x"),
                16,
            )
            .unwrap();
            for g in 0..d.group_count() {
                for t in 0..tpg {
                    let p = payload::thread_state(&d, g, t as u32).unwrap();
                    let st = &p.state;
                    // g1.. = the cross-thread block; then thread t's per-thread block.
                    let grf = st.grf_bytes();
                    assert_eq!(&grf[32..32 * (1 + cross)], &curbe[..32 * cross], "{what}");
                    let pt = 32 * (1 + cross);
                    let from = 32 * (cross + t * per);
                    assert_eq!(
                        &grf[pt..pt + 32 * per],
                        &curbe[from..from + 32 * per],
                        "{what} t{t}"
                    );
                    assert!(!st.grf_range_undefined(32, 32 * (cross + per)), "{what}");
                    assert!(
                        st.grf_range_undefined(pt + 32 * per, 32),
                        "{what}: next register"
                    );
                    // The subgroup ID the kernels read: gen9 dword 3, gen8 dword 7 of the block.
                    let sg = if gen == "gen9" { 3 } else { 7 };
                    assert_eq!(
                        st.read_grf(pt + 4 * sg, 4).unwrap(),
                        (t as u64, false),
                        "{what}"
                    );
                    // r0.1/r0.6/r0.7 = the work-group ID.
                    let id = d.group_id(g);
                    for (k, v) in [(1, id[0]), (6, id[1]), (7, id[2])] {
                        assert_eq!(st.read_grf(4 * k, 4).unwrap(), (u64::from(v), false));
                    }
                    // The last thread's DMask is layout.json's right execution mask.
                    let (dm, undef) = st.arf_dword("sr0", 2).unwrap();
                    assert_eq!(undef, 0);
                    if t + 1 == tpg {
                        assert_eq!(dm, right, "{what}");
                    }
                    threads += 1;
                }
            }
        }
    }
    // 24 (kernel, gen) pairs; slm_reduction has 4 threads a group.
    assert!(threads >= 24 * 2, "{threads} threads");
}
