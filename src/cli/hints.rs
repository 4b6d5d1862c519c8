//! Notes added to an error when the input looks like it was read with the wrong option: text
//! in another assembly syntax than `--syntax` says, instruction bytes of another platform than
//! `--gen` says.

use euref::asm::{self, Dialect};
use euref::codec;
use euref::encoding::{compact_word, is_compact};
use euref::isa::Insn;
use euref::spec::{Opcode, Platform};

/// Bytes at the start of an instruction stream that [`platform_hint`] decodes on the other
/// platforms (4 096 native instructions).
pub const SAMPLE: usize = 64 * 1024;

fn title(d: Dialect) -> &'static str {
    match d {
        Dialect::Iga => "IGA",
        Dialect::Prm => "PRM",
        Dialect::Mesa => "Mesa",
    }
}

/// For text that failed to parse with `--syntax given`: a note when the text shows the signs
/// of another syntax ([`asm::looks_like`], what the detection without `--syntax` looks for).
pub fn syntax_hint(text: &[u8], given: Dialect) -> Option<String> {
    let seen = asm::looks_like(text)?;
    (seen != given).then(|| {
        format!(
            "hint: the text looks like {} syntax, not {}: try `--syntax {seen}` (or leave \
             --syntax out to detect the syntax)",
            title(seen),
            title(given)
        )
    })
}

/// Whole instructions of `bytes` that decode on `p`, and those that do not.
fn decode_counts(bytes: &[u8], p: Platform) -> (u64, u64) {
    let (mut ok, mut bad) = (0, 0);
    let mut i = Insn::new(Opcode::Nop);
    let mut pos = 0;
    while let Some(first) = bytes.get(pos..).and_then(|b| b.first_chunk::<8>()) {
        let len = if is_compact(compact_word(first)) {
            8
        } else {
            16
        };
        let Some(b) = bytes.get(pos..pos + len) else {
            break;
        };
        match codec::decode_into(b, p, &mut i) {
            Ok(_) => ok += 1,
            Err(_) => bad += 1,
        }
        pos += len;
    }
    (ok, bad)
}

/// Whether so many instructions failed to decode that the platform may be the wrong one: more
/// than a quarter of them (so also any, when all failed).
pub fn many_failed(decoded: u64, failed: u64) -> bool {
    failed > 0 && failed.saturating_mul(4) > decoded.saturating_add(failed)
}

/// For an instruction stream of which `failed` of `decoded + failed` instructions did not
/// decode on `p`: which other platforms decode `sample` (the start of the stream) without an
/// error, or, when none does, a suggestion to check `--gen` and the input. None when few
/// failed ([`many_failed`]).
pub fn platform_hint(sample: &[u8], p: Platform, decoded: u64, failed: u64) -> Option<String> {
    if !many_failed(decoded, failed) {
        return None;
    }
    let total = decoded + failed;
    let (ok_here, bad_here) = decode_counts(sample, p);
    let n = ok_here + bad_here;
    let clean: Vec<&str> = Platform::ALL
        .iter()
        .filter(|&&q| q != p)
        .filter(|&&q| matches!(decode_counts(sample, q), (ok, 0) if ok > 0))
        .map(|q| q.name())
        .collect();
    let what = if n == total {
        String::from("they all")
    } else {
        format!("the first {n} instructions")
    };
    Some(match clean.first() {
        Some(first) => format!(
            "hint: {failed} of {total} instructions do not decode as {p}, but {what} decode \
             without an error as {}: is the code for another platform? Try `--gen {first}`",
            clean.join(", "),
            p = p.name()
        ),
        None => format!(
            "hint: {failed} of {total} instructions do not decode as {p}, and no other platform \
             decodes {what} without an error: check `--gen` ({}) and that the input is \
             instruction bytes (`--input hex` or `--input bin`)",
            Platform::ALL.map(|q| q.name()).join(", "),
            p = p.name()
        ),
    })
}
