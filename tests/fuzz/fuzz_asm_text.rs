//! Assembly text: random mutations of real programs and of every generated vector's
//! instruction, parsed in each syntax and with detection. Parsing never panics; an error names
//! a line and column inside the text and a message fit for a terminal; a program that parses
//! prints (in its syntax) to text that parses again to the same instructions.

use crate::mutate::{self, fit_for_terminal, no_panic, Index, Rng};
use crate::seeds;
use euref::asm::{self, Dialect, PrintOptions};
use euref::spec::Platform;

fn one(input: &[u8], r: &mut Rng) -> Result<bool, String> {
    let p = Platform::ALL[r.index(Platform::ALL.len())];
    let dialect = [
        None,
        Some(Dialect::Iga),
        Some(Dialect::Prm),
        Some(Dialect::Mesa),
    ][r.index(4)];
    let parsed = no_panic("asm::parse", input, || asm::parse(input, dialect, p));
    let prog = match parsed {
        Err(e) => {
            let lines = input.split(|&b| b == b'\n').count() as u32;
            if e.line == 0 || e.line > lines.max(1) {
                return Err(format!("error line {} outside 1..={lines}: {e}", e.line));
            }
            let len = asm::line_of(input, e.line).len() as u32;
            if e.col == 0 || e.col > len + 1 {
                return Err(format!(
                    "error column {} outside 1..={}: {e}",
                    e.col,
                    len + 1
                ));
            }
            fit_for_terminal(&e.to_string())?;
            return Ok(false);
        }
        Ok(prog) => prog,
    };
    let o = PrintOptions {
        dialect: dialect.unwrap_or_else(|| asm::detect_dialect(input)),
        platform: p,
    };
    let text = no_panic("asm::print_program", input, || {
        asm::print_program(&prog.insns, &o)
    });
    let again = asm::parse(text.as_bytes(), Some(o.dialect), p)
        .map_err(|e| format!("printed text does not parse back: {e}\n{text}"))?;
    if again.insns != prog.insns {
        return Err(format!(
            "printed text parses to other instructions:\n{text}"
        ));
    }
    Ok(true)
}

fn run(iters: u64, seed: u64) {
    let seeds = seeds::asm_texts();
    let mut r = Rng(seed);
    let mut parsed = 0;
    for k in 0..iters {
        let input = mutate::mutate(&mut r, &seeds, 2);
        match one(&input, &mut r) {
            Ok(ok) => parsed += u64::from(ok),
            Err(e) => panic!(
                "input {k} (seed {seed}): {e}\ninput: b\"{}\"",
                mutate::show(&input)
            ),
        }
    }
    eprintln!("asm text: {iters} inputs, {parsed} parsed");
}

#[test]
fn mutated_assembly_text() {
    run(3_000, 0x5eed_a5a5);
}

/// The long run (tests/fuzz/main.rs).
#[test]
#[ignore]
fn long_mutated_assembly_text() {
    run(
        mutate::long_iters(1_000_000),
        mutate::long_seed(0x5eed_a5a5),
    );
}
