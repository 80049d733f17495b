//! The `bitfd` command line.

fn main() {}
