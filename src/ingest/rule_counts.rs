//! The rule counts of the ingest report: how far each rule of docs/data.md reaches in the
//! built snapshot, and how often a rule that must always hold is broken (those lines should
//! read 0; `mds ingest` prints them and the data tests check them).

use std::collections::BTreeSet;

use entity::vocab::{Category, DateBasis, OfferingKind, ProviderKind, Task};

use super::sources::{litellm, models_dev};
use super::{Report, catalog, names, offerings, prices};
use crate::snapshot::Snapshot;

/// How far each rule of docs/data.md reaches in the built snapshot, and how often a rule
/// that must always hold is broken (those lines should read 0).
pub fn count(s: &Snapshot, witnessed: &litellm::ByModel, report: &mut Report) {
    use entity::offering::{Variant, Witness};
    report.rule(
        "tasks: models every LiteLLM entry of which is an embedding, served as chat (must be 0)",
        s.models
            .iter()
            .filter(|m| m.task == Task::Chat)
            .filter(|m| {
                witnessed.get(&m.slug).is_some_and(|ws| {
                    !ws.is_empty() && ws.iter().all(|w| w.mode.as_deref() == Some("embedding"))
                })
            })
            .count(),
    );
    let tables = prices::Tables::shared();
    report.rule(
        "price modes: names that carry a mode (must be 0)",
        s.models
            .iter()
            .filter(|m| names::price_mode("", Some(&m.name)).is_some())
            .count(),
    );
    let mut with_modes = 0;
    let mut below = 0;
    for o in &s.offerings {
        let variants = Variant::decode(o.variants.as_deref());
        with_modes += usize::from(
            variants
                .iter()
                .any(|v| Variant::ENTRY_MODES.contains(&v.mode.as_str())),
        );
        below += usize::from(variants.iter().any(|v| offerings::below_batch(o, v)));
    }
    report.rule(
        "price modes: offerings with a batch/flex/priority variant",
        with_modes,
    );
    report.rule(
        "price modes: offerings priced below their batch variant (must be 0)",
        below,
    );
    let free = s
        .offerings
        .iter()
        .filter(|o| o.kind == OfferingKind::FreeTier);
    report.rule("free: free_tier offerings", free.clone().count());
    report.rule(
        "free: free_tier offerings without a stated 0/0 or a free id (must be 0)",
        free.filter(|o| {
            (o.input_price != Some(0.0) || o.output_price != Some(0.0))
                && !prices::says_free(&o.provider_model_id)
        })
        .count(),
    );
    report.rule(
        "free: models.dev 0/0 placeholders at a creator's API made unknown",
        s.offerings
            .iter()
            .filter(|o| o.kind == OfferingKind::FirstParty && o.source == models_dev::SOURCE)
            .filter(|o| {
                Witness::decode(o.sources.as_deref()).iter().any(|w| {
                    w.source == o.source && w.input_price.is_none() && w.output_price.is_none()
                })
            })
            .count(),
    );
    report.rule(
        "open weights: open_source models",
        s.models
            .iter()
            .filter(|m| m.open_source == Some(true))
            .count(),
    );
    report.rule(
        "open weights: models of a reviewed open family",
        s.models
            .iter()
            .filter(|m| catalog::open_family(&m.slug))
            .count(),
    );
    report.rule(
        "lifecycle: models with a deprecation date",
        s.models
            .iter()
            .filter(|m| m.deprecation_date.is_some())
            .count(),
    );
    report.rule(
        "lifecycle: retired models",
        s.models.iter().filter(|m| m.retired).count(),
    );
    report.rule(
        "lifecycle: offerings whose sale ended by the build day (listed, not priced)",
        s.offerings
            .iter()
            .filter(|o| o.ended_by(&s.built_at))
            .count(),
    );
    report.rule(
        "lifecycle: deprecated models (a date announced, or the creator's own entry)",
        s.models.iter().filter(|m| m.deprecated).count(),
    );
    let basis = |b: Option<DateBasis>| {
        s.models
            .iter()
            .filter(|m| m.release_date.is_none() && m.date_basis == b)
            .count()
    };
    report.rule(
        "first seen: models without a release date dated by their first sighting",
        basis(Some(DateBasis::FirstSeen)),
    );
    report.rule(
        "first seen: models left undated (already listed when observation began, or retiring)",
        basis(None),
    );
    report.rule(
        "first seen: retiring models dated by their first sighting (must be 0)",
        s.models
            .iter()
            .filter(|m| m.date_basis == Some(DateBasis::FirstSeen))
            .filter(|m| m.deprecated || m.deprecation_date.is_some())
            .count(),
    );
    let credited = |kinds: &[ProviderKind]| {
        s.models
            .iter()
            .filter_map(|m| m.creator_slug.as_deref())
            .filter(|c| {
                !tables.creators.contains_key(*c) && kinds.contains(&tables.provider_kind(c))
            })
            .count()
    };
    report.rule(
        "creators: models credited to a cloud or plan (must be 0)",
        credited(&[ProviderKind::Cloud, ProviderKind::Plan]),
    );
    // A router's own products, under its own name (OpenRouter's `openrouter/auto`,
    // Vercel's `vercel/v0-1.5-md`), are its: counted, not forbidden.
    report.rule(
        "creators: models credited to a router under its own name",
        credited(&[ProviderKind::Router]),
    );
    report.rule(
        "references: dangling references (must be 0)",
        s.dangling().len(),
    );
    // The vote's reach (docs/data.md, "Witnesses and votes"): disputes by field (a modality's
    // under its side), and the models of each task and category the voted modalities give.
    let mut disputed = 0;
    for m in &s.models {
        let disputes = entity::model::Dispute::decode(m.disputes.as_deref());
        disputed += usize::from(!disputes.is_empty());
        let fields: BTreeSet<&str> = disputes
            .iter()
            .map(|d| d.field.split('.').next().unwrap_or(&d.field))
            .collect();
        for f in fields {
            report.rule(&format!("witnesses: models with a disputed {f}"), 1);
        }
        report.rule(&format!("classes: task {}", m.task), 1);
        report.rule(&format!("classes: category {}", m.category), 1);
    }
    report.rule("witnesses: models with a dispute", disputed);
    report.rule(
        "classes: video generators in category llm with text output (must be 0)",
        s.models
            .iter()
            .filter(|m| m.task == Task::VideoGeneration && m.category == Category::Llm)
            .filter(|m| m.output_modalities.split(',').any(|x| x == "text"))
            .count(),
    );
}
