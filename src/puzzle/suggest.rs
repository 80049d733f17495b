//! "Did you mean ...?": the nearest known name to a misspelt one.
//!
//! Distance is Levenshtein's over `char`s with swaps of neighbours (optimal
//! string alignment), ignoring case; a candidate is
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

/// Optimal-string-alignment distance: Levenshtein's edits plus swapping
/// two neighbours (`dgo` is one edit from `dog`), with three rows.
fn distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    let mut before: Vec<usize> = vec![0; width];
    let mut above: Vec<usize> = (0..width).collect();
    let mut row: Vec<usize> = vec![0; width];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..width {
            let substitute = above[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut d = substitute.min(above[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
        }
        // Rotate: this row becomes the one above, the one above the one before.
        std::mem::swap(&mut before, &mut above);
        std::mem::swap(&mut above, &mut row);
    }
    above[b.len()]
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
        assert_eq!(d("dgo", "dog"), 1);
        assert_eq!(d("ab", "ba"), 1);
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
