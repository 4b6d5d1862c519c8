//! spec/encoding layouts: every layout row proven sound at run time (pieces inside the width,
//! no bit owned twice, split fields contiguous), `get`/`set` round trips on random words, and
//! the distinguishing fields of every layout checked against bit positions written here from
//! the sources (Mesa elk_inst.h / brw_eu_inst.h field macros, brw_eu_compact.c).

use euref::spec::encoding::{Layout, LAYOUTS};
use euref::spec::Platform::{self, *};

const GEN7: &[Platform] = &[Ivb, Hsw];
const GEN8: &[Platform] = &[Bdw, Chv, Skl, Bxt];
const ALL: &[Platform] = &[Ivb, Hsw, Bdw, Chv, Skl, Bxt];

fn layout(id: &str) -> &'static Layout {
    LAYOUTS
        .iter()
        .copied()
        .find(|l| l.id == id)
        .unwrap_or_else(|| panic!("no layout {id}"))
}

/// `"hi:lo"` / `"bit"` pieces (logical bits from 0 in the order written, low piece first).
fn pieces(spec: &str) -> Vec<(u8, u8)> {
    spec.split(',')
        .map(|r| match r.trim().split_once(':') {
            Some((h, l)) => (h.parse().unwrap(), l.parse().unwrap()),
            None => {
                let b = r.trim().parse().unwrap();
                (b, b)
            }
        })
        .collect()
}

fn expect(id: &str, width: u32, gens: &[Platform], fields: &[(&str, &str)], absent: &[&str]) {
    let l = layout(id);
    assert_eq!(l.width, width, "{id} width");
    for p in Platform::ALL {
        assert_eq!(
            l.gens.contains(p),
            gens.contains(&p),
            "{id} on {}",
            p.name()
        );
    }
    assert!(
        !l.cite.is_empty() && !l.applies.is_empty(),
        "{id}: cite and applies"
    );
    for (name, spec) in fields {
        let f = l
            .field(name)
            .unwrap_or_else(|| panic!("{id}: no field {name}"));
        let want = pieces(spec);
        let mut got: Vec<(u8, u8, u8)> = f.pieces.iter().map(|p| (p.at, p.hi, p.lo)).collect();
        got.sort();
        let got: Vec<(u8, u8)> = got.iter().map(|g| (g.1, g.2)).collect();
        assert_eq!(got, want, "{id}: field {name}");
    }
    for name in absent {
        assert!(l.field(name).is_none(), "{id}: unexpected field {name}");
    }
}

#[test]
fn every_layout_is_sound() {
    assert_eq!(LAYOUTS.len(), 61, "layout count");
    for l in LAYOUTS {
        let mut owner = vec![None::<&str>; l.width as usize];
        for f in l.fields {
            assert!(f.width >= 1 && f.width <= 64, "{} {}", l.id, f.name);
            let mut logical = vec![false; f.width as usize];
            for p in f.pieces {
                assert!(
                    p.hi >= p.lo && u32::from(p.hi) < l.width,
                    "{} {}",
                    l.id,
                    f.name
                );
                for b in p.lo..=p.hi {
                    assert!(
                        owner[b as usize].is_none(),
                        "{}: bit {b} of {} also in {:?}",
                        l.id,
                        f.name,
                        owner[b as usize]
                    );
                    owner[b as usize] = Some(f.name);
                    let lb = (p.at + b - p.lo) as usize;
                    assert!(!logical[lb], "{} {}: logical bit {lb} twice", l.id, f.name);
                    logical[lb] = true;
                }
            }
            assert!(
                logical.iter().all(|x| *x),
                "{} {}: logical bits contiguous",
                l.id,
                f.name
            );
        }
        assert!(owner.iter().any(|o| o.is_some()));
        // get/set round trips on pseudo-random words.
        let mut x: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834 ^ (l.width as u128);
        for _ in 0..64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = if l.width < 128 {
                x & ((1u128 << l.width) - 1)
            } else {
                x
            };
            let mut rebuilt = 0u128;
            for f in l.fields {
                let v = f.get(w);
                assert!(f.fits(v));
                let mut w2 = w;
                f.set(&mut w2, v);
                assert_eq!(w2, w, "{} {}", l.id, f.name);
                f.set(&mut rebuilt, v);
            }
            // Bits outside every field are exactly the reserved ones.
            let reserved: u128 = owner
                .iter()
                .enumerate()
                .filter(|(_, o)| o.is_none())
                .map(|(b, _)| 1u128 << b)
                .sum();
            assert_eq!(rebuilt, w & !reserved, "{}", l.id);
        }
    }
}

// The control header, Mesa elk_inst.h Gen7 column and Gen8 column.
const G7_HDR: &[(&str, &str)] = &[
    ("opcode", "6:0"),
    ("access_mode", "8"),
    ("mask_control", "9"),
    ("dep_ctrl", "11:10"),
    ("qtr_control", "13:12"),
    ("thread_control", "15:14"),
    ("pred_control", "19:16"),
    ("pred_inv", "20"),
    ("exec_size", "23:21"),
    ("cmpt_control", "29"),
    ("debug_control", "30"),
];
const G8_HDR: &[(&str, &str)] = &[
    ("opcode", "6:0"),
    ("access_mode", "8"),
    ("dep_ctrl", "10:9"),
    ("nib_control", "11"),
    ("qtr_control", "13:12"),
    ("thread_control", "15:14"),
    ("pred_control", "19:16"),
    ("pred_inv", "20"),
    ("exec_size", "23:21"),
    ("cmpt_control", "29"),
    ("debug_control", "30"),
    ("flag_subreg_nr", "32"),
    ("flag_reg_nr", "33"),
    ("mask_control", "34"),
];
const G7_TYPES: &[(&str, &str)] = &[
    ("dst_reg_file", "33:32"),
    ("dst_reg_type", "36:34"),
    ("src0_reg_file", "38:37"),
    ("src0_reg_type", "41:39"),
    ("nib_control", "47"),
];
const G8_TYPES: &[(&str, &str)] = &[
    ("dst_reg_file", "36:35"),
    ("dst_reg_type", "40:37"),
    ("src0_reg_file", "42:41"),
    ("src0_reg_type", "46:43"),
];

fn cat(parts: &[&[(&'static str, &'static str)]]) -> Vec<(&'static str, &'static str)> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

#[test]
fn gen7_layouts() {
    let a1_dst: &[(&str, &str)] = &[
        ("dst_subreg_nr", "52:48"),
        ("dst_reg_nr", "60:53"),
        ("dst_hstride", "62:61"),
        ("dst_address_mode", "63"),
    ];
    let a16_dst: &[(&str, &str)] = &[
        ("dst_writemask", "51:48"),
        ("dst_subreg16", "52"),
        ("dst_reg_nr", "60:53"),
    ];
    let a1_src0: &[(&str, &str)] = &[
        ("src0_subreg_nr", "68:64"),
        ("src0_reg_nr", "76:69"),
        ("src0_abs", "77"),
        ("src0_negate", "78"),
        ("src0_address_mode", "79"),
        ("src0_hstride", "81:80"),
        ("src0_width", "84:82"),
        ("src0_vstride", "88:85"),
        ("flag_subreg_nr", "89"),
        ("flag_reg_nr", "90"),
    ];
    let a16_src0: &[(&str, &str)] = &[
        ("src0_swizzle", "67:64,83:80"),
        ("src0_subreg16", "68"),
        ("src0_reg_nr", "76:69"),
        ("src0_vstride", "88:85"),
    ];
    let src1_t: &[(&str, &str)] = &[("src1_reg_file", "43:42"), ("src1_reg_type", "46:44")];
    let a1_src1: &[(&str, &str)] = &[
        ("src1_subreg_nr", "100:96"),
        ("src1_reg_nr", "108:101"),
        ("src1_vstride", "120:117"),
    ];
    let a16_src1: &[(&str, &str)] = &[
        ("src1_swizzle", "99:96,115:112"),
        ("src1_subreg16", "100"),
        ("src1_reg_nr", "108:101"),
    ];
    let cmod: &[(&str, &str)] = &[
        ("cond_modifier", "27:24"),
        ("acc_wr_control", "28"),
        ("saturate", "31"),
    ];
    let math: &[(&str, &str)] = &[("math_function", "27:24")];
    let imm: &[(&str, &str)] = &[("imm", "127:96")];
    expect(
        "enc.gen7.a1",
        128,
        GEN7,
        &cat(&[G7_HDR, G7_TYPES, cmod, a1_dst, a1_src0, src1_t, a1_src1]),
        &["imm"],
    );
    expect(
        "enc.gen7.a1-imm",
        128,
        GEN7,
        &cat(&[G7_HDR, G7_TYPES, cmod, a1_dst, a1_src0, src1_t, imm]),
        &["src1_reg_nr"],
    );
    expect(
        "enc.gen7.a1-ind",
        128,
        GEN7,
        &cat(&[
            G7_HDR,
            &[
                ("dst_addr_imm", "57:48"),
                ("dst_addr_subreg_nr", "60:58"),
                ("src0_addr_imm", "73:64"),
                ("src0_addr_subreg_nr", "76:74"),
                ("src1_addr_imm", "105:96"),
                ("src1_addr_subreg_nr", "108:106"),
            ],
        ]),
        &["dst_reg_nr"],
    );
    expect(
        "enc.gen7.a16",
        128,
        GEN7,
        &cat(&[G7_HDR, G7_TYPES, cmod, a16_dst, a16_src0, src1_t, a16_src1]),
        &["src0_width"],
    );
    expect(
        "enc.gen7.a16-imm",
        128,
        GEN7,
        &cat(&[G7_HDR, G7_TYPES, a16_dst, a16_src0, imm]),
        &["src1_swizzle"],
    );
    expect(
        "enc.gen7.a16-ind",
        128,
        GEN7,
        &cat(&[
            G7_HDR,
            &[
                ("dst_writemask", "51:48"),
                ("dst_addr_imm16", "57:52"),
                ("dst_addr_subreg_nr", "60:58"),
                ("src0_swizzle", "67:64,83:80"),
                ("src0_addr_imm16", "73:68"),
                ("src0_addr_subreg_nr", "76:74"),
                ("src1_addr_imm16", "105:100"),
                ("src1_addr_subreg_nr", "108:106"),
            ],
        ]),
        &[],
    );
    expect(
        "enc.gen7.math-a1",
        128,
        GEN7,
        &cat(&[G7_HDR, math, a1_dst, a1_src0, a1_src1]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen7.math-a1-imm",
        128,
        GEN7,
        &cat(&[G7_HDR, math, a1_dst, a1_src0, imm]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen7.math-a16",
        128,
        GEN7,
        &cat(&[G7_HDR, math, a16_dst, a16_src0, a16_src1]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen7.math-a16-imm",
        128,
        GEN7,
        &cat(&[G7_HDR, math, a16_dst, a16_src0, imm]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen7.3src",
        128,
        GEN7,
        &cat(&[
            G7_HDR,
            cmod,
            &[
                ("flag_subreg_nr", "33"),
                ("flag_reg_nr", "34"),
                ("src0_abs", "36"),
                ("src2_negate", "41"),
                ("src_type", "43:42"),
                ("dst_type", "45:44"),
                ("nib_control", "47"),
                ("dst_writemask", "52:49"),
                ("dst_subreg4", "55:53"),
                ("dst_reg_nr", "63:56"),
                ("src0_rep_ctrl", "64"),
                ("src0_swizzle", "72:65"),
                ("src0_subreg4", "75:73"),
                ("src0_reg_nr", "83:76"),
                ("src1_rep_ctrl", "85"),
                ("src1_reg_nr", "104:97"),
                ("src2_rep_ctrl", "106"),
                ("src2_swizzle", "114:107"),
                ("src2_subreg4", "117:115"),
                ("src2_reg_nr", "125:118"),
            ],
        ]),
        &["dst_reg_file"],
    );
    let desc: &[(&str, &str)] = &[
        ("sfid", "27:24"),
        ("function_control", "114:96"),
        ("header_present", "115"),
        ("rlen", "120:116"),
        ("mlen", "124:121"),
        ("eot", "127"),
    ];
    let reg_desc: &[(&str, &str)] = &[
        ("sfid", "27:24"),
        ("src1_reg_nr", "108:101"),
        ("eot", "127"),
    ];
    expect(
        "enc.gen7.send-a1",
        128,
        GEN7,
        &cat(&[G7_HDR, G7_TYPES, a1_dst, a1_src0, desc]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen7.send-a16",
        128,
        GEN7,
        &cat(&[G7_HDR, G7_TYPES, a16_dst, a16_src0, desc]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen7.send-reg-a1",
        128,
        GEN7,
        &cat(&[G7_HDR, a1_dst, a1_src0, reg_desc, a1_src1]),
        &["mlen"],
    );
    expect(
        "enc.gen7.send-reg-a16",
        128,
        GEN7,
        &cat(&[G7_HDR, a16_dst, a16_src0, reg_desc, a16_src1]),
        &["mlen"],
    );
    let br: &[(&str, &str)] = &[("jip", "111:96"), ("uip", "127:112")];
    expect(
        "enc.gen7.branch-a1",
        128,
        GEN7,
        &cat(&[G7_HDR, G7_TYPES, a1_dst, a1_src0, br]),
        &["src1_reg_nr"],
    );
    expect(
        "enc.gen7.branch-a16",
        128,
        GEN7,
        &cat(&[G7_HDR, G7_TYPES, a16_dst, a16_src0, br]),
        &["src1_reg_nr"],
    );
    let imm64: &[(&str, &str)] = &[("imm", "127:64")];
    expect(
        "enc.hsw.dim-a1",
        128,
        &[Hsw],
        &cat(&[G7_HDR, G7_TYPES, a1_dst, imm64]),
        &["src0_reg_nr", "flag_reg_nr"],
    );
    expect(
        "enc.hsw.dim-a16",
        128,
        &[Hsw],
        &cat(&[G7_HDR, G7_TYPES, a16_dst, imm64]),
        &["src0_reg_nr", "flag_reg_nr"],
    );
}

#[test]
fn gen8_layouts() {
    let a1_dst: &[(&str, &str)] = &[
        ("dst_subreg_nr", "52:48"),
        ("dst_reg_nr", "60:53"),
        ("dst_hstride", "62:61"),
        ("dst_address_mode", "63"),
    ];
    let a16_dst: &[(&str, &str)] = &[
        ("dst_writemask", "51:48"),
        ("dst_subreg16", "52"),
        ("dst_reg_nr", "60:53"),
    ];
    let a1_src0: &[(&str, &str)] = &[
        ("src0_subreg_nr", "68:64"),
        ("src0_reg_nr", "76:69"),
        ("src0_width", "84:82"),
        ("src0_vstride", "88:85"),
    ];
    let a16_src0: &[(&str, &str)] = &[
        ("src0_swizzle", "67:64,83:80"),
        ("src0_subreg16", "68"),
        ("src0_reg_nr", "76:69"),
    ];
    let src1_t: &[(&str, &str)] = &[("src1_reg_file", "90:89"), ("src1_reg_type", "94:91")];
    let a1_src1: &[(&str, &str)] = &[
        ("src1_subreg_nr", "100:96"),
        ("src1_reg_nr", "108:101"),
        ("src1_abs", "109"),
        ("src1_negate", "110"),
        ("src1_address_mode", "111"),
        ("src1_hstride", "113:112"),
        ("src1_width", "116:114"),
        ("src1_vstride", "120:117"),
    ];
    let a16_src1: &[(&str, &str)] = &[
        ("src1_swizzle", "99:96,115:112"),
        ("src1_subreg16", "100"),
        ("src1_reg_nr", "108:101"),
    ];
    let cmod: &[(&str, &str)] = &[
        ("cond_modifier", "27:24"),
        ("acc_wr_control", "28"),
        ("saturate", "31"),
    ];
    let math: &[(&str, &str)] = &[("math_function", "27:24")];
    let imm: &[(&str, &str)] = &[("imm", "127:96")];
    let imm64: &[(&str, &str)] = &[("imm", "127:64")];
    expect(
        "enc.gen8.a1",
        128,
        GEN8,
        &cat(&[G8_HDR, G8_TYPES, cmod, a1_dst, a1_src0, src1_t, a1_src1]),
        &["dst_addr_imm"],
    );
    expect(
        "enc.gen8.a1-imm",
        128,
        GEN8,
        &cat(&[G8_HDR, G8_TYPES, cmod, a1_dst, a1_src0, src1_t, imm]),
        &["src1_reg_nr"],
    );
    expect(
        "enc.gen8.a1-imm64",
        128,
        GEN8,
        &cat(&[G8_HDR, G8_TYPES, cmod, a1_dst, imm64]),
        &["src0_reg_nr", "src1_reg_type"],
    );
    expect(
        "enc.gen8.a1-ind",
        128,
        GEN8,
        &cat(&[
            G8_HDR,
            &[
                ("dst_addr_imm", "56:48,47"),
                ("dst_addr_subreg_nr", "60:57"),
                ("src0_addr_imm", "72:64,95"),
                ("src0_addr_subreg_nr", "76:73"),
                ("src1_addr_imm", "104:96,121"),
                ("src1_addr_subreg_nr", "108:105"),
            ],
        ]),
        &[],
    );
    expect(
        "enc.gen8.a16",
        128,
        GEN8,
        &cat(&[G8_HDR, G8_TYPES, cmod, a16_dst, a16_src0, src1_t, a16_src1]),
        &[],
    );
    expect(
        "enc.gen8.a16-imm",
        128,
        GEN8,
        &cat(&[G8_HDR, G8_TYPES, a16_dst, a16_src0, src1_t, imm]),
        &[],
    );
    expect(
        "enc.gen8.a16-imm64",
        128,
        GEN8,
        &cat(&[G8_HDR, G8_TYPES, a16_dst, imm64]),
        &["src0_swizzle"],
    );
    expect(
        "enc.gen8.a16-ind",
        128,
        GEN8,
        &cat(&[
            G8_HDR,
            &[
                ("dst_addr_imm16", "56:52,47"),
                ("dst_addr_subreg_nr", "60:57"),
                ("src0_addr_imm16", "72:68,95"),
                ("src0_swizzle", "67:64,83:80"),
                ("src1_addr_imm16", "104:100,121"),
            ],
        ]),
        &[],
    );
    expect(
        "enc.gen8.math-a1",
        128,
        GEN8,
        &cat(&[G8_HDR, math, a1_dst, a1_src0, a1_src1]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen8.math-a1-imm",
        128,
        GEN8,
        &cat(&[G8_HDR, math, a1_dst, a1_src0, imm]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen8.math-a16",
        128,
        GEN8,
        &cat(&[G8_HDR, math, a16_dst, a16_src0, a16_src1]),
        &["cond_modifier"],
    );
    expect(
        "enc.gen8.math-a16-imm",
        128,
        GEN8,
        &cat(&[G8_HDR, math, a16_dst, a16_src0, imm]),
        &["cond_modifier"],
    );
    // Src1Type / Src2Type: Cherryview and Gen9 (GED models 8.1, 9); on Broadwell the bits
    // keep Mesa's names but are not read (GED model 8 has no such fields: enc.gen8.3src-bdw).
    let prec_chv: &[(&str, &str)] = &[("src2_type", "35"), ("src1_type", "36")];
    let prec_bdw: &[(&str, &str)] = &[("mesa_src2_type", "35"), ("mesa_src1_type", "36")];
    let t8: &[(&str, &str)] = &[
        ("src0_abs", "37"),
        ("src0_negate", "38"),
        ("src2_negate", "42"),
        ("src_type", "45:43"),
        ("dst_type", "48:46"),
        ("dst_writemask", "52:49"),
        ("dst_subreg4", "55:53"),
        ("dst_reg_nr", "63:56"),
        ("src0_rep_ctrl", "64"),
        ("src0_swizzle", "72:65"),
        ("src0_reg_nr", "83:76"),
        ("src1_rep_ctrl", "85"),
        ("src1_swizzle", "93:86"),
        ("src1_reg_nr", "104:97"),
        ("src2_rep_ctrl", "106"),
        ("src2_swizzle", "114:107"),
        ("src2_reg_nr", "125:118"),
    ];
    expect(
        "enc.gen8.3src-bdw",
        128,
        &[Bdw],
        &cat(&[
            G8_HDR,
            cmod,
            t8,
            prec_bdw,
            &[
                ("src0_subreg4", "75:73"),
                ("src1_subreg4", "96:94"),
                ("src2_subreg4", "117:115"),
            ],
        ]),
        &["src0_subreg2", "src1_type", "src2_type"],
    );
    expect(
        "enc.gen8.3src-chv",
        128,
        &[Chv, Skl, Bxt],
        &cat(&[
            G8_HDR,
            cmod,
            t8,
            prec_chv,
            &[
                ("src0_subreg2", "84,75:73"),
                ("src1_subreg2", "105,96:94"),
                ("src2_subreg2", "126,117:115"),
            ],
        ]),
        &["src0_subreg4"],
    );
    let desc8: &[(&str, &str)] = &[
        ("sfid", "27:24"),
        ("function_control", "114:96"),
        ("header_present", "115"),
        ("rlen", "120:116"),
        ("mlen", "124:121"),
        ("eot", "127"),
    ];
    let desc9: &[(&str, &str)] = &[
        ("sfid", "27:24"),
        ("function_control", "114:96"),
        ("mlen", "124:121"),
        ("desc_hi", "126:125"),
        ("eot", "127"),
    ];
    let reg_desc: &[(&str, &str)] = &[
        ("sfid", "27:24"),
        ("src1_reg_file", "90:89"),
        ("src1_reg_nr", "108:101"),
        ("eot", "127"),
    ];
    let g8 = &[Bdw, Chv][..];
    let g9 = &[Skl, Bxt][..];
    expect(
        "enc.gen8.send-a1",
        128,
        g8,
        &cat(&[G8_HDR, G8_TYPES, a1_dst, a1_src0, desc8]),
        &["desc_hi"],
    );
    expect(
        "enc.gen8.send-a16",
        128,
        g8,
        &cat(&[G8_HDR, G8_TYPES, a16_dst, a16_src0, desc8]),
        &["desc_hi"],
    );
    expect(
        "enc.gen8.send-reg-a1",
        128,
        g8,
        &cat(&[G8_HDR, a1_dst, a1_src0, reg_desc]),
        &["mlen"],
    );
    expect(
        "enc.gen8.send-reg-a16",
        128,
        g8,
        &cat(&[G8_HDR, a16_dst, a16_src0, reg_desc]),
        &["mlen"],
    );
    expect(
        "enc.gen9.send-a1",
        128,
        g9,
        &cat(&[G8_HDR, G8_TYPES, a1_dst, a1_src0, desc9]),
        &[],
    );
    expect(
        "enc.gen9.send-a16",
        128,
        g9,
        &cat(&[G8_HDR, G8_TYPES, a16_dst, a16_src0, desc9]),
        &[],
    );
    expect(
        "enc.gen9.send-reg-a1",
        128,
        g9,
        &cat(&[G8_HDR, a1_dst, a1_src0, reg_desc]),
        &["mlen"],
    );
    expect(
        "enc.gen9.send-reg-a16",
        128,
        g9,
        &cat(&[G8_HDR, a16_dst, a16_src0, reg_desc]),
        &["mlen"],
    );
    let br: &[(&str, &str)] = &[
        ("branch_control", "28"),
        ("uip", "95:64"),
        ("jip", "127:96"),
    ];
    expect(
        "enc.gen8.branch-a1",
        128,
        GEN8,
        &cat(&[G8_HDR, G8_TYPES, a1_dst, br]),
        &["acc_wr_control", "src0_reg_nr"],
    );
    expect(
        "enc.gen8.branch-a16",
        128,
        GEN8,
        &cat(&[G8_HDR, G8_TYPES, a16_dst, br]),
        &["acc_wr_control", "src0_reg_nr"],
    );
    // Split sends, Mesa brw_eu_inst.h Gen9 column.
    let sends: &[(&str, &str)] = &[
        ("sfid", "27:24"),
        ("dst_reg_file", "35"),
        ("src1_reg_file", "36"),
        ("src1_reg_nr", "51:44"),
        ("dst_subreg16", "52"),
        ("dst_reg_nr", "60:53"),
        ("sel_reg32_ex_desc", "61"),
        ("dst_address_mode", "63"),
        ("src0_subreg16", "68"),
        ("src0_reg_nr", "76:69"),
        ("sel_reg32_desc", "77"),
        ("src0_address_mode", "79"),
        ("eot", "127"),
    ];
    // Gen9 send / sendc: ExDesc[31:16] (Mesa brw_eu_inst_send_ex_desc; GED model 9
    // ExMsgDescImm): [19:16] 67:64, [23:20] 83:80, [27:24] 88:85, [31:28] 94:91, the same
    // bits with either descriptor form and in either access mode.
    for id in [
        "enc.gen9.send-a1-ex-desc",
        "enc.gen9.send-reg-a1-ex-desc",
        "enc.gen9.send-a16-ex-desc",
        "enc.gen9.send-reg-a16-ex-desc",
    ] {
        expect(
            id,
            128,
            &[Skl, Bxt],
            &[("ex_desc_hi", "67:64,83:80,88:85,94:91")],
            &["access_mode", "src0_vstride", "src0_swizzle"],
        );
    }
    let ex_imm: &[(&str, &str)] = &[("ex_mlen", "67:64"), ("ex_desc_hi", "95:80")];
    let ex_reg: &[(&str, &str)] = &[("ex_desc_addr_subreg_nr", "82:80")];
    let d_imm: &[(&str, &str)] = &[
        ("function_control", "114:96"),
        ("header_present", "115"),
        ("rlen", "120:116"),
        ("mlen", "124:121"),
        ("desc_hi", "126:125"),
    ];
    expect(
        "enc.gen9.sends",
        128,
        g9,
        &cat(&[G8_HDR, sends, ex_imm, d_imm]),
        &["src0_reg_file"],
    );
    expect(
        "enc.gen9.sends-reg-desc",
        128,
        g9,
        &cat(&[G8_HDR, sends, ex_imm]),
        &["mlen"],
    );
    expect(
        "enc.gen9.sends-reg-exdesc",
        128,
        g9,
        &cat(&[G8_HDR, sends, ex_reg, d_imm]),
        &["ex_mlen"],
    );
    expect(
        "enc.gen9.sends-reg-both",
        128,
        g9,
        &cat(&[G8_HDR, sends, ex_reg]),
        &["ex_mlen", "mlen"],
    );
}

#[test]
fn extended_descriptor_layout() {
    // Mesa brw_eu_inst_set_sends_ex_desc: ExDesc[31:16] and [9:6] are stored, [15:10] must be
    // zero; ExDesc[3:0] is the SFID and ExDesc[5] the legacy EOT bit (IGA, vISA).
    let fields: &[(&str, &str)] = &[
        ("ex_desc_hi", "31:16"),
        ("ex_mlen", "9:6"),
        ("eot", "5"),
        ("sfid", "3:0"),
    ];
    expect("enc.ex-desc", 32, ALL, fields, &["function_control"]);
    // The split-send fields of the same names hold the same number of bits.
    let exd = layout("enc.ex-desc");
    for id in ["enc.gen9.sends", "enc.gen9.sends-reg-desc"] {
        let l = layout(id);
        for name in ["ex_desc_hi", "ex_mlen", "sfid"] {
            let a = exd.field(name).unwrap();
            let b = l.field(name).unwrap();
            assert_eq!(a.width, b.width, "{id} {name}");
        }
    }
}

#[test]
fn compact_layouts_and_views() {
    // Mesa elk_inst.h elk_compact_inst fields.
    let c2: &[(&str, &str)] = &[
        ("opcode", "6:0"),
        ("debug_control", "7"),
        ("control_index", "12:8"),
        ("datatype_index", "17:13"),
        ("subreg_index", "22:18"),
        ("acc_wr_control", "23"),
        ("cond_modifier", "27:24"),
        ("cmpt_control", "29"),
        ("src0_index", "34:30"),
        ("dst_reg_nr", "47:40"),
        ("src0_reg_nr", "55:48"),
    ];
    expect(
        "enc.compact.2src",
        64,
        ALL,
        &cat(&[c2, &[("src1_index", "39:35"), ("src1_reg_nr", "63:56")]]),
        &["imm"],
    );
    expect(
        "enc.compact.imm",
        64,
        ALL,
        &cat(&[c2, &[("imm", "63:56,39:35")]]),
        &["src1_index"],
    );
    expect(
        "enc.compact.3src",
        64,
        GEN8,
        &[
            ("opcode", "6:0"),
            ("control_index", "9:8"),
            ("source_index", "11:10"),
            ("dst_reg_nr", "18:12"),
            ("src0_rep_ctrl", "28"),
            ("cmpt_control", "29"),
            ("debug_control", "30"),
            ("saturate", "31"),
            ("src1_rep_ctrl", "32"),
            ("src2_rep_ctrl", "33"),
            ("src0_subreg4", "36:34"),
            ("src1_subreg4", "39:37"),
            ("src2_subreg4", "42:40"),
            ("src0_reg_nr", "49:43"),
            ("src1_reg_nr", "56:50"),
            ("src2_reg_nr", "63:57"),
        ],
        &[],
    );
    // Mesa elk_eu_compact.c set_control_index / set_datatype_index / set_subreg_index /
    // set_src0_index / set_src1_index (Gen7).
    let v7: &[(&str, &str)] = &[
        ("control_index", "23:8,31,90:89"),
        ("datatype_index", "46:32,63:61"),
        ("src0_index", "88:77"),
        ("dst_reg_nr", "60:53"),
        ("src0_reg_nr", "76:69"),
        ("cond_modifier", "27:24"),
        ("acc_wr_control", "28"),
        ("cmpt_control", "29"),
        ("debug_control", "30"),
    ];
    expect(
        "enc.gen7.compaction",
        128,
        GEN7,
        &cat(&[
            v7,
            &[
                ("subreg_index", "52:48,68:64,100:96"),
                ("src1_index", "120:109"),
                ("src1_reg_nr", "108:101"),
            ],
        ]),
        &["imm"],
    );
    expect(
        "enc.gen7.compaction-imm",
        128,
        GEN7,
        &cat(&[v7, &[("subreg_index", "52:48,68:64"), ("imm", "127:96")]]),
        &["src1_index"],
    );
    let v8: &[(&str, &str)] = &[
        ("control_index", "8,34,10:9,23:12,33:31"),
        ("datatype_index", "46:35,94:89,63:61"),
        ("src0_index", "88:77"),
        ("dst_reg_nr", "60:53"),
        ("src0_reg_nr", "76:69"),
    ];
    expect(
        "enc.gen8.compaction",
        128,
        GEN8,
        &cat(&[
            v8,
            &[
                ("subreg_index", "52:48,68:64,100:96"),
                ("src1_index", "120:109"),
            ],
        ]),
        &["imm"],
    );
    expect(
        "enc.gen8.compaction-imm",
        128,
        GEN8,
        &cat(&[v8, &[("subreg_index", "52:48,68:64"), ("imm", "127:96")]]),
        &["src1_index"],
    );
    // set_3src_control_index / set_3src_source_index.
    let v3: &[(&str, &str)] = &[
        ("dst_reg_nr", "62:56"),
        ("src0_rep_ctrl", "64"),
        ("src0_subreg4", "75:73"),
        ("src0_reg_nr", "82:76"),
        ("src1_subreg4", "96:94"),
        ("src1_reg_nr", "103:97"),
        ("src2_subreg4", "117:115"),
        ("src2_reg_nr", "124:118"),
        ("saturate", "31"),
    ];
    expect(
        "enc.gen8.compaction-3src-bdw",
        128,
        &[Bdw],
        &cat(&[
            v3,
            &[
                ("control_index", "28:8,34:32"),
                ("source_index", "55:37,72:65,93:86,114:107,83,104,125"),
            ],
        ]),
        &[],
    );
    expect(
        "enc.gen8.compaction-3src-chv",
        128,
        &[Chv, Skl, Bxt],
        &cat(&[
            v3,
            &[
                ("control_index", "28:8,34:32,36:35"),
                (
                    "source_index",
                    "55:37,72:65,93:86,114:107,83,84,105:104,126:125",
                ),
            ],
        ]),
        &[],
    );
}
