//! The hand-written program the program-vector and coverage tests work out by hand: a loop
//! whose channel c runs its body (r11 += 1) `c & 3` times (the counter is (r10[c] & 3) + 1
//! with r10 = c), then an untyped write of r11 at byte 4c of the surface at BTI 3, on
//! Broadwell with channels 0-7 dispatched.

use euref::golden::program::vector::Setup;
use euref::spec::Platform;

pub const PLATFORM: Platform = Platform::Bdw;

/// The program's IGA lines.
pub fn lines() -> Vec<String> {
    [
        "and (8|M0) r20.0<1>:ud r10.0<8;8,1>:ud 0x3:ud",
        "add (8|M0) r20.0<1>:ud r20.0<8;8,1>:ud 0x1:ud",
        "LOOP:",
        "add (8|M0) (eq)f0.0 r20.0<1>:d r20.0<8;8,1>:d -1:d",
        "(f0.0) break (8|M0) WHILE WHILE",
        "add (8|M0) r11.0<1>:ud r11.0<8;8,1>:ud 0x1:ud",
        "WHILE:",
        "while (8|M0) LOOP",
        "mov (8|M0) r30.0<1>:ud 0x76543210:v",
        "shl (8|M0) r30.0<1>:ud r30.0<8;8,1>:ud 0x2:ud",
        "mov (8|M0) r31.0<1>:ud r11.0<8;8,1>:ud",
        "send (8|M0) null r30 0xC 0x4026E03",
        "(W) mov (8|M0) r127.0<1>:ud 0x0:ud",
        "send (8|M0) null r127 0x27 0x2000010 {EOT}",
    ]
    .map(String::from)
    .to_vec()
}

/// Its initial state: r10 = c, r11 = `r11` in every channel, both flags zero, a 64-byte
/// surface of `fill` bytes.
pub fn setup(r11: u64, fill: u8) -> Setup {
    let mut setup = Setup::new(PLATFORM, 0xff).unwrap();
    for c in 0..8 {
        (setup.state.write_grf(10 * 32 + 4 * c, 4, c as u64, false)).unwrap();
        (setup.state.write_grf(11 * 32 + 4 * c, 4, r11, false)).unwrap();
    }
    setup.state.set_flag(0, 0, 0).unwrap();
    setup.state.set_flag(1, 0, 0).unwrap();
    setup.surface = Some(vec![Some(fill); 64]);
    setup
}
