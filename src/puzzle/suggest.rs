//! "Did you mean ...?": the nearest known name to a misspelt one.
//!
//! Distance is Levenshtein's over `char`s, ignoring case; a candidate is
//! close enough when at most a third of the typed name's characters, rounded
//! up (and at least one), must change. Cost: names are at most
//! [`MAX_NAME_CHARS`](super::MAX_NAME_CHARS) long, so one comparison is at
//! most 64 x 64 steps, and candidates whose length alone rules them out are
//! skipped.

/// The candidate nearest to `typed`, if one is close enough. Ties go to the
/// earliest candidate.
pub(crate) fn nearest<'c>(
    typed: &str,
    candidates: impl Iterator<Item = &'c str>,
) -> Option<&'c str> {
    let typed: Vec<char> = typed.chars().flat_map(char::to_lowercase).collect();
    let limit = typed.len().div_ceil(3).max(1);
    let mut best: Option<(usize, &str)> = None;
    let mut buf = Vec::new();
    for candidate in candidates {
        buf.clear();
        buf.extend(candidate.chars().flat_map(char::to_lowercase));
        if buf.len().abs_diff(typed.len()) > limit {
            continue;
        }
        let d = distance(&typed, &buf);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance with one row of memory.
fn distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        // `diagonal` is the cell above-left: row[j] before this row's update.
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        let d = |a: &str, b: &str| {
            let a: Vec<char> = a.chars().collect();
            let b: Vec<char> = b.chars().collect();
            distance(&a, &b)
        };
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("same", "same"), 0);
    }

    #[test]
    fn suggests_the_nearest_close_name_ignoring_case() {
        let names = ["Englishman", "Spaniard", "Norwegian"];
        assert_eq!(
            nearest("Englishmann", names.iter().copied()),
            Some("Englishman")
        );
        assert_eq!(
            nearest("norwegian", names.iter().copied()),
            Some("Norwegian")
        );
        assert_eq!(nearest("zebra", names.iter().copied()), None);
        assert_eq!(
            nearest("hous", ["title", "houses"].into_iter()),
            Some("houses")
        );
    }
}
