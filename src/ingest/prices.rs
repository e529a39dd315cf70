//! Price rules (`docs/methodology.md`): who sells each offering, which price is a model's
//! headline, and how every price is written.
//!
//! Two reviewed tables, checked in under `data/`, drive them before any heuristic:
//! `creators.csv` (each creator with its display name, website and first-party provider
//! ids, the international USD API first: `meta` ↔ `llama`, `zhipuai` ↔ `zai zhipuai`) and
//! `provider_kinds.csv` (providers that are clouds, routers or subscription plans; any other
//! provider is a reseller).
//!
//! - An offering's `kind`: `first_party` when its provider is one of the model creator's
//!   own; else `free_tier` when it costs 0/0; else the provider's kind.
//! - A model's list price (`input_price`/`output_price`): its creator's own paid (or free)
//!   price, `price_basis: first_party`; without one, the offering at the median input price
//!   among paid cloud, router and reseller offerings (the lower middle one when their
//!   number is even), `price_basis: median`. Plans and free tiers never set it.
//! - `cheapest`: the paid offering a careful buyer would use — the creator's own API, a
//!   cloud or a router (resellers, plans and free tiers are `cheapestAny`'s, chosen when
//!   served) — with the lowest input price (then output price, then provider slug).
//! - Every price has at most 6 significant digits (`14.993999999999998` → `14.994`).

use std::collections::BTreeMap;

use entity::offering;
use entity::vocab::{OfferingKind, PriceBasis, ProviderKind};

use crate::snapshot::Snapshot;

/// One row of `data/creators.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Creator {
    pub slug: String,
    pub name: String,
    pub website: String,
    /// Provider slugs that are this creator's own API.
    pub first_party: Vec<String>,
    /// Vendor prefixes of model ids that name this creator (`meta-llama/…`, `anthropic.…`).
    pub vendors: Vec<String>,
    /// Model-name prefixes this creator owns (`claude`, `gpt-`), for ids without a vendor.
    pub name_prefixes: Vec<String>,
}

/// The reviewed tables.
#[derive(Debug, Clone, Default)]
pub struct Tables {
    pub creators: BTreeMap<String, Creator>,
    /// Provider slug → `cloud`, `router` or `plan`.
    pub provider_kinds: BTreeMap<String, ProviderKind>,
}

const CREATORS_CSV: &str = include_str!("../../data/creators.csv");
const PROVIDER_KINDS_CSV: &str = include_str!("../../data/provider_kinds.csv");

impl Tables {
    /// The tables checked in with this build.
    pub fn checked_in() -> Result<Self, String> {
        Self::parse(CREATORS_CSV, PROVIDER_KINDS_CSV)
    }

    /// The checked-in tables, parsed once (a unit test keeps them parseable).
    pub fn shared() -> &'static Self {
        static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| Self::checked_in().unwrap_or_default())
    }

    /// The creator a vendor prefix names.
    pub fn creator_of_vendor(&self, vendor: &str) -> Option<&str> {
        self.creators
            .values()
            .find(|c| c.vendors.iter().any(|v| v.eq_ignore_ascii_case(vendor)))
            .map(|c| c.slug.as_str())
    }

    /// The creator owning the longest name prefix of `key`.
    pub fn creator_of_name(&self, key: &str) -> Option<&str> {
        // Keys write a version's point as a dash (`llama-3-1-…`); so do the prefixes here.
        let key = key.replace('.', "-");
        self.creators
            .values()
            .flat_map(|c| c.name_prefixes.iter().map(move |p| (p, c)))
            .filter(|(p, _)| key.starts_with(&p.replace('.', "-")))
            .max_by_key(|(p, _)| p.len())
            .map(|(_, c)| c.slug.as_str())
    }

    pub fn parse(creators: &str, kinds: &str) -> Result<Self, String> {
        let mut t = Self::default();
        let mut r = csv::Reader::from_reader(creators.as_bytes());
        for row in r.records() {
            let row = row.map_err(|e| format!("creators.csv: {e}"))?;
            let field = |i: usize| row.get(i).unwrap_or_default().trim().to_string();
            let c = Creator {
                slug: field(0),
                name: field(1),
                website: field(2),
                first_party: field(3).split_whitespace().map(str::to_string).collect(),
                vendors: field(4).split_whitespace().map(str::to_string).collect(),
                name_prefixes: field(5).split_whitespace().map(str::to_string).collect(),
            };
            if c.slug.is_empty() || c.name.is_empty() {
                return Err(format!("creators.csv: incomplete row {row:?}"));
            }
            t.creators.insert(c.slug.clone(), c);
        }
        let mut r = csv::Reader::from_reader(kinds.as_bytes());
        for row in r.records() {
            let row = row.map_err(|e| format!("provider_kinds.csv: {e}"))?;
            let (p, k) = (
                row.get(0).unwrap_or_default().trim(),
                row.get(1).unwrap_or_default().trim(),
            );
            let kind = ProviderKind::parse(k).filter(|k| {
                matches!(
                    k,
                    ProviderKind::Cloud | ProviderKind::Router | ProviderKind::Plan
                )
            });
            let Some(kind) = kind else {
                return Err(format!("provider_kinds.csv: {p} has unknown kind {k:?}"));
            };
            t.provider_kinds.insert(p.to_string(), kind);
        }
        Ok(t)
    }

    /// Whether `provider` is `creator`'s own API.
    pub fn is_first_party(&self, creator: Option<&str>, provider: &str) -> bool {
        // A creator the table does not list sells under its own name (LiteLLM's `scaledown`
        // for ScaleDown's `summarize`).
        creator == Some(provider)
            || creator
                .and_then(|c| self.creators.get(c))
                .is_some_and(|c| c.first_party.iter().any(|p| p == provider))
    }

    /// What a provider is: its listed kind, else `creator` for a creator's own API, else
    /// `reseller`.
    pub fn provider_kind(&self, provider: &str) -> ProviderKind {
        if let Some(k) = self.provider_kinds.get(provider) {
            return *k;
        }
        if self
            .creators
            .values()
            .any(|c| c.first_party.iter().any(|p| p == provider))
        {
            return ProviderKind::Creator;
        }
        ProviderKind::Reseller
    }

    /// Who sells an offering.
    pub fn offering_kind(&self, creator: Option<&str>, o: &offering::Model) -> OfferingKind {
        if self.is_first_party(creator, &o.provider_slug) {
            return OfferingKind::FirstParty;
        }
        // Free only where a source says so — 0 for both prices, or a seller's id for the
        // free route (OpenRouter's `…:free`) — an unknown price is unknown, never free
        // (docs/data.md, "Free").
        let free = (o.input_price == Some(0.0) && o.output_price == Some(0.0))
            || says_free(&o.provider_model_id);
        match self.provider_kind(&o.provider_slug) {
            ProviderKind::Plan => OfferingKind::Plan,
            _ if free => OfferingKind::FreeTier,
            ProviderKind::Creator | ProviderKind::Reseller => OfferingKind::Reseller,
            ProviderKind::Cloud => OfferingKind::Cloud,
            ProviderKind::Router => OfferingKind::Router,
        }
    }
}

/// Whether a seller's id names its free route (`open-r1/olympiccoder-32b:free`,
/// `glm-4.7-free`).
pub fn says_free(id: &str) -> bool {
    let id = id.to_ascii_lowercase();
    id.ends_with(":free") || id.ends_with("-free")
}

/// `x` with at most 6 significant digits, as a price is published.
pub fn six_digits(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{x:.5e}").parse().unwrap_or(x)
}

fn round_all(s: &mut Snapshot) {
    let r = |p: &mut Option<f64>| *p = p.map(six_digits);
    for o in &mut s.offerings {
        r(&mut o.input_price);
        r(&mut o.output_price);
        r(&mut o.cache_read_price);
        r(&mut o.cache_write_price);
        let mut tiers = entity::offering::Tier::decode(o.tiers.as_deref());
        for t in &mut tiers {
            r(&mut t.input_price);
            r(&mut t.output_price);
            r(&mut t.cache_read_price);
            r(&mut t.cache_write_price);
        }
        o.tiers = entity::offering::Tier::encode(&tiers);
        let mut units = entity::offering::UnitPrice::decode(o.unit_prices.as_deref());
        for u in &mut units {
            u.price = six_digits(u.price);
        }
        o.unit_prices = entity::offering::UnitPrice::encode(&units);
    }
    for h in &mut s.price_history {
        r(&mut h.input_price);
        r(&mut h.output_price);
        r(&mut h.cache_read_price);
        r(&mut h.cache_write_price);
    }
}

/// models.dev writes 0/0 where it does not know a price (Amazon's `nova-2-lite-v1` at its
/// Nova API, "Nova 2 Lite", which Amazon sells on Bedrock at 0.3/2.5): a creator's own
/// offering served at 0/0 from models.dev, where another of the creator's own APIs prices
/// the model — or a model of the same creator and name — states no price, and every other
/// models.dev 0/0 at that API. It becomes unknown (`null`), never free (docs/data.md,
/// "Free"). Returns how many.
pub fn unknown_placeholders(s: &mut Snapshot, t: &Tables) -> usize {
    // Names compared without the creator's name before them ("Amazon Nova 2 Lite").
    let plain = |creator: Option<&str>, name: &str| {
        let name = name.to_lowercase();
        let maker = creator
            .and_then(|c| t.creators.get(c))
            .map(|c| format!("{} ", c.name.to_lowercase()));
        maker
            .and_then(|m| name.strip_prefix(&m).map(str::to_string))
            .unwrap_or(name)
    };
    let named: BTreeMap<&str, (Option<&str>, String)> = s
        .models
        .iter()
        .map(|m| {
            let creator = m.creator_slug.as_deref();
            (m.slug.as_str(), (creator, plain(creator, &m.name)))
        })
        .collect();
    let priced: std::collections::BTreeSet<(Option<&str>, String)> = s
        .offerings
        .iter()
        .filter(|o| o.kind == OfferingKind::FirstParty && paid(o))
        .filter_map(|o| named.get(o.model_slug.as_str()).cloned())
        .collect();
    let zero = |o: &offering::Model| {
        o.kind == OfferingKind::FirstParty
            && o.source == crate::ingest::sources::models_dev::SOURCE
            && o.input_price == Some(0.0)
            && o.output_price == Some(0.0)
    };
    let contradicted = |o: &offering::Model| {
        named
            .get(o.model_slug.as_str())
            .is_some_and(|k| priced.contains(k))
    };
    // An API whose 0/0 is shown a placeholder for one model writes placeholders: its other
    // 0/0s in the same files are no more a price (Amazon's Nova API lists Nova 2 Pro at 0/0
    // too, which no other Amazon API prices).
    let placeholding: std::collections::BTreeSet<&str> = s
        .offerings
        .iter()
        .filter(|o| zero(o) && contradicted(o))
        .map(|o| o.provider_slug.as_str())
        .collect();
    let placeholders: Vec<usize> = s
        .offerings
        .iter()
        .enumerate()
        .filter(|(_, o)| zero(o) && placeholding.contains(o.provider_slug.as_str()))
        .map(|(i, _)| i)
        .collect();
    let mut n = 0;
    for i in placeholders {
        let Some(o) = s.offerings.get_mut(i) else {
            continue;
        };
        o.input_price = None;
        o.output_price = None;
        let mut witnesses = offering::Witness::decode(o.sources.as_deref());
        for w in witnesses
            .iter_mut()
            .filter(|w| w.source == o.source && w.provider_model_id == o.provider_model_id)
        {
            w.input_price = None;
            w.output_price = None;
        }
        o.sources = offering::Witness::encode(&witnesses);
        n += 1;
    }
    n
}

fn paid(o: &offering::Model) -> bool {
    o.input_price.unwrap_or(0.0) > 0.0 || o.output_price.unwrap_or(0.0) > 0.0
}

/// The creator's own API's priced offering of `m`, in the order the creator's provider ids
/// are listed; for a creator the table does not list, its own API under its own name, where
/// that API states a price (a 0/0 there may be a placeholder: the market decides).
fn own_offering<'a>(
    m: &entity::model::Model,
    t: &Tables,
    offers: &[&'a offering::Model],
) -> Option<&'a offering::Model> {
    let creator = m.creator_slug.as_deref()?;
    t.creators
        .get(creator)
        .and_then(|c| {
            c.first_party.iter().find_map(|p| {
                offers
                    .iter()
                    .find(|o| &o.provider_slug == p && o.input_price.is_some())
                    .copied()
            })
        })
        .or_else(|| {
            offers
                .iter()
                .find(|o| creator == o.provider_slug && o.input_price.is_some() && paid(o))
                .copied()
        })
}

/// Rounds every price, sets every offering's and provider's kind, and every model's list
/// price, price basis and cheapest offering as of `today`.
pub fn apply(s: &mut Snapshot, t: &Tables, today: &str) {
    round_all(s);
    let creator_of: BTreeMap<String, Option<String>> = s
        .models
        .iter()
        .map(|m| (m.slug.clone(), m.creator_slug.clone()))
        .collect();
    for o in &mut s.offerings {
        let creator = creator_of.get(&o.model_slug).cloned().flatten();
        o.kind = t.offering_kind(creator.as_deref(), o);
    }
    unknown_placeholders(s, t);
    let sellers: std::collections::BTreeSet<&str> = s
        .offerings
        .iter()
        .map(|o| o.provider_slug.as_str())
        .collect();
    for p in &mut s.providers {
        // An organisation that sells nothing here is here because it created models.
        let creates = t.creators.contains_key(&p.slug) || !sellers.contains(p.slug.as_str());
        p.kind = if creates && t.provider_kind(&p.slug) == ProviderKind::Reseller {
            ProviderKind::Creator
        } else {
            t.provider_kind(&p.slug)
        };
    }
    let mut by_model: BTreeMap<&str, Vec<&offering::Model>> = BTreeMap::new();
    for o in &s.offerings {
        by_model.entry(o.model_slug.as_str()).or_default().push(o);
    }
    let order = |a: &&offering::Model, b: &&offering::Model| {
        let key = |o: &offering::Model| {
            (
                o.input_price.unwrap_or(f64::MAX),
                o.output_price.unwrap_or(f64::MAX),
            )
        };
        let (ka, kb) = (key(a), key(b));
        ka.0.total_cmp(&kb.0)
            .then(ka.1.total_cmp(&kb.1))
            .then_with(|| a.provider_slug.cmp(&b.provider_slug))
    };
    for m in &mut s.models {
        let offers = by_model.get(m.slug.as_str()).cloned().unwrap_or_default();
        // A sale ended by the day is no way to buy while another is current; the creator's
        // last price stays the list price where its API no longer sells the model, as a
        // retired model keeps it (docs/data.md, "Ended sales").
        let current: Vec<&offering::Model> = offers
            .iter()
            .filter(|o| !o.ended_by(today))
            .copied()
            .collect();
        let on_sale = if current.iter().any(|o| o.input_price.is_some()) {
            current
        } else {
            offers.clone()
        };
        let first_party = own_offering(m, t, &on_sale).or_else(|| own_offering(m, t, &offers));
        let mut market: Vec<&offering::Model> = on_sale
            .iter()
            .filter(|o| {
                paid(o)
                    && o.input_price.is_some()
                    && matches!(
                        o.kind,
                        OfferingKind::Cloud
                            | OfferingKind::Router
                            | OfferingKind::Reseller
                            | OfferingKind::FirstParty
                    )
            })
            .copied()
            .collect();
        market.sort_by(order);
        let (basis, list) = match first_party {
            Some(o) => (Some(PriceBasis::FirstParty), Some(o)),
            None => {
                let resale: Vec<&offering::Model> = market
                    .iter()
                    .filter(|o| o.kind != OfferingKind::FirstParty)
                    .copied()
                    .collect();
                let mid = resale.len().saturating_sub(1) / 2;
                (
                    resale.get(mid).map(|_| PriceBasis::Median),
                    resale.get(mid).copied(),
                )
            }
        };
        m.price_basis = basis;
        m.input_price = list.and_then(|o| o.input_price);
        m.output_price = list.and_then(|o| o.output_price);
        // Resellers set the median list price where the creator sells none, but are no
        // careful buyer's cheapest: a small reseller at 86 % below the creator is a risk.
        let cheapest = market.iter().find(|o| o.kind != OfferingKind::Reseller);
        m.cheapest_provider = cheapest.map(|o| o.provider_slug.clone());
        m.cheapest_input_price = cheapest.and_then(|o| o.input_price);
        m.cheapest_output_price = cheapest.and_then(|o| o.output_price);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entity::model;

    fn tables() -> Tables {
        Tables::parse(
            "creator,name,website,first_party_providers\nanthropic,Anthropic,https://a,anthropic\nmeta,Meta,https://m,llama\n",
            "provider,kind\nopenrouter,router\namazon-bedrock,cloud\ngithub-copilot,plan\n",
        )
        .unwrap()
    }

    fn offer(model: &str, provider: &str, input: f64, output: f64) -> offering::Model {
        offering::Model {
            id: 0,
            model_slug: model.into(),
            provider_slug: provider.into(),
            provider_model_id: model.into(),
            input_price: Some(input),
            output_price: Some(output),
            cache_read_price: None,
            cache_write_price: None,
            tiers: None,
            unit_prices: None,
            variants: None,
            upcoming: None,
            regions: None,
            sources: None,
            disputed: false,
            deprecation_date: None,
            context_window: None,
            as_of: None,
            source: "test".into(),
            kind: OfferingKind::Reseller,
        }
    }

    fn model(slug: &str, creator: &str) -> model::Model {
        model::Model {
            creator_slug: Some(creator.into()),
            ..crate::ingest::catalog::blank_model(slug)
        }
    }

    #[test]
    fn an_ended_sale_sets_no_median_or_cheapest_but_the_creator_keeps_its_last_price() {
        let ended = |mut o: offering::Model| {
            o.deprecation_date = Some("2026-09-27".into());
            o
        };
        let mut s = Snapshot {
            models: vec![model("claude-x", "anthropic"), model("llama-x", "meta")],
            offerings: vec![
                ended(offer("claude-x", "anthropic", 3.0, 15.0)),
                ended(offer("claude-x", "amazon-bedrock", 2.0, 10.0)),
                offer("claude-x", "openrouter", 3.3, 16.5),
                ended(offer("llama-x", "a", 0.1, 0.1)),
                offer("llama-x", "b", 0.9, 0.9),
            ],
            ..Snapshot::default()
        };
        apply(&mut s, &tables(), "2026-11-10");
        let claude = &s.models[0];
        assert_eq!(claude.price_basis, Some(PriceBasis::FirstParty));
        assert_eq!(claude.input_price, Some(3.0));
        assert_eq!(claude.cheapest_provider.as_deref(), Some("openrouter"));
        let llama = &s.models[1];
        assert_eq!(
            (llama.input_price, llama.output_price),
            (Some(0.9), Some(0.9))
        );
        // Before the day it ended, the sale counts.
        apply(&mut s, &tables(), "2026-09-01");
        assert_eq!(
            s.models[0].cheapest_provider.as_deref(),
            Some("amazon-bedrock")
        );
    }

    #[test]
    fn prices_keep_six_significant_digits() {
        assert_eq!(six_digits(14.993999999999998), 14.994);
        assert_eq!(six_digits(0.30000000000000004), 0.3);
        assert_eq!(six_digits(2.5), 2.5);
        assert_eq!(six_digits(0.000123456789), 0.000123457);
        assert_eq!(six_digits(0.0), 0.0);
    }

    #[test]
    fn the_creator_s_price_is_the_list_price_and_a_careful_buyer_s_cheapest_is_no_reseller() {
        let mut s = Snapshot {
            models: vec![model("claude-x", "anthropic"), model("llama-x", "meta")],
            offerings: vec![
                offer("claude-x", "anthropic", 3.0, 15.0),
                offer("claude-x", "tiny-reseller", 0.43, 2.14),
                offer("claude-x", "amazon-bedrock", 3.0, 15.0),
                offer("claude-x", "github-copilot", 0.0, 0.0),
                offer("claude-x", "openrouter", 0.0, 0.0),
                offer("llama-x", "a", 0.2, 0.2),
                offer("llama-x", "b", 0.9, 0.9),
                offer("llama-x", "c", 0.5, 0.6),
                offer("llama-x", "openrouter", 0.0, 0.0),
            ],
            ..Snapshot::default()
        };
        apply(&mut s, &tables(), "");
        let kinds: Vec<&str> = s.offerings.iter().map(|o| o.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "first_party",
                "reseller",
                "cloud",
                "plan",
                "free_tier",
                "reseller",
                "reseller",
                "reseller",
                "free_tier"
            ]
        );
        let claude = &s.models[0];
        assert_eq!(
            (claude.input_price, claude.output_price),
            (Some(3.0), Some(15.0))
        );
        assert_eq!(claude.price_basis, Some(PriceBasis::FirstParty));
        // The creator's API and Bedrock both 3/15: the tie goes by slug; the 0.43 reseller
        // is only `cheapestAny`'s.
        assert_eq!(claude.cheapest_provider.as_deref(), Some("amazon-bedrock"));
        assert_eq!(claude.cheapest_input_price, Some(3.0));
        // No first-party offering: the median paid offering; free tiers never count.
        let llama = &s.models[1];
        assert_eq!(llama.price_basis, Some(PriceBasis::Median));
        assert_eq!(
            (llama.input_price, llama.output_price),
            (Some(0.5), Some(0.6))
        );
        // Sold by resellers only: no careful buyer's cheapest.
        assert_eq!(llama.cheapest_provider, None);
    }

    #[test]
    fn a_model_offered_only_free_has_no_list_price() {
        let mut s = Snapshot {
            models: vec![model("llama-y", "meta")],
            offerings: vec![offer("llama-y", "openrouter", 0.0, 0.0)],
            ..Snapshot::default()
        };
        apply(&mut s, &tables(), "");
        let m = &s.models[0];
        assert_eq!((m.input_price, m.price_basis), (None, None));
        assert_eq!(m.cheapest_provider, None);
    }

    #[test]
    fn the_checked_in_tables_parse() {
        let t = Tables::checked_in().unwrap();
        assert!(
            t.creators["meta"]
                .first_party
                .contains(&"llama".to_string())
        );
        assert_eq!(t.provider_kind("openrouter"), ProviderKind::Router);
        assert_eq!(t.provider_kind("openai"), ProviderKind::Creator);
        assert_eq!(t.provider_kind("somewhere"), ProviderKind::Reseller);
    }

    #[test]
    fn creators_come_from_the_table_vendor_first_then_the_longest_name_prefix() {
        use super::super::names::creator_for;
        assert_eq!(creator_for(Some("meta-llama"), "anything"), Some("meta"));
        assert_eq!(creator_for(Some("NVIDIA"), "llama-3-8b"), Some("nvidia"));
        assert_eq!(creator_for(None, "llama-3-1-nemotron-70b"), Some("nvidia"));
        assert_eq!(creator_for(None, "llama-3-8b"), Some("meta"));
        assert_eq!(
            creator_for(Some("unknown-lab"), "claude-x"),
            Some("anthropic")
        );
        assert_eq!(
            creator_for(None, "palmyra-x5"),
            Some("writer"),
            "not Google's (`palm`)"
        );
        assert_eq!(
            creator_for(None, "gpt-neox-20b"),
            Some("eleutherai"),
            "not OpenAI's (`gpt-`)"
        );
        assert_eq!(creator_for(None, "gpt-4o"), Some("openai"));
    }
}
