//! Hints to the memory system: asking for a value to be brought into the cache before it is
//! read, where a read that missed would hold the work up until it arrived (a search's
//! transposition table; a study's set of game digests).

/// Asks for the cache line holding `x` to be brought into the cache. A hint: it reads nothing
/// and changes nothing a program can see.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    let p: *const T = x;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault, whatever the address; this one is a
    // reference's besides.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
