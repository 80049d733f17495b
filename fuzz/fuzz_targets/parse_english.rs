//! Fuzzes the English reader: any bytes must give a puzzle or diagnostics,
//! never a panic; a puzzle must build its model, search (bounded), and read
//! back the same from its `.zebra` form (what `bitfd translate` prints).

#![no_main]

use bitfd::puzzle::{self, english};
use bitfd::{Mode, SearchOptions, Solver};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(p) = english::parse_bytes(data) else {
        return;
    };
    let pm = p.to_model();
    let options = SearchOptions::default().node_limit(100);
    let _ = Solver::new(pm.model()).solve(&options, Mode::AtMost(2));
    let written = p.to_string();
    let again = puzzle::parse(&written).expect("the translation parses");
    assert_eq!(again, p);
});
