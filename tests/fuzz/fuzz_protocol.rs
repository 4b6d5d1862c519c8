//! Protocol lines, both ways.
//! - Requests into `euref sim` ([`Simulator::handle`]): mutations of every generated vector's
//!   request. Each line gets exactly one response line, which is a JSON response; a request
//!   that serde reads as a [`Request`] gets the answer [`sim::execute`] gives (the fast
//!   readers never read a request otherwise than its definition does).
//! - Responses into the checker ([`check::judge`]): mutations of the responses `euref sim`
//!   gives. Judging never panics and never fails; a response that is not one is `garbage`.

use crate::mutate::{self, no_panic, Index, Rng};
use crate::seeds;
use euref::conformance::check::judge;
use euref::conformance::compare::Outcome;
use euref::conformance::protocol::{Request, Response};
use euref::conformance::sim::{self, Simulator};
use euref::conformance::view::VectorView;

fn request(sim: &mut Simulator, input: &[u8]) -> Result<(), String> {
    let mut out = Vec::new();
    no_panic("Simulator::handle", input, || sim.handle(input, &mut out));
    let Some(body) = out.strip_suffix(b"\n") else {
        return Err(format!("the response does not end its line: {out:?}"));
    };
    if body.contains(&b'\n') {
        return Err("the response is more than one line".into());
    }
    let text = std::str::from_utf8(body).map_err(|e| format!("response not UTF-8: {e}"))?;
    let resp: Response =
        serde_json::from_str(text).map_err(|e| format!("response not JSON ({e}): {text}"))?;
    let defined = std::str::from_utf8(input)
        .ok()
        .and_then(|t| serde_json::from_str::<Request>(t).ok());
    match defined {
        Some(req) => {
            let want = sim::execute(&req, None);
            // (Of a request with several faults, either reader may name another first.)
            let both_errors = resp.error.is_some() && want.error.is_some() && resp.id == want.id;
            if resp != want && !both_errors {
                return Err(format!(
                    "the answer differs from sim::execute's:\n got  {text}\n want {}",
                    want.to_line()
                ));
            }
        }
        None if resp.error.is_none() => {
            return Err(format!("a line that is no request was answered: {text}"))
        }
        None => {}
    }
    Ok(())
}

fn run_requests(iters: u64, seed: u64) {
    let lines: Vec<Vec<u8>> = seeds::vectors()
        .iter()
        .map(|v| Request::from_vector(v).to_line().into_bytes())
        .collect();
    let mut r = Rng(seed);
    let mut sim = Simulator::new(None);
    for k in 0..iters {
        let mut input = mutate::mutate(&mut r, &lines, 3);
        // (One request line: the line end is the protocol's, not the request's.)
        input.retain(|&b| b != b'\n');
        if input.trim_ascii().is_empty() {
            continue;
        }
        if let Err(e) = request(&mut sim, &input) {
            panic!(
                "request {k} (seed {seed}): {e}\ninput: b\"{}\"",
                mutate::show(&input)
            );
        }
    }
}

fn run_responses(iters: u64, seed: u64) {
    let vectors = seeds::vectors();
    let answers: Vec<Vec<u8>> = vectors
        .iter()
        .map(|v| {
            sim::execute(&Request::from_vector(v), None)
                .to_line()
                .into_bytes()
        })
        .collect();
    let mut r = Rng(seed);
    let mut garbage = 0;
    for k in 0..iters {
        let i = r.index(vectors.len());
        let v = VectorView::from_vector(&vectors[i]);
        // Mutate this vector's own answer most of the time, another's sometimes.
        let input = if r.index(4) > 0 {
            mutate::mutate(&mut r, std::slice::from_ref(&answers[i]), 2)
        } else {
            mutate::mutate(&mut r, &answers, 3)
        };
        let o = no_panic("check::judge", &input, || {
            judge(&v, &input, || Ok(VectorView::from_vector(&vectors[i])))
        });
        match o {
            Ok(Outcome::Garbage { .. }) => garbage += 1,
            Ok(_) => {}
            Err(e) => panic!(
                "response {k} (seed {seed}) to {}: judge failed: {e}\ninput: b\"{}\"",
                vectors[i].id,
                mutate::show(&input)
            ),
        }
    }
    eprintln!("responses: {iters} judged, {garbage} garbage");
}

#[test]
fn mutated_requests() {
    run_requests(3_000, 0x5e9_0e57);
}

#[test]
fn mutated_responses() {
    run_responses(3_000, 0x5e5_90e5);
}

/// The long runs (tests/fuzz/main.rs).
#[test]
#[ignore]
fn long_mutated_requests() {
    run_requests(mutate::long_iters(1_000_000), mutate::long_seed(0x5e9_0e57));
}

#[test]
#[ignore]
fn long_mutated_responses() {
    run_responses(mutate::long_iters(1_000_000), mutate::long_seed(0x5e5_90e5));
}
