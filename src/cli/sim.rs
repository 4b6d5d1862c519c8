//! `euref sim`: the reference model as a simulator speaking conformance/PROTOCOL.md.

use super::output;
use euref::conformance::inject::Fault;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Plant a fault (to prove the checker catches it): no-denorm-flush, cmpn-nan-swap,
    /// region-off-by-one, no-sat, ignore-predication, flag-swap, sel-sets-flags, error-all;
    /// in program requests only: add-imm-off-by-one (an `add` with a D or UD immediate adds
    /// one more). Program requests (`"kind": "program"`) are run on the thread runner.
    #[arg(long)]
    pub inject: Option<String>,
}

pub fn run(a: Args) -> Result<ExitCode, String> {
    let fault = a.inject.as_deref().map(Fault::parse).transpose()?;
    let stdin = std::io::stdin();
    let mut input = std::io::BufReader::with_capacity(1 << 18, stdin.lock());
    // (`serve` gathers whole response lines and writes them at once: no further buffer,
    // which would copy them again.)
    let mut out = output::Named::new(std::io::stdout().lock(), output::STDOUT);
    match euref::conformance::sim::serve(&mut input, &mut out, fault) {
        Ok(()) => output::finish(out, Ok(())).map(|_| ExitCode::SUCCESS),
        // The checker went away: not an error of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) if output::write_error(&e).is_some() => Err(output::describe(&e, output::STDOUT)),
        Err(e) => Err(format!("sim: {e}")),
    }
}
