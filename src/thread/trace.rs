//! The trace line of one executed instruction (`euref run --trace`, and per thread in
//! `euref run --dispatch --trace`): its IP, the channels that executed it, its text, the
//! registers it wrote and the exception it took (or the return from the System Routine); a
//! JSON object with `--json` (docs/run.md).

use super::exception::Event;
use super::Step;
use crate::state::named::{self, RegRef};
use crate::state::ThreadState;
use serde_json::json;

/// The registers a step wrote (every byte it may have changed lies in them): GRF registers in
/// order, then ARF registers in layout order. A branch lists what the runner wrote itself
/// (call's return address).
pub fn written(st: &ThreadState, step: &Step) -> Vec<RegRef> {
    let size = st.grf_reg_bytes().max(1);
    let (grf, arf) = match &step.info {
        Some(info) => (info.written.grf_regs(size), Some(info.written)),
        None => match &step.runner_grf {
            Some(b) if !b.is_empty() => (b.start / size..(b.end - 1) / size + 1, None),
            _ => (0..0, None),
        },
    };
    let mut out: Vec<RegRef> = grf.map(RegRef::Grf).collect();
    if let Some(w) = arf {
        for (i, r) in st.arf_layout().regs.iter().enumerate() {
            if w.arf_overlaps(r.base, r.base + r.bytes) {
                out.push(RegRef::Arf(i));
            }
        }
    }
    out
}

/// The registers a step wrote by name: GRF registers (`r10`, `r10-r11`) and ARF registers.
pub fn written_regs(st: &ThreadState, step: &Step) -> Vec<String> {
    let regs = written(st, step);
    let grf: Vec<usize> = regs
        .iter()
        .filter_map(|r| match r {
            RegRef::Grf(n) => Some(*n),
            RegRef::Arf(_) => None,
        })
        .collect();
    let mut out = match (grf.first(), grf.last()) {
        (Some(a), Some(b)) if a == b => vec![format!("r{a}")],
        (Some(a), Some(b)) => vec![format!("r{a}-r{b}")],
        _ => vec![],
    };
    out.extend(
        regs.iter()
            .filter(|r| matches!(r, RegRef::Arf(_)))
            .map(|r| named::name_of(st, *r)),
    );
    out
}

/// One trace line (without the line end): text, or a JSON object when `json`.
pub fn line(n: u64, step: &Step, text: &str, wrote: &[String], json: bool) -> String {
    if json {
        let mut v = json!({
            "step": n,
            "ip": step.ip,
            "channels": format!("{:#010x}", step.enabled),
            "insn": text,
            "wrote": wrote,
            "next_ip": step.next_ip,
        });
        if let Some(e) = step.exception {
            v["exception"] = match e {
                Event::Entered { kind, aip, sip } => {
                    json!({ "kind": kind.name(), "aip": aip, "sip": sip })
                }
                Event::Returned { aip } => json!({ "return": aip }),
            };
        }
        v.to_string()
    } else {
        let wrote = if wrote.is_empty() {
            String::new()
        } else {
            format!("  -> {}", wrote.join(" "))
        };
        let exc = match step.exception {
            None => String::new(),
            Some(Event::Entered { kind, aip, sip }) => {
                format!(
                    "  => {} exception: AIP {aip:#06x}, IP = SIP {sip:#06x}",
                    kind.name()
                )
            }
            Some(Event::Returned { aip }) => format!("  => return to AIP {aip:#06x}"),
        };
        format!(
            "{n:>6}  ip {:#06x}  ch {:#010x}  {text}{wrote}{exc}",
            step.ip, step.enabled
        )
    }
}
