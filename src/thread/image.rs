//! A program image: the instruction bytes a thread runs, decoded on first use at each
//! address (native 16-byte and compacted 8-byte instructions alike).

use crate::codec;
use crate::exec::Prepared;
use crate::isa::Insn;
use crate::spec::OpClass;
use crate::spec::Platform;
use crate::state::ThreadState;
use std::sync::Arc;

/// A decoded instruction of an image and its size in bytes (8 or 16).
#[derive(Debug, Clone)]
pub struct Decoded {
    pub insn: Insn,
    pub size: u32,
    /// The instruction with its operands resolved once (`exec::Prepared`), for the
    /// instructions the executor runs (not branches, not sends); shared by the image's clones.
    pub prepared: Option<Arc<Prepared>>,
}

/// Instruction bytes loaded at a base address (the value of `ip` at the first byte).
#[derive(Debug, Clone)]
pub struct Image {
    platform: Platform,
    bytes: Vec<u8>,
    base: u32,
    /// Decoded instructions by (offset / 8).
    cache: Vec<Option<Decoded>>,
}

/// An image offset that holds no instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("IP {ip:#x} is outside the program image ({base:#x}..{end:#x})")]
    Outside { ip: u32, base: u32, end: u32 },
    #[error("IP {ip:#x} is not a multiple of 8 bytes")]
    Misaligned { ip: u32 },
    #[error("IP {ip:#x} (byte offset {offset} of the image): cannot decode: {msg}")]
    Decode { ip: u32, offset: u32, msg: String },
    /// The opcode field names no instruction on the platform (the runner raises the
    /// illegal-opcode exception, flow.exception.illegal-opcode).
    #[error(
        "IP {ip:#x} (byte offset {offset} of the image): opcode {opcode:#04x} is undefined on \
         this platform"
    )]
    UndefinedOpcode { ip: u32, offset: u32, opcode: u8 },
}

impl Image {
    /// The image of `bytes` for `platform`, loaded at address `base`.
    pub fn new(platform: Platform, bytes: Vec<u8>, base: u32) -> Image {
        let slots = bytes.len().div_ceil(8);
        Image {
            platform,
            bytes,
            base,
            cache: vec![None; slots],
        }
    }

    /// The image of native instructions encoded one after the other (no compaction; the
    /// jump offsets are used as they are).
    pub fn from_insns(
        platform: Platform,
        insns: &[Insn],
        base: u32,
    ) -> Result<Image, codec::EncodeError> {
        let mut bytes = Vec::with_capacity(16 * insns.len());
        for i in insns {
            let mut native = i.clone();
            native.ctrl.compacted = false;
            bytes.extend_from_slice(&codec::encode(&native, platform)?);
        }
        Ok(Image::new(platform, bytes, base))
    }

    pub fn platform(&self) -> Platform {
        self.platform
    }

    /// The address of the first byte.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The address one past the last byte (the end of the program).
    pub fn end(&self) -> u32 {
        self.base.wrapping_add(self.bytes.len() as u32)
    }

    /// The instruction bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Decode the instructions laid out from the base one after the other (each at the end
    /// of the previous one; past bytes that do not decode, the next 8-byte slot), so that
    /// clones of the image (one per thread of a dispatch) start with them decoded. Decoding is
    /// a function of the bytes at an address, so the instructions a thread reaches are the
    /// same with or without this; bytes that do not decode are left to fail when reached.
    ///
    /// The instructions the executor runs (not branches, not sends) are also prepared
    /// (operands resolved once, [`Decoded::prepared`]): worth it when many threads run the
    /// image, not for a single pass over straight-line code, which [`Image::at`] alone serves.
    pub fn predecode(&mut self) {
        let (base, len) = (u64::from(self.base), self.bytes.len() as u64);
        let template = ThreadState::template(self.platform);
        let mut offset = 0u64;
        while offset < len {
            let Ok(ip) = u32::try_from(base + offset) else {
                return;
            };
            offset += match self.at(ip) {
                Ok(d) => u64::from(d.size),
                Err(_) => 8,
            };
            let slot = ((u64::from(ip) - base) / 8) as usize;
            if let Some(d) = self.cache.get_mut(slot).and_then(Option::as_mut) {
                let executed = d.insn.op.info().class != OpClass::Flow && !d.insn.is_send();
                if executed && d.prepared.is_none() {
                    d.prepared = Some(Arc::new(Prepared::new(template, d.insn.clone())));
                }
            }
        }
    }

    /// The instruction at address `ip`.
    pub fn at(&mut self, ip: u32) -> Result<&Decoded, ImageError> {
        let end = self.end();
        if ip < self.base || ip >= end {
            return Err(ImageError::Outside {
                ip,
                base: self.base,
                end,
            });
        }
        let offset = ip - self.base;
        if offset % 8 != 0 {
            return Err(ImageError::Misaligned { ip });
        }
        let slot = (offset / 8) as usize;
        if self.cache[slot].is_none() {
            let (insn, size) = codec::decode(&self.bytes[offset as usize..], self.platform)
                .map_err(|e| match e.kind {
                    codec::DecodeErrorKind::UnknownOpcode => ImageError::UndefinedOpcode {
                        ip,
                        offset,
                        opcode: (e.value & 0x7f) as u8,
                    },
                    _ => ImageError::Decode {
                        ip,
                        offset,
                        msg: e.to_string(),
                    },
                })?;
            self.cache[slot] = Some(Decoded {
                insn,
                size: size as u32,
                prepared: None,
            });
        }
        self.cache[slot]
            .as_ref()
            .ok_or(ImageError::Misaligned { ip })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two native instructions, then 16 bytes of 0xff (no opcode of Skylake is 0x7f).
    fn mixed() -> Vec<u8> {
        let text =
            "add (8|M0) r2.0<1>:ud r3.0<8;8,1>:ud 0x1:ud\nmov (8|M0) r4.0<1>:ud r2.0<8;8,1>:ud\n";
        let prog = crate::asm::parse(
            text.as_bytes(),
            Some(crate::asm::Dialect::Iga),
            Platform::Skl,
        )
        .unwrap();
        let mut bytes = Image::from_insns(Platform::Skl, &prog.insns, 0)
            .unwrap()
            .bytes;
        bytes.extend([0xff; 16]);
        bytes
    }

    #[test]
    fn predecoding_gives_what_lazy_decoding_gives() {
        let mut lazy = Image::new(Platform::Skl, mixed(), 0x100);
        let mut warm = lazy.clone();
        warm.predecode();
        assert!(warm.cache[0].is_some() && warm.cache[2].is_some());
        for ip in (0x100..0x140).step_by(8) {
            let a = lazy.at(ip).map(|d| (format!("{:?}", d.insn), d.size));
            let b = warm.at(ip).map(|d| (format!("{:?}", d.insn), d.size));
            assert_eq!(a, b, "ip {ip:#x}");
        }
        assert!(matches!(
            warm.at(0x120),
            Err(ImageError::UndefinedOpcode { .. })
        ));
    }

    #[test]
    fn predecoding_at_the_top_of_the_address_space_stops() {
        let mut lazy = Image::new(Platform::Skl, mixed(), u32::MAX - 16);
        let mut warm = lazy.clone();
        warm.predecode();
        let ip = u32::MAX - 16;
        let a = lazy.at(ip).map(|d| d.size).map_err(|e| e.to_string());
        assert_eq!(a, warm.at(ip).map(|d| d.size).map_err(|e| e.to_string()));
    }

    /// The operands resolved once per image slot give what resolving them at every step
    /// gives: generated programs (divergent control flow, ALU, math, messages) run from the
    /// same state with and without the prepared instructions end in equal states.
    #[test]
    fn prepared_instructions_run_as_the_instructions() {
        use crate::exec::ExecOptions;
        use crate::memory::Memory;
        use crate::thread::Thread;
        let opts = ExecOptions::default();
        let run = |image: Image, st: &mut ThreadState| {
            let mut mem = Memory::new();
            let mut t = Thread::new(image, st).map_err(|e| e.to_string())?;
            t.run_with_memory(st, &opts, 20_000, &mut mem)
                .map_err(|e| e.to_string())?;
            Ok::<u64, String>(t.steps())
        };
        let mut ran = 0;
        for p in Platform::ALL {
            for seed in 0..30u64 {
                use crate::golden::program::{generator, vector};
                let Ok(mut prog) = generator::generate(p, seed, 0) else {
                    continue;
                };
                let image = Image::from_insns(p, &prog.insns, 0).unwrap();
                let mut bare = image.clone();
                bare.predecode();
                for d in bare.cache.iter_mut().flatten() {
                    d.prepared = None;
                }
                let mut image = image;
                image.predecode();
                // The generator's initial state (its loops terminate by construction from it).
                let dmask = vector::dispatch_mask(&mut prog.rng);
                let mut st = vector::initial_state(p, dmask, &mut prog.rng).unwrap();
                let mut st2 = st.clone();
                let a = run(image, &mut st);
                let b = run(bare, &mut st2);
                assert_eq!(a, b, "{} seed {seed}", p.name());
                assert!(
                    st == st2,
                    "{} seed {seed}: the final states differ",
                    p.name()
                );
                ran += u64::from(a.is_ok());
            }
        }
        assert!(ran >= 20, "only {ran} programs ran to their end");
    }
}
