//! IGA's end-of-line comment on sends (`// wr:M[h]+X, rd:R; <sfid>; <message>`) against Intel's
//! IGA itself: every Gen8 / Gen9 send of the Mesa corpus, disassembled by `iga64 -d` and printed
//! by euref in IGA syntax, carries the same lengths and shared-function name; messages whose
//! IGA wording euref's rows give (spec/descriptors.toml `iga`) carry the same text. Opt-in:
//! skipped without iga64 (material::iga64) or the corpus.

use euref::asm::{self, Dialect, PrintOptions};
use euref::spec::Platform;

use crate::{codec_util, material, scratch_util::Scratch};

/// The message kinds whose whole IGA text euref reproduces (the rest: lengths and SFID only).
const WHOLE: [&str; 9] = [
    "untyped surface read",
    "untyped surface write",
    "untyped atomic",
    "byte gathering",
    "byte scattering",
    "dword gathering read",
    "fence",
    "signal barrier",
    "end of thread",
];

fn comment(line: &str) -> Option<&str> {
    line.split_once("//").map(|(_, c)| c.trim())
}

#[test]
fn send_comments_match_iga() {
    let (Some(_), Some(exe)) = (material::corpus(), material::iga64()) else {
        return;
    };
    let dir = Scratch::new("iga-send-comments");
    let (mut same_prefix, mut whole) = (0, 0);
    for (gen, p, plat) in [("gen8", Platform::Bdw, "8"), ("gen9", Platform::Skl, "9")] {
        for f in ["send", "sendc", "sends"] {
            let asm_path = codec_util::mesa_asm_dir()
                .join(gen)
                .join(format!("{f}.asm"));
            let Ok(text) = std::fs::read(&asm_path) else {
                continue;
            };
            let hex = std::fs::read_to_string(asm_path.with_extension("expected")).unwrap();
            let bytes: Vec<u8> = hex
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect();
            let bin = dir.join(&format!("{gen}-{f}.bin"));
            std::fs::write(&bin, &bytes).unwrap();
            let out = std::process::Command::new(&exe)
                .args(["-d", &format!("-p={plat}")])
                .arg(&bin)
                .output()
                .unwrap();
            let iga = String::from_utf8_lossy(&out.stdout);
            let theirs: Vec<&str> = iga
                .lines()
                .filter(|l| !l.trim_end().ends_with(':'))
                .collect();
            let prog = asm::parse(&text, Some(Dialect::Mesa), p).unwrap();
            assert_eq!(
                theirs.len(),
                prog.insns.len(),
                "{gen}/{f}: one IGA line per word"
            );
            let o = PrintOptions {
                dialect: Dialect::Iga,
                platform: p,
            };
            for (k, insn) in prog.insns.iter().enumerate() {
                let ours = asm::print_insn(insn, &o);
                let Some(want) = comment(theirs[k]).filter(|c| !c.contains("a0.")) else {
                    continue;
                };
                let got = comment(&ours)
                    .unwrap_or_else(|| panic!("{gen}/{f} #{k}: no comment in `{ours}`"));
                let prefix = |c: &str| c.splitn(3, "; ").take(2).collect::<Vec<_>>().join("; ");
                assert_eq!(prefix(got), prefix(want), "{gen}/{f} #{k}: `{ours}`");
                same_prefix += 1;
                if WHOLE.iter().any(|w| want.contains(w)) {
                    assert_eq!(got, want, "{gen}/{f} #{k}");
                    whole += 1;
                }
            }
        }
    }
    assert!(
        same_prefix > 3000 && whole > 50,
        "{same_prefix} prefixes, {whole} whole texts"
    );
    eprintln!("{same_prefix} send comments agree with IGA's lengths and SFID, {whole} in full");
}
