//! How LiteLLM's entries join the models the other sources list, once those are resolved
//! (the first pass, [`crate::ingest::resolution::first_pass`]): its offers price a model the
//! others list, or one its creator's API names ([`offers`]); its entries that price nothing
//! witness a model's attributes under its name ([`described`]); and its witnesses are read
//! by the model their ids name ([`witnesses`]). What joins no model is reported, never made
//! a model (docs/data.md, "Witnesses and votes").

use super::{ByModel, Offer, SOURCE, Witness};
use crate::ingest::{ModelRecord, Report, Resolved, identities, names};
use std::collections::{BTreeMap, BTreeSet};

/// The offers that join a model, each as of `day` (the copy's observation day). A general
/// (not regional) offer's record joins `records`; a regional price waits for the offering
/// it is a region of. `apart` holds the dated ids that are snapshots of their own
/// ([`own_snapshots`]).
pub fn offers(
    offers: Vec<Offer>,
    first_pass: &Resolved,
    apart: &BTreeSet<String>,
    day: &str,
    records: &mut Vec<ModelRecord>,
    report: &mut Report,
) -> Vec<Offer> {
    let mut joined = Vec::new();
    let own_names = first_pass.own_names();
    // The ids the creators' own entries here name: a model the others do not list is
    // made by its creator's entry, and a host's entry under its id joins it (Azure's
    // `gpt-realtime-2.1`, a model only OpenAI's LiteLLM entry makes).
    let introduced: BTreeSet<String> = offers
        .iter()
        .filter(|o| o.first_party && o.region.is_none())
        .map(|o| names::parse(&o.record.raw_id).key)
        .collect();
    for mut offer in offers {
        offer.record.as_of = Some(day.to_string());
        let raw = offer.record.raw_id.clone();
        // A model the first pass knows, perhaps only in a host's packaging (Together's
        // `CodeLlama-70b-Instruct-hf` for `codellama-70b-instruct`).
        // A host's own name before the model's id (Databricks' `databricks-claude-sonnet-5`)
        // spells the model too (docs/methodology.md, "Identity").
        let looked_up = first_pass
            .lookup(&raw)
            .or_else(|| identities::packaged_as(&raw, |id| first_pass.lookup(id)))
            .or_else(|| {
                identities::without_host_prefix(offer.record.provider.as_deref(), &raw)
                    .and_then(|rest| first_pass.lookup(rest))
            });
        // At the creator's own API, an id that spells the creator's own name for a model is
        // that model (Mistral's `mistral-ocr-3` is its "Mistral OCR 3", `mistral-ocr-2512`):
        // docs/methodology.md, "Identity".
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
        // A lab's API selling a model others credit to its maker (Perplexity's 2024
        // `codellama-70b-instruct`, Meta's) is its host, not its creator.
        let credited_to_api = offer.record.creator.is_some()
            && offer.record.creator == offer.record.provider
            && !offer.first_party;
        if credited_to_api
            && looked_up
                .and_then(|slug| first_pass.models.get(slug))
                .is_some_and(|recs| {
                    recs.iter()
                        .any(|r| r.creator.is_some() && r.creator != offer.record.creator)
                })
        {
            offer.record.creator = None;
        }
        // A dated id of a model the others list is that model unless they list the date as
        // a snapshot of its own: it joins under its undated name, so it neither makes a
        // model nor renames one (the maker's undated alias names the newest snapshot).
        let folded = folded_into(&raw, first_pass, apart);
        // A dated id of a known line that does not fold is a snapshot of its own, kept.
        let kept_apart = folded.is_none() && dated_line(&raw, first_pass);
        if let Some((undated, _)) = folded.filter(|(_, m)| named.is_none_or(|n| n == *m)) {
            offer.record.parsed = Some(names::parse(undated));
        } else if named.is_none()
            && !offer.first_party
            && !kept_apart
            && !introduced.contains(&names::parse(&raw).key)
        {
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

/// The dated ids that are snapshots of their own, not aliases of the model their undated
/// name joins: an id dated otherwise than that model's slug, and at a creator's own API an
/// id the API lists at two dates or more (`gpt-4o-mini-tts-2025-03-20`, `-2025-12-15`;
/// docs/methodology.md, "Identity"). A host's entry under such an id is that snapshot's.
pub fn own_snapshots(offers: &[Offer], first_pass: &Resolved) -> BTreeSet<String> {
    let mut dates: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    let own = offers
        .iter()
        .filter(|o| o.first_party && o.region.is_none());
    for o in own.clone() {
        let raw = o.record.raw_id.as_str();
        if let (Some(provider), Some(u)) = (o.record.provider.as_deref(), identities::undated(raw))
        {
            dates
                .entry((provider, u))
                .or_default()
                .insert(&raw[u.len()..]);
        }
    }
    own.filter_map(|o| {
        let raw = o.record.raw_id.as_str();
        let u = identities::undated(raw)?;
        let slug = first_pass.lookup(u)?;
        let two = o
            .record
            .provider
            .as_deref()
            .and_then(|p| dates.get(&(p, u)))
            .is_some_and(|d| d.len() > 1);
        (two || dated_otherwise(raw, u, slug)).then(|| names::parse(raw).key)
    })
    .collect()
}

/// A dated id's undated name and the model it joins, where the id is no snapshot of its
/// own.
fn folded_into<'a, 'r>(
    raw: &'r str,
    first_pass: &'a Resolved,
    apart: &BTreeSet<String>,
) -> Option<(&'r str, &'a str)> {
    let u = identities::undated(raw)?;
    let slug = first_pass.lookup(u)?;
    (!dated_otherwise(raw, u, slug) && !apart.contains(&names::parse(raw).key)).then_some((u, slug))
}

/// Whether a dated id's undated name names a known model.
fn dated_line(raw: &str, first_pass: &Resolved) -> bool {
    identities::undated(raw)
        .and_then(|u| first_pass.lookup(u))
        .is_some()
}

/// Whether `raw`, a dated id whose undated name `undated` joins the model `slug`, is dated
/// otherwise than that model's slug.
fn dated_otherwise(raw: &str, undated: &str, slug: &str) -> bool {
    let date = raw[undated.len()..].trim_start_matches(['-', '@']);
    identities::undated(slug)
        .is_some_and(|u| names::parse(&slug[u.len()..]).key != names::parse(date).key)
}

/// The entries that price nothing witness the attributes of a model the others list,
/// under its name, and make none: those that name one join `records`. A dated entry whose
/// undated name joins another snapshot (`apart`, [`own_snapshots`]) witnesses none of it:
/// at its creator's own API it is that snapshot of its own (`qwen-plus-2025-09-11` beside
/// `qwen-plus-2025-07-28`) and joins `records` under its own id.
pub fn described(
    described: Vec<ModelRecord>,
    first_pass: &Resolved,
    apart: &BTreeSet<String>,
    records: &mut Vec<ModelRecord>,
) {
    let tables = crate::ingest::prices::Tables::shared();
    for mut r in described {
        if let Some(slug) = first_pass
            .lookup(&r.raw_id)
            .or_else(|| folded_into(&r.raw_id, first_pass, apart).map(|(_, slug)| slug))
        {
            r.parsed = Some(names::parse(slug));
            records.push(r);
        } else if dated_line(&r.raw_id, first_pass)
            && r.provider
                .as_deref()
                .is_some_and(|p| tables.is_first_party(r.creator.as_deref(), p))
        {
            records.push(r);
        }
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
