//! What an ingest run could and could not use, per source, so name resolution can be
//! improved from data rather than guesswork.

use std::collections::BTreeMap;

#[derive(Debug, Default, Clone)]
pub struct SourceReport {
    pub read: usize,
    pub matched: usize,
    /// Unmatched names and how often each was seen.
    pub unmatched: BTreeMap<String, usize>,
}

#[derive(Debug, Default, Clone)]
pub struct Report {
    pub sources: BTreeMap<String, SourceReport>,
}

impl Report {
    pub fn read(&mut self, source: &str) {
        self.sources.entry(source.to_string()).or_default().read += 1;
    }

    pub fn matched(&mut self, source: &str) {
        self.sources.entry(source.to_string()).or_default().matched += 1;
    }

    pub fn unmatched(&mut self, source: &str, name: &str) {
        *self
            .sources
            .entry(source.to_string())
            .or_default()
            .unmatched
            .entry(name.to_string())
            .or_default() += 1;
    }

    /// Share of rows of `source` matched to a canonical model (0 when none were read).
    pub fn match_rate(&self, source: &str) -> f64 {
        self.sources
            .get(source)
            .filter(|s| s.read > 0)
            .map_or(0.0, |s| s.matched as f64 / s.read as f64)
    }

    /// Human-readable summary: per source, rows read and matched, and the most frequent
    /// unmatched names.
    pub fn render(&self, top: usize) -> String {
        let mut out = String::new();
        for (source, s) in &self.sources {
            out.push_str(&format!(
                "{source}: {} read, {} matched ({:.1}%), {} unmatched names\n",
                s.read,
                s.matched,
                100.0 * self.match_rate(source),
                s.unmatched.len()
            ));
            let mut names: Vec<(&String, &usize)> = s.unmatched.iter().collect();
            names.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (name, n) in names.into_iter().take(top) {
                out.push_str(&format!("    {n:>4}  {name}\n"));
            }
        }
        out
    }
}
