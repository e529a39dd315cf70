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

/// How often two price sources agree on the offerings both price.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Agreement {
    pub agree: usize,
    pub differ: usize,
}

#[derive(Debug, Default, Clone)]
pub struct Report {
    pub sources: BTreeMap<String, SourceReport>,
    /// Per pair of price sources (in name order), their agreement on standard prices.
    pub agreement: BTreeMap<(String, String), Agreement>,
    /// How makers' claims compare with independent runs, one line per estimate.
    pub calibration: Vec<String>,
    /// Coverage of the capability index and the per-domain figures, one line each.
    pub rankings: Vec<String>,
    /// Entries dropped for a value out of range, with the reason (`source: entry: reason`).
    pub dropped: Vec<String>,
    /// A lab's own chat ids (LiteLLM's, at the creator's API) that name no model.
    pub unknown_own: Vec<String>,
    /// How often each data rule of docs/data.md applied (or, for a check, was broken), by
    /// rule name: what `mds ingest` prints so a reader sees each rule's reach.
    pub rules: BTreeMap<String, usize>,
    /// The catalogue and each source scored against the labelled truth set, where one was
    /// read (`mds ingest --labels`).
    pub labels: Option<super::labels::Scores>,
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

    /// Records the gaps makers' claims were calibrated by (logit scale, ± standard error).
    pub fn calibration(&mut self, gaps: &super::calibration::Gaps) {
        let line = |what: &str, g: &super::calibration::Gap| {
            format!(
                "claims vs independent runs, {what}: {:+.3} ± {:.3} logit over {} pairs",
                g.mean, g.se, g.pairs
            )
        };
        self.calibration.push(line("pooled", &gaps.pooled));
        for (b, g) in &gaps.benchmarks {
            self.calibration.push(line(b, g));
        }
        for (m, g) in &gaps.makers {
            self.calibration.push(line(&format!("maker {m}"), g));
        }
    }

    /// Adds `n` to the count of a data rule.
    pub fn rule(&mut self, rule: &str, n: usize) {
        *self.rules.entry(rule.to_string()).or_default() += n;
    }

    /// What the finished catalogue says: every offering's witnesses, the calibration gaps
    /// and the rankings' summary.
    pub fn catalogue(&mut self, s: &crate::snapshot::Snapshot, gaps: &super::calibration::Gaps) {
        for o in &s.offerings {
            self.witnesses(&entity::offering::Witness::decode(o.sources.as_deref()));
        }
        self.calibration(gaps);
        self.rankings = super::domains::summary(s);
    }

    /// Counts the agreement of every pair of sources pricing one offering.
    pub fn witnesses(&mut self, witnesses: &[entity::offering::Witness]) {
        for (i, a) in witnesses.iter().enumerate() {
            for b in &witnesses[i + 1..] {
                let key = if a.source <= b.source {
                    (a.source.clone(), b.source.clone())
                } else {
                    (b.source.clone(), a.source.clone())
                };
                let same = super::offerings::same_price(a.input_price, b.input_price)
                    && super::offerings::same_price(a.output_price, b.output_price);
                let e = self.agreement.entry(key).or_default();
                if same {
                    e.agree += 1;
                } else {
                    e.differ += 1;
                }
            }
        }
    }

    /// Human-readable summary: per source, rows read and matched, and the most frequent
    /// unmatched names; then how the price sources agree.
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
        for ((a, b), n) in &self.agreement {
            let total = n.agree + n.differ;
            out.push_str(&format!(
                "prices {a} vs {b}: {total} offerings, {} agree ({:.1}%), {} differ\n",
                n.agree,
                100.0 * n.agree as f64 / total.max(1) as f64,
                n.differ
            ));
        }
        for (rule, n) in &self.rules {
            out.push_str(&format!("rule {rule}: {n}\n"));
        }
        for line in self.calibration.iter().chain(&self.rankings) {
            out.push_str(line);
            out.push('\n');
        }
        if let Some(labels) = &self.labels {
            out.push_str(&labels.render());
        }
        for id in self.unknown_own.iter().take(top) {
            out.push_str(&format!("unknown first-party id {id}\n"));
        }
        for line in self.dropped.iter().take(top) {
            out.push_str(&format!("dropped {line}\n"));
        }
        if self.dropped.len() > top {
            out.push_str(&format!(
                "dropped {} more entries\n",
                self.dropped.len() - top
            ));
        }
        out
    }
}
