//! Thread states as JSON (`euref run --state`): random mutations of states in every value
//! form. Loading never panics; an error names a JSON path (`$...`) and is fit for a terminal;
//! a state that loads saves to JSON that loads to the same state (`save` is canonical, so the
//! second save equals the first).

use crate::mutate::{self, fit_for_terminal, no_panic, Index, Rng};
use crate::seeds;
use euref::state::json;

fn one(p: euref::spec::Platform, input: &[u8]) -> Result<bool, String> {
    // (`--state` reads the file as UTF-8 first; a file that is not is refused before JSON.)
    let Ok(text) = std::str::from_utf8(input) else {
        return Ok(false);
    };
    let st = match no_panic("state::json::load", input, || json::load(p, text)) {
        Err(e) => {
            if !e.path.starts_with('$') {
                return Err(format!("error without a JSON path: {e}"));
            }
            fit_for_terminal(&e.to_string())?;
            return Ok(false);
        }
        Ok(st) => st,
    };
    let saved = no_panic("state::json::save", input, || json::save(&st));
    let again = json::load(p, &saved).map_err(|e| format!("saved state does not load: {e}"))?;
    let saved_again = json::save(&again);
    if saved_again != saved {
        return Err(format!(
            "save(load(save(s))) differs from save(s):\n{saved}\n{saved_again}"
        ));
    }
    Ok(true)
}

fn run(iters: u64, seed: u64) {
    let states = seeds::state_texts();
    let texts: Vec<Vec<u8>> = states.iter().map(|(_, t)| t.clone()).collect();
    let mut r = Rng(seed);
    let mut loaded = 0;
    for k in 0..iters {
        let p = states[r.index(states.len())].0;
        let input = mutate::mutate(&mut r, &texts, 4);
        match one(p, &input) {
            Ok(ok) => loaded += u64::from(ok),
            Err(e) => panic!(
                "input {k} (seed {seed}, {p:?}): {e}\ninput: b\"{}\"",
                mutate::show(&input)
            ),
        }
    }
    eprintln!("state JSON: {iters} inputs, {loaded} loaded");
}

#[test]
fn mutated_state_json() {
    run(3_000, 0x57a7_e5ee);
}

/// The long run (tests/fuzz/main.rs).
#[test]
#[ignore]
fn long_mutated_state_json() {
    run(
        mutate::long_iters(1_000_000),
        mutate::long_seed(0x57a7_e5ee),
    );
}
