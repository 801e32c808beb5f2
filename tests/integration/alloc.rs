//! No heap allocation per node: a counting global allocator (per thread, so the tests running
//! beside it do not count) over perft of the games without scripts.

use boardlab::{Variant, perft};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: a thread being torn down has no counter left, and needs none.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every call is passed on to the system allocator unchanged; the counter is a
// thread-local integer that allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn perft_allocates_nothing_per_node() {
    for (name, depth) in [
        ("checkers", 7),
        ("chess", 4),
        ("basileus", 4),
        ("lielow", 4),
        ("bivouac", 3),
        ("othello", 5),
        ("xiangqi", 3),
        ("minishogi", 3),
        ("international", 4),
        ("grasshopper", 3),
        ("amazons", 2),
        // Pushes, retreat choices and extra moves: continuations are copied, not allocated.
        ("pyramida", 5),
        // A chain looked for after every stone (cell sets and a stack on the call stack), and
        // the pie rule's swap at the second ply.
        ("hex", 2),
        ("y", 3),
        // Past 128 cells: the chains (a bridge's, a fork's) flooded over cell bits on the
        // call stack.
        ("havannah", 2),
    ] {
        let v = Variant::load(name, &[]).unwrap();
        let mut pos = v.start();
        // (English draughts' perft walks the cell sets; `general` holds the general kernel to
        // the same bound.)
        for (made, general) in [(false, false), (true, false), (false, true), (true, true)] {
            let run = |pos: &mut boardlab::Position| {
                match (made, general) {
                    (_, true) => perft::perft_general(&v, pos, depth, made),
                    (true, false) => perft::perft_made(&v, pos, depth),
                    (false, false) => perft::perft(&v, pos, depth),
                }
                .unwrap()
            };
            // Once to let the position's history grow to the depth.
            let leaves = run(&mut pos);
            let n = allocations(|| {
                run(&mut pos);
            });
            // One move list per level, each grown by doubling to the widest list of its level
            // (Amazons: 2176 moves from 64, six times): nothing that grows with the nodes.
            let bound = 8 * (depth as u64 + 1);
            assert!(
                n <= bound,
                "{name} perft {depth} (made: {made}, general: {general}): {n} allocations for {leaves} leaves (at most {bound})"
            );
        }
    }
}
