//! The writer: a [`Puzzle`] back into `.zebra` text.
//!
//! The output is canonical: `title`, `houses`, the groups, the clues, then
//! the questions, one a line; a name is quoted only when it must be, and
//! qualified (`group.value`) only when it is ambiguous. Parsing the output
//! gives a puzzle equal to the one written (the round trip the tests check).
//! Comparisons keep the operator they were written with; `3 = a` comes back
//! as `a = 3`, and `b > x > a` as `a < x < b`.

use std::fmt::{self, Write};

use super::ast::{Ask, Operand, Puzzle, Relation, Target, ValueRef};
use super::parser::quote;

impl Puzzle {
    /// A value as a clue writes it: `water`, `"orange juice"`,
    /// `fruit.orange` when the name is in two groups.
    pub fn value_text(&self, v: ValueRef) -> String {
        let name = self.value_name(v);
        if self.is_ambiguous(name) {
            format!("{}.{}", quote(&self.groups[v.group].name), quote(name))
        } else {
            quote(name).into_owned()
        }
    }

    fn operand_text(&self, o: Operand) -> String {
        match o {
            Operand::Value(v) => self.value_text(v),
            Operand::House(h) => h.to_string(),
        }
    }

    /// A relation as a clue writes it: `green = ivory + 1`.
    pub fn relation_text(&self, r: &Relation) -> String {
        let v = |x: ValueRef| self.value_text(x);
        match r {
            Relation::Same { a, b, offset } => match offset {
                0 => format!("{} = {}", v(*a), v(*b)),
                c if *c > 0 => format!("{} = {} + {c}", v(*a), v(*b)),
                c => format!("{} = {} - {}", v(*a), v(*b), c.unsigned_abs()),
            },
            Relation::At { a, house } => format!("{} = {house}", v(*a)),
            Relation::Differ { a, b } => format!("{} != {}", v(*a), v(*b)),
            Relation::NotAt { a, house } => format!("{} != {house}", v(*a)),
            Relation::Distance { a, b, distance } => {
                format!("|{} - {}| = {distance}", v(*a), v(*b))
            }
            Relation::NotDistance { a, b, distance } => {
                format!("|{} - {}| != {distance}", v(*a), v(*b))
            }
            Relation::Compare { left, op, right } => format!(
                "{} {} {}",
                self.operand_text(*left),
                op.symbol(),
                self.operand_text(*right)
            ),
            Relation::Between { low, mid, high } => format!(
                "{} < {} < {}",
                self.operand_text(*low),
                self.operand_text(*mid),
                self.operand_text(*high)
            ),
            Relation::In { a, houses } => {
                let set: Vec<String> = houses.iter().map(u8::to_string).collect();
                format!("{} in {{{}}}", v(*a), set.join(", "))
            }
        }
    }

    /// A question as written after `ask`.
    fn ask_text(&self, ask: &Ask) -> String {
        let mut s = String::new();
        if let Some(q) = &ask.question {
            s.push_str(&string_literal(q));
            s.push(' ');
        }
        match ask.target {
            Target::Value(v) => s.push_str(&self.value_text(v)),
            Target::House(h) => s.push_str(&h.to_string()),
        }
        if let Some(g) = ask.group {
            s.push(' ');
            s.push_str(&quote(&self.groups[g].name));
        }
        s
    }
}

/// `text` in double quotes, with `"` and `\` escaped.
pub(crate) fn string_literal(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

impl fmt::Display for Puzzle {
    /// The puzzle as `.zebra` text that parses back to an equal puzzle.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = &self.title {
            writeln!(f, "title {}", string_literal(t))?;
        }
        writeln!(f, "houses {}", self.houses)?;
        writeln!(f)?;
        for g in &self.groups {
            let mut line = String::new();
            write!(line, "{}:", quote(&g.name))?;
            for v in &g.values {
                line.push(' ');
                line.push_str(&quote(v));
            }
            writeln!(f, "{line}")?;
        }
        if !self.clues.is_empty() {
            writeln!(f)?;
        }
        for c in &self.clues {
            if let Some(label) = &c.label {
                write!(f, "{} ", string_literal(label))?;
            }
            writeln!(f, "{}", self.relation_text(&c.relation))?;
        }
        if !self.asks.is_empty() {
            writeln!(f)?;
        }
        for a in &self.asks {
            writeln!(f, "ask {}", self.ask_text(a))?;
        }
        Ok(())
    }
}
