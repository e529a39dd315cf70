//! Who ran each score (`docs/methodology.md`): `independent` when a third party measured the model
//! (LiveBench, Aider, BFCL, LMArena, Epoch's runs, the SWE-bench leaderboard), `self_reported`
//! when its maker published the figure. The rules are a reviewed table,
//! `data/score_provenance.csv`: per dataset and publication (a leaderboard, a technical
//! report, the host of a URL; `*` for the rows that name none), the publisher — empty for a
//! third party, `maker` for "whoever made the model", or a creator's slug. Every publication
//! present in the raw sources has a row of its own (a test over the raw data fails on one
//! without, so a new upstream publication is reviewed before it counts: `docs/methodology.md`,
//! "Scores and who ran them"); until then it falls back on its dataset's `*` row. A creator's publication
//! (Meta's Llama 2 paper) is self-reported for its own models and independent for the
//! others it measures (the baselines it compares with); a model whose creator is unknown is
//! taken as the publisher's own (the paper that introduced it).

use std::collections::BTreeMap;

use entity::vocab::Provenance;

pub const INDEPENDENT: Provenance = Provenance::Independent;
pub const SELF_REPORTED: Provenance = Provenance::SelfReported;

const TABLE: &str = include_str!("../../data/score_provenance.csv");

/// The reviewed rules: (dataset, publication) → publisher.
#[derive(Debug, Default)]
pub struct Rules {
    rows: BTreeMap<(String, String), String>,
}

impl Rules {
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut rows = BTreeMap::new();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        for row in reader.records() {
            let row = row.map_err(|e| format!("score_provenance.csv: {e}"))?;
            let field = |i: usize| row.get(i).unwrap_or_default().trim().to_string();
            if field(0).is_empty() || field(1).is_empty() {
                return Err(format!("score_provenance.csv: incomplete row {row:?}"));
            }
            rows.insert((field(0), field(1)), field(2));
        }
        Ok(Self { rows })
    }

    /// The rules checked in with this build (a unit test keeps them parseable).
    pub fn shared() -> &'static Self {
        static RULES: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
        RULES.get_or_init(|| Self::parse(TABLE).unwrap_or_default())
    }

    /// Whether a reviewer decided who ran `dataset`'s figures published in `publication`: a
    /// row for that exact publication, or, for rows that name none, the dataset's `*` row.
    /// A named publication never counts as reviewed through `*` (that row is the fallback
    /// for the unreviewed).
    pub fn reviewed(&self, dataset: &str, publication: Option<&str>) -> bool {
        let publication = publication.map(str::trim).filter(|p| !p.is_empty());
        self.rows
            .contains_key(&(dataset.to_string(), publication.unwrap_or("*").to_string()))
    }

    /// The provenance of a figure `dataset` states as published in `publication`, for a
    /// model made by `creator`. A dataset the table does not know is self-reported.
    pub fn provenance(
        &self,
        dataset: &str,
        publication: Option<&str>,
        creator: Option<&str>,
    ) -> Provenance {
        let exact = publication
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .and_then(|p| self.rows.get(&(dataset.to_string(), p.to_string())));
        let publisher = exact.or_else(|| self.rows.get(&(dataset.to_string(), "*".to_string())));
        match publisher.map(String::as_str) {
            Some("") => INDEPENDENT,
            Some(p) if p != "maker" && creator.is_some_and(|c| c != p) => INDEPENDENT,
            _ => SELF_REPORTED,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_says_who_ran_what() {
        let r = Rules::parse(TABLE).expect("data/score_provenance.csv");
        assert_eq!(r.provenance("livebench", None, Some("openai")), INDEPENDENT);
        assert_eq!(
            r.provenance("epoch", Some("Epoch AI runs"), Some("openai")),
            INDEPENDENT
        );
        // A maker's paper: its own models self-reported, the baselines it measured not.
        let llama2 = Some("Llama 2: Open Foundation and Fine-Tuned Chat Models");
        assert_eq!(r.provenance("epoch", llama2, Some("meta")), SELF_REPORTED);
        assert_eq!(r.provenance("epoch", llama2, Some("google")), INDEPENDENT);
        assert_eq!(r.provenance("epoch", llama2, None), SELF_REPORTED);
        // models.dev by the host its figure cites.
        assert_eq!(
            r.provenance("models-dev", Some("console.sakana.ai"), Some("sakana")),
            SELF_REPORTED
        );
        assert_eq!(
            r.provenance("models-dev", Some("artificialanalysis.ai"), Some("sakana")),
            INDEPENDENT
        );
        assert_eq!(
            r.provenance("models-dev", Some("example.org"), Some("x")),
            SELF_REPORTED
        );
        assert_eq!(r.provenance("unknown", None, Some("x")), SELF_REPORTED);
    }

    #[test]
    fn a_publication_is_reviewed_only_by_a_row_of_its_own() {
        let r = Rules::parse(TABLE).expect("data/score_provenance.csv");
        assert!(r.reviewed("livebench", None));
        assert!(r.reviewed("epoch", Some("Terminal-Bench Leaderboard")));
        assert!(r.reviewed("epoch", Some(" Inflection-1 ")));
        // The fallback row does not review a publication nobody read.
        assert!(!r.reviewed("epoch", Some("A New Leaderboard")));
        assert!(!r.reviewed("unknown", None));
        // Third parties' leaderboards the Epoch hub collects are independent.
        for board in [
            "Terminal-Bench Leaderboard",
            "Fiction.live leaderboard",
            "lechmazur/writing Github repository",
            "Factorio Learning Environment Leaderboard",
        ] {
            assert_eq!(
                r.provenance("epoch", Some(board), Some("openai")),
                INDEPENDENT,
                "{board}"
            );
        }
    }
}
