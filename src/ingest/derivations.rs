//! Which models derive from which (docs/methodology.md, "Creators"): fine-tunes and merges
//! link the model they derive from (`base_model`), and community fine-tunes sold under a
//! lab's model name are credited to no lab ([`identities::unvouched`]).

use std::collections::BTreeMap;

use super::{Report, Resolved, identities, prices};

/// The models derived from others, each model → its base.
pub struct Derivations {
    /// Every fine-tune or merge whose base is a resolved model.
    pub bases: BTreeMap<String, String>,
    /// Among them, the community fine-tunes under a lab's model name.
    pub unvouched: BTreeMap<String, String>,
}

/// Finds the resolved models' bases.
pub fn find(resolved: &Resolved, report: &mut Report) -> Derivations {
    // Community fine-tunes sold under a lab's model name (docs/methodology.md, "Creators").
    let unvouched =
        identities::unvouched(&resolved.models, |b| resolved.lookup(b).map(str::to_string));
    report.rule(
        "creators: community fine-tunes under a lab's model name, credited to no lab",
        unvouched.len(),
    );
    // Fine-tunes and merges link the model they derive from.
    let mut bases: BTreeMap<String, String> = resolved
        .models
        .iter()
        .filter_map(|(slug, recs)| {
            // A derivative says so in its name, or it is credited to a publisher with no API
            // of its own that is not the lab its name starts with (NeverSleep's
            // `llama-3-lumimaid-70b`, Open-Orca's `mistral-7b-openorca`).
            let key = slug.replace('.', "-");
            let named = prices::Tables::shared().creator_of_name(&key);
            let tables = prices::Tables::shared();
            let publisher_only = |c: &str| {
                tables
                    .creators
                    .get(c)
                    .is_some_and(|row| row.first_party.is_empty())
            };
            let derived = identities::says_derivative(&key)
                || identities::model_creator(slug, recs)
                    .zip(named)
                    .is_some_and(|(c, n)| c != n && publisher_only(&c));
            if !derived {
                return None;
            }
            // A derivative's name often leaves out the tuned checkpoint's word it was made
            // from (NanoGPT's `gemma-4-26b-a4b-uncensored` of Google's `-it`).
            identities::base_candidates(slug)
                .into_iter()
                .flat_map(|b| [b.to_string(), format!("{b}-it"), format!("{b}-instruct")])
                .find_map(|b| resolved.lookup(&b).filter(|m| *m != slug.as_str()))
                .map(|b| (slug.clone(), b.to_string()))
        })
        .collect();
    for (slug, base) in &unvouched {
        bases.entry(slug.clone()).or_insert_with(|| base.clone());
    }
    Derivations { bases, unvouched }
}
