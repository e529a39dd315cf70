//! The search index: every model's lowercased name, and its slug and aliases, laid end to
//! end in two texts built once per catalogue. A query is found in them with one substring
//! scan each (SIMD, via `memchr`), which yields the few candidate models; only those are
//! ranked by [`match_tier`]. Every tier needs the query inside the name or its slug form
//! inside a slug or alias, so the candidates are a superset of the matches and the ranking
//! is the same as checking every model.

use memchr::memmem;

/// Separates the strings laid end to end; never part of a name, slug or alias.
const SEP: u8 = 0;

/// The two texts and where each model's part of them starts.
#[derive(Debug, Default)]
pub struct SearchIndex {
    names: Vec<u8>,
    name_starts: Vec<usize>,
    slugs: Vec<u8>,
    slug_starts: Vec<usize>,
}

impl SearchIndex {
    /// `models` yields, by model position, the lowercased name and the slug and aliases.
    pub fn build<'a>(models: impl Iterator<Item = (&'a str, Vec<&'a str>)>) -> Self {
        let mut ix = Self::default();
        for (name, slugs) in models {
            ix.name_starts.push(ix.names.len());
            ix.names.extend_from_slice(name.as_bytes());
            ix.names.push(SEP);
            ix.slug_starts.push(ix.slugs.len());
            for s in slugs {
                ix.slugs.extend_from_slice(s.as_bytes());
                ix.slugs.push(SEP);
            }
        }
        ix
    }

    /// Model positions whose name contains `q` or whose slug or aliases contain `q_slug`
    /// (when not empty), in position order. A hit that spans a separator only adds a
    /// candidate the ranking then drops.
    pub fn candidates(&self, q: &str, q_slug: &str) -> Vec<usize> {
        let mut found = Vec::new();
        collect(&self.names, &self.name_starts, q, &mut found);
        if !q_slug.is_empty() {
            collect(&self.slugs, &self.slug_starts, q_slug, &mut found);
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

fn collect(text: &[u8], starts: &[usize], needle: &str, found: &mut Vec<usize>) {
    if needle.is_empty() {
        found.extend(0..starts.len());
        return;
    }
    let mut last = None;
    for at in memmem::find_iter(text, needle.as_bytes()) {
        // The model whose part holds `at`: the last start at or before it.
        let i = starts.partition_point(|&s| s <= at).saturating_sub(1);
        if last != Some(i) {
            found.push(i);
            last = Some(i);
        }
    }
}

/// How well `q` matches a model: 0 exact name/slug/alias, 1 prefix, 2 word prefix,
/// 3 substring. Text with no slug characters (`%`, `?`) matches names only.
pub fn match_tier(q: &str, q_slug: &str, name: &str, slug: &str, aliases: &[String]) -> Option<u8> {
    let slugs = || {
        (!q_slug.is_empty()).then_some(slug).into_iter().chain(
            aliases
                .iter()
                .map(String::as_str)
                .filter(|_| !q_slug.is_empty()),
        )
    };
    if name == q || slugs().any(|n| n == q || n == q_slug) {
        return Some(0);
    }
    if name.starts_with(q) || slugs().any(|n| n.starts_with(q_slug)) {
        return Some(1);
    }
    let word_prefix = name
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.starts_with(q))
        || slugs().any(|n| n.split(['-', '.']).any(|w| w.starts_with(q_slug)));
    if word_prefix {
        return Some(2);
    }
    (name.contains(q) || slugs().any(|n| n.contains(q_slug))).then_some(3)
}

/// Fewest single-character edits (insert, delete, substitute) that turn `asked` into some
/// prefix of `id`: a typo counts, a suffix `id` has beyond it (a date, `-preview`) does not.
/// Both are cut to 100 bytes, so one call is at most 10^4 steps.
pub fn edits_to_prefix(asked: &str, id: &str) -> usize {
    let a = &asked.as_bytes()[..asked.len().min(100)];
    let b = &id.as_bytes()[..id.len().min(100)];
    // row[j]: edits between the part of `asked` read so far and b[..j].
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row.into_iter().min().unwrap_or(0)
}

/// The closest of `items` (slug, name) to an unknown slug, at most three, as `(slug, name)`:
/// ranked by the fewest edits that turn it into the start of a slug or a lowercased name,
/// ties by slug; only those within a third of its length (at least 2 edits), so a
/// suggestion is a likely typo rather than any item. The lists this serves (benchmarks,
/// providers, agents) hold hundreds of items, each compared in at most 10^4 steps.
pub fn closest_named<'a>(
    asked: &str,
    items: impl Iterator<Item = (&'a str, &'a str)>,
) -> Vec<(String, String)> {
    let asked = asked.trim().to_lowercase();
    let allowed = (asked.chars().count() / 3).max(2);
    let mut ranked: Vec<(usize, &str, &str)> = items
        .map(|(slug, name)| {
            let edits = edits_to_prefix(&asked, slug)
                .min(edits_to_prefix(&asked, &name.to_lowercase()))
                .min(edits_to_prefix(
                    &asked.replace('-', ""),
                    &slug.replace('-', ""),
                ));
            (edits, slug, name)
        })
        .filter(|&(edits, _, _)| edits <= allowed)
        .collect();
    ranked.sort_unstable();
    ranked
        .into_iter()
        .take(3)
        .map(|(_, slug, name)| (slug.to_string(), name.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_named_suggests_likely_typos_only() {
        let items = [
            ("swe-bench-verified", "SWE-bench Verified"),
            ("swe-bench-lite", "SWE-bench Lite"),
            ("gpqa-diamond", "GPQA Diamond"),
        ];
        let found = closest_named("swebench", items.iter().map(|&(s, n)| (s, n)));
        let slugs: Vec<&str> = found.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(slugs, ["swe-bench-lite", "swe-bench-verified"]);
        assert_eq!(
            closest_named("gpqa", items.iter().map(|&(s, n)| (s, n)))[0].0,
            "gpqa-diamond"
        );
        assert!(closest_named("zzzzzzzzzz", items.iter().map(|&(s, n)| (s, n))).is_empty());
    }

    #[test]
    fn edits_to_prefix_counts_typos_not_suffixes() {
        assert_eq!(edits_to_prefix("gpt-4o", "gpt-4o-2024-11-20"), 0);
        assert_eq!(
            edits_to_prefix("claude-sonet-4-5", "claude-sonnet-4-5-20250929"),
            1
        );
        assert_eq!(edits_to_prefix("claude-sonet-4-5", "claude-sonnet-4-5"), 1);
        assert!(edits_to_prefix("claude-sonet-4-5", "claude-opus-4-8") >= 4);
        assert_eq!(edits_to_prefix("gpt-5", "gpt"), 2);
        assert_eq!(edits_to_prefix("", "anything"), 0);
        // Cut to 100 bytes each: a long input costs no more than a 100-byte one.
        assert_eq!(edits_to_prefix(&"a".repeat(5000), &"a".repeat(5000)), 0);
    }

    #[test]
    fn match_tiers_rank_exact_prefix_word_substring() {
        let aliases = vec!["gpt-4o".to_string()];
        let t = |q: &str| {
            match_tier(
                q,
                &crate::ingest::names::slugify(q),
                "gpt-4o (2024-11-20)",
                "gpt-4o-2024-11-20",
                &aliases,
            )
        };
        assert_eq!(t("gpt-4o"), Some(0));
        assert_eq!(t("gpt"), Some(1));
        assert_eq!(t("2024"), Some(2));
        assert_eq!(t("4o-20"), Some(3));
        assert_eq!(t("claude"), None);
    }

    #[test]
    fn candidates_hold_every_match() {
        let models: Vec<(&str, Vec<&str>)> = vec![
            ("gpt-4o (2024-11-20)", vec!["gpt-4o-2024-11-20", "gpt-4o"]),
            ("claude 3.5 sonnet", vec!["claude-3-5-sonnet-20241022"]),
            ("llama 3.3 70b", vec!["llama-3-3-70b"]),
            ("o3", vec!["o3-2025-04-16", "o3"]),
        ];
        let ix = SearchIndex::build(models.iter().map(|(n, s)| (*n, s.clone())));
        for q in [
            "gpt",
            "4o",
            "claude 3.5",
            "3-3",
            "o3",
            "70",
            "",
            "%",
            "b\0l",
            "zzz",
        ] {
            let q_slug = crate::ingest::names::slugify(q);
            let brute: Vec<usize> = models
                .iter()
                .enumerate()
                .filter(|(_, (n, s))| {
                    let aliases: Vec<String> = s[1..].iter().map(|a| a.to_string()).collect();
                    match_tier(q, &q_slug, n, s[0], &aliases).is_some()
                })
                .map(|(i, _)| i)
                .collect();
            let cands = ix.candidates(q, &q_slug);
            assert!(
                brute.iter().all(|i| cands.contains(i)),
                "{q:?}: {brute:?} ⊄ {cands:?}"
            );
        }
        assert_eq!(ix.candidates("zzz", "zzz"), Vec::<usize>::new());
        assert_eq!(ix.candidates("sonnet", "sonnet"), vec![1]);
    }
}
