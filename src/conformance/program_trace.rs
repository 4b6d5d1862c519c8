//! Comparing a simulator's per-instruction trace of a program with euref's
//! (conformance/PROTOCOL.md "Program requests", `trace`): where they first diverge, and
//! which instruction that names.
//!
//! Both traces are replayed from the same initial state (the reported registers and the
//! surface, as euref's run reports them before any step): each entry's `wrote` and `surface`
//! changes are applied to its side, and after each step the two states are compared on the
//! bytes euref defines and knows exactly (its `xx` bytes and inexact marks are not compared).
//! The instruction of step k is named when the state after it differs; when instead the IP
//! or the channels on the instruction of step k differ (or one trace ends first), the control
//! it was handed came from step k-1, which is named (a branch that moved channels wrongly).

use super::program_protocol::{ProgramResponse, SurfaceRun, TraceEntry};
use std::collections::BTreeMap;

/// Where two traces diverge (indices into the traces: entry i is step i+1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Divergence {
    /// The entry of the instruction named (`None`: the first instruction's IP or channels
    /// differ, so the initial states do).
    pub blamed: Option<usize>,
    /// The first entry after which the replayed states differ, if any.
    pub state: Option<usize>,
}

/// One side's replayed state: register hex by name, inexact masks, surface and SLM bytes.
#[derive(Debug, Clone, Default)]
struct Replay {
    regs: BTreeMap<String, String>,
    inexact: BTreeMap<String, String>,
    surface: Vec<Option<u8>>,
    slm: Vec<Option<u8>>,
}

/// Apply the byte runs `runs` to `bytes`.
fn apply_runs(bytes: &mut Vec<Option<u8>>, runs: &[SurfaceRun]) {
    for run in runs {
        for (i, b) in bytes_of(&run.bytes).into_iter().enumerate() {
            let Some(at) = usize::try_from(run.offset)
                .ok()
                .and_then(|o| o.checked_add(i))
            else {
                continue;
            };
            // (A simulator's offset beyond any memory the program has is not followed.)
            if at >= MAX_REPLAY_BYTES {
                continue;
            }
            if at >= bytes.len() {
                bytes.resize(at + 1, None);
            }
            bytes[at] = b;
        }
    }
}

/// The largest byte offset a replayed trace's run may reach (the surface and the SLM of a
/// program vector are a few hundred bytes).
const MAX_REPLAY_BYTES: usize = 1 << 20;

/// Hex with `xx` as `None` bytes.
fn bytes_of(hex: &str) -> Vec<Option<u8>> {
    (0..hex.len() / 2)
        .map(|i| {
            hex.get(2 * i..2 * i + 2)
                .and_then(|b| u8::from_str_radix(b, 16).ok())
        })
        .collect()
}

impl Replay {
    fn start(r: &ProgramResponse) -> Replay {
        Replay {
            regs: r.fin.clone(),
            inexact: r.inexact.clone(),
            surface: r.surface.as_deref().map(bytes_of).unwrap_or_default(),
            slm: r.slm.as_deref().map(bytes_of).unwrap_or_default(),
        }
    }

    fn apply(&mut self, e: &TraceEntry) {
        for (name, hex) in &e.wrote {
            self.regs.insert(name.clone(), hex.clone());
            match e.inexact.get(name) {
                Some(m) => self.inexact.insert(name.clone(), m.clone()),
                None => self.inexact.remove(name),
            };
        }
        apply_runs(&mut self.surface, &e.surface);
        apply_runs(&mut self.slm, &e.slm);
    }

    /// Whether `theirs` differs from this (euref's) state on a byte this state defines and
    /// knows exactly.
    fn differs(&self, theirs: &Replay) -> bool {
        let bytes_differ = |ours: &[Option<u8>], theirs: &[Option<u8>], mask: &[Option<u8>]| {
            ours.iter().enumerate().any(|(i, o)| {
                let Some(o) = o else { return false };
                let m = mask.get(i).copied().flatten().unwrap_or(0);
                match theirs.get(i).copied().flatten() {
                    Some(t) => (o ^ t) & !m != 0,
                    None => m != 0xff,
                }
            })
        };
        let regs = self.regs.iter().any(|(name, hex)| {
            let t = theirs
                .regs
                .get(name)
                .map(|h| bytes_of(h))
                .unwrap_or_default();
            let m = self
                .inexact
                .get(name)
                .map(|h| bytes_of(h))
                .unwrap_or_default();
            bytes_differ(&bytes_of(hex), &t, &m)
        });
        regs || bytes_differ(&self.surface, &theirs.surface, &[])
            || bytes_differ(&self.slm, &theirs.slm, &[])
    }
}

/// Where `theirs` first diverges from `ours`, both run from `start` (euref's response after
/// 0 steps); `None` when they agree throughout.
pub fn first_divergence(
    start: &ProgramResponse,
    ours: &[TraceEntry],
    theirs: &[TraceEntry],
) -> Option<Divergence> {
    let (mut a, mut b) = (Replay::start(start), Replay::start(start));
    let mut blamed = None;
    for i in 0..ours.len().max(theirs.len()) {
        let (Some(x), Some(y)) = (ours.get(i), theirs.get(i)) else {
            return Some(Divergence {
                blamed: blamed.unwrap_or(i.checked_sub(1)),
                state: None,
            });
        };
        if blamed.is_none() && (x.ip != y.ip || x.enabled != y.enabled) {
            blamed = Some(i.checked_sub(1));
        }
        a.apply(x);
        b.apply(y);
        if a.differs(&b) {
            return Some(Divergence {
                blamed: blamed.unwrap_or(Some(i)),
                state: Some(i),
            });
        }
    }
    blamed.map(|blamed| Divergence {
        blamed,
        state: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(ip: u32, enabled: u32, wrote: &[(&str, &str)]) -> TraceEntry {
        TraceEntry {
            ip,
            enabled,
            wrote: wrote
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..TraceEntry::default()
        }
    }

    /// A value difference names its own step; an IP or channel difference names the step
    /// before; euref's undefined bytes are not compared; a surface run counts.
    #[test]
    fn the_first_divergence_names_the_step_that_caused_it() {
        let start = ProgramResponse {
            fin: [("r1".to_string(), "0000".to_string())].into(),
            surface: Some("0000".into()),
            ..ProgramResponse::default()
        };
        let ours = vec![
            entry(0, 0xff, &[("r1", "01xx")]),
            entry(16, 0x0f, &[]),
            entry(32, 0x0f, &[("r1", "0202")]),
        ];
        assert_eq!(first_divergence(&start, &ours, &ours), None);
        let mut t = ours.clone();
        t[0].wrote.insert("r1".into(), "0155".into());
        assert_eq!(first_divergence(&start, &ours, &t), None);
        t[2].wrote.insert("r1".into(), "0203".into());
        let d = Divergence {
            blamed: Some(2),
            state: Some(2),
        };
        assert_eq!(first_divergence(&start, &ours, &t), Some(d));
        t[1].enabled = 0xff;
        let d = Divergence {
            blamed: Some(0),
            state: Some(2),
        };
        assert_eq!(first_divergence(&start, &ours, &t), Some(d));
        let mut t = ours.clone();
        t[1].surface.push(SurfaceRun {
            offset: 1,
            bytes: "07".into(),
        });
        let d = Divergence {
            blamed: Some(1),
            state: Some(1),
        };
        assert_eq!(first_divergence(&start, &ours, &t), Some(d));
        let d = Divergence {
            blamed: Some(1),
            state: None,
        };
        assert_eq!(first_divergence(&start, &ours, &ours[..2]), Some(d));
        let mut t = ours.clone();
        t[0].ip = 16;
        let d = Divergence {
            blamed: None,
            state: None,
        };
        assert_eq!(first_divergence(&start, &ours, &t), Some(d));
    }
}
