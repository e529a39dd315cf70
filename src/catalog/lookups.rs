//! Lookups by any identifier a user may hold: a provider's model id (`openai/gpt-4o`,
//! `us.anthropic.claude-3-5-sonnet-20241022-v2:0`, `claude-opus-4-1@20250805`), a router
//! variant (`openai/gpt-4o:free`), a slug, an alias or a display name, case-insensitively.
//!
//! The index maps each lowercased identifier to one model, the most authoritative claim
//! winning where two models share an identifier: a model's own slug, then its aliases, then
//! first-party provider ids, then other providers' ids, then names. An identifier not in
//! the index is parsed as the ingest parses source names (vendor and region prefixes,
//! `:variants` and Bedrock revisions dropped) and looked up again by the slug that gives.

use super::HashMap;

use entity::vocab::OfferingKind;
use entity::{model, offering};

use super::{Catalog, Row};

/// Builds the lookup index.
pub fn build(
    models: &[Row<model::Model>],
    model_index: &HashMap<String, usize>,
    alias_index: &HashMap<String, usize>,
    offerings: &[Row<offering::Model>],
) -> HashMap<String, usize> {
    let mut index: HashMap<String, usize> = HashMap::default();
    let mut claim = |id: &str, pos: usize| {
        index.entry(id.trim().to_lowercase()).or_insert(pos);
    };
    for (slug, &pos) in model_index {
        claim(slug, pos);
    }
    for (alias, &pos) in alias_index {
        claim(alias, pos);
    }
    for first_party in [true, false] {
        for o in offerings
            .iter()
            .filter(|o| (o.kind == OfferingKind::FirstParty) == first_party)
        {
            if let Some(&pos) = model_index.get(&o.model_slug) {
                claim(&o.provider_model_id, pos);
                claim(&format!("{}/{}", o.provider_slug, o.provider_model_id), pos);
            }
        }
    }
    for (pos, m) in models.iter().enumerate() {
        claim(&m.name, pos);
    }
    index
}

/// Longer identifiers name no model: no provider's id comes near, and lookups stay cheap.
const MAX_ID_BYTES: usize = 400;

impl Catalog {
    /// The model an identifier names, for every field and endpoint that takes a model:
    /// its slug exactly, else anything [`Catalog::lookup`] accepts. REST's redirect to a
    /// canonical URL and GraphQL's single-model fields both resolve through it, so the two
    /// faces accept the same identifiers (`docs/rest.md`, `/models/lookup`).
    pub fn find_model(&self, id: &str) -> Option<&Row<model::Model>> {
        if id.len() > MAX_ID_BYTES {
            return None;
        }
        self.model(id).or_else(|| self.lookup(id))
    }

    /// The model any identifier names, if one does.
    pub fn lookup(&self, id: &str) -> Option<&Row<model::Model>> {
        let lower = id.trim().to_lowercase();
        if lower.is_empty() {
            return None;
        }
        if let Some(&pos) = self.lookup_index.get(&lower) {
            return self.models.get(pos);
        }
        // The slug as parsed, else its join key (a point written as a dash): the key the
        // ingest joined the spelling by, so a model folded into another since
        // (`minimax-m2.5-high-throughput`, alias `minimax-m2-5-high-throughput`) still names it.
        let parsed = crate::ingest::names::parse(&lower);
        [&parsed.slug, &parsed.key].into_iter().find_map(|id| {
            self.model_or_alias(id)
                .or_else(|| self.lookup_index.get(id).and_then(|&p| self.models.get(p)))
        })
    }
}
