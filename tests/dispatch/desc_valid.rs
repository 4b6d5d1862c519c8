//! Valid descriptions: every key read as docs/dispatch.md says.

use crate::util::{minimal, Scratch};
use euref::dispatch::desc::{KernelFormat, KernelSource};
use euref::spec::Platform;

#[test]
fn minimal_description_takes_the_defaults() {
    let s = Scratch::new();
    let d = s.parse(&minimal("")).expect("valid");
    assert_eq!(d.platform, Platform::parse("skl").unwrap());
    assert_eq!(d.kernel, Some(s.path("k.bin")));
    assert_eq!(d.kernel_format, Some(KernelFormat::Binary));
    assert_eq!(d.load_kernel().unwrap(), KernelSource::Binary(vec![0; 32]));
    assert_eq!(
        (d.simd, d.local_size, d.work_groups),
        (16, [16, 1, 1], [1, 1, 1])
    );
    assert!(d.surfaces.is_empty() && d.a64_buffers.is_empty() && d.local_ids.is_none());
    assert_eq!(d.slm_size, 0);
    // payload.curbe.cross-thread: the CURBE starts at g1 when no curbe is given.
    assert_eq!((d.curbe.cross_thread_grf, d.curbe.per_thread_grf), (1, 1));
    assert!(d.curbe.bytes.is_empty());
    assert_eq!(d.threads_per_group(), 1);
}

#[test]
fn every_form_of_contents() {
    let s = Scratch::new();
    std::fs::write(s.path("b.bin"), [9u8, 8, 7]).unwrap();
    std::fs::write(s.path("k.asm"), "nop\n").unwrap();
    let json = r#"{"kernel": {"file": "k.asm"}, "platform": "bdw", "simd": 8,
      "local_size": [4, 2, 1], "work_groups": [3, 2, 1], "slm_size": 256,
      "surfaces": [
        {"bti": 2, "size": 16, "init": {"dtype": "int32", "values": [-3, 1000, "0xc"]}},
        {"bti": 3, "size": 8, "init": {"dtype": "float32", "values": [1.5, "0x7fc00000"]}},
        {"bti": 4, "size": 4, "init": {"hex": "de ad be"}},
        {"bti": 5, "size": 3, "init": {"file": "b.bin"}},
        {"bti": 6, "size": 5, "init": {"fill": 170}},
        {"bti": 7, "size": 4},
        {"bti": 8, "size": 8, "init": {"dtype": "int16", "values": [-1, 32767, -32768]}},
        {"bti": 9, "size": 8, "init": {"dtype": "uint64", "values": [18446744073709551615]}}
      ],
      "a64_buffers": [{"address": "0x100000000", "size": 8, "init": {"dtype": "uint8", "values": [1, 255]}},
                      {"address": 4096, "size": 4}]}"#;
    let d = s.parse(json).expect("valid");
    assert_eq!(d.kernel_format, Some(KernelFormat::Asm));
    assert_eq!(d.load_kernel().unwrap(), KernelSource::Asm("nop\n".into()));
    assert_eq!(d.slm_size, 256);
    let init: Vec<(u8, u64, Vec<u8>)> = d
        .surfaces
        .iter()
        .map(|x| (x.bti, x.size, x.init.clone()))
        .collect();
    assert_eq!(
        init,
        vec![
            (
                2,
                16,
                vec![0xfd, 0xff, 0xff, 0xff, 0xe8, 3, 0, 0, 0xc, 0, 0, 0]
            ),
            (3, 8, vec![0, 0, 0xc0, 0x3f, 0, 0, 0xc0, 0x7f]),
            (4, 4, vec![0xde, 0xad, 0xbe]),
            (5, 3, vec![9, 8, 7]),
            (6, 5, vec![0xaa; 5]),
            (7, 4, vec![]),
            (8, 8, vec![0xff, 0xff, 0xff, 0x7f, 0, 0x80]),
            (9, 8, vec![0xff; 8]),
        ]
    );
    assert_eq!(d.a64_buffers[0].address, 1 << 32);
    assert_eq!(d.a64_buffers[0].init, vec![1, 255]);
    assert_eq!((d.a64_buffers[1].address, d.a64_buffers[1].size), (4096, 4));
    // 8 invocations, SIMD8: one thread; group 4 of 3x2x1 is (1, 1, 0).
    assert_eq!(d.threads_per_group(), 1);
    assert_eq!(d.group_count(), 6);
    assert_eq!(d.group_id(4), [1, 1, 0]);
}

#[test]
fn curbe_and_local_id_placement() {
    let s = Scratch::new();
    let hex = "00".repeat(32 * 3);
    let d = s
        .parse(&minimal(&format!(
            r#", "local_size": [20, 1, 1],
        "curbe": {{"cross_thread_regs": 1, "per_thread_regs": 1, "data": {{"hex": "{hex}"}}, "grf": 4}},
        "local_ids": {{"grf": 1, "components": 3}}"#
        )));
    // Duplicate key local_size: serde refuses it (the last is not silently taken).
    assert!(d.is_err());
    let d = s
        .parse(&format!(
            r#"{{"kernel": {{"file": "k.bin", "format": "binary"}}, "platform": "skl", "simd": 16,
        "local_size": [20, 1, 1], "work_groups": [1, 1, 1],
        "curbe": {{"cross_thread_regs": 1, "per_thread_regs": 1, "data": {{"hex": "{hex}"}}, "grf": 4}},
        "local_ids": {{"grf": 1, "components": 3}}}}"#
        ))
        .expect("valid");
    assert_eq!(d.threads_per_group(), 2);
    assert_eq!((d.curbe.cross_thread_grf, d.curbe.per_thread_grf), (4, 5));
    assert_eq!(d.curbe.bytes.len(), 96);
    assert_eq!(d.local_id_regs(), 1);
}

#[test]
fn description_round_trips_through_serde() {
    let s = Scratch::new();
    let json = minimal(r#", "surfaces": [{"bti": 2, "size": 4, "init": {"fill": 0}}]"#);
    let file: euref::dispatch::DispatchFile = serde_json::from_str(&json).unwrap();
    let again = serde_json::to_string(&file).unwrap();
    assert_eq!(s.parse(&again).unwrap(), s.parse(&json).unwrap());
}
