//! The validator against Mesa's validator unit tests (shared/corpus/mesa/validate/{ivb,skl}.tsv:
//! one native instruction per line with Mesa's verdict). Each instruction is decoded with
//! `euref::codec` and validated with `euref::validate::check_insn` on the line's platform.
//!
//! 25 lines do not decode: each is listed in `DECODE_REJECTS` with the field the decoder names.
//! They count as agreeing with Mesa (which calls every one invalid) because each field value is
//! one no valid instruction has: a reserved ExecSize encoding (6, 7), a reserved register type
//! encoding (spec/encoding type tables), register file 2, the message register file that
//! Gen7-Gen9 do not have (the rule `op.no-mrf` says why; the model cannot represent it), or a
//! destination stride 0 (enc.dst-hstride; Mesa's dst_horizontal_stride_0 cases, Align1 and
//! Align16). Any
//! other decode error fails the test. euref agrees with Mesa on at least 97.5% of the lines, and every disagreement is
//! listed in `DISAGREEMENTS` with the spec rule that explains it; any other disagreement, or a
//! listed one that goes away, fails the test.

use euref::spec::Platform;
use euref::validate::check_insn;

/// Known disagreements: (file, 1-based line, Mesa's verdict, euref's violated rule IDs, why).
const DISAGREEMENTS: &[(&str, usize, bool, &[&str], &str)] = &[
    (
        "ivb.tsv",
        81,
        true,
        &["align.dst-one-reg-per-native-half"],
        "add(8) g0.3<4>W g0<16,4,1>W g0<16,4,1>W: a native (uncompressed) instruction whose \
         destination crosses into g1; seed000 §3.3.2 keeps a destination within one register, \
         which Mesa does not check (see the row's note)",
    ),
    (
        "ivb.tsv",
        91,
        true,
        &["align.dst-one-reg-per-native-half"],
        "add(4) g0<4>F g0<4,1,0>F g0<8,2,1>F: as line 81, a SIMD4 destination with stride 4 \
         spans g0 and g1 (align.dst-one-reg-per-native-half)",
    ),
    (
        "skl.tsv",
        62,
        false,
        &[],
        "add(8) g0.1<2>W g0<8,8,1>D g0<8,8,1>D: Mesa requires a word destination aligned to the \
         execution type size on every platform; seed004 §Register Region Restrictions 5 relaxes \
         this on CHV/SKL+ to the lowest or second lowest word (align.word-dst-relaxed), which \
         byte offset 2 of a DWord channel satisfies",
    ),
    (
        "skl.tsv",
        230,
        true,
        &["acc.src-region-matches-dst"],
        "add(8) g0<2>HF acc0<8,8,1>HF g0<8,8,1>F: the accumulator source's byte stride (2) differs \
         from the destination's (4); seed004 §Accumulator Registers requires the destination's \
         region, which Mesa does not check",
    ),
    (
        "skl.tsv",
        231,
        true,
        &["acc.src-region-matches-dst"],
        "acc0.1<8,8,1>HF against g0<2>HF: as line 230 (acc.src-region-matches-dst)",
    ),
    (
        "skl.tsv",
        232,
        true,
        &["acc.src-region-matches-dst"],
        "acc0.2<8,8,1>HF against g0<2>HF: as line 230 (acc.src-region-matches-dst)",
    ),
    (
        "skl.tsv",
        233,
        true,
        &["acc.src-region-matches-dst"],
        "acc0.4<8,8,1>HF against g0<2>HF: as line 230 (acc.src-region-matches-dst)",
    ),
    (
        "skl.tsv",
        234,
        true,
        &["acc.src-region-matches-dst"],
        "acc0.8<8,8,1>HF against g0<2>HF: as line 230 (acc.src-region-matches-dst)",
    ),
    (
        "skl.tsv",
        240,
        false,
        &[],
        "add(8) g0<1>HF acc0<8,8,1>HF g0<8,8,1>F: Mesa applies the mixed-mode 'HF destination \
         with an accumulator source needs stride 2' to explicit accumulator sources too; euref \
         applies the seed's 'i.e.' to implicit ones only (mixed.implicit-acc-hf-dst-stride-2, see \
         its note) and checks explicit ones with mixed.acc-src-packed-hf-dst-offset-0, which \
         offset 0 satisfies",
    ),
    (
        "skl.tsv",
        249,
        false,
        &[],
        "add(8) g0<1>HF acc0<8,8,1>HF g0<8,8,1>F: as line 240 \
         (mixed.implicit-acc-hf-dst-stride-2 covers implicit accumulator sources only)",
    ),
    (
        "skl.tsv",
        250,
        true,
        &["acc.src-region-matches-dst"],
        "add(8) g0<2>HF acc0<8,8,1>HF g0<8,8,1>F: as line 230 (acc.src-region-matches-dst)",
    ),
    (
        "skl.tsv",
        460,
        true,
        &["op.types-unsupported"],
        "mul(4) null<1>DF g0<4,2,2>F 0x0F: Mesa's test builds an F x F -> DF multiply to check an \
         unrelated ARF rule and does not check type combinations; spec/opcodes.toml lists no \
         mul combination with F sources and a DF destination",
    ),
    (
        "skl.tsv",
        467,
        true,
        &["op.types-unsupported"],
        "add(2) g0<1>DF g0<4>F g0<4>F (Align16): as line 460, F sources with a DF destination is \
         no add type combination of spec/opcodes.toml",
    ),
];

/// Lines the decoder refuses: (file, 1-based line, field named by the decode error).
const DECODE_REJECTS: &[(&str, usize, &str)] = &[
    ("ivb.tsv", 13, "exec_size"),
    ("ivb.tsv", 14, "exec_size"),
    ("ivb.tsv", 15, "dst_reg_file"),
    ("ivb.tsv", 16, "src0_reg_file"),
    ("ivb.tsv", 53, "dst_hstride"),
    ("ivb.tsv", 54, "dst_hstride"),
    ("skl.tsv", 13, "exec_size"),
    ("skl.tsv", 14, "exec_size"),
    ("skl.tsv", 26, "dst_reg_type"),
    ("skl.tsv", 27, "dst_reg_type"),
    ("skl.tsv", 28, "dst_reg_type"),
    ("skl.tsv", 29, "dst_reg_type"),
    ("skl.tsv", 30, "dst_reg_type"),
    ("skl.tsv", 43, "dst_reg_type"),
    ("skl.tsv", 44, "dst_reg_type"),
    ("skl.tsv", 45, "dst_reg_type"),
    ("skl.tsv", 46, "dst_reg_type"),
    ("skl.tsv", 52, "src_type"),
    ("skl.tsv", 53, "src_type"),
    ("skl.tsv", 54, "src_type"),
    ("skl.tsv", 55, "src_type"),
    ("skl.tsv", 56, "src_type"),
    ("skl.tsv", 57, "src_type"),
    ("skl.tsv", 74, "dst_hstride"),
    ("skl.tsv", 75, "dst_hstride"),
];

fn platform_of(file: &str) -> Platform {
    match file {
        "ivb.tsv" => Platform::Ivb,
        "skl.tsv" => Platform::Skl,
        _ => unreachable!(),
    }
}

fn bytes_of(hex: &str) -> Vec<u8> {
    assert_eq!(hex.len(), 32, "{hex}");
    (0..16)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn agrees_with_mesa_on_97_5_percent_and_every_disagreement_is_explained() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    let (mut agree, mut total, mut rejected) = (0usize, 0usize, 0usize);
    let mut seen = vec![false; DISAGREEMENTS.len()];
    let mut unexplained = vec![];
    for file in ["ivb.tsv", "skl.tsv"] {
        let pl = platform_of(file);
        let text = std::fs::read_to_string(
            crate::material::corpus_root()
                .join("mesa/validate")
                .join(file),
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
        for (ln, line) in text.lines().enumerate() {
            let line_no = ln + 1;
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 6, "{file}:{line_no}: {line}");
            let mesa_valid = match f[3] {
                "1" => true,
                "0" => false,
                v => panic!("{file}:{line_no}: verdict {v}"),
            };
            let insn = match euref::codec::decode(&bytes_of(f[4]), pl) {
                Ok((insn, _)) => insn,
                Err(e) => {
                    let field = DECODE_REJECTS
                        .iter()
                        .find(|d| d.0 == file && d.1 == line_no)
                        .map(|d| d.2)
                        .unwrap_or_else(|| panic!("{file}:{line_no}: does not decode: {e}"));
                    let msg = e.to_string();
                    assert!(
                        msg.contains(&format!("field `{field}`")),
                        "{file}:{line_no}: {msg}"
                    );
                    assert!(!mesa_valid, "{file}:{line_no}: Mesa calls it valid: {msg}");
                    rejected += 1;
                    total += 1;
                    agree += 1;
                    continue;
                }
            };
            let ids: Vec<&str> = check_insn(pl, &insn).iter().map(|v| v.rule.id).collect();
            total += 1;
            if ids.is_empty() == mesa_valid {
                agree += 1;
                continue;
            }
            match DISAGREEMENTS
                .iter()
                .position(|d| d.0 == file && d.1 == line_no)
            {
                Some(k) => {
                    let d = DISAGREEMENTS[k];
                    assert_eq!(d.2, mesa_valid, "{file}:{line_no}: Mesa's verdict");
                    assert_eq!(d.3, &ids[..], "{file}:{line_no}: the explaining rules");
                    seen[k] = true;
                }
                None => unexplained.push(format!(
                    "{file}:{line_no} {} mesa={mesa_valid} euref={ids:?} | {}",
                    f[0],
                    f[5].trim()
                )),
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "unexplained disagreements:\n{}",
        unexplained.join("\n")
    );
    for (k, d) in DISAGREEMENTS.iter().enumerate() {
        assert!(
            seen[k],
            "{}:{} now agrees: remove it from the list",
            d.0, d.1
        );
    }
    assert_eq!(total, 644);
    assert_eq!(rejected, DECODE_REJECTS.len());
    assert_eq!(total - agree, DISAGREEMENTS.len());
    // 97.5%: issue 28 added two Ivy Bridge lines where seed000 §3.3.2 decides against Mesa's
    // verdict (631 of 644 since; 633 before).
    assert!(
        agree * 1000 >= total * 975,
        "agreement {agree}/{total} is below 97.5%"
    );
}

#[test]
fn mesa_invalid_cases_name_the_rules_mesa_checks() {
    let Some(_) = crate::material::corpus() else {
        return;
    };
    // A sample of Mesa's invalid cases and the rule euref names for each (the same rule, as
    // the spec row's citation of Mesa's validator says).
    let cases: &[(&str, usize, &str)] = &[
        ("ivb.tsv", 2, "op.src0-not-null"),
        ("ivb.tsv", 3, "op.src1-not-null"),
        ("ivb.tsv", 6, "op.illegal-opcode"),
    ];
    for &(file, line_no, id) in cases {
        let pl = platform_of(file);
        let text = std::fs::read_to_string(
            crate::material::corpus_root()
                .join("mesa/validate")
                .join(file),
        )
        .unwrap();
        let line = text.lines().nth(line_no - 1).unwrap();
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f[3], "0", "{file}:{line_no} is one of Mesa's invalid cases");
        let (insn, _) = euref::codec::decode(&bytes_of(f[4]), pl).unwrap();
        let ids: Vec<&str> = check_insn(pl, &insn).iter().map(|v| v.rule.id).collect();
        assert!(ids.contains(&id), "{file}:{line_no}: {ids:?} lacks {id}");
    }
}
