//! Régin's filtering for the domain all-different, bit-parallel: a
//! matching, then the values that lie on an alternating cycle or path,
//! found by closures over `u64` value sets.

use super::{mask, ones};
use crate::propagators::Conflict;

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
    use super::consistent;
    use crate::check::SplitMix64;

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
            match supported(&dom[..n]) {
                None => {
                    assert!(result.is_err(), "domains {dom:?}");
                    conflicts += 1;
                }
                Some(expected) => {
                    let narrowed = result.expect("a matching exists");
                    assert_eq!(&filtered[..n], &expected[..], "domains {dom:?}");
                    for j in 0..n {
                        assert_eq!(narrowed >> j & 1 == 1, filtered[j] != dom[j]);
                    }
                    pruned += usize::from(narrowed != 0);
                }
            }
        }
        assert!(
            conflicts > 100 && pruned > 100,
            "the cases include conflicts and prunings"
        );
    }
}
