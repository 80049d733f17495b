//! All-different: `vars[i] + offsets[i]` pairwise distinct, at two strengths.
//!
//! Both work in the *shifted* value space `dom(vars[i]) + offsets[i]`, which
//! the model guarantees stays within `0..=63` (offsets give N-queens'
//! diagonals, as Gecode's `distinct` with offsets).
//!
//! * [`AllDifferentValue`] (`value.rs`) — value strength (Oz's
//!   `FD.distinct`): when a variable is fixed, its value goes from every
//!   other. Wakes on `Event::Fixed`. Keeps the positions already handled in
//!   a state word, so a run only narrows by the newly fixed ones (they stay
//!   handled below in the tree: domains only shrink). One general strategy
//!   and two for untraced runs (a larger group in order narrowed in place,
//!   a small group narrowed by its variables' bits in the block around
//!   it), settled when the group is built. Idempotent: it loops until no
//!   new variable is fixed.
//! * [`AllDifferentDomain`] (`domain.rs`) — domain consistency: fixed
//!   values first, then, once three positions or more are open, one
//!   algorithm for every group size (`matching.rs`): up to five open
//!   positions over as many values are most often settled by counting each
//!   value's holders; otherwise Régin's matching, bit-parallel, repaired
//!   from the one the last run kept in the state words. Wakes on
//!   `Event::Changed`. Keeps the positions whose fixed value is gone from
//!   the others in a state word, as the value strength does. Idempotent
//!   (domain consistency is reached in one pass), unless a variable occurs
//!   twice.
//!
//! With at most 64 variables and 64 values, every set here is one `u64`,
//! and the loops are written to branch on as little data as they can: on
//! these small sets a mispredicted branch costs more than the work around
//! it.

mod domain;
mod matching;
mod value;

pub(crate) use domain::AllDifferentDomain;
pub(crate) use value::AllDifferentValue;

/// `bits` moved by `c`, for `|c| <= 63` (the model checks offsets), so
/// neither shift can reach 64.
#[inline(always)]
fn shift(bits: u64, c: i32) -> u64 {
    debug_assert!((-63..=63).contains(&c));
    if c >= 0 { bits << c } else { bits >> -c }
}

/// Whether `bits` holds at most one value.
///
/// `x & (x - 1) == 0` says the same, but LLVM rewrites it to
/// `count_ones(x) < 2` and, where the comparison ends up in another basic
/// block than the count, does not rewrite it back: without a popcount
/// instruction (Rust's default x86-64 target) that is a dozen instructions.
/// (Where the test and its use stay in one basic block, the plain form is
/// the cheaper, two or three instructions: the value all-different's
/// rounds and the one-word wake-up use it.)
/// Shifting out the trailing zeros leaves 0 or 1 exactly when at most one
/// bit was set (`0` shifts by 64 mod 64 = 0 and stays 0).
#[inline(always)]
pub(super) fn at_most_one(bits: u64) -> bool {
    bits.wrapping_shr(bits.trailing_zeros()) <= 1
}

/// All ones if `b`, else zero: a select without a branch.
#[inline(always)]
fn mask(b: bool) -> u64 {
    u64::from(b).wrapping_neg()
}

#[cfg(test)]
mod tests {
    use crate::Strength;
    use crate::propagators::testing::Bench;

    #[test]
    fn offsets_compare_shifted_values() {
        // x0 + 0 != x1 + 1 with x0 = 3: x1 != 2.
        for strength in [Strength::Value, Strength::Domain] {
            let mut b = Bench::new(&[(3, 3), (1, 4)]);
            let vars = [b.var(0), b.var(1)];
            b.model
                .all_different_offsets(&vars, &[0, 1], strength)
                .expect("valid");
            b.run().expect("no conflict");
            b.assert_dom(vars[1], "{1,3,4}");
        }
    }
}
