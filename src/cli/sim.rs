//! `euref sim`: the reference model as a simulator speaking conformance/PROTOCOL.md.

use super::output;
use euref::conformance::inject::Fault;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Plant a fault (to prove the checker catches it): no-denorm-flush, cmpn-nan-swap,
    /// region-off-by-one, no-sat, ignore-predication, flag-swap, sel-sets-flags, error-all;
    /// in program requests only: add-imm-off-by-one (an `add` with a D or UD immediate adds
    /// one more), join-early (a goto's waiting channels rejoin at the instruction after the
    /// goto), break-all (a break disables every channel on it), scatter-nomask (a scattered
    /// or untyped write writes every channel of its execution size). Program requests
    /// (`"kind": "program"`) are run on the thread runner.
    #[arg(long)]
    pub inject: Option<String>,
    /// Ignore the `trace` of program requests: answer without a per-instruction trace, as a
    /// simulator that gives none (euref check then localizes by bisection).
    #[arg(long)]
    pub no_trace: bool,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let fault = a.inject.as_deref().map(Fault::parse).transpose()?;
    let stdin = std::io::stdin();
    let mut input = std::io::BufReader::with_capacity(1 << 18, stdin.lock());
    // (`serve` gathers whole response lines and writes them at once: no further buffer,
    // which would copy them again.)
    let mut out = output::Named::new(std::io::stdout().lock(), output::STDOUT);
    let mut sim = euref::conformance::sim::Simulator::new(fault);
    if a.no_trace {
        sim = sim.without_traces();
    }
    match euref::conformance::sim::serve_with(&mut input, &mut out, sim) {
        Ok(()) => output::finish(out, Ok(())).map(|_| ExitCode::SUCCESS),
        // The checker went away: not an error of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) if output::write_error(&e).is_some() => Err(output::describe(&e, output::STDOUT)),
        Err(e) => Err(format!("sim: {e}")),
    }
}
