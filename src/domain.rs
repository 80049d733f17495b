//! [`Domain`]: a set of values in `0..=63` kept as one `u64` bitmask.
//!
//! Bit `v` is set exactly when value `v` is still possible. Every operation is
//! O(1): a few machine instructions, no loops and no allocation (iteration
//! yields one value per step).
//!
//! # Range rules
//!
//! * Constructors that take a value ([`Domain::singleton`], [`Domain::range`])
//!   panic on values above 63, like slice indexing: they are for code that
//!   already knows its values. User-facing entry points ([`Model`]) check
//!   values and return [`ModelError::ValueOutOfRange`] instead.
//! * Queries that take a value ([`Domain::contains`], [`Domain::remove`]) accept
//!   any `u32`: a value above 63 is simply not in any domain.
//! * Shifts drop the values pushed past either end, so `shift(64)` and
//!   `shift(-64)` give the empty domain instead of wrapping around.
//!
//! [`Model`]: crate::Model
//! [`ModelError::ValueOutOfRange`]: crate::ModelError::ValueOutOfRange

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

/// A set of values in `0..=63`, one bit per value.
///
/// ```
/// use bitfd::Domain;
///
/// let d = Domain::range(1, 5).remove(3);
/// assert_eq!(d.size(), 4);
/// assert_eq!((d.min(), d.max()), (Some(1), Some(5)));
/// assert_eq!(d.to_string(), "{1,2,4,5}");
/// // `x = y + 2` moves every value of y up by two.
/// assert_eq!(d.shift(2).to_string(), "{3,4,6,7}");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Domain(u64);

impl Domain {
    /// The empty domain: no value is possible.
    pub const EMPTY: Domain = Domain(0);
    /// Every value `0..=63`.
    pub const FULL: Domain = Domain(u64::MAX);
    /// The largest value a domain can hold.
    pub const MAX_VALUE: u8 = 63;

    /// Wraps a raw bitmask (bit `v` set means value `v` is possible).
    #[inline]
    pub const fn from_bits(bits: u64) -> Domain {
        Domain(bits)
    }

    /// The raw bitmask.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The domain `{v}`.
    ///
    /// # Panics
    ///
    /// If `v > 63`.
    #[inline]
    pub const fn singleton(v: u8) -> Domain {
        assert!(v <= Self::MAX_VALUE, "domain values are 0..=63");
        Domain(1 << v)
    }

    /// The values `lo..=hi`; empty when `lo > hi`.
    ///
    /// # Panics
    ///
    /// If `hi > 63` (and `lo <= hi`).
    #[inline]
    pub const fn range(lo: u8, hi: u8) -> Domain {
        if lo > hi {
            return Domain::EMPTY;
        }
        assert!(hi <= Self::MAX_VALUE, "domain values are 0..=63");
        // Bits lo..=hi: all bits up to hi, minus all bits below lo. Written with
        // a double shift so that hi = 63 does not shift by 64.
        let upto_hi = u64::MAX >> (63 - hi);
        let below_lo = (1u64 << lo) - 1;
        Domain(upto_hi & !below_lo)
    }

    /// The values `0..n` (`n` values); `full(64)` is [`Domain::FULL`].
    ///
    /// # Panics
    ///
    /// If `n > 64`.
    #[inline]
    pub const fn full(n: u8) -> Domain {
        assert!(n <= 64, "a domain holds at most 64 values");
        if n == 0 {
            Domain::EMPTY
        } else {
            Domain::range(0, n - 1)
        }
    }

    /// Whether no value is possible.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether exactly one value is possible.
    #[inline]
    pub const fn is_fixed(self) -> bool {
        // Shifting out the trailing zeros leaves exactly 1 for one bit (and 0
        // for none: a shift by 64 wraps to 0). `x & (x - 1) == 0` says the
        // same, but LLVM turns it into a population count, a dozen
        // instructions on the default x86-64 target.
        self.0.wrapping_shr(self.0.trailing_zeros()) == 1
    }

    /// The number of possible values.
    #[inline]
    pub const fn size(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `v` is possible (values above 63 never are).
    #[inline]
    pub const fn contains(self, v: u32) -> bool {
        v <= Self::MAX_VALUE as u32 && self.0 >> v & 1 == 1
    }

    /// The smallest possible value, `None` when empty.
    #[inline]
    pub const fn min(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The largest possible value, `None` when empty.
    #[inline]
    pub const fn max(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(63 - self.0.leading_zeros() as u8)
        }
    }

    /// The single value of a fixed domain, `None` when empty or not fixed.
    #[inline]
    pub const fn value(self) -> Option<u8> {
        if self.is_fixed() {
            Some(self.0.trailing_zeros() as u8)
        } else {
            None
        }
    }

    /// This domain without `v` (unchanged when `v` is absent or above 63).
    #[inline]
    #[must_use]
    pub const fn remove(self, v: u32) -> Domain {
        if v > Self::MAX_VALUE as u32 {
            self
        } else {
            Domain(self.0 & !(1 << v))
        }
    }

    /// The values `<= v`.
    #[inline]
    #[must_use]
    pub const fn at_most(self, v: i32) -> Domain {
        if v < 0 {
            Domain::EMPTY
        } else if v >= 63 {
            self
        } else {
            Domain(self.0 & (u64::MAX >> (63 - v)))
        }
    }

    /// The values `>= v`.
    #[inline]
    #[must_use]
    pub const fn at_least(self, v: i32) -> Domain {
        if v <= 0 {
            self
        } else if v > 63 {
            Domain::EMPTY
        } else {
            Domain(self.0 & (u64::MAX << v))
        }
    }

    /// Every value moved by `c` (`{v + c}`), dropping those that leave `0..=63`.
    ///
    /// This is the support set for offsets: `x = y + c` keeps `x` within
    /// `dom(y).shift(c)` and `y` within `dom(x).shift(-c)`.
    #[inline]
    #[must_use]
    pub const fn shift(self, c: i32) -> Domain {
        if c >= 64 || c <= -64 {
            Domain::EMPTY
        } else if c >= 0 {
            Domain(self.0 << c)
        } else {
            Domain(self.0 >> -c)
        }
    }

    /// The values at distance exactly `c` from some value of this domain:
    /// `{v - c} ∪ {v + c}`, dropping those that leave `0..=63`.
    ///
    /// This is the support set for `|x - y| = c`: `x` stays within
    /// `dom(y).spread(c)`. `spread(0)` is the domain itself.
    #[inline]
    #[must_use]
    pub const fn spread(self, c: u32) -> Domain {
        if c >= 64 {
            Domain::EMPTY
        } else {
            Domain(self.0 << c | self.0 >> c)
        }
    }

    /// The values from the smallest up to `(min + max) / 2`: the lower half
    /// by value, as split branching uses it. Empty stays empty.
    #[inline]
    #[must_use]
    pub const fn lower_half(self) -> Domain {
        match (self.min(), self.max()) {
            (Some(lo), Some(hi)) => self.at_most(((lo as u32 + hi as u32) / 2) as i32),
            _ => Domain::EMPTY,
        }
    }

    /// The values in ascending order.
    #[inline]
    pub const fn iter(self) -> Values {
        Values(self.0)
    }
}

/// The values of a [`Domain`] in ascending order, from [`Domain::iter`].
#[derive(Clone, Debug)]
pub struct Values(u64);

impl Iterator for Values {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let v = self.0.trailing_zeros() as u8;
        // Clear the lowest set bit, the value just yielded.
        self.0 &= self.0 - 1;
        Some(v)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Values {}

impl DoubleEndedIterator for Values {
    #[inline]
    fn next_back(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let v = 63 - self.0.leading_zeros() as u8;
        self.0 &= !(1 << v);
        Some(v)
    }
}

impl IntoIterator for Domain {
    type Item = u8;
    type IntoIter = Values;

    fn into_iter(self) -> Values {
        self.iter()
    }
}

impl FromIterator<u8> for Domain {
    /// Collects values into a domain.
    ///
    /// # Panics
    ///
    /// If a value is above 63.
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Domain {
        iter.into_iter()
            .fold(Domain::EMPTY, |d, v| d | Domain::singleton(v))
    }
}

impl BitAnd for Domain {
    type Output = Domain;
    #[inline]
    fn bitand(self, rhs: Domain) -> Domain {
        Domain(self.0 & rhs.0)
    }
}

impl BitAndAssign for Domain {
    #[inline]
    fn bitand_assign(&mut self, rhs: Domain) {
        self.0 &= rhs.0;
    }
}

impl BitOr for Domain {
    type Output = Domain;
    #[inline]
    fn bitor(self, rhs: Domain) -> Domain {
        Domain(self.0 | rhs.0)
    }
}

impl BitOrAssign for Domain {
    #[inline]
    fn bitor_assign(&mut self, rhs: Domain) {
        self.0 |= rhs.0;
    }
}

impl Sub for Domain {
    type Output = Domain;
    /// Set difference: the values of `self` not in `rhs`.
    #[inline]
    fn sub(self, rhs: Domain) -> Domain {
        Domain(self.0 & !rhs.0)
    }
}

impl Not for Domain {
    type Output = Domain;
    /// The complement within `0..=63`.
    #[inline]
    fn not(self) -> Domain {
        Domain(!self.0)
    }
}

impl fmt::Display for Domain {
    /// Writes the values as sorted runs: `{}`, `{4}`, `{1..3,5}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        let mut rest = self.0;
        let mut first = true;
        while rest != 0 {
            let lo = rest.trailing_zeros();
            // The run of consecutive set bits starting at lo.
            let run = (!(rest >> lo)).trailing_zeros();
            let hi = lo + run - 1;
            if !first {
                f.write_str(",")?;
            }
            first = false;
            match run {
                1 => write!(f, "{lo}")?,
                2 => write!(f, "{lo},{hi}")?,
                _ => write!(f, "{lo}..{hi}")?,
            }
            // Clear the run; hi may be 63, so clear with a mask rather than a shift by 64.
            rest &= !Domain::range(lo as u8, hi as u8).0;
        }
        f.write_str("}")
    }
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Domain{self}")
    }
}

/// The positions of the set bits of `bits`, ascending.
#[inline(always)]
pub(crate) fn ones(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_covers_both_ends_including_0_and_63() {
        assert_eq!(Domain::range(0, 63), Domain::FULL);
        assert_eq!(Domain::range(63, 63), Domain::singleton(63));
        assert_eq!(Domain::range(0, 0), Domain::singleton(0));
        assert_eq!(Domain::range(62, 63).size(), 2);
        assert_eq!(Domain::range(5, 4), Domain::EMPTY);
        assert_eq!(Domain::full(64), Domain::FULL);
        assert_eq!(Domain::full(0), Domain::EMPTY);
        assert_eq!(Domain::full(5), Domain::range(0, 4));
    }

    #[test]
    #[should_panic(expected = "0..=63")]
    fn singleton_rejects_64() {
        let _ = Domain::singleton(64);
    }

    #[test]
    fn min_max_value_at_the_boundaries() {
        assert_eq!(Domain::EMPTY.min(), None);
        assert_eq!(Domain::EMPTY.max(), None);
        assert_eq!(Domain::FULL.min(), Some(0));
        assert_eq!(Domain::FULL.max(), Some(63));
        assert_eq!(Domain::singleton(63).value(), Some(63));
        assert_eq!(Domain::singleton(0).value(), Some(0));
        assert_eq!(Domain::range(62, 63).value(), None);
        assert_eq!(Domain::EMPTY.value(), None);
        assert!(!Domain::EMPTY.is_fixed());
        assert!(Domain::singleton(63).is_fixed());
    }

    #[test]
    fn contains_is_false_beyond_63() {
        assert!(Domain::FULL.contains(63));
        assert!(!Domain::FULL.contains(64));
        assert!(!Domain::FULL.contains(u32::MAX));
        assert_eq!(Domain::FULL.remove(64), Domain::FULL);
        assert_eq!(Domain::FULL.remove(63).max(), Some(62));
        assert_eq!(Domain::FULL.remove(0).min(), Some(1));
    }

    #[test]
    fn shift_drops_values_pushed_out_and_never_wraps() {
        let d = Domain::from_iter([0, 62, 63]);
        assert_eq!(d.shift(1), Domain::from_iter([1, 63]));
        assert_eq!(d.shift(-1), Domain::from_iter([61, 62]));
        assert_eq!(d.shift(63), Domain::singleton(63));
        assert_eq!(d.shift(-63), Domain::singleton(0));
        assert_eq!(d.shift(64), Domain::EMPTY);
        assert_eq!(d.shift(-64), Domain::EMPTY);
        assert_eq!(d.shift(i32::MAX), Domain::EMPTY);
        assert_eq!(d.shift(i32::MIN), Domain::EMPTY);
        assert_eq!(d.shift(0), d);
    }

    #[test]
    fn spread_is_both_shifts() {
        let d = Domain::from_iter([0, 5, 63]);
        assert_eq!(d.spread(1), Domain::from_iter([1, 4, 6, 62]));
        assert_eq!(d.spread(63), Domain::from_iter([0, 63]));
        assert_eq!(d.spread(64), Domain::EMPTY);
        assert_eq!(d.spread(0), d);
    }

    #[test]
    fn at_most_and_at_least_handle_out_of_range_bounds() {
        let d = Domain::from_iter([0, 10, 63]);
        assert_eq!(d.at_most(-1), Domain::EMPTY);
        assert_eq!(d.at_most(0), Domain::singleton(0));
        assert_eq!(d.at_most(62), Domain::from_iter([0, 10]));
        assert_eq!(d.at_most(63), d);
        assert_eq!(d.at_most(1000), d);
        assert_eq!(d.at_least(-5), d);
        assert_eq!(d.at_least(11), Domain::singleton(63));
        assert_eq!(d.at_least(63), Domain::singleton(63));
        assert_eq!(d.at_least(64), Domain::EMPTY);
    }

    #[test]
    fn iteration_is_ascending_and_reversible() {
        let d = Domain::from_iter([63, 0, 7]);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![0, 7, 63]);
        assert_eq!(d.iter().rev().collect::<Vec<_>>(), vec![63, 7, 0]);
        assert_eq!(d.iter().len(), 3);
        assert_eq!(Domain::FULL.iter().count(), 64);
        assert_eq!(Domain::EMPTY.iter().next(), None);
    }

    #[test]
    fn lower_half_splits_at_the_midpoint() {
        assert_eq!(Domain::range(1, 5).lower_half(), Domain::range(1, 3));
        assert_eq!(Domain::range(1, 2).lower_half(), Domain::singleton(1));
        assert_eq!(
            Domain::from_iter([0, 63]).lower_half(),
            Domain::singleton(0)
        );
        assert_eq!(Domain::EMPTY.lower_half(), Domain::EMPTY);
    }

    #[test]
    fn set_operators_agree_with_values() {
        let a = Domain::range(1, 4);
        let b = Domain::range(3, 6);
        assert_eq!(a & b, Domain::range(3, 4));
        assert_eq!(a | b, Domain::range(1, 6));
        assert_eq!(a - b, Domain::range(1, 2));
        assert_eq!((!Domain::EMPTY), Domain::FULL);
    }

    #[test]
    fn display_groups_runs() {
        assert_eq!(Domain::EMPTY.to_string(), "{}");
        assert_eq!(Domain::singleton(4).to_string(), "{4}");
        assert_eq!(Domain::from_iter([1, 2, 3, 5]).to_string(), "{1..3,5}");
        assert_eq!(Domain::from_iter([1, 2, 7]).to_string(), "{1,2,7}");
        assert_eq!(Domain::FULL.to_string(), "{0..63}");
        assert_eq!(Domain::from_iter([0, 62, 63]).to_string(), "{0,62,63}");
    }
}
