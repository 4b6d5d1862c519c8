//! Pre-rendered text pieces of the IGA line printer: opcode names, `:type` suffixes, register
//! names, small decimals, regions and the execution-size group, each a [`Tok`] (up to 16
//! bytes and a length) that the printer writes with one 16-byte store. The tables are built
//! once, from the same naming functions the general printer uses (opcode names from the spec,
//! [`names::type_lower`], the general printer's register names), so no spelling is restated.

use super::names;
use crate::isa::Reg;
use crate::spec::{DataType, Opcode};
use std::fmt::Write;
use std::sync::OnceLock;

/// A piece of text of at most 16 bytes (the bytes after `n` are zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tok {
    pub b: [u8; 16],
    pub n: u8,
}

impl Tok {
    /// The first 16 bytes of `s` (callers check [`Tok::fits`]).
    pub const fn new(s: &str) -> Tok {
        let s = s.as_bytes();
        let mut b = [0u8; 16];
        let mut k = 0;
        while k < s.len() && k < 16 {
            b[k] = s[k];
            k += 1;
        }
        Tok { b, n: k as u8 }
    }

    /// Whether `s` fits a token.
    pub const fn fits(s: &str) -> bool {
        s.len() <= 16
    }
}

/// Values 0 and the powers of two up to 32 (strides, widths, execution sizes) as 0..=6.
#[inline(always)]
pub(crate) fn pow2_code(x: u8) -> Option<usize> {
    match x {
        0 => Some(0),
        1 | 2 | 4 | 8 | 16 | 32 => Some(x.trailing_zeros() as usize + 1),
        _ => None,
    }
}

/// The value of code `c` of [`pow2_code`].
fn pow2_value(c: usize) -> u32 {
    if c == 0 {
        0
    } else {
        1 << (c - 1)
    }
}

/// Number of [`pow2_code`] codes.
pub(crate) const CODES: usize = 7;

/// The tables.
pub(crate) struct Toks {
    /// Every entry fit in 16 bytes (otherwise the general printer is used).
    pub ok: bool,
    /// Opcode names, by `Opcode as usize`.
    pub op: [Tok; 256],
    /// `:type`, by `DataType as usize`.
    pub ty: [Tok; 256],
    /// GRF names `rN`.
    pub grf: [Tok; 256],
    /// ARF names by RegNum (`null`, `acc1`, `f0`, `arf0x50`, ...).
    pub arf: [Tok; 256],
    /// Decimal 0-255.
    pub dec: [Tok; 256],
    /// `.N`, N decimal 0-255.
    pub dot_dec: [Tok; 256],
    /// Align1 regions `<v;w,h>` by the codes of v, w, h.
    pub region: [Tok; CODES * CODES * CODES],
    /// `<h>` by the code of h.
    pub stride: [Tok; CODES],
    /// ` (e|Mc)` by the code of e and c / 4 (c < 32).
    pub exec: [Tok; CODES * 8],
    /// `fR.S` by R * 4 + S (R, S < 4).
    pub flag: [Tok; 16],
}

/// The tables (built on first use).
#[inline]
pub(crate) fn toks() -> &'static Toks {
    static T: OnceLock<Box<Toks>> = OnceLock::new();
    T.get_or_init(build)
}

fn build() -> Box<Toks> {
    let z = Tok::new("");
    let mut t = Box::new(Toks {
        ok: true,
        op: [z; 256],
        ty: [z; 256],
        grf: [z; 256],
        arf: [z; 256],
        dec: [z; 256],
        dot_dec: [z; 256],
        region: [z; CODES * CODES * CODES],
        stride: [z; CODES],
        exec: [z; CODES * 8],
        flag: [z; 16],
    });
    let mut ok = true;
    let mut tok = |s: &str| {
        ok &= Tok::fits(s);
        Tok::new(s)
    };
    for op in Opcode::ALL {
        t.op[op as usize] = tok(op.name());
    }
    for ty in DataType::ALL {
        t.ty[ty as usize] = tok(&format!(":{}", names::type_lower(ty)));
    }
    for n in 0..=255u8 {
        let k = usize::from(n);
        let mut s = String::new();
        super::reg_name(&mut s, Reg::Grf(n), false);
        t.grf[k] = tok(&s);
        s.clear();
        super::reg_name(&mut s, Reg::Arf(n), false);
        t.arf[k] = tok(&s);
        t.dec[k] = tok(&n.to_string());
        t.dot_dec[k] = tok(&format!(".{n}"));
    }
    let mut s = String::new();
    for v in 0..CODES {
        for w in 0..CODES {
            for h in 0..CODES {
                s.clear();
                let (v, w, h) = (pow2_value(v), pow2_value(w), pow2_value(h));
                let _ = write!(s, "<{v};{w},{h}>");
                t.region[region_index(v as usize, w as usize, h as usize)] = tok(&s);
            }
        }
        t.stride[v] = tok(&format!("<{}>", pow2_value(v)));
        for c in 0..8 {
            t.exec[v * 8 + c] = tok(&format!(" ({}|M{})", pow2_value(v), c * 4));
        }
    }
    for r in 0..4 {
        for sub in 0..4 {
            t.flag[r * 4 + sub] = tok(&format!("f{r}.{sub}"));
        }
    }
    t.ok = ok;
    t
}

/// Index into [`Toks::region`] of the region `<v;w,h>` given by values (not codes); callers
/// pass values whose codes exist.
fn region_index(v: usize, w: usize, h: usize) -> usize {
    let c = |x: usize| pow2_code(x as u8).unwrap_or(0);
    (c(v) * CODES + c(w)) * CODES + c(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_hold_the_general_spellings() {
        let t = toks();
        assert!(t.ok);
        let text = |k: &Tok| String::from_utf8(k.b[..usize::from(k.n)].to_vec()).unwrap();
        assert_eq!(text(&t.op[Opcode::Mov as usize]), "mov");
        assert_eq!(text(&t.ty[DataType::UD as usize]), ":ud");
        assert_eq!(text(&t.grf[127]), "r127");
        assert_eq!(text(&t.arf[0x21]), "acc1");
        assert_eq!(text(&t.arf[0x00]), "null");
        assert_eq!(text(&t.dec[200]), "200");
        assert_eq!(text(&t.dot_dec[7]), ".7");
        assert_eq!(text(&t.region[region_index(8, 8, 1)]), "<8;8,1>");
        assert_eq!(text(&t.region[region_index(0, 1, 0)]), "<0;1,0>");
        assert_eq!(text(&t.region[region_index(32, 16, 4)]), "<32;16,4>");
        assert_eq!(text(&t.stride[pow2_code(2).unwrap()]), "<2>");
        assert_eq!(text(&t.exec[pow2_code(16).unwrap() * 8 + 3]), " (16|M12)");
        assert_eq!(text(&t.flag[5]), "f1.1");
        assert_eq!(pow2_code(3), None);
        assert_eq!(pow2_code(64), None);
    }
}
