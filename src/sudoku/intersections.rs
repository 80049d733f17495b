//! The box-line intersections of a sudoku band, as one redundant
//! propagator.
//!
//! A *band* is `b` consecutive rows (or columns) of a board of side
//! `n = b * b`: `b` lines crossing `b` boxes. Where line `l` crosses box `k`
//! lie `b` cells, the intersection `I`. The line and the box each take every
//! value once, so the values the line takes outside the box are exactly
//! those the box takes outside the line (both are the values `I` does not
//! take). A value that no cell of the box outside the line can take is
//! thus taken by none of the line outside the box, and the other way round:
//! sudoku solvers' "pointing" and "box-line reduction". The all-different
//! and each-value-held of the units cannot see this, as each looks at one
//! unit; on large boards it cuts the search tree many times over.
//!
//! Strength: each cell keeps only the values that the other side of every
//! intersection it lies beside can take, to a fixpoint.
//! Wakes on: any change of a cell of the band.
//! Idempotent: it loops until a pass narrows nothing.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::propagator::{Ctx, Event, Priority, Propagation, Propagator, Status, Subscriptions};

/// The box-line propagator of one band.
#[derive(Clone, Debug)]
pub(super) struct Band {
    /// The band's cells, line by line, and along a line box by box: the
    /// cell at `j` (`0..b`) in the intersection of line `l` and box `k` is
    /// `cells[l * n + k * b + j]`.
    cells: Vec<VarId>,
    /// The box side `b`: lines and boxes in the band, cells an
    /// intersection.
    b: usize,
}

impl Band {
    /// The band of `cells`, ordered as [`Band::cells`] says, for boxes of
    /// side `b` (`cells.len() == b * b * b`).
    pub(super) fn new(cells: Vec<VarId>, b: usize) -> Band {
        debug_assert_eq!(cells.len(), b * b * b);
        Band { cells, b }
    }
}

/// For each `i`, `sets` but `sets[i]` combined by `op` (associative and
/// commutative, with identity `none`), from prefixes and suffixes.
#[inline(always)]
fn but_one_each(sets: &[u64], out: &mut [u64], op: impl Fn(u64, u64) -> u64, none: u64) {
    let mut before = none;
    for (o, &s) in out.iter_mut().zip(sets) {
        *o = before;
        before = op(before, s);
    }
    let mut after = none;
    for (o, &s) in out.iter_mut().zip(sets).rev() {
        *o = op(*o, after);
        after = op(after, s);
    }
}

impl Propagator for Band {
    fn name(&self) -> &'static str {
        "box-line"
    }

    fn subscribe(&self, subs: &mut Subscriptions) {
        for &x in &self.cells {
            subs.on(x, Event::Changed);
        }
    }

    /// After the units' own propagators: it reads a whole band.
    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn propagate(&self, ctx: &mut Ctx<'_>) -> Propagation {
        let b = self.b;
        let n = b * b;
        // At most 6 lines and boxes (a 36x36 board).
        // The band's domains: read once, then narrowed as `ctx.restrict`
        // narrows the cells, so each pass reads the current ones.
        let mut doms = [0u64; 216];
        let mut inter = [0u64; 36];
        // By intersection (line l, box k at l * b + k): the values of line
        // l outside box k, and of box k outside line l.
        let mut line_rest = [0u64; 36];
        let mut box_rest = [0u64; 36];
        let mut keep = [0u64; 36];
        let mut column = [0u64; 6];
        let mut but_one = [0u64; 6];
        ctx.doms_into(&self.cells, &mut doms);
        loop {
            // inter[l * b + k]: the values the intersection of line l and
            // box k can take.
            for (u, cells) in inter.iter_mut().zip(doms[..n * b].chunks_exact(b)) {
                *u = cells.iter().fold(0, |u, &d| u | d);
            }
            for (rest, line) in line_rest
                .chunks_exact_mut(b)
                .zip(inter[..n].chunks_exact(b))
            {
                but_one_each(line, rest, |a, b| a | b, 0);
            }
            for k in 0..b {
                for l in 0..b {
                    column[l] = inter[l * b + k];
                }
                but_one_each(&column[..b], &mut but_one[..b], |a, b| a | b, 0);
                for l in 0..b {
                    box_rest[l * b + k] = but_one[l];
                }
            }
            // A cell of line l in box k keeps the values of every other
            // box outside line l (along line l, outside that box, are the
            // values of that box outside the line) and of every other line
            // outside box k (the same in box k).
            for (keep, rest) in keep.chunks_exact_mut(b).zip(box_rest[..n].chunks_exact(b)) {
                but_one_each(rest, keep, |a, b| a & b, u64::MAX);
            }
            for k in 0..b {
                for l in 0..b {
                    column[l] = line_rest[l * b + k];
                }
                but_one_each(&column[..b], &mut but_one[..b], |a, b| a & b, u64::MAX);
                for l in 0..b {
                    keep[l * b + k] &= but_one[l];
                }
            }
            let mut changed = false;
            // Intersection by intersection (`keep` and the cells are in the
            // same order), each cell narrowed in turn; an intersection whose
            // union `keep` holds has no cell to narrow.
            let cells = self.cells.chunks_exact(b).zip(doms.chunks_exact_mut(b));
            for (((xs, ds), &mask), &u) in cells.zip(&keep[..n]).zip(&inter) {
                if u & !mask == 0 {
                    continue;
                }
                for (&x, d) in xs.iter().zip(ds) {
                    if *d & !mask != 0 {
                        ctx.restrict(x, Domain::from_bits(mask))?;
                        *d &= mask;
                        changed = true;
                    }
                }
            }
            if !changed {
                return Ok(Status::Fixpoint);
            }
        }
    }

    fn check(&self, value: &dyn Fn(VarId) -> u8) -> Option<bool> {
        // The relation itself: on each intersection, the line's values
        // outside the box are the box's outside the line.
        let (b, n) = (self.b, self.b * self.b);
        let bit = |x: VarId| 1u64 << value(x);
        Some((0..b).all(|l| {
            (0..b).all(|k| {
                let line_rest = (0..n)
                    .filter(|c| c / b != k)
                    .fold(0, |u, c| u | bit(self.cells[l * n + c]));
                let box_rest = (0..b)
                    .filter(|&l2| l2 != l)
                    .flat_map(|l2| (0..b).map(move |j| l2 * n + k * b + j))
                    .fold(0, |u, i| u | bit(self.cells[i]));
                line_rest == box_rest
            })
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::SplitMix64;
    use crate::{Engine, Model};

    /// A band of boxes of side 2 (two lines of four cells) over `doms`.
    fn band(doms: &[u64]) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let cells: Vec<VarId> = doms
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                m.var_with_domain(&format!("c{i}"), Domain::from_bits(d))
                    .expect("fresh")
            })
            .collect();
        m.post_propagator(Band::new(cells.clone(), 2))
            .expect("own cells");
        (m, cells)
    }

    #[test]
    fn a_value_the_box_cannot_take_outside_the_line_leaves_the_line_outside_the_box() {
        // Line 0 is cells 0..4 (box 0: cells 0, 1; box 1: cells 2, 3),
        // line 1 is cells 4..8. Box 0 outside line 0 (cells 4, 5) can take
        // only 1 and 2, so line 0 outside box 0 (cells 2, 3) takes only
        // those too.
        let all = 0b11110;
        let mut doms = [all; 8];
        doms[4] = 0b110;
        doms[5] = 0b110;
        let (m, cells) = band(&doms);
        let mut engine = Engine::new(&m);
        engine.propagate().expect("satisfiable");
        assert_eq!(engine.dom(cells[2]).to_string(), "{1,2}");
        assert_eq!(engine.dom(cells[3]).to_string(), "{1,2}");
        assert_eq!(engine.dom(cells[0]).to_string(), "{1..4}");
    }

    #[test]
    fn propagation_keeps_every_value_of_every_solution_of_the_relation() {
        // Brute force over every assignment of eight cells with values
        // 1..=4: a value some solution of the relation gives a cell stays
        // in its domain, and a failure means no solution at all.
        let mut rng = SplitMix64::new(7);
        let mut pruned_some = 0;
        for round in 0..300 {
            let doms: Vec<u64> = (0..8)
                .map(|_| {
                    loop {
                        let d = (rng.below(16) as u64) << 1;
                        if d != 0 {
                            break d;
                        }
                    }
                })
                .collect();
            let (m, cells) = band(&doms);
            let band = Band::new(cells.clone(), 2);
            let mut supported = [0u64; 8];
            let mut values = [0u8; 8];
            for code in 0..4usize.pow(8) {
                for (i, v) in values.iter_mut().enumerate() {
                    *v = (code / 4usize.pow(i as u32) % 4 + 1) as u8;
                }
                if (0..8).any(|i| doms[i] >> values[i] & 1 == 0) {
                    continue;
                }
                if band.check(&|x: VarId| values[x.index()]) == Some(true) {
                    for i in 0..8 {
                        supported[i] |= 1 << values[i];
                    }
                }
            }
            let mut engine = Engine::new(&m);
            match engine.propagate() {
                Err(_) => assert_eq!(supported, [0; 8], "round {round}: failed with a solution"),
                Ok(()) => {
                    for (i, &x) in cells.iter().enumerate() {
                        let kept = engine.dom(x).bits();
                        assert_eq!(supported[i] & !kept, 0, "round {round}, cell {i}");
                        pruned_some += usize::from(kept != doms[i]);
                    }
                }
            }
        }
        assert!(pruned_some > 0, "some round prunes");
    }
}
