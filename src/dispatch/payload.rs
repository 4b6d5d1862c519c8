//! Each thread's initial state (spec/payload.toml): r0 header fields, the CURBE blocks, the
//! local IDs when asked for, and the dispatch mask; everything else stays undefined
//! (payload.grf.rest, payload.r0.rest).

use super::desc::Dispatch;
use crate::spec::payload::{self as rows, PayloadRowInfo};
use crate::state::{StateError, ThreadState};

/// One thread of the dispatch with its initial state.
#[derive(Debug, Clone)]
pub struct ThreadPayload {
    /// The work group's number (X fastest) and ID.
    pub group: u64,
    pub group_id: [u32; 3],
    /// The thread's index in its work group (the subgroup ID).
    pub thread: u32,
    /// The dispatch mask (sr0.2).
    pub dmask: u32,
    pub state: ThreadState,
}

/// A payload that cannot be built: a thread or work group the dispatch does not have, or a
/// placement outside the GRF (`Dispatch::validate` refuses those).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("thread {thread} of work group {group}: {what}")]
pub struct PayloadError {
    pub group: u64,
    pub thread: u32,
    pub what: String,
}

/// The dispatch mask of thread `t` (row payload.mask.dispatch): lane i is set when
/// t*SIMD + i is an invocation of the work group.
pub fn dispatch_mask(d: &Dispatch, t: u32) -> u32 {
    let first = u64::from(t) * u64::from(d.simd);
    let lanes = d
        .group_invocations()
        .saturating_sub(first)
        .min(u64::from(d.simd));
    if lanes >= 32 {
        u32::MAX
    } else {
        (1u32 << lanes) - 1
    }
}

/// The vector mask of a dispatch mask (row payload.mask.vector): each 4-bit group all set
/// when any of its bits is.
pub fn vector_mask(dmask: u32) -> u32 {
    (0..8)
        .filter(|g| dmask >> (4 * g) & 0xf != 0)
        .fold(0, |m, g| m | 0xf << (4 * g))
}

/// The value an r0 row writes.
fn r0_value(r: &PayloadRowInfo, group: u64, id: [u32; 3]) -> Option<u64> {
    match r.value {
        "group-id-x" => Some(u64::from(id[0])),
        "group-id-y" => Some(u64::from(id[1])),
        "group-id-z" => Some(u64::from(id[2])),
        // payload.r0.barrier-id: work group n gets n, truncated to the field.
        "barrier-id" => Some(group),
        "zero" => Some(0),
        _ => None,
    }
}

/// r0 as the rows define it: the dwords and which bytes are defined.
fn r0(d: &Dispatch, group: u64, id: [u32; 3]) -> ([u32; 8], u32) {
    let mut dw = [0u32; 8];
    let mut defined = 0u32;
    for r in rows::of_part(d.platform, "r0") {
        let (Some(k), Some((hi, lo))) = (r.dword, r.bits) else {
            continue;
        };
        let Some(v) = r0_value(r, group, id) else {
            continue;
        };
        let width = hi - lo + 1;
        let mask = if width == 32 {
            u32::MAX
        } else {
            ((1u32 << width) - 1) << lo
        };
        let k = k as usize;
        dw[k] = (dw[k] & !mask) | ((v as u32) << lo & mask);
        // payload.r0.byte-fill: the other bits of a byte holding a defined field are 0.
        for b in lo / 8..=hi / 8 {
            defined |= 1 << (4 * k as u32 + b);
        }
    }
    (dw, defined)
}

/// The initial state of thread `t` of work group number `group`.
pub fn thread_state(d: &Dispatch, group: u64, t: u32) -> Result<ThreadPayload, PayloadError> {
    let err = |e: StateError| PayloadError {
        group,
        thread: t,
        what: e.to_string(),
    };
    if group >= d.group_count() || t >= d.threads_per_group() {
        return Err(PayloadError {
            group,
            thread: t,
            what: format!(
                "the dispatch has {} work groups of {} threads",
                d.group_count(),
                d.threads_per_group()
            ),
        });
    }
    let mut st = ThreadState::new(d.platform);
    let rb = st.grf_reg_bytes();
    let id = d.group_id(group);
    // r0 (payload.r0.*): the defined bytes only; the rest stays undefined.
    let (dw, defined) = r0(d, group, id);
    for b in 0..32usize {
        if defined >> b & 1 == 1 {
            let byte = dw[b / 4].to_le_bytes()[b % 4];
            st.write_grf_bytes(b, &[byte]).map_err(err)?;
        }
    }
    // CURBE (payload.curbe.cross-thread, payload.curbe.per-thread).
    let c = &d.curbe;
    let cross = c.cross_thread_regs as usize * rb;
    if cross > 0 {
        st.write_grf_bytes(c.cross_thread_grf as usize * rb, &c.bytes[..cross])
            .map_err(err)?;
    }
    let per = c.per_thread_regs as usize * rb;
    if per > 0 {
        let from = cross + t as usize * per;
        st.write_grf_bytes(c.per_thread_grf as usize * rb, &c.bytes[from..from + per])
            .map_err(err)?;
    }
    // Dispatch and vector masks (payload.mask.*).
    let dmask = dispatch_mask(d, t);
    for (name, v) in [("dmask", dmask), ("vmask", vector_mask(dmask))] {
        if let Some(f) = st.field_info("sr0", name) {
            st.set_field(f, v).map_err(err)?;
        }
    }
    // Local IDs (payload.local-ids): lanes outside the dispatch mask stay undefined.
    if let Some(l) = d.local_ids {
        let [sx, sy, _] = d.local_size.map(u64::from);
        let regs = d.local_id_regs() as usize;
        for lane in (0..d.simd).filter(|i| dmask >> i & 1 == 1) {
            let index = u64::from(t) * u64::from(d.simd) + u64::from(lane);
            let xyz = [index % sx, index / sx % sy, index / (sx * sy)];
            for (c, v) in xyz.iter().take(l.components as usize).enumerate() {
                let o = (l.grf as usize + c * regs) * rb + 2 * lane as usize;
                st.write_grf_bytes(o, &(*v as u16).to_le_bytes())
                    .map_err(err)?;
            }
        }
    }
    let _ = st.take_written();
    Ok(ThreadPayload {
        group,
        group_id: id,
        thread: t,
        dmask,
        state: st,
    })
}

/// Every thread of the dispatch, work group by work group (row payload.order.threads).
pub fn all_threads(d: &Dispatch) -> impl Iterator<Item = Result<ThreadPayload, PayloadError>> + '_ {
    let per = d.threads_per_group();
    (0..d.group_count()).flat_map(move |g| (0..per).map(move |t| thread_state(d, g, t)))
}

/// The bits of r0.2 (and of a barrier message's payload dword 2) that hold the barrier ID on
/// `p`: payload.r0.barrier-id and, where it applies, payload.r0.barrier-id-msb.
pub fn barrier_id_mask(p: crate::spec::Platform) -> u32 {
    [&rows::R0_BARRIER_ID, &rows::R0_BARRIER_ID_MSB]
        .into_iter()
        .filter(|r| r.gens.contains(p))
        .filter_map(|r| r.bits)
        .fold(0, |m, (hi, lo)| {
            m | (u32::MAX >> (31 - hi)) & (u32::MAX << lo)
        })
}
