//! Control-flow coverage of program vectors (`euref golden --programs --coverage`): the counts
//! of a hand-written loop worked out here, every category reached over a range of seeds, and
//! the CLI printing the report.

use crate::golden_util::{euref_output as euref, output_text as text};
use crate::program_hand;
use crate::scratch_util::Scratch;
use euref::golden::program::vector::build_covered;
use euref::golden::program::{write_programs_covered, ProgramCoverage};
use euref::spec::Platform;
use std::collections::BTreeMap;

fn map(pairs: &[(u32, u64)]) -> BTreeMap<u32, u64> {
    pairs.iter().copied().collect()
}

/// The loop of `a_hand_written_program_ends_in_the_state_worked_out_here` (r10 = c in
/// channel c, so channel c's counter is (c & 3) + 1): channel c runs the loop's first
/// instruction (c & 3) + 1 times and its body c & 3 times. Passes 1 to 4 start with the
/// channels ff, ee, cc, 88; the body and the while of pass k run with the channels of pass
/// k + 1; the 4th pass's break leaves none and the while runs with no channel.
#[test]
fn a_hand_written_loop_has_the_coverage_worked_out_here() {
    let (p, lines, setup) = (
        program_hand::PLATFORM,
        program_hand::lines(),
        program_hand::setup(0, 0),
    );
    let (_, c) = build_covered(p, "hand".into(), lines, setup).unwrap();
    assert_eq!(c.programs, 1);
    // 2 + 4 * (top, break) + 3 * (body, while) + the last while + 6 = 23.
    assert_eq!(c.steps, 23);
    assert_eq!(c.steps_no_channel, 1);
    // Under ee, cc or 88: pass 1's body and while, passes 2 and 3 whole, pass 4's top and
    // break.
    assert_eq!(c.steps_partial, 2 + 4 + 4 + 2);
    // Depth 1 (ee): pass 1's body and while, pass 2's top and break; depth 2 (cc), depth 3
    // (88) likewise; depth 0: the 2 before the loop, pass 1's top and break, the 6 after.
    assert_eq!(c.depth_steps, map(&[(0, 10), (1, 4), (2, 4), (3, 4)]));
    assert_eq!(c.depth_programs, map(&[(3, 1)]));
    // Channels off: break on ff, ee, cc, 88; while on ee, cc, 88 and none.
    assert_eq!(
        c.branch_off["break"],
        map(&[(0, 1), (2, 1), (4, 1), (6, 1)])
    );
    assert_eq!(
        c.branch_off["while"],
        map(&[(2, 1), (4, 1), (6, 1), (8, 1)])
    );
    assert_eq!(c.branch_off.len(), 2);
    // One entry; channels 0 and 4 run the top once, 1 and 5 twice, 2 and 6 three times, 3
    // and 7 four times.
    assert_eq!(c.loop_entries, 1);
    assert_eq!(c.loop_entries_diverged, 1);
    assert_eq!(c.trips, map(&[(1, 2), (2, 2), (3, 2), (4, 2)]));
    // The write under all channels; the end of thread is no message.
    assert_eq!(
        (c.messages, c.messages_partial, c.messages_no_channel),
        (1, 0, 0)
    );
}

/// Over 100 programs of each of Skylake and Haswell every category is reached: partial
/// masks, divergence 2 deep, every kind of branch the templates emit with channels off,
/// loops with different trip counts per channel, messages under partial masks.
#[test]
fn every_category_is_reached_over_a_range_of_seeds() {
    for (p, kinds) in [
        (
            Platform::Skl,
            &[
                "if", "else", "endif", "while", "break", "cont", "halt", "goto", "join", "call",
                "ret", "jmpi",
            ][..],
        ),
        (
            Platform::Hsw,
            &[
                "if", "else", "endif", "while", "break", "cont", "halt", "call", "ret", "jmpi",
            ][..],
        ),
    ] {
        let mut c = ProgramCoverage::default();
        let mut out = Vec::new();
        write_programs_covered(p, 3, 0..100, &mut out, |_| {}, &mut c).unwrap();
        assert_eq!(c.programs, 100);
        assert!(c.steps_partial > 0 && c.steps_no_channel > 0, "{c:?}");
        assert!(c.depth_programs.keys().any(|&d| d >= 2), "{c:?}");
        for k in kinds {
            let m = c.branch_off.get(k);
            assert!(
                m.is_some_and(|m| m.keys().any(|&off| off > 0)),
                "{p:?}: no {k} with channels off: {:?}",
                c.branch_off
            );
        }
        assert!(c.loop_entries_diverged > 0, "{c:?}");
        assert!(c.trips.keys().any(|&t| t >= 3), "{c:?}");
        assert!(c.messages_partial > 0, "{c:?}");
        // The report names every category.
        let r = c.report(p.name());
        for want in [
            "instructions",
            "messages",
            "divergence depth",
            "channels off",
            "loop trips",
        ] {
            assert!(r.contains(want), "{r}");
        }
    }
}

/// `--programs --coverage` writes the vectors and prints the report after them (stdout with
/// `-o`), the same whatever the sharding of the work among threads.
#[test]
fn cli_prints_program_coverage() {
    let tmp = Scratch::new("golden-programs-coverage");
    let f = tmp.path().join("p.jsonl");
    let o = euref(&[
        "golden",
        "--programs",
        "--gen",
        "skl",
        "--count",
        "30",
        "--coverage",
        "-o",
        f.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("control-flow coverage of 30 program vectors (skl)"),
        "{t}"
    );
    let mut c = ProgramCoverage::default();
    let mut out = Vec::new();
    write_programs_covered(Platform::Skl, 0, 0..30, &mut out, |_| {}, &mut c).unwrap();
    assert!(t.contains(&c.report("skl")), "{t}");
    assert_eq!(std::fs::read(&f).unwrap(), out);
}
