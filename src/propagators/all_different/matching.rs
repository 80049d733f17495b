//! Régin's filtering for the domain all-different, bit-parallel, for every
//! group size up to 64.
//!
//! * [`consistent`]: a maximum matching, kept from the run before and
//!   repaired where values went, then the values that lie on an alternating
//!   path to a free value or on an alternating cycle, found by closures over
//!   `u64` value sets, a few word operations a position.
//! * [`permutation`]: up to five open positions over as many values (a
//!   puzzle's houses, a sudoku unit's last cells), settled most often by
//!   counting each value's holders, with no matching.
//!
//! # The matching in the state words
//!
//! A group of more than eight positions keeps the value last matched to
//! each position, a byte a position, eight a word (little-endian), in the
//! state words after its first ([`mate_words`]); a smaller group keeps
//! none (counting settles most of its runs) and matches from scratch. A
//! stored value counts only while it is still in its position's domain and
//! no earlier position took it, so a stale entry (zeros at the root, the
//! value of a position fixed since) costs a repair, never a wrong answer.
//! Below in the tree domains only shrink, so most entries stay good, and a
//! run repairs the positions that lost their value, most often with a free
//! value, otherwise by an augmenting path.

use super::{at_most_one, mask};
use crate::domain::ones;
use crate::propagator::Conflict;

/// The state words, after the first, in which a group of `n` positions
/// keeps its matching: a byte a position, none for eight positions or
/// fewer.
pub(super) fn mate_words(n: usize) -> usize {
    if n > 8 { n.div_ceil(8) } else { 0 }
}

/// Domain-consistent filtering of the positions in `open` among `dom`
/// (the others are fixed, on values no open position holds, or past the
/// group), starting from the matching `mates` holds (see [`mate_words`]),
/// which it repairs and leaves there for the next run. Returns the
/// positions it narrowed.
///
/// Régin's characterisation, worked in value space. Take a matching that
/// gives every open position its own value (none: a conflict, by Hall's
/// theorem). Say value `a` *leads to* value `b` when the position matched
/// to `a` can take `b`: moving that position from `a` to `b` frees `a` and
/// takes `b` from whoever holds it. Position `w`, matched to `m`, keeps
/// value `a` iff some maximum matching gives it `a`, that is iff the chain
/// of moves that starts when `w` takes `a` ends somewhere: at a value no
/// position holds (a path: `a` leads to a free value), or back at `m` (a
/// cycle: `a` leads, step by step, to `m`; as `m` leads to `a`, both lie in
/// one strongly connected component of *leads to*).
///
/// The values that lead to a free value are one backward closure from the
/// free ones ([`reaching`]). The other matched values split into
/// components, found one at a time from a pivot ([`component`]). When no
/// value is free and one component holds every matched value (the common
/// case: nothing to prune) the filter costs the check of the stored
/// matching and one component's closures, a few word operations an open
/// position each.
pub(super) fn consistent<const N: usize>(
    dom: &mut [u64; N],
    open: u64,
    mates: &mut [u64],
) -> Result<u64, Conflict> {
    // Positions are below `N`, a power of two: `& (N - 1)` spares the
    // bounds checks.
    const { assert!(N.is_power_of_two() && N <= 64, "a tier of at most 64") };
    let at = |i: usize| i & (N - 1);
    // The stored values, a byte a position.
    let mut stored = [0u8; N];
    for (chunk, &w) in stored.chunks_exact_mut(8).zip(mates.iter()) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    // The open positions, dense, so that the sweeps below run over arrays:
    // d[i] is the domain of the i-th open position, mate[i] its matched
    // value as a one-bit set (zero while it has none).
    let mut d = [0u64; N];
    let mut mate = [0u64; N];
    // `free`: the values no position took yet; `lost`: some position has
    // none.
    let (mut k, mut free, mut all, mut lost) = (0usize, u64::MAX, 0u64, false);
    for ((dk, mk), j) in d.iter_mut().zip(mate.iter_mut()).zip(ones(open)) {
        let dj = dom[at(j)];
        // The stored value, if still in the domain and not taken before.
        let m = 1u64.wrapping_shl(u32::from(stored[at(j)])) & dj & free;
        (*dk, *mk) = (dj, m);
        free ^= m;
        all |= dj;
        lost |= m == 0;
        k += 1;
    }
    let mut matched = !free;
    let (d, mate) = (&d[..k], &mut mate[..k]);
    if lost {
        repair::<N>(d, mate, &mut matched)?;
        if !mates.is_empty() {
            for (&m, j) in mate.iter().zip(ones(open)) {
                stored[at(j)] = m.trailing_zeros() as u8;
            }
            for (word, chunk) in mates.iter_mut().zip(stored.chunks_exact(8)) {
                *word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            }
        }
    }

    // Values that lead to a free value (the free ones among them): any
    // position may take them.
    let free = all & !matched;
    let to_free = if free == 0 {
        0
    } else {
        reaching(d, mate, free)
    };
    // The matched values whose component is still to be found.
    let rest = matched & !to_free;
    if rest == 0 {
        return Ok(0);
    }
    let first = component(d, mate, rest);
    if first == matched {
        // One component holding every matched value, and no free value:
        // every value lies on a cycle.
        return Ok(0);
    }
    Ok(prune(dom, d, mate, open, rest, to_free, first))
}

/// The values among `d`'s that lead to a value of `free` (see
/// [`consistent`]), those of `free` among them.
///
/// A sweep over the positions adds the matched value of each that can take
/// one of them, and sees the growth of the positions before it; sweeps go
/// on until one adds nothing.
fn reaching(d: &[u64], mate: &[u64], free: u64) -> u64 {
    let mut to_free = free;
    loop {
        let before = to_free;
        for (&di, &m) in d.iter().zip(mate) {
            to_free |= m & mask(di & to_free != 0);
        }
        if to_free == before {
            return to_free;
        }
    }
}

/// The strongly connected component of *leads to* (see [`consistent`])
/// that holds the lowest value of `rest`, within `rest` (a union of
/// components).
///
/// A forward closure (the values the pivot leads to) and a backward one
/// (the values that lead to it) grow together by sweeps over the
/// positions: position `i`, matched to `m` in `rest`, adds its domain to
/// the forward set once `m` is in it, and adds `m` to the backward set
/// once its domain meets it. A sweep sees the growth of the positions
/// before it, so a few sweeps close both; they stop once a sweep adds
/// nothing, or at once when both hold all of `rest` (one component). Their
/// meet is the component.
#[inline(always)]
fn component(d: &[u64], mate: &[u64], rest: u64) -> u64 {
    let pivot = rest & rest.wrapping_neg();
    let (mut fwd, mut bwd) = (pivot, pivot);
    loop {
        let before = (fwd, bwd);
        for (&di, &m) in d.iter().zip(mate) {
            // A position matched outside `rest` adds nothing, so `bwd`
            // stays within `rest`, and so does `fwd` but for values no
            // position matched into `rest` leads on from.
            let m = m & rest;
            fwd |= di & mask(m & fwd != 0);
            bwd |= m & mask(di & bwd != 0);
        }
        if fwd & bwd == rest || (fwd, bwd) == before {
            return fwd & bwd;
        }
    }
}

/// The end of [`consistent`] when some value goes: the other components of
/// `rest` (the first found already), then each open position (`d[i]` the
/// domain of the i-th of `open`) narrowed to the values that lead to a free
/// one (`to_free`) and, when its matched value lies in `rest`, that value's
/// component. Returns the positions narrowed.
#[cold]
#[inline(never)]
fn prune<const N: usize>(
    dom: &mut [u64; N],
    d: &[u64],
    mate: &[u64],
    open: u64,
    mut rest: u64,
    to_free: u64,
    first: u64,
) -> u64 {
    // keep[i]: the values open position i keeps, those of `to_free` aside.
    let mut keep = [0u64; N];
    let keep = &mut keep[..d.len()];
    let mut found = first;
    loop {
        for (kp, &m) in keep.iter_mut().zip(mate) {
            *kp |= found & mask(m & found != 0);
        }
        rest &= !found;
        if rest == 0 {
            break;
        }
        found = component(d, mate, rest);
    }
    let mut narrowed = 0u64;
    for ((&di, &kp), j) in d.iter().zip(keep.iter()).zip(ones(open)) {
        // A position matched to a value that leads to a free one keeps
        // those values only: any other would have to lead to its own.
        let left = di & (kp | to_free);
        if left != di {
            dom[j & (N - 1)] = left;
            narrowed |= 1 << j;
        }
    }
    narrowed
}

/// Gives each position without a value (`mate[i]` zero) a value of its
/// own: a free one where its domain has one (at the root, where nothing is
/// stored: a greedy matching), else by an augmenting path. `matched` is
/// the set of values `mate` holds, kept so.
///
/// # Errors
///
/// [`Conflict`] when some position cannot be matched: by Hall's theorem
/// the positions then have too few values between them.
fn repair<const N: usize>(d: &[u64], mate: &mut [u64], matched: &mut u64) -> Result<(), Conflict> {
    let mut stuck = 0u64;
    for (i, (&di, mi)) in d.iter().zip(mate.iter_mut()).enumerate() {
        if *mi == 0 {
            let free = di & !*matched;
            let a = free & free.wrapping_neg();
            *mi = a;
            *matched |= a;
            stuck |= u64::from(a == 0) << i;
        }
    }
    for i in ones(stuck) {
        if !augment::<N>(d, mate, matched, i) {
            return Err(Conflict);
        }
    }
    Ok(())
}

/// Looks for a shortest alternating path from position `i` (a dense index
/// into `d`, unmatched) to a free value and flips it, breadth first over
/// sets of positions: layer 0 is `i`; layer `t + 1` the positions not
/// reached before that are matched to a value some position of layers `0`
/// to `t` can take, one sweep over the positions' values. Returns whether
/// it found one.
///
/// A position of layer `t + 1` is matched to a value of a position of
/// layer `t` (else an earlier layer would hold it), so the path is found
/// again from its end, layer by layer back to `i`, with no pointers kept.
/// Most paths are short: in a sudoku unit, `i`'s value went to a cell
/// fixed elsewhere, and one position of layer 1 can take that cell's value,
/// now free.
#[inline(never)]
fn augment<const N: usize>(d: &[u64], mate: &mut [u64], matched: &mut u64, i: usize) -> bool {
    let free = !*matched;
    let mut layers = [0u64; N];
    layers[0] = 1 << i;
    // `seen`: the positions of the layers so far; `reach`: their values.
    let (mut seen, mut reach) = (1u64 << i, d[i]);
    for t in 1..N {
        // The next layer, and the values it adds.
        let (mut next, mut more) = (0u64, 0u64);
        for (p, (&m, &dp)) in mate.iter().zip(d).enumerate() {
            // (An unmatched position, `i` among them, is never reached.)
            if m & reach != 0 && seen >> p & 1 == 0 {
                let take = dp & free;
                if take != 0 {
                    let w = take & take.wrapping_neg();
                    *matched |= w;
                    flip(d, mate, &layers[..t], p, w);
                    return true;
                }
                next |= 1 << p;
                more |= dp;
            }
        }
        if next == 0 {
            return false;
        }
        layers[t] = next;
        seen |= next;
        reach |= more;
    }
    false
}

/// Flips the alternating path that ends at position `end`, of the layer
/// after `layers` (see [`augment`]), with the free value `w`: `end` takes
/// `w`, and back through the layers each position on the path takes the
/// value the one after it gave up, down to the unmatched position of
/// layer 0.
fn flip(d: &[u64], mate: &mut [u64], layers: &[u64], end: usize, w: u64) {
    let (mut p, mut give) = (end, w);
    for &layer in layers.iter().rev() {
        let old = std::mem::replace(&mut mate[p], give);
        give = old;
        // A position of this layer can take `old`: that is how `p` was
        // reached.
        p = ones(layer)
            .find(|&q| d[q] & old != 0)
            .expect("a position of the layer before reached it");
    }
    mate[p] = give;
}

/// The filtering of [`consistent`] without a matching, for up to five open
/// positions (`open`: three or more) that hold exactly as many values as
/// there are of them (a permutation: a puzzle's houses, a sudoku unit's
/// last cells), when counting holders settles it. Narrows `dom`, adds the
/// positions it narrows to `narrowed` and takes those it fixes out of
/// `open`; returns whether the open positions left are domain consistent,
/// or else leaves them to [`consistent`].
///
/// In a permutation of `k` positions every value is taken, so a set of
/// `t` positions that hold `t` values between them (a Hall set: they take
/// those values) has a mirror: the other `k - t` values are held only by
/// the other `k - t` positions, which take them. Both say the same: the
/// Hall set's values go from the other positions. So a Hall set of `t`
/// open positions (`2 <= t < k`: an open position holds two values or
/// more) shows as `k - t` values held by at most `k - t` positions each,
/// and counting holders up to four rules them all out for `k <= 5`:
///
/// * A value one position alone holds (the mirror of a Hall set of
///   `k - 1`) is fixed there; one position holding two such values is a
///   conflict. The other positions must then take the other values: a
///   permutation again, unless one of those lost its last holder (a
///   conflict), and the counting starts over.
/// * With no such value, three positions have no Hall set; four have none
///   while at most one value is held by two positions (`t = 2`); five
///   none while at most one value is held by two (`t = 3`) and at most two
///   by three or fewer (`t = 2`). Where only a Hall set of two is left in
///   doubt, it is looked for: two positions holding the same two values.
///
/// The same counts rule out a conflict, a set of `t` positions holding
/// `s < t` values between them (`2 <= s`, and `t < k`: the positions hold
/// `k` values): its mirror is `k - s` values held by at most `k - t < k -
/// s` positions each, which fails the count that rules out a Hall set of
/// `s` positions.
#[inline(always)]
pub(super) fn permutation<const N: usize>(
    dom: &mut [u64; N],
    open: &mut u64,
    narrowed: &mut u64,
) -> Result<bool, Conflict> {
    debug_assert!(open.count_ones() >= 3, "the caller's three open positions");
    let at = |i: usize| i & (N - 1);
    // The values the open positions must take, after the first round.
    let mut values = None;
    loop {
        // How many open positions hold each value, bit-sliced: `odd` and
        // `twos` count modulo four (a half adder each), `fours` is set
        // once four do. Then held[m]: the values that m + 1 open positions
        // or more hold.
        let (mut odd, mut twos, mut fours) = (0u64, 0u64, 0u64);
        let mut k = 0u32;
        if values.is_none() {
            // The first round (most runs have only it), unrolled: three
            // positions or more, the first three added at once (a sum of
            // three is below four: no `fours`), then up to two more (a
            // domain of zero for one that is not there adds nothing), and
            // a sixth is more than the counts settle.
            let mut rest = *open;
            // The domain of the lowest position in `rest`, taken out of it.
            let next = |rest: &mut u64| {
                let d = dom[at(rest.trailing_zeros() as usize)];
                *rest &= rest.wrapping_sub(1);
                d
            };
            let (a, b, c) = (next(&mut rest), next(&mut rest), next(&mut rest));
            odd = a ^ b ^ c;
            twos = a & b ^ (a ^ b) & c;
            k = 3;
            // Three positions over three values, none held by one alone
            // (`odd & !twos`: held once): no Hall set of two (it would
            // leave its third value to the third position alone).
            if rest == 0 && odd & !twos == 0 {
                let one_cleared = twos & twos.wrapping_sub(1);
                let two_cleared = one_cleared & one_cleared.wrapping_sub(1);
                if two_cleared != 0 && two_cleared & two_cleared.wrapping_sub(1) == 0 {
                    return Ok(true);
                }
            }
            for _ in 0..2 {
                let here = rest != 0;
                let d = if here { next(&mut rest) } else { 0 };
                k += u32::from(here);
                let carry = odd & d;
                odd ^= d;
                fours |= twos & carry;
                twos ^= carry;
            }
            // A sixth position or more: six stands for them (over five).
            k += u32::from(rest != 0);
        } else {
            for j in ones(*open) {
                let d = dom[at(j)];
                let carry = odd & d;
                odd ^= d;
                fours |= twos & carry;
                twos ^= carry;
                k += 1;
            }
        }
        let held = [odd | twos | fours, twos | fours, odd & twos | fours, fours];
        match values {
            None if k > 5 || !holds_exactly(held[0], k) => return Ok(false),
            // The values the positions fixed last round did not take must
            // still be held: the rest are a permutation of them.
            Some(left) if held[0] != left => return Err(Conflict),
            _ => {}
        }
        let single = held[0] & !held[1];
        if single == 0 {
            let (twice_at_most, thrice_at_most) = (held[0] & !held[2], held[0] & !held[3]);
            let counted = match k {
                ..=3 => true,
                4 => at_most_one(twice_at_most),
                _ => {
                    at_most_one(twice_at_most)
                        && at_most_one(thrice_at_most & thrice_at_most.wrapping_sub(1))
                }
            };
            // Where the counts allow only a Hall set of two, look for one:
            // two positions holding the same two values.
            return Ok(counted || (k == 4 || at_most_one(twice_at_most)) && !twins(dom, *open));
        }
        // Each value of `single` lies in one position's domain, so the
        // positions' shares of it are disjoint and cover it, and one
        // position holds two of them exactly when the shares' lowest
        // values do not cover it.
        let (mut lowest, mut fixed) = (0u64, 0u64);
        // A position holding some of them keeps those (one, unless a
        // conflict).
        let mut rest = *open;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            let j = at(rest.trailing_zeros() as usize);
            rest ^= bit;
            let mine = dom[j] & single;
            lowest |= mine & mine.wrapping_neg();
            if mine != 0 {
                fixed |= bit;
                dom[j] = mine;
            }
        }
        if lowest != single {
            return Err(Conflict);
        }
        // An open position holds two values or more: fixing narrows it.
        *narrowed |= fixed;
        *open &= !fixed;
        values = Some(held[0] & !single);
    }
}

/// Whether `bits` holds exactly `k` values (a count of eight bits when
/// they lie within a window of eight: shorter than one of sixty-four).
#[inline(always)]
fn holds_exactly(bits: u64, k: u32) -> bool {
    let w = bits >> (bits.trailing_zeros() & 63);
    if w <= 0xFF {
        (w as u8).count_ones() == k
    } else {
        w.count_ones() == k
    }
}

/// Whether two of the `open` positions (two values or more each) hold the
/// same two values: a Hall set of two.
fn twins<const N: usize>(dom: &[u64; N], open: u64) -> bool {
    let at = |i: usize| i & (N - 1);
    let mut pairs = 0u64;
    for j in ones(open) {
        let d = dom[at(j)];
        pairs |= u64::from(at_most_one(d & (d - 1))) << j;
    }
    ones(pairs).any(|j| ones(pairs & ((1 << j) - 1)).any(|i| dom[at(i)] == dom[at(j)]))
}

#[cfg(test)]
mod tests {
    use super::{augment, consistent, mate_words, permutation};
    use crate::check::SplitMix64;
    use crate::propagator::Conflict;

    /// The values of each position that some assignment of distinct values
    /// to all positions gives it, by trying them all; `None` if there is
    /// no such assignment.
    fn supported(dom: &[u64]) -> Option<Vec<u64>> {
        fn walk(dom: &[u64], j: usize, used: u64, at: &mut Vec<u32>, out: &mut [u64]) {
            if j == dom.len() {
                for (i, &a) in at.iter().enumerate() {
                    out[i] |= 1 << a;
                }
                return;
            }
            let mut left = dom[j] & !used;
            while left != 0 {
                let a = left.trailing_zeros();
                left &= left - 1;
                at.push(a);
                walk(dom, j + 1, used | 1 << a, at, out);
                at.pop();
            }
        }
        let mut out = vec![0; dom.len()];
        walk(dom, 0, 0, &mut Vec::new(), &mut out);
        out.iter().all(|&d| d != 0).then_some(out)
    }

    /// Checks a filtering of `dom` (its positions `..n` a group, the
    /// others to be left alone) against [`supported`]: `result` and the
    /// domains `filtered` it left. Returns whether it failed and whether it
    /// narrowed.
    fn check_filtered(
        dom: &[u64],
        n: usize,
        filtered: &[u64],
        result: Result<u64, Conflict>,
    ) -> (bool, bool) {
        let Some(expected) = supported(&dom[..n]) else {
            assert!(result.is_err(), "domains {dom:?}");
            return (true, false);
        };
        let narrowed = result.expect("a matching exists");
        assert_eq!(&filtered[..n], &expected[..], "domains {dom:?}");
        assert_eq!(&filtered[n..], &dom[n..], "past the group");
        for (j, (f, d)) in filtered.iter().zip(dom).enumerate() {
            assert_eq!(narrowed >> j & 1 == 1, f != d, "domains {dom:?}");
        }
        (false, narrowed != 0)
    }

    /// Whether `mates` stores for each open position a value of its domain,
    /// no two the same.
    fn stores_a_matching(dom: &[u64], open: u64, mates: &[u64]) -> bool {
        let mut used = 0u64;
        (0..dom.len()).filter(|j| open >> j & 1 == 1).all(|j| {
            let m = 1u64 << (mates[j / 8] >> (8 * (j % 8)) & 63);
            let fresh = dom[j] & m != 0 && used & m == 0;
            used |= m;
            fresh
        })
    }

    #[test]
    fn keeps_exactly_the_values_some_assignment_uses() {
        // Random open positions (two values or more) over a few values, with
        // free values or without, some without any matching; and fixed
        // positions on values of their own around them, which must be left
        // alone. Each case runs from no stored matching, from a random
        // stale one, and without a store (a group of eight or fewer); and
        // again from the matching it stored, which nothing more narrows.
        let mut rng = SplitMix64::new(11);
        let (mut conflicts, mut pruned) = (0, 0);
        for _ in 0..30_000 {
            let k = 2 + rng.below(8);
            let fixed = rng.below(3);
            let width = k + rng.below(4);
            let base = rng.below(40);
            let mut dom = [0u64; 16];
            for d in dom.iter_mut().take(k) {
                while d.count_ones() < 2 {
                    *d |= 1 << (base + rng.below(width));
                }
                for _ in 0..rng.below(3) {
                    *d |= 1 << (base + rng.below(width));
                }
            }
            for (f, d) in dom.iter_mut().skip(k).take(fixed).enumerate() {
                *d = 1 << (60 + f);
            }
            // Interleave: the fixed positions first, the open ones after.
            dom[..k + fixed].rotate_right(fixed);
            let n = k + fixed;
            let open = ((1u64 << k) - 1) << fixed;
            let stale = [rng.next_u64(), rng.next_u64()];
            for start in [vec![0u64; 2], stale.to_vec(), Vec::new()] {
                let mut mates = start;
                let mut filtered = dom;
                let result = consistent(&mut filtered, open, &mut mates);
                let (conflict, narrowed) = check_filtered(&dom, n, &filtered, result);
                if conflict {
                    conflicts += 1;
                    continue;
                }
                pruned += usize::from(narrowed);
                if !mates.is_empty() {
                    assert!(stores_a_matching(&filtered, open, &mates), "{dom:?}");
                }
                let mut again = filtered;
                assert_eq!(consistent(&mut again, open, &mut mates), Ok(0));
                assert_eq!(again, filtered);
            }
        }
        assert!(
            conflicts > 100 && pruned > 100,
            "the cases include conflicts and prunings"
        );
    }

    #[test]
    fn wide_groups_keep_exactly_the_values_some_assignment_uses() {
        // Up to 64 positions over up to 64 values: a random permutation
        // with a few more values a position, over as many values as
        // positions, one fewer or one more, checked against the projection
        // of a brute force on the small ones and, on all, by a second run
        // from the matching stored, which nothing more narrows.
        let mut rng = SplitMix64::new(13);
        let mut pruned = 0;
        for _ in 0..2_000 {
            let n = 3 + rng.below(62);
            let mut dom = [0u64; 64];
            let mut perm: Vec<usize> = (0..64).collect();
            for i in (1..64).rev() {
                perm.swap(i, rng.below(i + 1));
            }
            // As many values as positions, one fewer, or one more.
            let width = (n + rng.below(3)).clamp(2, 65) - 1;
            for (j, d) in dom.iter_mut().take(n).enumerate() {
                *d = 1 << perm[j % width];
                for _ in 0..1 + rng.below(3) {
                    *d |= 1 << perm[rng.below(width)];
                }
            }
            let open = u64::MAX >> (64 - n);
            let mut mates = vec![0u64; mate_words(n)];
            let mut filtered = dom;
            let result = consistent(&mut filtered, open, &mut mates);
            if n <= 12 {
                check_filtered(&dom, n, &filtered, result);
            }
            let Ok(narrowed) = result else { continue };
            pruned += usize::from(narrowed != 0);
            if !mates.is_empty() {
                assert!(stores_a_matching(&filtered, open, &mates), "{dom:?}");
            }
            let mut again = filtered;
            assert_eq!(consistent(&mut again, open, &mut mates), Ok(0));
        }
        assert!(pruned > 100, "some cases prune");
    }

    #[test]
    fn augment_follows_the_one_path_through_every_position() {
        // Position 0, unmatched, can take value 1 only; position p in
        // 1..n holds value p and can also take p + 1; value n is free. The
        // one augmenting path runs through every position (n layers): each
        // must move up a value. With value n taken (by a position outside)
        // nothing is free: no path, and nothing moves.
        for n in 2..=63 {
            let d: Vec<u64> = (0..n)
                .map(|p| if p == 0 { 0b10 } else { 0b11 << p })
                .collect();
            let mut mate: Vec<u64> = (0..n).map(|p| if p == 0 { 0 } else { 1 << p }).collect();
            let mut matched = mate.iter().fold(0, |m, &a| m | a);
            assert!(augment::<64>(&d, &mut mate, &mut matched, 0), "n = {n}");
            let moved: Vec<u64> = (0..n).map(|p| 1 << (p + 1)).collect();
            assert_eq!(mate, moved, "n = {n}");
            assert_eq!(matched, moved.iter().fold(0, |m, &a| m | a));

            let mut mate: Vec<u64> = (0..n).map(|p| if p == 0 { 0 } else { 1 << p }).collect();
            let mut matched = u64::MAX;
            let before = mate.clone();
            assert!(!augment::<64>(&d, &mut mate, &mut matched, 0), "n = {n}");
            assert_eq!(mate, before, "n = {n}");
        }
    }

    /// A group of `n <= 8` positions, `k` of them open, chosen at random
    /// (Fisher-Yates): each open one holds two values of `values` or more
    /// (up to `extra` more draws), each other is fixed on a value of its
    /// own, 40 and up. Returns the domains and the open positions.
    fn scattered_group(
        rng: &mut SplitMix64,
        k: usize,
        n: usize,
        values: std::ops::Range<usize>,
        extra: usize,
    ) -> ([u64; 8], u64) {
        let mut is_open = [false; 8];
        is_open[..k].fill(true);
        for j in (1..n).rev() {
            is_open.swap(j, rng.below(j + 1));
        }
        let mut dom = [0u64; 8];
        let mut open = 0u64;
        let draw = |rng: &mut SplitMix64| 1 << (values.start + rng.below(values.len()));
        for (j, d) in dom.iter_mut().take(n).enumerate() {
            if !is_open[j] {
                *d = 1 << (40 + j);
                continue;
            }
            open |= 1 << j;
            while d.count_ones() < 2 {
                *d |= draw(rng);
            }
            for _ in 0..rng.below(extra) {
                *d |= draw(rng);
            }
        }
        (dom, open)
    }

    #[test]
    fn permutation_settles_exactly_or_leaves_the_matching_to_settle() {
        // Up to eight positions: open ones (two values or more) over as
        // many values as there are of them, or one fewer or more, within a
        // window of eight or not, and fixed ones on values of their own, in
        // any order. Whatever `permutation` settles must be the domains
        // some assignment allows; what it leaves, `consistent` finishes.
        let mut rng = SplitMix64::new(31);
        // Runs that `permutation` settles, narrowing or not, that it finds
        // in conflict, and that it leaves to the matching.
        let (mut settled, mut settled_narrowed, mut conflicts, mut left) = (0, 0, 0, 0);
        for _ in 0..30_000 {
            let base = [0, 1, 3][rng.below(3)];
            let k = 3 + rng.below(4);
            let fixed = rng.below(9 - k);
            let n = k + fixed;
            let width = match rng.below(8) {
                0 => k - 1,
                1 => k + 1,
                _ => k,
            };
            let (mut dom, open) = scattered_group(&mut rng, k, n, base..base + width, 2);
            // Now and then the window's last value moves far off: the
            // values no longer fit in eight.
            if rng.below(8) == 0 {
                let last = 1 << (base + width - 1);
                for d in dom.iter_mut().take(n) {
                    if *d & last != 0 && *d >> 40 == 0 {
                        *d = *d & !last | 1 << 30;
                    }
                }
            }
            let mut filtered = dom;
            let (mut still_open, mut narrowed) = (open, 0u64);
            let result = match permutation(&mut filtered, &mut still_open, &mut narrowed) {
                Ok(true) => {
                    settled += 1;
                    settled_narrowed += usize::from(narrowed != 0);
                    Ok(narrowed)
                }
                Ok(false) => {
                    left += 1;
                    consistent(&mut filtered, still_open, &mut []).map(|more| narrowed | more)
                }
                Err(conflict) => {
                    conflicts += 1;
                    Err(conflict)
                }
            };
            check_filtered(&dom, n, &filtered, result);
        }
        assert!(
            settled > 5_000 && settled_narrowed > 3_000 && conflicts > 100 && left > 5_000,
            "settled {settled} ({settled_narrowed} narrowed), conflicts {conflicts}, left {left}"
        );
    }
}
