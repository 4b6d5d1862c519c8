//! Registers of a thread state by name (`r12`/`g12` for a GRF register; `a0`, `acc0`, `f1`,
//! `cr0`, `sr0`, `ip`, ... for the architecture registers, as the state JSON names them), with
//! the undefined and inexact marks of each bit.

use euref::state::ThreadState;
use euref::thread::Step;

/// A register's bytes and marks: `undefined` and `inexact` have one bit per bit of `data`
/// (set: that bit is undefined / the value of an inexact math result).
pub struct RegBytes {
    pub name: String,
    pub data: Vec<u8>,
    pub undefined: Vec<u8>,
    pub inexact: Vec<u8>,
}

/// The GRF register number `name` names (`r12`, `g12`), if it names one.
fn grf_number(name: &str) -> Option<Result<usize, String>> {
    let digits = name.strip_prefix(['r', 'g', 'R', 'G'])?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(
        digits
            .parse::<usize>()
            .map_err(|_| format!("register {name}: the number is too large")),
    )
}

/// The GRF byte range of register `n`, or an error naming the GRF's size.
fn grf_range(st: &ThreadState, name: &str, n: usize) -> Result<std::ops::Range<usize>, String> {
    let size = st.grf_reg_bytes();
    let count = st.grf_size() / size.max(1);
    if n >= count {
        return Err(format!(
            "register {name}: the GRF has registers r0-r{} on {}",
            count.saturating_sub(1),
            st.platform().name()
        ));
    }
    Ok(n * size..(n + 1) * size)
}

fn grf_bytes(st: &ThreadState, name: String, r: std::ops::Range<usize>) -> RegBytes {
    let mark = |on: bool| if on { 0xff } else { 0 };
    RegBytes {
        data: st.grf_bytes()[r.clone()].to_vec(),
        undefined: r.clone().map(|o| mark(st.grf_byte_undefined(o))).collect(),
        inexact: r.map(|o| mark(st.grf_byte_inexact(o))).collect(),
        name,
    }
}

fn arf_bytes(st: &ThreadState, i: usize) -> Option<RegBytes> {
    let r = st.arf_layout().regs.get(i)?;
    let (data, undef) = st.arf_reg(i)?;
    let n = data.len();
    let to_bytes = |words: &mut dyn Iterator<Item = u32>| -> Vec<u8> {
        let mut v: Vec<u8> = words.flat_map(u32::to_le_bytes).collect();
        v.truncate(n);
        v
    };
    let inexact = (0..n.div_ceil(4)).map(|d| st.arf_inexact(&r.name, d).unwrap_or(0));
    Some(RegBytes {
        name: r.name.clone(),
        data: data.to_vec(),
        undefined: to_bytes(&mut undef.into_iter()),
        inexact: to_bytes(&mut inexact.into_iter()),
    })
}

fn unknown(st: &ThreadState, name: &str) -> String {
    let arf: Vec<&str> = st
        .arf_layout()
        .regs
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    format!(
        "unknown register {name:?}: expected a GRF register r0-r{} or one of {}",
        st.grf_size() / st.grf_reg_bytes().max(1) - 1,
        arf.join(", ")
    )
}

/// Read register `name`.
pub fn read(st: &ThreadState, name: &str) -> Result<RegBytes, String> {
    if let Some(n) = grf_number(name) {
        let r = grf_range(st, name, n?)?;
        return Ok(grf_bytes(
            st,
            format!("r{}", r.start / st.grf_reg_bytes()),
            r,
        ));
    }
    st.arf_index(name)
        .and_then(|i| arf_bytes(st, i))
        .ok_or_else(|| unknown(st, name))
}

/// Write `data` (defined, exact) at the start of register `name`: at most the register's size
/// for an ARF register; a GRF write may continue into the following registers.
pub fn write(st: &mut ThreadState, name: &str, data: &[u8]) -> Result<(), String> {
    if let Some(n) = grf_number(name) {
        let r = grf_range(st, name, n?)?;
        return st
            .write_grf_bytes(r.start, data)
            .map_err(|e| format!("register {name}: {e}"));
    }
    if st.arf_index(name).is_none() {
        return Err(unknown(st, name));
    }
    st.set_arf_bytes(name, 0, data)
        .map_err(|e| format!("register {name}: {e}"))
}

/// The registers a step wrote (every byte it may have changed lies in them), with their
/// contents after the step: GRF registers in order, then ARF registers in layout order.
pub fn written(st: &ThreadState, step: &Step) -> Vec<RegBytes> {
    let size = st.grf_reg_bytes().max(1);
    let mut out = vec![];
    let (grf, arf) = match &step.info {
        Some(info) => (info.written.grf_regs(size), Some(info.written)),
        None => match &step.runner_grf {
            Some(b) if !b.is_empty() => (b.start / size..(b.end - 1) / size + 1, None),
            _ => (0..0, None),
        },
    };
    for n in grf {
        out.push(grf_bytes(st, format!("r{n}"), n * size..(n + 1) * size));
    }
    if let Some(w) = arf {
        for (i, r) in st.arf_layout().regs.iter().enumerate() {
            if w.arf_overlaps(r.base, r.base + r.bytes) {
                out.extend(arf_bytes(st, i));
            }
        }
    }
    out
}
