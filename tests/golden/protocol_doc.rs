//! conformance/PROTOCOL.md is complete for an adapter writer (issue 24): its register and
//! cr0/sr0 field tables are those of spec/registers.toml, and its example adapter
//! (conformance/examples/forward_sim.py) works.

use crate::failure_cause::python3;
use crate::golden_util::{check, golden, EUREF};
use crate::scratch_util::Scratch;
use euref::spec::registers::{field, FieldInfo, ARFS};
use euref::spec::{GenSet, Platform};

fn protocol() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/conformance/PROTOCOL.md"
    ))
    .unwrap()
}

/// The platforms of a set, by name.
fn platforms(g: GenSet) -> String {
    Platform::ALL
        .iter()
        .filter(|p| g.contains(**p))
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rows the register table must have, from the spec: names (`acc0`-`acc9`), bytes, how
/// many per platform (platforms with the same count together), the row ID.
fn register_rows() -> String {
    let mut rows = String::new();
    for name in ["a", "acc", "f", "sr", "cr", "n", "tdr", "tm"] {
        let a = ARFS.iter().find(|a| a.name == name).unwrap();
        let max = *a.count.iter().max().unwrap();
        let names = match max {
            1 => format!("`{name}0`"),
            n => format!("`{name}0`-`{name}{}`", n - 1),
        };
        let mut groups: Vec<(u32, Vec<&str>)> = Vec::new();
        for p in Platform::ALL {
            let c = a.count[p as usize];
            match groups.last_mut() {
                Some((n, ps)) if *n == c => ps.push(p.name()),
                _ => groups.push((c, vec![p.name()])),
            }
        }
        let counts: Vec<String> = groups
            .iter()
            .filter(|(c, _)| *c > 0)
            .map(|(c, ps)| format!("{}: {c}", ps.join(" ")))
            .collect();
        rows.push_str(&format!(
            "| {names} | {} | {} | `{}` |\n",
            a.bytes,
            counts.join(", "),
            a.id
        ));
    }
    rows
}

/// The register table of PROTOCOL.md is the spec's: a change of spec/registers.toml that
/// this table does not follow fails here (the message has the rows to paste).
#[test]
fn the_register_table_is_the_specs() {
    let want = register_rows();
    assert!(
        protocol().contains(&want),
        "conformance/PROTOCOL.md's register table should read:\n{want}"
    );
    // GRF registers: 128 of 32 bytes.
    let grf = euref::spec::registers::FILES
        .iter()
        .find(|f| f.id == "regfile.grf")
        .unwrap();
    assert_eq!((grf.count, grf.reg_bytes), (Some(128), Some(32)));
    assert!(protocol().contains("GRF registers `r0`-`r127` have 32\nbytes (`regfile.grf`)"));
}

/// The cr0 and sr0 field table of PROTOCOL.md is the spec's (location, name, platforms, ID).
#[test]
fn the_cr0_and_sr0_field_table_is_the_specs() {
    let fields: [&FieldInfo; 9] = [
        &field::CR0_0_FP_MODE,
        &field::CR0_0_ACC_DISABLE,
        &field::CR0_0_VECTOR_MASK_ENABLE,
        &field::CR0_0_ROUNDING_MODE,
        &field::CR0_0_DF_DENORM_MODE,
        &field::CR0_0_FP32_DENORM_MODE,
        &field::CR0_0_FP16_DENORM_MODE,
        &field::SR0_2_DMASK,
        &field::SR0_3_VMASK,
    ];
    let mut want = String::new();
    for f in fields {
        let bits = if f.hi == f.lo {
            f.lo.to_string()
        } else {
            format!("{}:{}", f.hi, f.lo)
        };
        want.push_str(&format!(
            "| `{}.{}` bits {bits} | `{}` | {} | `{}` |\n",
            f.reg,
            f.dword,
            f.name,
            platforms(f.gens),
            f.id
        ));
    }
    assert!(
        protocol().contains(&want),
        "conformance/PROTOCOL.md's field table should read:\n{want}"
    );
}

/// The flag example of PROTOCOL.md: `f0` bytes `0f 80 ff 00` are f0.0 = 0x800f and
/// f0.1 = 0x00ff, as the model reads them.
#[test]
fn the_flag_example_reads_as_the_model_reads_it() {
    let doc = protocol();
    assert!(doc.contains("`\"f0\":\"0f80ff00\"`") && doc.contains("`f0.0 = 0x800f`"));
    let mut st = euref::state::ThreadState::new(Platform::Skl);
    let bytes = [0x0f, 0x80, 0xff, 0x00].map(Some);
    euref::conformance::regs::write(&mut st, "f0", &bytes).unwrap();
    let f0 = euref::conformance::regs::read(&st, "f0").unwrap().bytes;
    let sub = |s: usize| u16::from_le_bytes([f0[2 * s], f0[2 * s + 1]]);
    assert_eq!((sub(0), sub(1)), (0x800f, 0x00ff));
}

/// conformance/examples/forward_sim.py works: forwarding to `euref sim`, every vector
/// passes; executing `mov`/`add` itself, every answer is a response (no crash, garbage or
/// timeout), some vectors pass, and what it cannot do is an `error` or `ignored`.
#[test]
fn the_example_adapter_works() {
    if !python3("the_example_adapter_works") {
        return;
    }
    let tmp = Scratch::new("protocol");
    let v = tmp.join("movadd.jsonl");
    golden(
        &[
            "--gen", "skl", "--ops", "mov,add", "--types", "f", "--count", "3000", "--seed", "3",
        ],
        &v,
        "2",
    );
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/conformance/examples/forward_sim.py"
    );
    let r = tmp.join("fwd.report.jsonl");
    let (code, out, lines) = check(
        &format!("python3 {script} --forward '{EUREF} sim'"),
        &v,
        &r,
        &[],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(lines.len(), 3000);
    let (_, out, lines) = check(&format!("python3 {script}"), &v, &r, &[]);
    let count = |s: &str| lines.iter().filter(|l| l.status == s).count();
    assert!(count("pass") > 0, "{out}");
    assert_eq!(
        count("pass") + count("sim_error") + count("ignored"),
        3000,
        "{out}"
    );
}
