//! Régin's filtering for the domain all-different, bit-parallel: a
//! matching, then the values that lie on an alternating cycle or path,
//! found by closures over `u64` value sets ([`consistent`]), or, for groups
//! of at most eight, by one closure over an 8×8 bit matrix of values (or,
//! for values spread wider than eight, of positions) ([`consistent8`]).
//! Before the matching, up to five open positions over as many values (a
//! permutation) are settled, most often, by counting each value's holders
//! ([`permutation8`]).

use super::{at_most_one, mask};
use crate::domain::ones;
use crate::propagator::Conflict;

/// No position, in the `u8` table of value owners.
const NONE: u8 = u8::MAX;

/// Domain-consistent filtering of the positions in `open` among `dom[..n]`
/// (the others are fixed, on values no open position holds). Returns the
/// positions it narrowed.
///
/// Régin's characterisation, worked in value space. Take a matching that
/// gives every open position its own value (none: a conflict, by Hall's
/// theorem). Say value `a` *leads to* value `b` when the position matched
/// to `a` can take `b`: moving that position from `a` to `b` frees `a` and
/// takes `b` from whoever holds it. Position `w`, matched to `m`, keeps
/// value `a` iff some maximum matching gives it `a`, that is iff the chain
/// of moves that starts when `w` takes `a` ends somewhere: back at `m` (a
/// cycle: `a` leads, step by step, to `m`), or at a value no position
/// holds (a path: `a` leads to a free value). The values that lead to a
/// free value are found by one backward closure from the free ones. The
/// rest split into strongly connected components of *leads to*, found one
/// at a time by a forward and a backward closure from a pivot (their meet
/// is the pivot's component); `a`, which `m` leads to directly, leads
/// back to `m` iff both share a component.
///
/// Every set is a `u64` of values, so a closure step is a few word
/// operations; when the open positions form one component (the common
/// case: nothing to prune) the whole filter costs a matching and two
/// closures. The loops run over all `n` positions, with zeros standing in
/// for the positions outside `open`: a fixed trip count is one the branch
/// predictor learns.
pub(super) fn consistent<const N: usize>(
    dom: &mut [u64; N],
    n: usize,
    open: u64,
) -> Result<u64, Conflict> {
    let d = &dom[..n];
    // mate[j]: the value matched to open position j, as a one-bit set (zero
    // for the other positions); owner[a]: the position matched to value a,
    // NONE if a is free (owner[64] takes the writes for "no value").
    let mut mate = [0u64; N];
    let mate = &mut mate[..n];
    let mut owner = [NONE; 65];
    let mut used = 0u64;
    let mut all = 0u64;
    // Greedy first: most positions get a free value at once.
    let mut unmatched = 0u64;
    for (j, (&dj, m)) in d.iter().zip(mate.iter_mut()).enumerate() {
        let here = mask(open >> j & 1 != 0);
        all |= dj & here;
        let free = dj & !used & here;
        let v = free & free.wrapping_neg();
        *m = v;
        used |= v;
        owner[v.trailing_zeros() as usize] = j as u8;
        unmatched |= u64::from(v == 0) << j;
    }
    // Then an augmenting path for each position left over (Kuhn).
    for j in ones(unmatched & open) {
        let mut visited = 0u64;
        if !augment(d, mate, &mut owner, j, &mut visited) {
            return Err(Conflict);
        }
    }
    let mut matched = 0u64;
    for &v in mate.iter() {
        matched |= v;
    }
    // Values that lead to a free value (the free ones included): a position
    // may take any of them.
    let mut to_free = all & !matched;
    if to_free != 0 {
        loop {
            let mut grow = 0u64;
            for (&dj, &m) in d.iter().zip(mate.iter()) {
                grow |= m & mask(dj & to_free != 0);
            }
            if grow & !to_free == 0 {
                break;
            }
            to_free |= grow;
        }
    }
    // allowed[j]: the values open position j keeps.
    let mut allowed = [0u64; N];
    let allowed = &mut allowed[..n];
    // The matched values whose component is still to be found.
    let mut rest = matched & !to_free;
    while rest != 0 {
        let pivot = rest & rest.wrapping_neg();
        // Forward: the values the pivot leads to, within `rest` (one step
        // per value reached).
        let mut fwd = pivot;
        let mut todo = pivot;
        while todo != 0 {
            let a = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let step = d[usize::from(owner[a])] & rest & !fwd;
            fwd |= step;
            todo |= step;
        }
        // Backward: the values that lead to the pivot. Only those the pivot
        // also leads to can share its component, so stay within `fwd`.
        let mut bwd = pivot;
        loop {
            let mut grow = 0u64;
            for (&dj, &m) in d.iter().zip(mate.iter()) {
                grow |= m & mask(dj & bwd != 0);
            }
            grow &= fwd;
            if grow & !bwd == 0 {
                break;
            }
            bwd |= grow;
        }
        let component = fwd & bwd;
        if component == matched {
            // One component holding every matched value: every value of
            // every position lies on a cycle or is free.
            return Ok(0);
        }
        // The positions matched into the component keep its values.
        for (a, &m) in allowed.iter_mut().zip(mate.iter()) {
            *a |= component & mask(m & component != 0);
        }
        rest &= !component;
    }
    let mut narrowed = 0u64;
    for (j, (dj, &a)) in dom[..n].iter_mut().zip(allowed.iter()).enumerate() {
        // Any value that leads to a free one stays, and a position matched
        // to such a value keeps only those (its `allowed` is empty). The
        // positions outside `open` keep everything.
        let left = *dj & (a | to_free | mask(open >> j & 1 == 0));
        narrowed |= u64::from(left != *dj) << j;
        *dj = left;
    }
    Ok(narrowed)
}

/// The filtering of [`consistent8`] without a matching, for up to five
/// open positions (`open`: three or more) that hold exactly as many values as there are of them,
/// within a window of eight (a permutation: a puzzle's houses), when
/// counting holders settles it. Narrows `dom`,
/// adds the positions it narrows to `narrowed` and takes those it fixes
/// out of `open`; returns whether the open positions left are domain
/// consistent, or else leaves them to [`consistent8`].
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
///
/// Three positions over three values need no more than the first count:
/// none of the values may be held by one position alone.
///
/// Always inlined: called from `settle8`, itself inlined in two places,
/// LLVM kept it out of line, a call and its register saves in most runs of
/// a puzzle's groups.
#[inline(always)]
pub(super) fn permutation8(
    dom: &mut [u64; 8],
    open: &mut u64,
    narrowed: &mut u64,
) -> Result<bool, Conflict> {
    debug_assert!(open.count_ones() >= 3, "the caller's three open positions");
    // The values the open positions must take, after the first round.
    let mut values = None;
    loop {
        // How many open positions hold each value, bit-sliced: `odd` and
        // `twos` count modulo four (a half adder each), `fours` is set
        // once four do (fewer operations a position than four running
        // thresholds). Then held[m]: the values that m + 1 open positions
        // or more hold.
        let (mut odd, mut twos, mut fours) = (0u64, 0u64, 0u64);
        let mut k = 0u32;
        if values.is_none() {
            // The first round (most runs have only it), unrolled: three
            // positions or more, the first three added at once (a sum of
            // three is below four: no `fours`), then up to two more (a
            // domain of zero for one that is not there adds nothing), and
            // a sixth is more than the counts settle. Without a loop's
            // trip count and the registers it carries: classic zebra
            // 35,938 -> 35,682 instructions, the Oz zebra at domain
            // strength 55,894 -> 54,989.
            let mut rest = *open;
            // The domain of the lowest position in `rest`, taken out of it.
            let next = |rest: &mut u64| {
                let d = dom[rest.trailing_zeros() as usize & 7];
                *rest &= rest.wrapping_sub(1);
                d
            };
            let (a, b, c) = (next(&mut rest), next(&mut rest), next(&mut rest));
            odd = a ^ b ^ c;
            twos = a & b ^ (a ^ b) & c;
            k = 3;
            // Three positions over three values, none held by one alone
            // (`odd & !twos`: held once): no Hall set of two (it would
            // leave its third value to the third position alone), so
            // settled without the rest (classic zebra 35,682 -> 35,464,
            // the Oz zebra 54,989 -> 54,565).
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
                let d = dom[j & 7];
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
        // conflict). (With the position's bit at hand and a branch, not
        // flags shifted by the index and a masked store: LLVM then needs
        // fewer registers in the whole run, 430 instructions a classic
        // zebra solve.)
        let mut rest = *open;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            let j = rest.trailing_zeros() as usize & 7;
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

/// Whether `bits` holds exactly `k` values, all within a window of eight
/// (a count of eight bits: shorter than one of sixty-four).
#[inline(always)]
fn holds_exactly(bits: u64, k: u32) -> bool {
    let w = bits >> (bits.trailing_zeros() & 63);
    w <= 0xFF && (w as u8).count_ones() == k
}

/// Whether two of the `open` positions (two values or more each) hold the
/// same two values: a Hall set of two.
fn twins(dom: &[u64; 8], open: u64) -> bool {
    let mut pairs = 0u64;
    for j in ones(open) {
        let d = dom[j & 7];
        pairs |= u64::from(at_most_one(d & (d - 1))) << j;
    }
    ones(pairs).any(|j| ones(pairs & ((1 << j) - 1)).any(|i| dom[i & 7] == dom[j & 7]))
}

/// [`consistent8`], out of line: the runs of groups of eight or fewer
/// most often settle without it (see [`permutation8`]), and inlined it
/// would enlarge their frame.
#[inline(never)]
pub(super) fn consistent8_out_of_line(dom: &mut [u64; 8], open: u64) -> Result<u64, Conflict> {
    consistent8(dom, open)
}

/// Bit 0 of every row of an 8×8 bit matrix held in a `u64`, one byte a
/// row: entry `(i, j)` is bit `8 * i + j`.
const LOW: u64 = 0x0101_0101_0101_0101;

/// [`consistent`] for groups of at most eight positions: the same
/// filtering of the positions in `open` (the others are fixed, on values no
/// open position holds, or past the group), where a relation is one 8×8 bit
/// matrix in a `u64`. Returns the positions it narrowed.
///
/// When the open positions' values fit in a window of eight (the common
/// case: a puzzle's houses), the relation is *leads to* of [`consistent`],
/// in value space: row `a` (the value `lo + a`) holds the values the
/// position matched to it can take, so building it moves one byte a
/// position, and the values that go are one word operation away.
/// Position `w`, matched to `m`, keeps value `a` iff `a` leads,
/// step by step, back to `m` (a cycle; `m` itself among them) or to a free
/// value (a path). Otherwise the relation is one between positions (see
/// [`reach_positions`]). Either way, *leads* becomes *reaches* by its
/// transitive closure (Warshall's algorithm, one row operation a step), and
/// the rest is a few word operations on the matrices, with no loop over
/// components or closures over values.
pub(super) fn consistent8(dom: &mut [u64; 8], open: u64) -> Result<u64, Conflict> {
    // The matching, as in `consistent`: greedy, then Kuhn. Only open
    // positions are matched, and the search never leaves them (a value's
    // owner is open), so it reads `dom` as it is.
    let mut mate = [0u64; 8];
    let mut owner = [NONE; 65];
    let (mut matched, mut all) = (0u64, 0u64);
    let mut unmatched = 0u64;
    // `leads` (below) for values within `0..8` as the greedy matching
    // makes it, used when it is the whole matching and those are all the
    // values (a puzzle's houses, numbered from 1); otherwise built anew.
    let mut leads_low = 0u64;
    for j in ones(open) {
        all |= dom[j];
        let free = dom[j] & !matched;
        let v = free & free.wrapping_neg();
        mate[j] = v;
        matched |= v;
        let a = v.trailing_zeros();
        owner[a as usize] = j as u8;
        unmatched |= u64::from(v == 0) << j;
        leads_low |= dom[j].wrapping_shl(8 * a);
    }
    if unmatched != 0 {
        for j in ones(unmatched) {
            let mut visited = 0u64;
            if !augment(&dom[..], &mut mate, &mut owner, j, &mut visited) {
                return Err(Conflict);
            }
        }
        matched = mate.iter().fold(0, |all, &v| all | v);
    }
    // leads: row a holds the values the position matched to value a can
    // take (a itself among them); free values have empty rows. The window
    // of eight starts at `lo`: at 0 when it can (the relation is the same,
    // moved), so the greedy matching's `leads_low` serves.
    let (lo, leads) = if all <= 0xFF && unmatched == 0 {
        (0, leads_low)
    } else {
        let lo = all.trailing_zeros();
        if all >> lo > 0xFF {
            return Ok(reach_positions(dom, open, &mate, &owner, matched));
        }
        let mut leads = 0u64;
        for w in ones(open) {
            leads |= (dom[w] >> lo) << (8 * (mate[w].trailing_zeros() - lo));
        }
        (lo, leads)
    };
    // Row b of the transpose: the values that reach value b. Free values
    // lead nowhere, so only matched ones can be steps.
    let reached = transpose8(close8(leads, matched >> lo));
    // The values that reach a free value, the free ones included.
    let free = (all & !matched) >> lo;
    let mut freeing = free;
    for f in ones(free) {
        freeing |= reached >> (8 * f) & 0xFF;
    }
    // The position matched to value a (row a of `leads`) keeps the values
    // that end a chain of moves: back at a (row a of `reached`) or at a
    // free value. The moves that fail both go.
    let gone = leads & !(reached | (freeing * LOW));
    let mut narrowed = 0u64;
    for b in ones(gone) {
        let w = usize::from(owner[lo as usize + b / 8]);
        dom[w] &= !(1 << (lo as usize + b % 8));
        narrowed |= 1 << w;
    }
    Ok(narrowed)
}

/// The end of [`consistent8`] for values spread wider than eight, in
/// position space. Say position `w` *reaches* position `i` (`w` itself
/// included) when a chain of moves leads from `w` to `i`: `w` can take the
/// value matched to the next position, that one the value matched to the
/// one after, and so on to `i`. Position `w` keeps the value matched to `i`
/// (`w` can take it) iff `i`, turned out of it, can end its chain of moves
/// somewhere: back at `w` (`i` reaches `w`: a cycle) or at a free value
/// (`i` reaches a position that can take a free value: a path). Free values
/// stay, as everywhere.
#[cold]
fn reach_positions(
    dom: &mut [u64; 8],
    open: u64,
    mate: &[u64; 8],
    owner: &[u8; 65],
    matched: u64,
) -> u64 {
    // moves: row w holds the positions whose matched value w can take (w
    // itself among them); to_free: the positions that can take a free value.
    let (mut moves, mut to_free) = (0u64, 0u64);
    for w in ones(open) {
        to_free |= u64::from(dom[w] & !matched != 0) << w;
        let mut row = 0u64;
        for a in ones(dom[w] & matched) {
            row |= 1 << owner[a];
        }
        moves |= row << (8 * w);
    }
    // Row i of the transpose: the positions that reach i. Only open
    // positions have moves, so only they can be steps.
    let reached = transpose8(close8(moves, open));
    // The positions that reach one that can take a free value.
    let mut freeing = 0u64;
    for t in ones(to_free) {
        freeing |= reached >> (8 * t) & 0xFF;
    }
    // w keeps the value matched to i when i ends its chain: a free value or
    // back at w. The moves that fail both go.
    let gone = moves & !((freeing * LOW) | reached);
    let mut narrowed = 0u64;
    for b in ones(gone) {
        let (w, i) = (b / 8, b % 8);
        dom[w] &= !mate[i];
        narrowed |= 1 << w;
    }
    narrowed
}

/// The transitive closure of the relation `m` (an 8×8 bit matrix, see
/// [`LOW`]), where only the indices in `steps` have a row or a column to
/// go through. Warshall: after step `k`, row `i` holds what `i` reaches
/// through the steps handled so far; every row holding `k` takes row `k`.
#[inline(always)]
fn close8(m: u64, steps: u64) -> u64 {
    let mut reach = m;
    for k in ones(steps) {
        let through_k = (reach >> k & LOW) * 0xFF;
        let from_k = (reach >> (8 * k) & 0xFF) * LOW;
        reach |= through_k & from_k;
    }
    reach
}

/// The transpose of an 8×8 bit matrix, one byte a row (see [`LOW`]): three
/// rounds of swapping blocks across the diagonal, 1×1 blocks, then 2×2,
/// then 4×4 (Hacker's Delight, 7-3).
fn transpose8(x: u64) -> u64 {
    let t = (x ^ x >> 7) & 0x00AA_00AA_00AA_00AA;
    let x = x ^ t ^ t << 7;
    let t = (x ^ x >> 14) & 0x0000_CCCC_0000_CCCC;
    let x = x ^ t ^ t << 14;
    let t = (x ^ x >> 28) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ t << 28
}

/// Looks for an alternating path from position `j` to a free value and
/// flips it (Kuhn's augmenting path). `visited` holds the values already
/// tried in this search.
fn augment(d: &[u64], mate: &mut [u64], owner: &mut [u8; 65], j: usize, visited: &mut u64) -> bool {
    let mut candidates = d[j] & !*visited;
    while candidates != 0 {
        let a = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        *visited |= 1 << a;
        let holder = owner[a];
        if holder == NONE || augment(d, mate, owner, usize::from(holder), visited) {
            mate[j] = 1 << a;
            owner[a] = j as u8;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{consistent, consistent8, permutation8, transpose8};
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
    fn keeps_exactly_the_values_some_assignment_uses() {
        // Random open positions (two values or more) over a few values, with
        // free values or without, some without any matching; and fixed
        // positions on values of their own around them, which must be left
        // alone.
        let mut rng = SplitMix64::new(11);
        let (mut conflicts, mut pruned) = (0, 0);
        for _ in 0..30_000 {
            let k = 2 + rng.below(6);
            let fixed = rng.below(3);
            let width = k + rng.below(4);
            let mut dom = [0u64; 16];
            for d in dom.iter_mut().take(k) {
                while d.count_ones() < 2 {
                    *d |= 1 << (3 + rng.below(width));
                }
                for _ in 0..rng.below(3) {
                    *d |= 1 << (3 + rng.below(width));
                }
            }
            for (f, d) in dom.iter_mut().skip(k).take(fixed).enumerate() {
                *d = 1 << (40 + f);
            }
            // Interleave: the fixed positions first, the open ones after.
            dom[..k + fixed].rotate_right(fixed);
            let n = k + fixed;
            let open = ((1u64 << k) - 1) << fixed;
            let mut filtered = dom;
            let result = consistent(&mut filtered, n, open);
            let (conflict, narrowed) = check_filtered(&dom, n, &filtered, result);
            conflicts += usize::from(conflict);
            pruned += usize::from(narrowed);
        }
        assert!(
            conflicts > 100 && pruned > 100,
            "the cases include conflicts and prunings"
        );
    }

    #[test]
    fn transpose8_swaps_rows_and_columns() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..1_000 {
            let x = rng.next_u64();
            let mut expected = 0u64;
            for i in 0..8 {
                for j in 0..8 {
                    expected |= (x >> (8 * i + j) & 1) << (8 * j + i);
                }
            }
            assert_eq!(transpose8(x), expected, "matrix {x:#x}");
        }
    }

    #[test]
    fn consistent8_keeps_exactly_the_values_some_assignment_uses() {
        // Up to eight positions: open ones (two values or more) over a few
        // values, and fixed ones on values of their own, in any order. The
        // open positions' values fit in a window of eight or not (the two
        // ways of `consistent8`), the first often within `0..8` (where the
        // greedy matching builds the relation).
        let mut rng = SplitMix64::new(23);
        let (mut conflicts, mut pruned) = (0, 0);
        let (mut narrow, mut wide, mut low) = (0, 0, 0);
        for _ in 0..30_000 {
            let base = [0, 1, 3][rng.below(3)];
            let k = 2 + rng.below(7);
            let fixed = rng.below(9 - k);
            let n = k + fixed;
            let width = k + rng.below(6);
            let (dom, open) = scattered_group(&mut rng, k, n, base..base + width, 3);
            let all = (0..8)
                .filter(|j| open >> j & 1 == 1)
                .fold(0, |a, j| a | dom[j]);
            low += usize::from(all <= 0xFF);
            if all >> all.trailing_zeros() > 0xFF {
                wide += 1;
            } else {
                narrow += 1;
            }
            let mut filtered = dom;
            let result = consistent8(&mut filtered, open);
            let (conflict, narrowed) = check_filtered(&dom, n, &filtered, result);
            conflicts += usize::from(conflict);
            pruned += usize::from(narrowed);
        }
        assert!(
            conflicts > 100 && pruned > 100,
            "the cases include conflicts and prunings"
        );
        assert!(
            narrow > 1000 && wide > 1000 && low > 1000,
            "the values fit in eight (often in 0..8) or spread wider"
        );
    }

    #[test]
    fn permutation8_settles_exactly_or_leaves_the_matching_to_settle() {
        // Up to eight positions: open ones (two values or more) over as
        // many values as there are of them, or one fewer or more, within a
        // window of eight or not, and fixed ones on values of their own, in
        // any order. Whatever
        // `permutation8` settles must be the domains some assignment
        // allows; what it leaves, `consistent8` finishes.
        let mut rng = SplitMix64::new(31);
        // Runs that `permutation8` settles, narrowing or not, that it finds
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
            let result = match permutation8(&mut filtered, &mut still_open, &mut narrowed) {
                Ok(true) => {
                    settled += 1;
                    settled_narrowed += usize::from(narrowed != 0);
                    Ok(narrowed)
                }
                Ok(false) => {
                    left += 1;
                    consistent8(&mut filtered, still_open).map(|more| narrowed | more)
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
