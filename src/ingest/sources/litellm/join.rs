//! How LiteLLM's entries join the models the other sources list, once those are resolved
//! (the first pass, [`crate::ingest::resolution::first_pass`]): its offers price a model the
//! others list, or one its creator's API names ([`offers`]); its entries that price nothing
//! witness a model's attributes under its name ([`described`]); and its witnesses are read
//! by the model their ids name ([`witnesses`]). What joins no model is reported, never made
//! a model (docs/data.md, "Witnesses and votes").

use super::{ByModel, Offer, SOURCE, Witness};
use crate::ingest::{ModelRecord, Report, Resolved, identities, names};

/// The offers that join a model, each as of `day` (the copy's observation day). A general
/// (not regional) offer's record joins `records`; a regional price waits for the offering
/// it is a region of.
pub fn offers(
    offers: Vec<Offer>,
    first_pass: &Resolved,
    day: &str,
    records: &mut Vec<ModelRecord>,
    report: &mut Report,
) -> Vec<Offer> {
    let mut joined = Vec::new();
    let own_names = first_pass.own_names();
    for mut offer in offers {
        offer.record.as_of = Some(day.to_string());
        let raw = offer.record.raw_id.clone();
        // At the creator's own API, an id that spells the creator's own name for a model is
        // that model (Mistral's `mistral-ocr-3` is its "Mistral OCR 3", `mistral-ocr-2512`):
        // docs/methodology.md, "Identity".
        let looked_up = first_pass.lookup(&raw);
        let by_name = looked_up
            .is_none()
            .then(|| {
                offer
                    .first_party
                    .then(|| own_names.get(&names::parse(&raw).key).map(String::as_str))
                    .flatten()
            })
            .flatten();
        if let Some(slug) = by_name {
            offer.record.parsed = Some(names::parse(slug));
        }
        let named = looked_up.or(by_name);
        // A dated id of a model the others list is that model unless they list the date as
        // a snapshot of its own: it joins under its undated name, so it neither makes a
        // model nor renames one (the maker's undated alias names the newest snapshot).
        let undated = identities::undated(&raw).filter(|u| {
            first_pass
                .lookup(u)
                .is_some_and(|m| named.is_none_or(|n| n == m))
        });
        if let Some(undated) = undated {
            offer.record.parsed = Some(names::parse(undated));
        } else if named.is_none() && !offer.first_party {
            report.unmatched(SOURCE, &raw);
            continue;
        }
        if offer.region.is_none() {
            records.push(offer.record.clone());
        }
        joined.push(offer);
    }
    joined
}

/// The entries that price nothing witness the attributes of a model the others list,
/// under its name, and make none: those that name one join `records`.
pub fn described(
    described: Vec<ModelRecord>,
    first_pass: &Resolved,
    records: &mut Vec<ModelRecord>,
) {
    for mut r in described {
        let Some(slug) = first_pass
            .lookup(&r.raw_id)
            .or_else(|| identities::undated(&r.raw_id).and_then(|u| first_pass.lookup(u)))
        else {
            continue;
        };
        r.parsed = Some(names::parse(slug));
        records.push(r);
    }
}

/// The witnesses by the model their ids name; ids no other source lists add nothing.
pub fn witnesses(witnesses: Vec<Witness>, resolved: &Resolved, report: &mut Report) -> ByModel {
    let mut witnessed = ByModel::new();
    let mut unknown_own = Vec::new();
    for w in witnesses {
        let own = super::names_an_own_chat_model(&w);
        let slug = resolved
            .lookup(&w.raw_id)
            .or_else(|| own.then(|| resolved.numbered(&w.raw_id)).flatten());
        match slug {
            Some(slug) => {
                report.matched(SOURCE);
                witnessed.entry(slug.to_string()).or_default().push(w);
            }
            None => {
                if own {
                    unknown_own.push(w.raw_id.clone());
                }
                report.unmatched(SOURCE, &w.raw_id);
            }
        }
    }
    // A lab's own chat id that names no model is a model the catalogue misses
    // (docs/methodology.md, "Identity"; the target is at most 5).
    report.rule(
        "identity: LiteLLM first-party chat ids naming no model",
        unknown_own.len(),
    );
    report.unknown_own = unknown_own;
    witnessed
}
