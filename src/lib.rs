//! bitfd: a finite-domain constraint propagation engine for small domains.
//!
//! Every domain is one `u64` bitmask over the values `0..=63`, so a domain
//! operation is a machine instruction or two. Propagators run on an event
//! queue to a fixpoint; search is depth-first with binary branching and
//! counts every node of its tree, deterministically.
//!
//! ```
//! use bitfd::{Model, SearchOptions, Solver, Strength};
//!
//! // Three houses; the cat lives left of the dog, the bird not next to the cat.
//! let mut m = Model::new();
//! let cat = m.int_var("cat", 1, 3)?;
//! let dog = m.int_var("dog", 1, 3)?;
//! let bird = m.int_var("bird", 1, 3)?;
//! m.all_different(&[cat, dog, bird], Strength::Domain)?;
//! let left = m.less(cat, dog)?;
//! m.set_label(left, "The cat lives somewhere left of the dog.");
//! m.not_distance(bird, cat, 1)?;
//!
//! let outcome = Solver::new(&m).all(&SearchOptions::default());
//! assert_eq!(outcome.solutions.len(), 1);
//! let s = &outcome.solutions[0];
//! assert_eq!((s[cat], s[dog], s[bird]), (1, 2, 3));
//! # Ok::<(), bitfd::ModelError>(())
//! ```
//!
//! # Contents
//!
//! * [`Domain`]: the bitmask value set.
//! * [`Model`]: named variables, constraints with labels, [`ModelError`].
//! * [`propagator`]: the propagator contract and how to write your own.
//! * [`Engine`]: the event queue and the fixpoint loop.
//! * [`Solver`], [`SearchOptions`], [`Outcome`], [`Stats`]: search; and
//!   [`Solver::count_parallel`], a count on several threads with the
//!   statistics of one.
//! * [`Observer`]: watch the search tree and the propagation as they happen.
//! * [`check`]: uniqueness with witnesses, difficulty ratings, minimal clue sets.
//! * [`generate`]: a seeded zebra puzzle generator.
//! * [`Tree`]: the recorded search tree, as stable text for snapshot tests
//!   ([format](tree)), DOT and JSON.
//! * [`Trace`]: the deduction trace (which constraint removed which values,
//!   each guess and conflict) and the per-constraint [`Profile`].
//! * [`puzzle`]: the `.zebra` text format for zebra puzzles, and printing.
//! * [`sudoku`]: sudoku boards of 9x9 up to 36x36, one line each.

#![forbid(unsafe_code)]
#![warn(missing_docs, missing_debug_implementations, unreachable_pub)]

mod buffer;
pub mod check;
mod domain;
mod engine;
pub mod generate;
mod ids;
mod model;
mod observer;
pub mod propagator;
mod propagators;
pub mod puzzle;
mod search;
pub mod sudoku;
pub mod trace;
pub mod tree;

pub use domain::{Domain, Values};
pub use engine::Engine;
pub use ids::{ConstraintId, VarId};
pub use model::{
    Constraint, MAX_GROUP, MAX_MODEL_STATE_WORDS, MAX_STATE_WORDS, Model, ModelError, Strength,
};
pub use observer::{Decision, DecisionOp, Node, NodeId, NodeKind, Observer, SearchStatus};
pub use search::{
    Mode, Outcome, Restarts, SearchOptions, Solution, Solutions, Solver, Stats, ValueOrder,
    VarOrder, solve,
};
pub use trace::{Profile, ProfileRow, Removal, Step, StepKind, Trace};
pub use tree::{Tree, TreeSettings, TreeStats, Unexplored};

/// The README's example, compiled and run as a doctest so it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
