//! Validating a valid instruction allocates nothing (`validate::check_insn` and
//! `validate::Checker`): a counting global allocator watches the validation of every
//! instruction of Mesa's gen9 assembler corpus (all valid, see validate_no_false_alarms).
//! Only the test thread's allocations are counted: the test harness's own threads may
//! allocate at any time (e.g. its slow-test notice on a loaded machine).

use euref::asm::{self, Dialect};
use euref::spec::Platform;
use euref::validate::{check_insn, Checker};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations are counted (a const-initialised `Cell` without a
    /// destructor: reading it never allocates).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if COUNTED.try_with(Cell::get).unwrap_or(false) {
            ALLOCS.fetch_add(1, Ordering::SeqCst);
        }
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static A: Counting = Counting;

#[test]
fn valid_instructions_cost_no_allocation() {
    let Some(corpus) = crate::material::corpus() else {
        return;
    };
    let dir = corpus.join("mesa/asm/gen9");
    let mut insns = vec![];
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read(&f).unwrap();
        insns.extend(
            asm::parse(&text, Some(Dialect::Mesa), Platform::Skl)
                .unwrap()
                .insns,
        );
    }
    assert!(insns.len() > 500);
    let mut checker = Checker::new();
    COUNTED.with(|c| c.set(true));
    let before = ALLOCS.load(Ordering::SeqCst);
    let mut found = 0;
    for i in &insns {
        found += check_insn(Platform::Skl, i).len();
        found += checker.check(Platform::Skl, i).count();
    }
    let after = ALLOCS.load(Ordering::SeqCst);
    assert_eq!(found, 0);
    assert_eq!(
        after - before,
        0,
        "allocations while validating valid instructions"
    );
    // An invalid instruction does allocate its report (the control that the counter works).
    let bad = asm::parse_insn(
        "add (8|M0) r2.0<1>:f r4.0<8;8,1>:f null<8;8,1>:f",
        Dialect::Iga,
        Platform::Skl,
    )
    .unwrap();
    assert_eq!(check_insn(Platform::Skl, &bad).len(), 1);
    assert!(ALLOCS.load(Ordering::SeqCst) > after);
}
