//! Loading spec/messages.toml (message header / payload dword bit fields) and
//! spec/platform_memory.toml (L3 allocation tables and numeric platform facts): the seed
//! facts outside the EU instruction set proper (seed004, Broxton Vol 6).

use super::bitfields::{self, BitField};
use super::ctx::Ctx;
use super::*;
use serde::Deserialize;

/// spec/messages.toml.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MessagesFile {
    #[serde(default)]
    pub message: Vec<S<Message>>,
    #[serde(default)]
    pub field: Vec<S<MsgField>>,
}

/// A message header or payload register (M0).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Message {
    pub id: S<String>,
    /// snake_case name the fields refer to.
    pub name: S<String>,
    /// Number of dwords the seed describes (M0.0 .. M0.(dwords-1)); each must be covered.
    pub dwords: u32,
    pub gens: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// Bits `hi:lo` of dword `dword` of a message.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MsgField {
    pub id: S<String>,
    pub message: S<String>,
    pub dword: u32,
    pub bits: S<String>,
    pub name: S<String>,
    /// field | reserved | ignored | unstated (the seed text names no field for these bits)
    pub access: S<String>,
    /// Format as the seed names it: U1, U4, U8, U16, S3, Enable, ...
    pub format: Option<String>,
    /// Enumerated values: `"N NAME"` or `"N-M NAME"` (a range of equal meaning).
    #[serde(default)]
    pub values: Vec<S<String>>,
    pub gens: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

pub struct MessageRow {
    pub row: Row<Message>,
}

pub struct MsgFieldRow {
    pub row: Row<MsgField>,
    pub hi: u32,
    pub lo: u32,
    /// Parsed `values`: (first, last, name).
    pub values: Vec<(u32, u32, String)>,
}

/// spec/platform_memory.toml.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PlatformMemoryFile {
    #[serde(default)]
    pub l3_alloc: Vec<S<L3Alloc>>,
    #[serde(default)]
    pub fact: Vec<S<Fact>>,
    #[serde(default)]
    pub programming_note: Vec<S<ProgrammingNote>>,
}

/// A programming note or restriction of the seed outside the EU (command streamer, caches):
/// `quote` is the seed's own words (whitespace-normalized), `text` says it in full.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ProgrammingNote {
    pub id: S<String>,
    /// What it is about: sampler | media | gpgpu | barrier | l3
    pub subject: S<String>,
    pub quote: S<String>,
    pub gens: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// One row of an L3 allocation table (sizes in KB).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct L3Alloc {
    pub id: S<String>,
    /// multi | single
    pub bank: S<String>,
    /// Shared local memory mode table (true) or no-SLM table (false).
    pub slm_mode: bool,
    pub config: u32,
    pub slm: u32,
    pub urb: u32,
    pub rest: u32,
    pub dc: u32,
    pub ro: u32,
    pub sum: u32,
    pub gens: S<String>,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// A numeric platform fact (a size, a count, a bit position, a default).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    pub id: S<String>,
    pub value: S<i64>,
    /// bytes | kbytes | count | bits | bit | bool | ways
    pub unit: S<String>,
    pub gens: S<String>,
    pub text: String,
    pub cite: S<String>,
    pub note: Option<String>,
}

/// Bank data-array sizes (KB) that every row of an L3 allocation table must sum to.
const BANK_KB: [(&str, u32); 2] = [("multi", 192), ("single", 320)];

pub(super) fn load_messages(c: &mut Ctx, np: usize) -> (Vec<MessageRow>, Vec<MsgFieldRow>) {
    let mut msgs = vec![];
    let mut fields = vec![];
    let Some((f, file)) = c.load::<MessagesFile>("messages.toml", false) else {
        return (msgs, fields);
    };
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    for m in f.message {
        let m = m.into_inner();
        let g = c.common(&file, &m.id, &m.gens, &m.cite, &["msg."]);
        let off = m.id.span().start;
        if m.dwords == 0 || m.dwords > 8 {
            c.err(
                &file,
                off,
                format!("dwords must be 1..=8 (one GRF), found {}", m.dwords),
            );
        }
        let line = c.line(&file, off);
        if let Some(l0) = names.insert(m.name.get_ref().clone(), line) {
            c.err(
                &file,
                m.name.span().start,
                format!(
                    "message name `{}` already used at line {l0}",
                    m.name.get_ref()
                ),
            );
        }
        msgs.push(MessageRow {
            row: c.row(m, &file, &S::new(off..off, String::new()), g),
        });
    }
    for fl in f.field {
        let fl = fl.into_inner();
        let g = c.common(&file, &fl.id, &fl.gens, &fl.cite, &["msgfield."]);
        let off = fl.id.span().start;
        c.one_of(
            &file,
            &fl.access,
            "access",
            &["field", "reserved", "ignored", "unstated"],
        );
        let (hi, lo) = bitfields::parse_bits(c, &file, &fl.bits);
        match msgs
            .iter()
            .find(|m| m.row.v.name.get_ref() == fl.message.get_ref())
        {
            None => c.err(
                &file,
                fl.message.span().start,
                format!("unknown message `{}`", fl.message.get_ref()),
            ),
            Some(m) => {
                if fl.dword >= m.row.v.dwords {
                    c.err(
                        &file,
                        off,
                        format!(
                            "dword {} is outside message `{}` ({} dwords)",
                            fl.dword,
                            fl.message.get_ref(),
                            m.row.v.dwords
                        ),
                    );
                }
                if g & !m.row.gens != 0 {
                    c.err(
                        &file,
                        fl.gens.span().start,
                        format!(
                            "gens cover platforms message `{}` does not",
                            fl.message.get_ref()
                        ),
                    );
                }
            }
        }
        let width = hi - lo + 1;
        let mut values = vec![];
        for v in &fl.values {
            let parsed = v.get_ref().trim().split_once(' ').and_then(|(n, name)| {
                let (a, b) = match n.split_once('-') {
                    Some((a, b)) => (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?),
                    None => (n.parse::<u32>().ok()?, n.parse::<u32>().ok()?),
                };
                Some((a, b, name.trim().to_string()))
            });
            match parsed {
                Some((a, b, name)) if a <= b && (width >= 32 || b >> width == 0) && !name.is_empty() => {
                    values.push((a, b, name))
                }
                _ => c.err(&file, v.span().start, format!("bad value `{}`: expected `N NAME` or `N-M NAME` with N <= M fitting {width} bits", v.get_ref())),
            }
        }
        let row = c.row(fl, &file, &S::new(off..off, String::new()), g);
        fields.push(MsgFieldRow {
            row,
            hi,
            lo,
            values,
        });
    }
    let bf: Vec<BitField> = fields
        .iter()
        .map(|f| BitField {
            owner: f.row.v.message.get_ref(),
            dword: f.row.v.dword,
            hi: f.hi,
            lo: f.lo,
            gens: f.row.gens,
            line: f.row.line,
            id: f.row.v.id.get_ref(),
        })
        .collect();
    bitfields::check_cover(c, &file, np, &bf);
    // Every dword a message declares must have fields (the cover check sees only dwords with rows).
    for m in &msgs {
        for dw in 0..m.row.v.dwords {
            if !fields
                .iter()
                .any(|f| f.row.v.message.get_ref() == m.row.v.name.get_ref() && f.row.v.dword == dw)
            {
                c.err_line(
                    &file,
                    m.row.line,
                    format!(
                        "message `{}` dword {dw} has no field rows",
                        m.row.v.name.get_ref()
                    ),
                );
            }
        }
    }
    (msgs, fields)
}

pub(super) type PlatformMemory = (Vec<Row<L3Alloc>>, Vec<Row<Fact>>, Vec<Row<ProgrammingNote>>);

pub(super) fn load_platform_memory(c: &mut Ctx) -> PlatformMemory {
    let mut allocs = vec![];
    let mut facts = vec![];
    let mut notes = vec![];
    let Some((f, file)) = c.load::<PlatformMemoryFile>("platform_memory.toml", false) else {
        return (allocs, facts, notes);
    };
    let mut configs: BTreeMap<(String, bool, u32), usize> = BTreeMap::new();
    for a in f.l3_alloc {
        let a = a.into_inner();
        let g = c.common(&file, &a.id, &a.gens, &a.cite, &["l3."]);
        let off = a.id.span().start;
        let line = c.line(&file, off);
        match BANK_KB.iter().find(|(b, _)| b == a.bank.get_ref()) {
            None => c.one_of(&file, &a.bank, "bank", &["multi", "single"]),
            Some((_, kb)) if a.sum != *kb => c.err(
                &file,
                off,
                format!(
                    "sum {} KB is not the {} bank size {kb} KB",
                    a.sum,
                    a.bank.get_ref()
                ),
            ),
            Some(_) => {}
        }
        let parts = a.slm + a.urb + a.rest + a.dc + a.ro;
        if parts != a.sum {
            c.err(
                &file,
                off,
                format!(
                    "slm + urb + rest + dc + ro = {parts} KB, but sum = {} KB",
                    a.sum
                ),
            );
        }
        if a.slm_mode != (a.slm > 0) {
            c.err(
                &file,
                off,
                format!("slm_mode = {} but slm = {} KB", a.slm_mode, a.slm),
            );
        }
        if let Some(l0) = configs.insert((a.bank.get_ref().clone(), a.slm_mode, a.config), line) {
            c.err(
                &file,
                off,
                format!("config {} of this table is already at line {l0}", a.config),
            );
        }
        allocs.push(c.row(a, &file, &S::new(off..off, String::new()), g));
    }
    for x in f.fact {
        let x = x.into_inner();
        let g = c.common(
            &file,
            &x.id,
            &x.gens,
            &x.cite,
            &["mem.", "sampler.", "gateway.", "pool.", "csr."],
        );
        let off = x.id.span().start;
        c.one_of(
            &file,
            &x.unit,
            "unit",
            &["bytes", "kbytes", "count", "bits", "bit", "bool", "ways"],
        );
        if x.unit.get_ref() == "bool" && !matches!(*x.value.get_ref(), 0 | 1) {
            c.err(
                &file,
                x.value.span().start,
                format!("a bool fact is 0 or 1, found {}", x.value.get_ref()),
            );
        }
        if *x.value.get_ref() < 0 {
            c.err(
                &file,
                x.value.span().start,
                "a fact is a size, count or position: not negative",
            );
        }
        facts.push(c.row(x, &file, &S::new(off..off, String::new()), g));
    }
    for n in f.programming_note {
        let n = n.into_inner();
        let g = c.common(&file, &n.id, &n.gens, &n.cite, &["note."]);
        let off = n.id.span().start;
        c.one_of(
            &file,
            &n.subject,
            "subject",
            &["sampler", "media", "gpgpu", "barrier", "l3"],
        );
        if n.quote.get_ref().trim().is_empty() {
            c.err(
                &file,
                n.quote.span().start,
                "empty quote: a programming note quotes its seed",
            );
        }
        notes.push(c.row(n, &file, &S::new(off..off, String::new()), g));
    }
    (allocs, facts, notes)
}
