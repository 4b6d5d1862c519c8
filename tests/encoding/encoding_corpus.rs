//! Native layouts against Mesa's assembler corpus (`<corpus>/mesa/asm`, tests/common/material.rs): for every
//! instruction of gen7 (ivb), gen7.5 (hsw), gen8 (bdw) and gen9 (skl), the layout euref chooses
//! decodes fields that agree with the assembly text — opcode, exec size, access mode, predicate,
//! condition modifier or math function, saturate, flag register, instruction options, operand
//! register files, numbers, Align1 subregisters, types, source modifiers, immediates, send
//! messages (SFID, mlen, rlen, ex_mlen, EOT) and branch targets — and `get` then `set` of every
//! field reproduces every word.

use crate::encoding_util;

use encoding_util::*;
use euref::encoding::{check, layout_for, operand_layout, Operand};
use euref::spec::encoding::{values, Layout, ValueTable};
use euref::spec::{registers, DataType, Opcode, Platform};
use std::collections::{BTreeMap, HashMap};

fn get(l: &Layout, name: &str, w: u128) -> Option<u64> {
    l.field(name).map(|f| f.get(w))
}

fn val(t: &ValueTable, name: &str) -> u64 {
    t.value(name)
        .unwrap_or_else(|| panic!("{} has no `{name}`", t.id))
}

/// One parsed register or immediate operand.
#[derive(Debug, Default)]
struct Opnd {
    neg: bool,
    abs: bool,
    /// `g`, `null`, `a`, `acc`, `f`, `cr`, `n`, `sr`, `ip`, `tm`; empty for immediates.
    reg: String,
    num: u32,
    sub: Option<u32>,
    indirect: bool,
    ty: String,
    imm: Option<String>,
    /// Indirect addressing immediate (`g[a0 96]`).
    addr_imm: i64,
}

fn parse_operand(t: &str) -> Opnd {
    let mut o = Opnd::default();
    let mut s = t;
    if let Some(r) = s.strip_prefix('-') {
        if !r.starts_with(|c: char| c.is_ascii_digit()) {
            o.neg = true;
            s = r;
        }
    }
    if let Some(r) = s.strip_prefix('~') {
        o.neg = true; // logic instructions print the negate modifier as bitwise not
        s = r;
    }
    if let Some(r) = s.strip_prefix("(abs)") {
        o.abs = true;
        s = r;
    }
    let tstart = s.len()
        - s.chars()
            .rev()
            .take_while(|c| c.is_ascii_uppercase())
            .count();
    o.ty = s[tstart..].to_string();
    let body = &s[..tstart];
    if body.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        o.imm = Some(body.to_string());
        return o;
    }
    let n = body.chars().take_while(|c| c.is_ascii_lowercase()).count();
    o.reg = body[..n].to_string();
    let mut rest = &body[n..];
    if rest.starts_with('[') {
        o.indirect = true;
        let e = rest.find(']').expect("]");
        o.addr_imm = rest[1..e]
            .split('+')
            .nth(1)
            .map(|x| x.trim().parse().expect("AddrImm"))
            .unwrap_or(0);
        rest = &rest[e + 1..];
    } else {
        let d = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        o.num = rest[..d].parse().unwrap_or(0);
        rest = &rest[d..];
        if let Some(r) = rest.strip_prefix('.') {
            let d = r.chars().take_while(|c| c.is_ascii_digit()).count();
            if d > 0 {
                o.sub = r[..d].parse().ok();
                rest = &r[d..];
            }
        }
    }
    let _ = rest;
    o
}

fn arf_regtype(name: &str) -> u32 {
    // `mask0` (Mesa BRW_ARF_MASK = 0x40, brw_eu_defines.h) has no row in registers.toml.
    if name == "mask" {
        return 4;
    }
    registers::ARFS
        .iter()
        .find(|a| a.name == name)
        .map(|a| u32::from(a.regtype))
        .unwrap_or_else(|| panic!("unknown ARF `{name}`"))
}

/// The options between braces.
fn options(stmt: &str) -> Vec<String> {
    match (stmt.find('{'), stmt.rfind('}')) {
        (Some(a), Some(b)) => stmt[a + 1..b]
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|x| !x.is_empty())
            .map(String::from)
            .collect(),
        _ => vec![],
    }
}

struct Ctx<'a> {
    p: Platform,
    w: u128,
    l: &'static Layout,
    what: &'a str,
}

impl Ctx<'_> {
    fn f(&self, name: &str) -> u64 {
        get(self.l, name, self.w)
            .unwrap_or_else(|| panic!("{}: layout {} has no `{name}`", self.what, self.l.id))
    }
    fn has(&self, name: &str) -> bool {
        self.l.field(name).is_some()
    }
}

fn reg_file_table(p: Platform) -> &'static ValueTable {
    if values::GEN7_REG_FILE.gens.contains(p) {
        &values::GEN7_REG_FILE
    } else {
        &values::GEN8_REG_FILE
    }
}

/// Check one register/immediate operand: `k` = None for dst, Some(n) for src n.
fn check_operand(c: &Ctx, k: Option<usize>, o: &Opnd, three: bool, sends: bool) {
    let pre = match k {
        None => "dst".to_string(),
        Some(n) => format!("src{n}"),
    };
    let what = format!("{} {pre}", c.what);
    let files = if sends {
        &values::GEN9_SENDS_REG_FILE
    } else {
        reg_file_table(c.p)
    };
    // Register type / immediate type.
    if let Some(imm) = &o.imm {
        let file = c.f(&format!("{pre}_reg_file"));
        assert_eq!(file, val(files, "imm"), "{what}: immediate file");
        let t = DataType::from_imm_enc(c.p, c.f(&format!("{pre}_reg_type")) as u8);
        assert_eq!(t, DataType::from_name(&o.ty), "{what}: immediate type");
        let imm_f = c.f("imm");
        let (neg, digits) = match imm.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, imm.as_str()),
        };
        let mut v: u128 = match digits.strip_prefix("0x") {
            Some(h) => u128::from_str_radix(h, 16).expect("hex imm"),
            None => digits.parse::<u128>().expect("decimal imm"),
        };
        if neg {
            v = (v as i128).wrapping_neg() as u128;
        }
        let wide = digits.len() > 10; // 0x + more than 8 hex digits: dim's 64-bit immediate
        let bits = if wide {
            64
        } else {
            t.map(|t| t.bits()).unwrap_or(32).max(16)
        };
        let (got, want) = match bits {
            16 => (imm_f & 0xffff, (v & 0xffff) as u64),
            32 => (imm_f & 0xffff_ffff, (v & 0xffff_ffff) as u64),
            _ => (imm_f, v as u64),
        };
        assert_eq!(got, want, "{what}: immediate value");
        return;
    }
    let ol = operand_layout(
        c.w,
        c.p,
        match k {
            None => Operand::Dst,
            Some(0) => Operand::Src0,
            _ => Operand::Src1,
        },
    );
    let oc = Ctx {
        p: c.p,
        w: c.w,
        l: ol,
        what: &what,
    };
    if !three {
        let want = if o.reg == "g" { "grf" } else { "arf" };
        match get(ol, &format!("{pre}_reg_file"), c.w) {
            Some(file) => assert_eq!(file, val(files, want), "{what}: register file"),
            // a split send's src0 is always a GRF
            None => assert!(
                sends && k == Some(0) && want == "grf",
                "{what}: register file field"
            ),
        }
        if !sends {
            let t = DataType::from_reg_enc(c.p, oc.f(&format!("{pre}_reg_type")) as u8);
            assert_eq!(t, DataType::from_name(&o.ty), "{what}: type");
        }
    }
    if k != Some(2) || three {
        // sends src1 has no address mode; three-source operands are always direct
        if let Some(am) = get(ol, &format!("{pre}_address_mode"), c.w) {
            assert_eq!(am, u64::from(o.indirect), "{what}: address mode");
        }
    }
    if o.indirect {
        assert!(
            ol.field(&format!("{pre}_addr_subreg_nr")).is_some(),
            "{what}: indirect fields"
        );
        let f = ol
            .field(&format!("{pre}_addr_imm"))
            .expect("Align1 AddrImm");
        let v = f.get(c.w);
        let sext = ((v << (64 - f.width)) as i64) >> (64 - f.width);
        assert_eq!(sext, o.addr_imm, "{what}: AddrImm");
    } else {
        let want = if o.reg == "g" {
            o.num
        } else if o.reg == "null" {
            0
        } else {
            arf_regtype(&o.reg) * 16 + o.num
        };
        assert_eq!(
            oc.f(&format!("{pre}_reg_nr")),
            u64::from(want),
            "{what}: register number"
        );
        if let (Some(sub), Some(f)) = (o.sub, ol.field(&format!("{pre}_subreg_nr"))) {
            let ty = DataType::from_name(&o.ty).expect("type");
            assert_eq!(
                f.get(c.w),
                u64::from(sub * ty.bytes()),
                "{what}: subregister"
            );
        }
    }
    if k.is_some() && !sends {
        if let Some(n) = get(ol, &format!("{pre}_negate"), c.w) {
            assert_eq!(n, u64::from(o.neg), "{what}: negate");
        }
        if let Some(a) = get(ol, &format!("{pre}_abs"), c.w) {
            assert_eq!(a, u64::from(o.abs), "{what}: abs");
        }
    }
}

/// Whether an assembly token is an operand (register, region, immediate) rather than the
/// message description that follows a send's descriptor.
fn is_operand(t: &str) -> bool {
    t.starts_with(['-', '(', '~'])
        || t.starts_with(|c: char| c.is_ascii_digit())
        || t.starts_with("null")
        || t.contains(|c: char| c.is_ascii_digit() || c == '<' || c == '[')
}

/// Mesa's spelling of math functions -> enc.*.math-function names.
fn math_name(m: &str) -> &str {
    match m {
        "intdivmod" => "int_div_both",
        "intdiv" => "int_div_quotient",
        "intmod" => "int_div_remainder",
        x => x,
    }
}

/// Mesa's SFID names (first words of a send's second line) -> enc.*sfid names.
fn sfid_name(text: &str) -> &str {
    for (k, v) in [
        ("dp data 1", "dp_data_1"),
        ("pixel interp", "pixel_interp"),
        ("thread_spawner", "thread_spawner"),
        ("sampler", "sampler"),
        ("render", "render"),
        ("const", "const"),
        ("urb", "urb"),
        ("data", "data"),
        ("gateway", "gateway"),
    ] {
        if text.starts_with(k) {
            return v;
        }
    }
    panic!("unknown SFID text `{text}`")
}

fn number_after(text: &str, key: &str) -> Option<u64> {
    let toks: Vec<&str> = text.split_whitespace().collect();
    toks.iter()
        .position(|t| *t == key)
        .and_then(|i| toks.get(i + 1))
        .and_then(|t| t.parse().ok())
}

/// Check one instruction; returns the chosen layout's ID.
fn check_insn(
    p: Platform,
    what: &str,
    stmt: &str,
    w: u128,
    jip: Option<(i64, Option<i64>)>,
) -> &'static str {
    let l = check(w, p).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        std::ptr::eq(l, layout_for(w, p)),
        "{what}: check and layout_for agree"
    );
    let c = Ctx { p, w, l, what };
    let head = stmt
        .split('{')
        .next()
        .unwrap_or("")
        .trim()
        .trim_end_matches(';')
        .replace("[a0 ", "[a0+");
    let head = head.as_str();
    let mut toks: Vec<&str> = head.split_whitespace().collect();

    // Predicate.
    let mut pred: Option<&str> = None;
    if toks.first().is_some_and(|t| t.starts_with('(')) {
        pred = Some(toks.remove(0));
    }
    let mnem_tok = toks.remove(0);
    let mut math_fn = None;
    if mnem_tok.starts_with("math") {
        math_fn = Some(toks.remove(0));
    }
    let (name_part, exec) = match (mnem_tok.find('('), math_fn) {
        (Some(i), _) => (&mnem_tok[..i], Some(&mnem_tok[i + 1..mnem_tok.len() - 1])),
        (None, Some(m)) => (mnem_tok, m.find('(').map(|i| &m[i + 1..m.len() - 1])),
        (None, None) => (mnem_tok, None),
    };
    let math_fn = math_fn.map(|m| m.split('(').next().unwrap_or(m));
    let mut parts = name_part.split('.');
    let mnem = parts.next().expect("mnemonic");
    let suffixes: Vec<&str> = parts.collect();

    // Opcode.
    let op = Opcode::from_name(mnem).unwrap_or_else(|| panic!("{what}: mnemonic {mnem}"));
    assert_eq!(
        Opcode::from_number(p, c.f("opcode") as u8),
        Some(op),
        "{what}: opcode"
    );

    // Exec size.
    if let Some(e) = exec {
        assert_eq!(
            values::EXEC_SIZE.name_of(c.f("exec_size")),
            Some(e),
            "{what}: exec size"
        );
    }

    // Suffixes: saturate, condition modifier, flag register.
    let sat = suffixes.contains(&"sat");
    if c.has("saturate") {
        assert_eq!(c.f("saturate"), u64::from(sat), "{what}: saturate");
    }
    let cmod = suffixes
        .iter()
        .find(|s| values::COND_MODIFIER.value(s).is_some())
        .copied();
    if c.has("cond_modifier") {
        assert_eq!(
            values::COND_MODIFIER.name_of(c.f("cond_modifier")),
            Some(cmod.unwrap_or("none")),
            "{what}: condition modifier"
        );
    }
    if let Some(m) = math_fn {
        let t = if values::GEN7_MATH_FUNCTION.gens.contains(p) {
            &values::GEN7_MATH_FUNCTION
        } else {
            &values::GEN8_MATH_FUNCTION
        };
        assert_eq!(
            t.name_of(c.f("math_function")),
            Some(math_name(m)),
            "{what}: math function"
        );
    }
    let flag_of = |s: &str| -> u64 { val(&values::FLAG_REGISTER, s) };
    let flag_field = || c.f("flag_reg_nr") * 2 + c.f("flag_subreg_nr");
    if let Some(i) = suffixes.iter().position(|s| s.starts_with('f')) {
        let fl = format!(
            "{}.{}",
            suffixes[i],
            suffixes.get(i + 1).copied().unwrap_or("0")
        );
        assert_eq!(
            flag_field(),
            flag_of(&fl),
            "{what}: condition flag register"
        );
    }

    // Options.
    let opts = options(stmt);
    let a16 = opts.iter().any(|o| o == "align16");
    if opts.iter().any(|o| o == "align1" || o == "align16") {
        let want = if a16 { "align16" } else { "align1" };
        assert_eq!(
            values::ACCESS_MODE.name_of(c.f("access_mode")),
            Some(want),
            "{what}: access mode"
        );
    }
    let has = |x: &str| opts.iter().any(|o| o == x);
    assert_eq!(
        values::MASK_CONTROL.name_of(c.f("mask_control")),
        Some(if has("WE_all") { "nomask" } else { "normal" }),
        "{what}: mask control"
    );
    let dep = match (has("NoDDClr"), has("NoDDChk")) {
        (false, false) => "none",
        (true, false) => "noddclr",
        (false, true) => "noddchk",
        (true, true) => "noddclr_noddchk",
    };
    assert_eq!(
        values::DEP_CONTROL.name_of(c.f("dep_ctrl")),
        Some(dep),
        "{what}: dependency control"
    );
    let thr = if has("switch") {
        "switch"
    } else if has("atomic") {
        "atomic"
    } else {
        "normal"
    };
    assert_eq!(
        values::THREAD_CONTROL.name_of(c.f("thread_control")),
        Some(thr),
        "{what}: thread control"
    );
    if c.has("acc_wr_control") {
        assert_eq!(
            c.f("acc_wr_control"),
            u64::from(has("AccWrEnable")),
            "{what}: AccWrEnable"
        );
    }
    if c.has("eot") {
        assert_eq!(c.f("eot"), u64::from(has("EOT")), "{what}: EOT");
    }
    for o in &opts {
        let (n, unit) = o.split_at(o.len().saturating_sub(1));
        let Ok(n) = n.parse::<u64>() else { continue };
        let (q, nib) = match unit {
            "Q" => (n - 1, 0),
            "H" => (2 * (n - 1), 0),
            "N" => ((n - 1) / 2, (n - 1) % 2),
            _ => continue,
        };
        assert_eq!(
            values::QTR_CONTROL.name_of(c.f("qtr_control")),
            values::QTR_CONTROL.name_of(q),
            "{what}: QtrCtrl"
        );
        assert_eq!(
            values::NIB_CONTROL.name_of(c.f("nib_control")),
            values::NIB_CONTROL.name_of(nib),
            "{what}: NibCtrl"
        );
    }

    // Predicate: (+f0.0), (-f0.1.any4h), (+f0.0.x).
    match pred {
        None => assert_eq!(c.f("pred_control"), 0, "{what}: no predicate"),
        Some(pr) => {
            let inner = pr.trim_start_matches('(').trim_end_matches(')');
            let (inv, rest) = inner.split_at(1);
            assert_eq!(
                c.f("pred_inv"),
                u64::from(inv == "-"),
                "{what}: predicate inversion"
            );
            let ps: Vec<&str> = rest.split('.').collect();
            let fl = format!("{}.{}", ps[0], ps.get(1).copied().unwrap_or("0"));
            assert_eq!(
                flag_field(),
                flag_of(&fl),
                "{what}: predicate flag register"
            );
            let mode = ps.get(2).copied().unwrap_or("seq");
            let t = if a16 {
                &values::PRED_CONTROL_ALIGN16
            } else {
                &values::PRED_CONTROL_ALIGN1
            };
            assert_eq!(
                t.name_of(c.f("pred_control")),
                Some(mode),
                "{what}: predicate control"
            );
        }
    }

    // Operands.
    let id = l.id;
    let is_branch = l.field("jip").is_some();
    let is_send = l.field("sfid").is_some();
    let is_sends = l.field("sel_reg32_desc").is_some();
    let three = l.field("src_type").is_some();
    if is_branch {
        let (j, u) = jip.expect("branch targets");
        let unit: i64 = if values::GEN7_BRANCH_OPCODES.gens.contains(p) {
            8
        } else {
            1
        };
        let sext = |v: u64, f: &str| -> i64 {
            let bits = l.field(f).map(|f| f.width).unwrap_or(32);
            ((v << (64 - bits)) as i64) >> (64 - bits)
        };
        assert_eq!(sext(c.f("jip"), "jip") * unit, j, "{what}: JIP");
        if let Some(u) = u {
            assert_eq!(sext(c.f("uip"), "uip") * unit, u, "{what}: UIP");
        }
        return id;
    }
    let opnds: Vec<&str> = toks.iter().copied().take_while(|t| is_operand(t)).collect();
    if mnem == "nop" {
        return id;
    }
    if let Some(d) = opnds.first() {
        check_operand(&c, None, &parse_operand(d), three, is_sends);
    }
    let nsrc = if is_sends {
        2
    } else if is_send {
        1
    } else {
        op.info().srcs as usize
    };
    let nsrc = if mnem == "wait" { 0 } else { nsrc };
    for k in 0..nsrc {
        if let Some(s) = opnds.get(k + 1) {
            let o = parse_operand(s);
            if o.reg == "null" && k == 1 && !is_sends {
                continue; // math's absent src1
            }
            check_operand(&c, Some(k), &o, three, is_sends);
        }
    }
    if three {
        let t3 = if values::GEN7_3SRC_TYPE.gens.contains(p) {
            &values::GEN7_3SRC_TYPE
        } else {
            &values::GEN8_3SRC_TYPE
        };
        let d = parse_operand(opnds[0]);
        let s0 = parse_operand(opnds[1]);
        let ty = |f: &str| t3.name_of(c.f(f)).map(|n| n.to_uppercase());
        assert_eq!(
            ty("dst_type").as_deref(),
            Some(d.ty.as_str()),
            "{what}: 3-src dst type"
        );
        assert_eq!(
            ty("src_type").as_deref(),
            Some(s0.ty.as_str()),
            "{what}: 3-src src type"
        );
        for (k, s) in opnds.iter().skip(1).enumerate() {
            let o = parse_operand(s);
            let rep = c.f(&format!("src{k}_rep_ctrl"));
            let scalar = s.contains("<0,1,0>") || s.contains("<0>");
            assert_eq!(
                values::REP_CONTROL.name_of(rep),
                Some(if scalar { "replicate" } else { "none" }),
                "{what}: src{k} RepCtrl"
            );
            if let (Some(sub), true) = (o.sub, c.has(&format!("src{k}_subreg4"))) {
                let ty = DataType::from_name(&o.ty).expect("type");
                assert_eq!(
                    c.f(&format!("src{k}_subreg4")) * 4,
                    u64::from(sub * ty.bytes()),
                    "{what}: src{k} subregister"
                );
            }
        }
    }
    if is_send {
        let sfid_t = if values::IVB_SFID.gens.contains(p) {
            &values::IVB_SFID
        } else {
            &values::HSW_SFID
        };
        let after_imm = toks
            .iter()
            .copied()
            .skip_while(|t| is_operand(t))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            sfid_t.name_of(c.f("sfid")),
            Some(sfid_name(&after_imm)),
            "{what}: SFID"
        );
        if let Some(m) = number_after(head, "mlen") {
            assert_eq!(c.f("mlen"), m, "{what}: mlen");
        }
        if let Some(r) = number_after(head, "rlen") {
            assert_eq!(c.f("rlen"), r, "{what}: rlen");
        }
        if let (Some(x), true) = (number_after(head, "ex_mlen"), c.has("ex_mlen")) {
            assert_eq!(c.f("ex_mlen"), x, "{what}: ex_mlen");
        }
    }
    id
}

/// Statements with each label's instruction index.
fn labelled(text: &str) -> (Vec<String>, HashMap<String, usize>) {
    let mut labels = HashMap::new();
    let mut n = 0;
    let mut pending = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.ends_with(':') && !t.contains(' ') {
            labels.insert(t.trim_end_matches(':').to_string(), n);
            continue;
        }
        if t.is_empty() {
            continue;
        }
        pending.push_str(t);
        pending.push(' ');
        if t.ends_with(';') {
            n += 1;
            pending.clear();
        }
    }
    (statements(text), labels)
}

#[test]
fn corpus_fields_agree_with_the_assembly_text() {
    if !corpus_present() {
        return;
    }
    let mut total = 0;
    let mut used: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (dir, p) in ASM_DIRS {
        for (asm, exp) in asm_files(dir) {
            let text = std::fs::read_to_string(&asm).expect("asm");
            let (st, labels) = labelled(&text);
            let words: Vec<u128> = std::fs::read_to_string(&exp)
                .expect("expected")
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(word16)
                .collect();
            assert_eq!(st.len(), words.len(), "{}", asm.display());
            for (i, (s, w)) in st.iter().zip(&words).enumerate() {
                let what = format!(
                    "{dir}/{} #{i} `{s}`",
                    asm.file_name().unwrap_or_default().to_string_lossy()
                );
                let target = |key: &str| -> Option<i64> {
                    let toks: Vec<&str> = s.split_whitespace().collect();
                    let l = toks
                        .iter()
                        .position(|t| *t == key)
                        .and_then(|k| toks.get(k + 1))?;
                    let to = *labels.get(*l)? as i64;
                    Some((to - i as i64) * 16)
                };
                let jip = target("JIP:").map(|j| (j, target("UIP:")));
                let id = check_insn(p, &what, s, *w, jip);
                *used.entry(id).or_default() += 1;
                for op in [Operand::Dst, Operand::Src0, Operand::Src1] {
                    let ol = operand_layout(*w, p, op);
                    if ol.id != id {
                        *used.entry(ol.id).or_default() += 1;
                    }
                }
                total += 1;
            }
        }
    }
    eprintln!("{total} instructions; layouts used: {used:?}");
    assert!(total >= 8500, "corpus size {total}");
    // Every layout that Mesa's assembler output exercises, by platform group.
    for id in [
        "enc.gen7.a1",
        "enc.gen7.a1-imm",
        "enc.gen7.a1-ind",
        "enc.gen7.a16",
        "enc.gen7.a16-imm",
        "enc.gen7.math-a1",
        "enc.gen7.math-a16",
        "enc.gen7.3src",
        "enc.gen7.send-a1",
        "enc.gen7.send-a16",
        "enc.gen7.send-reg-a1",
        "enc.gen7.branch-a1",
        "enc.gen7.branch-a16",
        "enc.hsw.dim-a1",
        "enc.hsw.dim-a16",
        "enc.gen8.a1",
        "enc.gen8.a1-imm",
        "enc.gen8.a1-imm64",
        "enc.gen8.a1-ind",
        "enc.gen8.a16",
        "enc.gen8.math-a1",
        "enc.gen8.math-a1-imm",
        "enc.gen8.3src-bdw",
        "enc.gen8.3src-chv",
        "enc.gen8.send-a1",
        "enc.gen8.send-reg-a1",
        "enc.gen8.branch-a1",
        "enc.gen9.send-a1",
        "enc.gen9.send-reg-a1",
        "enc.gen9.sends",
        "enc.gen9.sends-reg-desc",
    ] {
        assert!(used.contains_key(id), "no corpus instruction uses {id}");
    }
}

#[test]
fn get_then_set_reproduces_every_corpus_word() {
    if !corpus_present() {
        return;
    }
    let mut n = 0;
    for (dir, p) in ASM_DIRS {
        for (file, stmt, w) in corpus(dir) {
            let l = layout_for(w, p);
            let mut layouts = vec![l];
            for op in [Operand::Dst, Operand::Src0, Operand::Src1] {
                layouts.push(operand_layout(w, p, op));
            }
            for l in layouts {
                let mut rebuilt = 0u128;
                for f in l.fields {
                    let v = f.get(w);
                    let mut w2 = w;
                    f.set(&mut w2, v);
                    assert_eq!(w2, w, "{dir}/{file} `{stmt}`: {} field {}", l.id, f.name);
                    f.set(&mut rebuilt, v);
                }
                // Reserved bits are zero (check() passes), so the fields alone rebuild the word
                // for the layout that check() chose.
                if std::ptr::eq(l, layout_for(w, p)) {
                    assert_eq!(
                        rebuilt, w,
                        "{dir}/{file} `{stmt}`: {} rebuilt from its fields",
                        l.id
                    );
                }
            }
            n += 1;
        }
    }
    assert!(n >= 8500);
}

/// Mesa's validator corpus (validate/ivb.tsv, validate/skl.tsv): every instruction that Mesa's
/// disassembler can print decodes without error, and exactly those it prints as `invalid`
/// (reserved exec sizes, type encodings, three-source types) are rejected, naming the field.
#[test]
fn validator_corpus_encodings() {
    if !corpus_present() {
        return;
    }
    for (file, p) in [("ivb.tsv", Platform::Ivb), ("skl.tsv", Platform::Skl)] {
        let text = std::fs::read_to_string(encoding_util::mesa_dir().join("validate").join(file))
            .expect("validate tsv");
        let (mut ok, mut rejected) = (0, 0);
        for line in text.lines() {
            let c: Vec<&str> = line.split('\t').collect();
            if c.len() < 6 {
                continue;
            }
            let spaced: String = c[4]
                .as_bytes()
                .chunks(2)
                .map(|b| format!("{} ", String::from_utf8_lossy(b)))
                .collect();
            let w = word16(&spaced);
            let invalid = c[5].to_lowercase().contains("invalid");
            match check(w, p) {
                Ok(_) => {
                    assert!(!invalid, "{file} {}: accepted `{}`", c[0], c[5]);
                    ok += 1;
                }
                Err(e) => {
                    assert!(invalid, "{file} {}: {e} for `{}`", c[0], c[5]);
                    let f = e.field;
                    assert!(
                        ["exec_size", "dst_reg_type", "src_type"].contains(&f),
                        "{e}"
                    );
                    rejected += 1;
                }
            }
        }
        eprintln!("{file}: {ok} decode, {rejected} rejected");
        assert!(ok > 100 && rejected > 0);
    }
}
