//! The trace line of one executed instruction (`euref run --trace`, and per thread in
//! `euref run --dispatch --trace`): its IP, the channels that executed it, its text, the
//! registers it wrote and the exception it took (or the return from the System Routine); a
//! JSON object with `--json` (docs/run.md).

use super::exception::Event;
use super::Step;
use crate::state::ThreadState;
use serde_json::json;

/// The registers a step wrote: GRF registers (`r10`, `r10-r11`) and ARF registers by name.
pub fn written_regs(st: &ThreadState, step: &Step) -> Vec<String> {
    let Some(info) = &step.info else {
        // A branch: what the runner wrote itself (call's return address).
        let size = st.grf_reg_bytes().max(1);
        return match &step.runner_grf {
            Some(b) if !b.is_empty() => {
                let (first, last) = (b.start / size, (b.end - 1) / size);
                if first == last {
                    vec![format!("r{first}")]
                } else {
                    vec![format!("r{first}-r{last}")]
                }
            }
            _ => vec![],
        };
    };
    let w = &info.written;
    let mut out = vec![];
    let g = w.grf_regs(st.grf_reg_bytes());
    if g.len() == 1 {
        out.push(format!("r{}", g.start));
    } else if !g.is_empty() {
        out.push(format!("r{}-r{}", g.start, g.end - 1));
    }
    for r in &st.arf_layout().regs {
        if w.arf_overlaps(r.base, r.base + r.bytes) {
            out.push(r.name.clone());
        }
    }
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
