//! [`Puzzle`]: a parsed, checked `.zebra` file.
//!
//! Every name is resolved: a value is a [`ValueRef`] (group and position in
//! the group), never a string, so a `Puzzle` cannot mention a value that
//! does not exist. Invariants, established by the parser:
//! * `1 <= houses <= 63`;
//! * every group has between 1 and `houses` values, distinct within the group,
//!   and group names are distinct;
//! * every [`ValueRef`] points at a value of this puzzle;
//! * every house number is in `1..=houses`, every offset and distance in
//!   `0..houses` (as a magnitude);
//! * every comparison and chain mentions at least one value;
//! * an [`Ask`] about a house names a group.

use super::diagnostic::Spot;

/// A value of a puzzle: `group` indexes [`Puzzle::groups`], `value` that
/// group's [`Group::values`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueRef {
    /// The group's position in declaration order.
    pub group: usize,
    /// The value's position in its group.
    pub value: usize,
}

/// One side of a comparison: a value (its house) or a house number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The house of a value.
    Value(ValueRef),
    /// A house number, `1..=houses`.
    House(u8),
}

/// An order comparison, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `<`: somewhere left of.
    Lt,
    /// `<=`.
    Le,
    /// `>`: somewhere right of.
    Gt,
    /// `>=`.
    Ge,
}

impl Cmp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }

    /// Whether `a op b` holds.
    pub fn holds(self, a: u8, b: u8) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// What a clue says about the houses of values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `a = b`, `a = b + c`, `a = b - c`: `pos(a) = pos(b) + offset`.
    Same {
        /// Left value.
        a: ValueRef,
        /// Right value.
        b: ValueRef,
        /// Added to `pos(b)`; `|offset| < houses`.
        offset: i8,
    },
    /// `a = h`.
    At {
        /// The value.
        a: ValueRef,
        /// Its house.
        house: u8,
    },
    /// `a != b`.
    Differ {
        /// Left value.
        a: ValueRef,
        /// Right value.
        b: ValueRef,
    },
    /// `a != h`.
    NotAt {
        /// The value.
        a: ValueRef,
        /// A house it is not in.
        house: u8,
    },
    /// `|a - b| = d` (`d = 1`: next to).
    Distance {
        /// First value.
        a: ValueRef,
        /// Second value.
        b: ValueRef,
        /// The distance, `< houses`.
        distance: u8,
    },
    /// `|a - b| != d` (`d = 1`: not next to).
    NotDistance {
        /// First value.
        a: ValueRef,
        /// Second value.
        b: ValueRef,
        /// The forbidden distance, `< houses`.
        distance: u8,
    },
    /// `left op right`, at least one side a value.
    Compare {
        /// Left side.
        left: Operand,
        /// The comparison.
        op: Cmp,
        /// Right side.
        right: Operand,
    },
    /// `low < mid < high`: `mid` somewhere between `low` and `high`, in
    /// that order (`high > mid > low` is read as the same).
    Between {
        /// The lowest house.
        low: Operand,
        /// The one in between.
        mid: Operand,
        /// The highest house.
        high: Operand,
    },
    /// `a in {h, ...}`: sorted, without duplicates, not empty.
    In {
        /// The value.
        a: ValueRef,
        /// The houses it may be in.
        houses: Vec<u8>,
    },
}

/// A constraint of the puzzle, with the sentence it came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clue {
    /// The clue's sentence (the quoted text before the relation), if given.
    pub label: Option<String>,
    /// What it says.
    pub relation: Relation,
}

/// An attribute group: `name: value value ...`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    /// The group's name (`nationality`).
    pub name: String,
    /// Its values, in the order declared.
    pub values: Vec<String>,
}

/// What an [`Ask`] asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A value: its house, or (with a group) the group's value in its house.
    Value(ValueRef),
    /// A house: the group's value in it.
    House(u8),
}

/// A question: `ask "Who drinks water?" water nationality`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ask {
    /// The question as the puzzle phrases it, if given.
    pub question: Option<String>,
    /// What is asked about.
    pub target: Target,
    /// The group whose value answers; `None`: the answer is a house number.
    /// Always `Some` when the target is a house.
    pub group: Option<usize>,
}

/// A parsed and checked puzzle. Build one with [`parse`](super::parse);
/// print it back as `.zebra` text with `Display`.
///
/// Two puzzles are equal when they say the same thing: title, houses,
/// groups, clues and questions; where they came from in a file (line
/// numbers, comments, layout) is not compared.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub(crate) title: Option<String>,
    pub(crate) houses: u8,
    pub(crate) groups: Vec<Group>,
    pub(crate) clues: Vec<Clue>,
    pub(crate) asks: Vec<Ask>,
    /// `clue_spots[i]`: where clue `i` is in the source (empty for a puzzle
    /// not read from text).
    pub(crate) clue_spots: Vec<Spot>,
}

impl PartialEq for Puzzle {
    fn eq(&self, other: &Puzzle) -> bool {
        self.title == other.title
            && self.houses == other.houses
            && self.groups == other.groups
            && self.clues == other.clues
            && self.asks == other.asks
    }
}

impl Eq for Puzzle {}

impl Puzzle {
    /// The title, if the file gives one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The number of houses; houses are numbered `1..=houses`.
    pub fn houses(&self) -> u8 {
        self.houses
    }

    /// The attribute groups, in declaration order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The clues, in the order written.
    pub fn clues(&self) -> &[Clue] {
        &self.clues
    }

    /// The questions, in the order written.
    pub fn asks(&self) -> &[Ask] {
        &self.asks
    }

    /// Removes clue `i` and returns it (the clues after it move up).
    ///
    /// # Panics
    ///
    /// If there is no clue `i`.
    pub fn remove_clue(&mut self, i: usize) -> Clue {
        if i < self.clue_spots.len() {
            self.clue_spots.remove(i);
        }
        self.clues.remove(i)
    }

    /// Keeps only the clues for which `keep(index, clue)` is true, in order.
    ///
    /// ```
    /// let mut p = bitfd::puzzle::parse("houses 2\ncolor: red blue\nred = 1\nblue = 2\n")?;
    /// p.retain_clues(|i, _| i == 1);
    /// assert_eq!(p.to_string(), "houses 2\n\ncolor: red blue\n\nblue = 2\n");
    /// assert_eq!(p.remove_clue(0).label, None);
    /// assert!(p.clues().is_empty());
    /// # Ok::<(), bitfd::puzzle::ParseErrors>(())
    /// ```
    pub fn retain_clues(&mut self, mut keep: impl FnMut(usize, &Clue) -> bool) {
        let flags: Vec<bool> = self
            .clues
            .iter()
            .enumerate()
            .map(|(i, c)| keep(i, c))
            .collect();
        let mut i = 0;
        self.clues.retain(|_| {
            i += 1;
            flags[i - 1]
        });
        if self.clue_spots.len() == flags.len() {
            let mut i = 0;
            self.clue_spots.retain(|_| {
                i += 1;
                flags[i - 1]
            });
        }
    }

    /// The line clue `i` is on, for a puzzle read from text.
    pub fn clue_line(&self, i: usize) -> Option<u32> {
        self.clue_spots.get(i).map(|s| s.line)
    }

    /// The name of a value as written: ``water``.
    ///
    /// # Panics
    ///
    /// If `v` is not a value of this puzzle.
    pub fn value_name(&self, v: ValueRef) -> &str {
        &self.groups[v.group].values[v.value]
    }

    /// Whether a value name occurs in more than one group, so that it must
    /// be written `group.value`.
    pub fn is_ambiguous(&self, name: &str) -> bool {
        let name = &*super::text::nfc(name);
        self.groups
            .iter()
            .filter(|g| g.values.iter().any(|v| v == name))
            .nth(1)
            .is_some()
    }

    /// The value a name refers to, as a clue may write it: a bare value name
    /// that occurs in one group only, or `group.value`. `None` for an unknown
    /// or ambiguous name. Names compare in NFC, as the parser reads them.
    ///
    /// ```
    /// let puzzle = bitfd::puzzle::parse("houses 2\ncolor: red blue\nfruit: apple orange\n")?;
    /// let red = puzzle.lookup("red").expect("declared");
    /// assert_eq!(puzzle.value_name(red), "red");
    /// assert_eq!(puzzle.lookup("fruit.orange"), puzzle.lookup("orange"));
    /// assert_eq!(puzzle.lookup("green"), None);
    /// # Ok::<(), bitfd::puzzle::ParseErrors>(())
    /// ```
    pub fn lookup(&self, name: &str) -> Option<ValueRef> {
        let name = &*super::text::nfc(name);
        let mut found = None;
        for (g, group) in self.groups.iter().enumerate() {
            if let Some(v) = group.values.iter().position(|v| v == name) {
                if found.is_some() {
                    return None;
                }
                found = Some(ValueRef { group: g, value: v });
            }
        }
        if found.is_some() {
            return found;
        }
        // `group.value`: try every dot, since either part may hold one.
        name.match_indices('.').find_map(|(i, _)| {
            let (group, value) = (&name[..i], &name[i + 1..]);
            let g = self.groups.iter().position(|x| x.name == group)?;
            let v = self.groups[g].values.iter().position(|x| x == value)?;
            Some(ValueRef { group: g, value: v })
        })
    }

    /// The group called `name`.
    pub fn group_index(&self, name: &str) -> Option<usize> {
        let name = &*super::text::nfc(name);
        self.groups.iter().position(|g| g.name == name)
    }
}
