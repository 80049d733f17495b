//! Buffers that every build refills: the engine's, search's and the
//! subscriptions' storage, kept across reloads of one solver.

/// Empties `v` and gives it room for `n` elements: its own storage when
/// that is large enough, else a new allocation in its place (the contents
/// are not kept, so none of `reserve`'s growth path is needed).
#[inline]
pub(crate) fn make_room<T>(v: &mut Vec<T>, n: usize) {
    v.clear();
    if v.capacity() < n {
        *v = Vec::with_capacity(n);
    }
}
