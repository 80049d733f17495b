//! The `.zebra` grammar, statement by statement, and its diagnostics: each
//! form parses to the relation it means, each mistake gives its own
//! diagnostic at the right line and column, and all of a file's mistakes
//! come together.

use bitfd::puzzle::{
    self, Cmp, ErrorKind, MAX_ERRORS, MAX_LINE_BYTES, MAX_SOURCE_BYTES, Operand, Puzzle, Relation,
    Target, ValueRef,
};
use bitfd::{SearchOptions, Solver};

const HEADER: &str = "houses 5\ncolor: red green blue white yellow\nfruit: apple orange kiwi\ndrink: tea orange milk\n";

fn parse(text: &str) -> Puzzle {
    puzzle::parse(text).unwrap_or_else(|e| panic!("does not parse:\n{e}\n---\n{text}"))
}

/// The relation of a one-clue puzzle under [`HEADER`].
fn relation(clue: &str) -> Relation {
    let p = parse(&format!("{HEADER}{clue}\n"));
    assert_eq!(p.clues().len(), 1, "{clue}");
    p.clues()[0].relation.clone()
}

/// `(kind, line, column)` of each diagnostic.
fn errors(text: &str) -> Vec<(ErrorKind, u32, u32)> {
    let e = puzzle::parse(text).expect_err("should not parse");
    e.diagnostics()
        .iter()
        .map(|d| (d.kind, d.spot.line, d.spot.column))
        .collect()
}

fn only_error(text: &str) -> bitfd::puzzle::Diagnostic {
    let e = puzzle::parse(text).expect_err("should not parse");
    assert_eq!(e.diagnostics().len(), 1, "{e}");
    e.diagnostics()[0].clone()
}

const RED: ValueRef = ValueRef { group: 0, value: 0 };
const GREEN: ValueRef = ValueRef { group: 0, value: 1 };
const BLUE: ValueRef = ValueRef { group: 0, value: 2 };

#[test]
fn every_relation_form_parses_to_its_meaning() {
    let same = |offset| Relation::Same {
        a: RED,
        b: GREEN,
        offset,
    };
    assert_eq!(relation("red = green"), same(0));
    assert_eq!(relation("red = green + 2"), same(2));
    assert_eq!(relation("red = green - 1"), same(-1));
    assert_eq!(relation("red = 3"), Relation::At { a: RED, house: 3 });
    assert_eq!(relation("3 = red"), Relation::At { a: RED, house: 3 });
    assert_eq!(
        relation("red != green"),
        Relation::Differ { a: RED, b: GREEN }
    );
    assert_eq!(relation("red != 3"), Relation::NotAt { a: RED, house: 3 });
    assert_eq!(
        relation("|red - green| = 1"),
        Relation::Distance {
            a: RED,
            b: GREEN,
            distance: 1
        }
    );
    assert_eq!(
        relation("|red - green| != 2"),
        Relation::NotDistance {
            a: RED,
            b: GREEN,
            distance: 2
        }
    );
    for (text, op) in [
        ("red < green", Cmp::Lt),
        ("red <= green", Cmp::Le),
        ("red > green", Cmp::Gt),
        ("red >= green", Cmp::Ge),
    ] {
        assert_eq!(
            relation(text),
            Relation::Compare {
                left: Operand::Value(RED),
                op,
                right: Operand::Value(GREEN)
            }
        );
    }
    assert_eq!(
        relation("red in {5, 1, 5}"),
        Relation::In {
            a: RED,
            houses: vec![1, 5]
        }
    );
    let between = Relation::Between {
        low: Operand::Value(RED),
        mid: Operand::Value(GREEN),
        high: Operand::Value(BLUE),
    };
    assert_eq!(relation("red < green < blue"), between);
    assert_eq!(relation("blue > green > red"), between);
}

#[test]
fn a_leading_sentence_labels_the_clue() {
    let p = parse(&format!(
        "{HEADER}\"Red is first.\" red = 1\n\"kiwi\" = red\n"
    ));
    assert_eq!(p.clues()[0].label.as_deref(), Some("Red is first."));
    // A quoted name followed by an operator is a value, not a label.
    assert_eq!(p.clues()[1].label, None);
    let p = parse("houses 2\nx: \"a b\" c\n\"a b\" in {2}\n\"s\" \"a b\" in {1}\n");
    assert_eq!(p.clues()[0].label, None);
    assert_eq!(p.clues()[1].label.as_deref(), Some("s"));
}

#[test]
fn questions_ask_for_a_house_or_a_groups_value() {
    let p = parse(&format!(
        "{HEADER}ask \"Where is red?\" red\nask apple color\nask 2 fruit\n"
    ));
    let asks = p.asks();
    assert_eq!(asks[0].question.as_deref(), Some("Where is red?"));
    assert_eq!((asks[0].target, asks[0].group), (Target::Value(RED), None));
    assert_eq!(asks[1].question, None);
    assert_eq!(asks[1].group, Some(0));
    assert_eq!((asks[2].target, asks[2].group), (Target::House(2), Some(1)));
}

#[test]
fn comments_blank_lines_crlf_and_a_byte_order_mark_are_ignored() {
    let text =
        "\u{feff}# a comment\r\n\r\nhouses 2 # two\r\ncolor: red \"dark blue\"\r\n  red = 1   \r\n";
    let p = parse(text);
    assert_eq!(p.houses(), 2);
    assert_eq!(p.groups()[0].values, ["red", "dark blue"]);
    assert_eq!(p.clue_line(0), Some(5));
}

#[test]
fn statements_may_come_in_any_order() {
    let p = parse("red = 2\nask red\ncolor: red blue\nhouses 2\ntitle \"t\"\n");
    assert_eq!((p.houses(), p.title()), (2, Some("t")));
}

#[test]
fn a_name_in_two_groups_must_be_qualified() {
    let d = only_error(&format!("{HEADER}orange = 1\n"));
    assert_eq!(d.kind, ErrorKind::AmbiguousName);
    assert_eq!((d.spot.line, d.spot.column), (5, 1));
    let notes = d.notes.join("\n");
    assert!(
        notes.contains("`fruit.orange`") && notes.contains("`drink.orange`"),
        "{notes}"
    );
    let r = relation("fruit.orange = drink.orange + 1");
    assert_eq!(
        r,
        Relation::Same {
            a: ValueRef { group: 1, value: 1 },
            b: ValueRef { group: 2, value: 1 },
            offset: 1
        }
    );
}

#[test]
fn misspelt_names_get_the_nearest_suggestion() {
    let d = only_error(&format!("{HEADER}gren = 1\n"));
    assert_eq!(d.kind, ErrorKind::UnknownName);
    assert_eq!(d.notes, ["help: did you mean `green`?"]);
    let d = only_error(&format!("{HEADER}colr.red = 1\n"));
    assert_eq!(d.notes, ["help: did you mean `color`?"]);
    let d = only_error(&format!("{HEADER}color.rd = 1\n"));
    assert_eq!(d.notes, ["help: did you mean `red`?"]);
    let d = only_error(&format!("{HEADER}hous 5\n"));
    assert_eq!(d.kind, ErrorKind::UnknownStatement);
    assert_eq!(d.notes[0], "help: did you mean `houses`?");
}

#[test]
fn each_mistake_is_its_own_diagnostic_reported_together() {
    let text = "houses 3\n\
                color: red blue\n\
                color: green\n\
                pet: cat cat\n\
                size: a b c d\n\
                red = 4\n\
                bleu = 1\n\
                frobnicate\n\
                |red - blue| = 3\n";
    assert_eq!(
        errors(text),
        [
            (ErrorKind::Duplicate, 3, 1),
            (ErrorKind::Duplicate, 4, 10),
            (ErrorKind::GroupTooLarge, 5, 13),
            (ErrorKind::OutOfRange, 6, 7),
            (ErrorKind::UnknownName, 7, 1),
            (ErrorKind::UnknownStatement, 8, 1),
            (ErrorKind::OutOfRange, 9, 16),
        ]
    );
}

#[test]
fn numbers_too_large_to_read_are_named_in_good_english() {
    let huge = "99999999999999999999999";
    let d = only_error(&format!("houses {huge}\ncolor: red\n"));
    assert_eq!(d.kind, ErrorKind::OutOfRange);
    assert_eq!(d.message, "a number of houses this large is out of range");
    assert_eq!(
        only_error("houses 64\ncolor: red\n").message,
        "64 houses are out of range"
    );
    let d = only_error(&format!("{HEADER}red = {huge}\n"));
    assert_eq!(d.message, "a house number this large is out of range");
    let d = only_error(&format!("{HEADER}red = green + {huge}\n"));
    assert_eq!(d.message, "an offset this large is out of range");
    let d = only_error(&format!("{HEADER}|red - green| = {huge}\n"));
    assert_eq!(d.message, "a distance this large is out of range");
}

#[test]
fn syntax_errors_say_what_was_expected() {
    let d = only_error(&format!("{HEADER}red = green +\n"));
    assert_eq!(d.kind, ErrorKind::Syntax);
    assert_eq!(d.expected, "a number (the offset)");
    assert_eq!((d.spot.line, d.spot.column), (5, 14));
    let d = only_error(&format!("{HEADER}red green\n"));
    assert_eq!(
        d.message,
        "expected an operator after `red`, found word `green`"
    );
    assert_eq!((d.spot.line, d.spot.column), (5, 5));
    let d = only_error(&format!("{HEADER}colour cyan magenta\n"));
    assert_eq!(d.kind, ErrorKind::UnknownStatement);
    assert_eq!(
        d.notes[0],
        "help: a group needs a colon after its name: `colour: ...`"
    );
    let d = only_error(&format!("{HEADER}red != green + 1\n"));
    assert!(d.message.contains("goes with `=` only"), "{}", d.message);
    let d = only_error(&format!("{HEADER}red < green > blue\n"));
    assert!(
        d.message.contains("`<` twice or `>` twice"),
        "{}",
        d.message
    );
    let d = only_error(&format!("{HEADER}1 < 2\n"));
    assert_eq!(d.expected, "a value name on at least one side");
    let d = only_error(&format!("{HEADER}\"A sentence without a clue.\"\n"));
    assert_eq!(d.kind, ErrorKind::UnreadableSentence);
    assert_eq!(
        d.message,
        "no value of the puzzle is named in this sentence"
    );
    let d = only_error(&format!("{HEADER}red = \"green\n"));
    assert_eq!(d.kind, ErrorKind::UnterminatedString);
    let d = only_error(&format!("{HEADER}red == green\n"));
    assert_eq!(d.kind, ErrorKind::UnexpectedCharacter);
    let d = only_error(&format!("{HEADER}ask 1\n"));
    assert_eq!(d.message, "a question about a house needs a group");
    let d = only_error("houses 2\ncolor:\n");
    assert_eq!(d.expected, "at least one value after `:`");
}

#[test]
fn numbers_out_of_range_are_errors() {
    assert_eq!(errors("houses 64\n"), [(ErrorKind::OutOfRange, 1, 8)]);
    assert_eq!(errors("houses 0\n"), [(ErrorKind::OutOfRange, 1, 8)]);
    assert_eq!(
        errors("houses 99999999999999999999999\n"),
        [(ErrorKind::OutOfRange, 1, 8)]
    );
    assert_eq!(
        errors(&format!("{HEADER}red = green + 5\nred in {{0, 6}}\n")),
        [
            (ErrorKind::OutOfRange, 5, 15),
            (ErrorKind::OutOfRange, 6, 9),
            (ErrorKind::OutOfRange, 6, 12),
        ]
    );
}

#[test]
fn a_missing_houses_line_is_an_error() {
    assert_eq!(errors("color: red\n"), [(ErrorKind::MissingHouses, 1, 1)]);
    assert_eq!(errors(""), [(ErrorKind::MissingHouses, 1, 1)]);
}

#[test]
fn a_full_group_is_a_permutation_and_a_smaller_one_only_all_different() {
    let count = |text: &str| {
        let p = parse(text);
        Solver::new(p.to_model().model())
            .count(&SearchOptions::default())
            .stats
            .solutions
    };
    // Three houses, two values: 3 * 2 placements, the third house empty.
    assert_eq!(count("houses 3\nx: a b\n"), 6);
    assert_eq!(count("houses 3\nx: a b c\n"), 6);
    // Each-value-held: a full group can't leave house 3 empty.
    assert_eq!(count("houses 3\nx: a b c\na in {1, 2}\nb in {1, 2}\n"), 2);
    assert_eq!(count("houses 3\nx: a b\na in {1, 2}\nb in {1, 2}\n"), 2);
    assert_eq!(count("houses 3\nx: a b c\na != 3\nb != 3\nc != 3\n"), 0);
}

#[test]
fn keywords_and_odd_names_are_quoted_by_the_writer() {
    let text = "houses 3\nwords: \"in\" \"ask\" \"two words\"\n\"q\\\"uote\": a \"b\\\\c\" \"7\"\n\"in\" = \"ask\" + 1\n";
    let p = parse(text);
    let written = p.to_string();
    assert!(
        written.contains("words: \"in\" \"ask\" \"two words\""),
        "{written}"
    );
    assert_eq!(parse(&written), p);
}

#[test]
fn oversized_inputs_are_rejected_with_a_diagnostic() {
    let long = format!("houses 3\n# {}\n", "x".repeat(MAX_LINE_BYTES));
    assert_eq!(
        errors(&long),
        [(ErrorKind::LineTooLong, 2, MAX_LINE_BYTES as u32 + 1)]
    );
    let huge = "#".repeat(MAX_SOURCE_BYTES + 1);
    assert_eq!(errors(&huge), [(ErrorKind::FileTooLarge, 1, 1)]);
    let name = format!("houses 2\nx: {}\n", "n".repeat(65));
    assert_eq!(errors(&name), [(ErrorKind::BadName, 2, 4)]);
    let mut many = String::from("houses 1\n");
    for g in 0..65 {
        many.push_str(&format!("g{g}: v{g}\n"));
    }
    assert_eq!(errors(&many), [(ErrorKind::TooMany, 66, 1)]);
}

#[test]
fn at_most_max_errors_are_kept_and_the_rest_counted() {
    let text = format!("houses 2\n{}", "nope = 1\n".repeat(MAX_ERRORS + 20));
    let e = puzzle::parse(&text).expect_err("unknown names");
    assert_eq!(e.diagnostics().len(), MAX_ERRORS);
    assert_eq!(e.omitted(), 20);
}

#[test]
fn bytes_that_are_not_utf8_are_an_error_at_the_first_bad_byte() {
    let e = puzzle::parse_bytes(b"houses 2\nx: a \xff b\n").expect_err("not UTF-8");
    let d = &e.diagnostics()[0];
    assert_eq!(d.kind, ErrorKind::NotUtf8);
    assert_eq!((d.spot.line, d.spot.column), (2, 6));
}

#[test]
fn houses_may_be_as_many_as_63() {
    let values: Vec<String> = (1..=63).map(|i| format!("v{i}")).collect();
    let text = format!("houses 63\nx: {}\nv1 = 63\n", values.join(" "));
    let p = parse(&text);
    let pm = p.to_model();
    let outcome = Solver::new(pm.model()).first(&SearchOptions::default());
    assert_eq!(outcome.solutions.len(), 1);
    assert_eq!(
        pm.house(&outcome.solutions[0], ValueRef { group: 0, value: 0 }),
        63
    );
}

// Unicode text (issue 18): names in NFC, invisible characters refused,
// the grid aligned by display width.

/// Terminal columns of `s`, by hand for the characters these tests use
/// (not through the crate the printer uses): CJK ideographs and the emoji
/// here take 2, combining marks 0, everything else 1.
fn columns(s: &str) -> usize {
    s.chars()
        .map(|c| match c {
            '\u{300}'..='\u{36f}' => 0,
            '\u{4e00}'..='\u{9fff}' | '\u{1f300}'..='\u{1faff}' => 2,
            _ => 1,
        })
        .sum()
}

fn grid_of(text: &str) -> String {
    let p = parse(text);
    let pm = p.to_model();
    let outcome = Solver::new(pm.model()).first(&SearchOptions::default());
    assert_eq!(outcome.solutions.len(), 1, "{text}");
    puzzle::print::Grid::new(&p, &pm, &outcome.solutions[0]).to_string()
}

#[test]
fn the_grid_aligns_wide_names_by_display_width() {
    // `Zoë` is written decomposed (e + U+0308) and prints composed.
    let text = "houses 3\nanimal: 猫 dog \"🐟\"\nowner: 山田 Zoe\u{308} Al\n猫 = 1\ndog = 2\n山田 = 3\nZoe\u{308} = 1\n";
    let grid = grid_of(text);
    // Widths: column 0 is `animal` (6); house 1 `Zoë` (3); house 2 `dog`
    // (3); house 3 `山田` (4 columns), two spaces between columns.
    assert_eq!(
        grid,
        "house   1    2    3\nanimal  猫   dog  🐟\nowner   Zo\u{eb}  Al   山田\n"
    );
    // Every cell starts at the same display column on every line.
    let starts = |line: &str| -> Vec<usize> {
        let mut starts = Vec::new();
        let mut col = 0;
        let mut prev = ' ';
        for c in line.chars() {
            if c != ' ' && prev == ' ' {
                starts.push(col);
            }
            col += columns(&c.to_string());
            prev = c;
        }
        starts
    };
    let lines: Vec<&str> = grid.lines().collect();
    assert_eq!(starts(lines[0]), [0, 8, 13, 18]);
    for line in &lines[1..] {
        assert_eq!(starts(line), starts(lines[0]), "{grid}");
    }
}

#[test]
fn ascii_grids_keep_their_char_padding() {
    let grid = grid_of("houses 2\ncolor: red blue\nred = 2\n");
    assert_eq!(grid, "house  1     2\ncolor  blue  red\n");
}

#[test]
fn a_decomposed_name_is_the_composed_one() {
    let composed = "Caf\u{e9}";
    let decomposed = "Cafe\u{301}";
    assert_ne!(composed, decomposed);
    // Declared composed, used decomposed (and the other way round): one
    // value, so the clues pin it and the puzzle has one solution.
    for (declared, used) in [(composed, decomposed), (decomposed, composed)] {
        let text = format!("houses 2\nplace: {declared} \"Bar\"\n{used} = 2\n");
        let p = parse(&text);
        assert_eq!(p.groups()[0].values[0], composed, "NFC is stored");
        let cafe = p.lookup(composed).expect("composed");
        assert_eq!(p.lookup(decomposed), Some(cafe));
        let pm = p.to_model();
        let outcome = Solver::new(pm.model()).count(&SearchOptions::default());
        assert_eq!(outcome.stats.solutions, 1);
        let first = Solver::new(pm.model()).first(&SearchOptions::default());
        assert_eq!(pm.house(&first.solutions[0], cafe), 2);
    }
    // Both forms in one group are one name twice.
    assert!(puzzle::parse(&format!("houses 2\nplace: {composed} \"{decomposed}\"\n")).is_err());
}

#[test]
fn a_diagnostic_after_a_decomposed_name_points_into_the_original_text() {
    // `Cafe` + U+0301 is 5 chars and 6 bytes as written, then ` = ` (3):
    // `nope` starts at char column 9 of line 3 (8 had the name been read
    // back composed).
    let text = "houses 2\nplace: Caf\u{e9} Bar\nCafe\u{301} = nope\n";
    let d = only_error(text);
    assert_eq!(d.kind, ErrorKind::UnknownName);
    assert_eq!((d.spot.line, d.spot.column), (3, 9));
    assert_eq!(&text[d.spot.span.clone()], "nope");
}

#[test]
fn an_invisible_character_in_a_name_is_an_error_at_it() {
    let text = "houses 2\ncolor: red blue\nre\u{200b}d = 1\n";
    let d = only_error(text);
    assert_eq!(d.kind, ErrorKind::InvisibleCharacter);
    assert_eq!((d.spot.line, d.spot.column), (3, 3));
    assert_eq!(&text[d.spot.span.clone()], "\u{200b}");
    assert!(d.message.contains("U+200B"), "{}", d.message);
    assert!(d.message.contains("zero width space"), "{}", d.message);
    assert!(d.message.contains("in a name"), "{}", d.message);
    // At a name's end, in quotes, and the bidi and joiner controls too.
    for (line, column, what) in [
        ("red\u{2060} = 1", 4, "U+2060 (word joiner)"),
        ("\"red\u{200d}\" = 1", 5, "U+200D (zero width joiner)"),
        ("\"\u{202e}der\" = 1", 2, "U+202E (right-to-left override)"),
        ("red = \u{feff}1", 7, "U+FEFF"),
        ("red = 1 \u{2067}", 9, "U+2067 (right-to-left isolate)"),
    ] {
        let text = format!("houses 2\ncolor: red blue\n{line}\n");
        let d = only_error(&text);
        assert_eq!(d.kind, ErrorKind::InvisibleCharacter, "{line:?}");
        assert_eq!((d.spot.line, d.spot.column), (3, column), "{line:?}");
        assert!(d.message.contains(what), "{line:?}: {}", d.message);
    }
    // A byte order mark at the start of the file is not inside a line, and
    // a comment may hold anything.
    parse("\u{feff}houses 2\ncolor: red blue # zero\u{200b}width\n");
}
