//! Fuzzes the sudoku board reader: any line must give a board or an error,
//! never a panic; a board must build its model and search (bounded).

#![no_main]

use bitfd::sudoku::Board;
use bitfd::{Mode, SearchOptions, Solver, Strength};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(board) = Board::parse(text) else {
        return;
    };
    let sm = board.to_model(Strength::Domain);
    let options = SearchOptions::default().node_limit(50);
    let outcome = Solver::new(sm.model()).solve(&options, Mode::AtMost(2));
    for s in &outcome.solutions {
        assert_eq!(sm.line(s).chars().count(), board.size() * board.size());
    }
});
