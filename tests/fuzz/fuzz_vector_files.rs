//! Vector files as `euref check` reads them ([`read_ahead`]): a few generated vector lines,
//! mutated as a whole (so lines are joined, split, duplicated and cut). Reading never panics
//! and never gives up on the file: every line that is not blank becomes a vector or a bad line
//! naming its line number (issue 26: one bad line must not sink a run, non-UTF-8 included);
//! a line read as a vector is one serde reads as a [`Vector`], and its request is the one
//! [`Request::from_vector`] makes of it.

use crate::mutate::{self, fit_for_terminal, no_panic, Index, Rng};
use crate::seeds;
use euref::conformance::protocol::Request;
use euref::conformance::read_ahead::{self, Item};
use euref::conformance::selection::Selection;
use euref::vector::Vector;
use std::sync::Arc;

fn one(input: Vec<u8>) -> Result<(usize, usize), String> {
    let lines = input.split(|&b| b == b'\n').count();
    let solid = input
        .split(|&b| b == b'\n')
        .filter(|l| !l.trim_ascii().is_empty())
        .count();
    let (mut ahead, reader) =
        read_ahead::start(std::io::Cursor::new(input), Arc::new(Selection::default()));
    let (mut batch, mut spare) = (Vec::new(), Vec::new());
    let (mut vectors, mut bad) = (0, 0);
    loop {
        let before = batch.len();
        match ahead.next(&mut batch, &mut spare) {
            Ok(None) => break,
            Err(e) => return Err(format!("reading stopped: {e}")),
            Ok(Some(Item::Bad(_, n, msg))) => {
                if n == 0 || n > lines {
                    return Err(format!("bad line number {n} of {lines}: {msg}"));
                }
                fit_for_terminal(&msg)?;
                bad += 1;
            }
            Ok(Some(Item::Vector(line, _))) => {
                let v: Vector = serde_json::from_str(&line)
                    .map_err(|e| format!("read as a vector, but serde refuses it ({e}): {line}"))?;
                let mut got: Request = serde_json::from_slice(&batch[before..])
                    .map_err(|e| format!("request is not one: {e}"))?;
                let mut want = Request::from_vector(&v);
                // (The registers to report are a set: the order they are listed in is free.)
                got.report.sort();
                want.report.sort();
                let (got, want) = (got.to_line(), want.to_line());
                if got != want {
                    return Err(format!("request {got} differs from the vector's {want}"));
                }
                vectors += 1;
            }
        }
    }
    drop(ahead);
    reader
        .join()
        .map_err(|_| "the reader thread panicked".to_string())?;
    if vectors + bad != solid {
        return Err(format!(
            "{solid} lines, but {vectors} vectors and {bad} bad lines"
        ));
    }
    Ok((vectors, bad))
}

fn run(iters: u64, seed: u64) {
    let lines = seeds::vector_lines();
    let mut r = Rng(seed);
    let (mut vectors, mut bad) = (0, 0);
    for k in 0..iters {
        let files: Vec<Vec<u8>> = (0..4)
            .map(|_| {
                let n = 1 + r.index(6);
                let mut f = Vec::new();
                for _ in 0..n {
                    f.extend_from_slice(&lines[r.index(lines.len())]);
                    f.push(b'\n');
                }
                f
            })
            .collect();
        let input = mutate::mutate(&mut r, &files, 4);
        let shown = mutate::show(&input);
        match no_panic("read_ahead", &input.clone(), || one(input)) {
            Ok((v, b)) => {
                vectors += v;
                bad += b;
            }
            Err(e) => panic!("file {k} (seed {seed}): {e}\ninput: b\"{shown}\""),
        }
    }
    eprintln!("vector files: {iters} files, {vectors} vectors, {bad} bad lines");
}

#[test]
fn mutated_vector_files() {
    run(500, 0xf11e_5eed);
}

/// The long run (tests/fuzz/main.rs).
#[test]
#[ignore]
fn long_mutated_vector_files() {
    run(mutate::long_iters(100_000), mutate::long_seed(0xf11e_5eed));
}
