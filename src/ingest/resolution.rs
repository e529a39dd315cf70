//! Entity resolution: which records are one model, and its canonical slug.
//!
//! Records whose names normalize to the same join key are one model; an undated name
//! (`gpt-4o`) joins the newest dated snapshot (`gpt-4o-2024-11-20`) and stays reachable as an
//! alias; a host's prefix or plan route, a run configuration, a vendor's dash prefix and the
//! same-name rule ([`identities::same_name`]) join further spellings (docs/methodology.md,
//! "Identity"). [`resolve`] runs twice in an ingest: once over the pricing and metadata
//! sources' records (the first pass, which the benchmarks' models and LiteLLM's entries are
//! joined against) and once over every record. Each resolved model's offerings are then
//! picked by [`super::offerings`].

use std::collections::{BTreeMap, BTreeSet};

use super::scores::{self, RawScore};
use super::{
    BENCHMARK_RANK, ModelRecord, Report, catalog, identities, modes, names, offerings, sources,
};

/// Moves every plan route to its plan and marks every mode entry (steps run before any
/// resolution, over the adapters' records and LiteLLM's offers alike).
pub fn route_plans_and_modes<'a>(
    records: impl Iterator<Item = &'a mut ModelRecord>,
    provider_meta: &mut BTreeMap<String, catalog::ProviderMeta>,
    report: &mut Report,
) {
    for r in records {
        route_to_plan(r, provider_meta);
        modes::mark_entry(r, report);
    }
}

/// The first pass: the models the pricing and metadata sources list, to which the
/// benchmarks' own models are added (a benchmarked model no pricing or metadata source
/// knows becomes a model too). LiteLLM's entries are joined against the pass's models
/// ([`sources::litellm::join`]).
pub fn first_pass(
    records: &mut Vec<ModelRecord>,
    raw: &[RawScore],
    report: &mut Report,
) -> Resolved {
    let first_pass = resolve(records.clone());
    records.extend(scores::unpriced_models(raw, &first_pass, report));
    first_pass
}

/// A host's plan route (`coding-glm-5.1` at AIHubMix) is the model sold at the plan: the
/// record moves to the plan's provider (named after the host) under the model's id.
fn route_to_plan(r: &mut ModelRecord, meta: &mut BTreeMap<String, catalog::ProviderMeta>) {
    let Some((plan, id)) = identities::plan_route(r.provider.as_deref(), &r.raw_id) else {
        return;
    };
    if let Some((host, _, _, name)) = identities::PLAN_ROUTES.iter().find(|p| p.2 == plan) {
        let website = meta.get(*host).and_then(|m| m.website.clone());
        meta.entry(plan.to_string())
            .or_insert_with(|| catalog::ProviderMeta {
                name: (*name).to_string(),
                website,
            });
    }
    r.parsed = Some(names::parse(id));
    r.provider = Some(plan.to_string());
}

/// Models after entity resolution.
pub struct Resolved {
    /// Canonical models keyed by slug, each with the records that make it up (best first).
    pub models: BTreeMap<String, Vec<ModelRecord>>,
    /// Every name (slug spellings and join keys) a model is known by → its canonical slug.
    pub index: BTreeMap<String, String>,
    /// One offering per (model, provider).
    pub offerings: Vec<entity::offering::Model>,
}

impl Resolved {
    /// The models by their creators' own names spelt as ids (`mistral-ocr-3` for Mistral's
    /// "Mistral OCR 3", `mistral-ocr-2512`), where a name names one model and no model
    /// already answers to it ([`identities::creator_names`]).
    pub fn own_names(&self) -> BTreeMap<String, String> {
        identities::creator_names(&self.models)
            .into_iter()
            .filter(|(key, slugs)| slugs.len() == 1 && !self.index.contains_key(key))
            .filter_map(|(key, slugs)| Some((key, (*slugs.first()?).to_string())))
            .collect()
    }

    /// The one model whose key is `raw`'s followed by a version number (`grok-code-fast`
    /// → `grok-code-fast-1`): a maker's unversioned API name for its only numbered model.
    /// `None` where the name has a digit already or several models would do.
    pub fn numbered(&self, raw: &str) -> Option<&str> {
        let key = names::parse(raw).key;
        if key.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        let head = format!("{key}-");
        let mut slugs: Vec<&str> = self
            .index
            .range(head.clone()..)
            .take_while(|(k, _)| k.starts_with(&head))
            .filter(|(k, _)| k[head.len()..].bytes().all(|b| b.is_ascii_digit()))
            .map(|(_, s)| s.as_str())
            .collect();
        slugs.sort_unstable();
        slugs.dedup();
        match slugs[..] {
            [one] => Some(one),
            _ => None,
        }
    }

    /// The canonical slug for any spelling of a model name, if known.
    pub fn lookup(&self, raw: &str) -> Option<&str> {
        let p = names::parse(raw);
        if let Some(s) = self.index.get(&p.key).or_else(|| self.index.get(&p.slug)) {
            return Some(s);
        }
        // A display name whose `/` is part of the name (`LLaVA (ViT-L/16-224)`).
        if identities::is_display_name(raw)
            && let Some(s) = self.index.get(&names::parse(&names::slugify(raw)).key)
        {
            return Some(s);
        }
        // A dated spelling of a known model its undated name gives (`Gemini 3 Pro Preview
        // (11-2025)`), unless that model is a snapshot of another date (`Command R+
        // (04-2024)` is not `command-r-plus-08-2024`).
        let (head, date) = names::split_date(&p.key)?;
        // A dated snapshot's id without `instruct` (Mistral's `ministral-3-14b-2512` for its
        // weights' `Ministral-3-14B-Instruct-2512`): a snapshot is one checkpoint, so
        // `instruct` says nothing more (docs/methodology.md, "Identity").
        if !head.ends_with("-instruct")
            && let Some(s) = self.index.get(&format!("{head}-instruct-{date}"))
        {
            return Some(s);
        }
        let slug = self.index.get(head)?;
        let other_date = names::split_date(&names::parse(slug).key)
            .is_some_and(|(_, d)| d.replace('-', "") != date.replace('-', ""));
        (!other_date).then_some(slug.as_str())
    }
}

/// A model as the same-name rule sees it: its records' best name, creator and the words of
/// the organisations its ids may carry as a prefix.
fn candidate(key: &str, recs: &[ModelRecord]) -> Option<identities::Candidate> {
    let creator = identities::model_creator(key, recs);
    let mut vendor_words = creator
        .as_deref()
        .map(identities::creator_words)
        .unwrap_or_default();
    for r in recs {
        let orgs = r
            .provider
            .iter()
            .chain(r.parsed.iter().filter_map(|p| p.vendor.as_ref()));
        for org in orgs {
            vendor_words.extend(names::slugify(org).split('-').map(str::to_string));
        }
    }
    let own_price = recs
        .iter()
        .filter(|r| r.provider.is_some() && r.provider == creator)
        .find_map(|r| r.prices.as_ref().map(|p| (r.source, p.input, p.output)));
    Some(identities::Candidate {
        key: key.to_string(),
        name: identities::model_name(recs)?,
        creator,
        vendor_words,
        // A gateway's price list does not vote on which spelling names the model.
        records: recs
            .iter()
            .filter(|r| r.source != sources::litellm::SOURCE)
            .count(),
        offered: recs.iter().any(|r| r.prices.is_some()),
        plain_in_table: recs
            .iter()
            .any(|r| r.rank >= BENCHMARK_RANK && !identities::says_served(&r.raw_id)),
        own_price,
    })
}

/// Authority first; within a rank, records naming this exact snapshot before undated aliases.
fn record_order(r: &ModelRecord, key: &str) -> (u8, bool, String, String) {
    let exact = r.parsed.as_ref().is_some_and(|p| p.key == key);
    (
        r.rank,
        !exact,
        r.provider.clone().unwrap_or_default(),
        r.raw_id.clone(),
    )
}

/// Date part of a key as a comparable string (`20241022`, `2024-10-22` → `20241022`).
fn date_rank(date: &str) -> String {
    let d = date.replace('-', "");
    match d.len() {
        4 => format!("0000{d}"),
        // mmyyyy → yyyymm00.
        6 => format!("{}{}00", &d[2..], &d[..2]),
        _ => d,
    }
}

/// Vendor prefixes written with a dash, and the creator they name.
const DASH_VENDORS: &[(&str, &str)] = &[
    ("openai-", "openai"),
    ("anthropic-", "anthropic"),
    ("google-", "google"),
    // Google's API serving Gemma (`gemini-gemma-2-9b-it`).
    ("gemini-", "google"),
    ("meta-", "meta"),
    ("mistralai-", "mistral"),
    ("mistral-", "mistral"),
    ("deepseek-ai-", "deepseek"),
    ("deepseek-", "deepseek"),
    ("moonshotai-", "moonshotai"),
    ("moonshot-", "moonshotai"),
    ("alibaba-", "alibaba"),
    ("qwen-", "alibaba"),
    ("x-ai-", "xai"),
    ("xai-", "xai"),
    ("xiaomi-", "xiaomi"),
    ("cohere-", "cohere"),
    ("ai21-", "ai21"),
    ("amazon-", "amazon"),
    ("microsoft-", "microsoft"),
    ("nvidia-", "nvidia"),
    ("moonshotai-", "moonshotai"),
    ("minimax-", "minimax"),
    ("perplexity-", "perplexity"),
    ("z-ai-", "zhipuai"),
    ("zai-", "zhipuai"),
];

/// Reads a record whose id or name says which host serves it as the model that host
/// serves (see the comments below); other records are left as they are.
fn read_through_host(r: &mut ModelRecord, hosts: &BTreeSet<String>, keys: &BTreeSet<String>) {
    // A host writing its own name before a known model's (`databricks-gpt-5`) sells
    // that model (and `deepseek-chat` at DeepSeek stays `deepseek-chat`); so does a
    // router naming the cloud it goes through (`azure-gpt-4o` at NanoGPT,
    // `cerebras-llama-4-scout-17b-16e-instruct` at the Llama API).
    let prefixed = r.provider.iter().chain(hosts).find_map(|h| {
        identities::without_host_prefix(Some(h), &r.raw_id).map(|rest| (h.as_str(), rest))
    });
    if let Some((host, rest)) = prefixed {
        let parsed = names::parse(rest);
        let own_creator = r
            .parsed
            .as_ref()
            .and_then(|p| names::creator_for(None, &p.key));
        // Another host's name only where the id as a whole names no creator, and only
        // before a model some source lists; a host's own name before a creator's model
        // (`databricks-bge-large-en`) is its label whether or not another source lists it.
        let own_host = r.provider.as_deref() == Some(host);
        let named = names::creator_for(None, &parsed.key);
        if own_creator != Some(host)
            && (own_host || own_creator.is_none() && named != Some(host))
            && (own_host || keys.contains(&parsed.key))
            && named.is_some()
        {
            r.parsed = Some(parsed);
            // `Cerebras-Llama-4-Scout-17B-16E-Instruct` is the host's label, not the
            // model's name.
            if r.name
                .as_deref()
                .is_some_and(|n| names::slugify(n).starts_with(&format!("{host}-")))
            {
                r.name = None;
            }
        }
    }
    // A host's bot at a router, marked with the host's initials (Poe's
    // `cerebras/llama-3.1-8b-cs`), runs the model its id names; its name is the bot's.
    if let Some((owner, model)) = identities::owner_marked(&r.raw_id) {
        let parsed = names::parse(model);
        let creator = names::creator_for(None, &parsed.key);
        if keys.contains(&parsed.key) && creator.is_some_and(|c| !owner.eq_ignore_ascii_case(c)) {
            r.parsed = Some(parsed);
            r.name = None;
        }
    }
    // A host's product that names the model it runs (GitLab Duo's `duo-chat-opus-4-5`,
    // "Agentic Chat (Claude Opus 4.5)"; AIHubMix's `alicloud-deepseek-v4-flash`,
    // "DeepSeek V4 Flash (Alibaba Cloud)") sells that model, where its own id names no
    // creator. Only sold products: a paper's method (`Chameleon (GPT-4)`) is not the
    // model it builds on.
    if let Some(inner) = r
        .name
        .as_deref()
        .filter(|_| r.prices.is_some())
        .and_then(|n| {
            identities::named_in_parentheses(n, |w| {
                hosts.iter().any(|h| h.split('-').next() == Some(w))
            })
        })
    {
        let parsed = names::parse(&names::slugify(inner));
        let own_creator = r
            .parsed
            .as_ref()
            .and_then(|p| names::creator_for(None, &p.key));
        if r.creator.is_none()
            && own_creator.is_none()
            && keys.contains(&parsed.key)
            && names::creator_for(None, &parsed.key).is_some()
        {
            r.parsed = Some(parsed);
        }
    }
}

/// An id with each `_` between two digits written as the version's dot it stands for
/// (NVIDIA's `riva-translate-4b-instruct-v1_1` is `v1.1`); a quantisation tag's (`q8_0`)
/// is no version.
fn dot_underscores(id: &str) -> String {
    let b = id.as_bytes();
    id.char_indices()
        .map(|(i, c)| {
            let between = c == '_'
                && i > 1
                && b[i - 1].is_ascii_digit()
                && !b[i - 2].eq_ignore_ascii_case(&b'q')
                && b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if between { '.' } else { c }
        })
        .collect()
}

/// A host's record of an undated id priced as an older snapshot's creator prices it, and
/// not as the snapshot the id joined (Vercel's `mistral/mistral-medium` at 0.4/2, Mistral
/// Medium 3.1's price, beside Medium 3.5 at 1.5/7.5), is that older snapshot's offering:
/// the newest such, where several share the price (within a router's 5%: OpenRouter's
/// `mistral-medium` at 2.75/8.1 is Mistral Medium 1's 2.7/8.1). The id itself stays the
/// joined snapshot's alias (docs/methodology.md, "Identity").
fn move_priced_records(groups: &mut BTreeMap<String, Vec<ModelRecord>>) {
    let price = |r: &ModelRecord| {
        let p = r.prices.as_ref()?;
        Some((p.input?, p.output?)).filter(|(i, o)| *i > 0.0 || *o > 0.0)
    };
    // The one standard price the creator's own records (rank 0 to 2) state for a model
    // under its own ids: the undated id's are what is being judged (Mistral's own stale
    // `mistral-medium-latest` at 0.4/2 says nothing of Medium 3.5).
    let own = |recs: &[ModelRecord], stem: &str| {
        let prices: Vec<(f64, f64)> = recs
            .iter()
            .filter(|r| r.rank <= 2 && r.mode.is_none())
            .filter(|r| r.parsed.as_ref().is_some_and(|p| p.key != stem))
            .filter_map(price)
            .collect();
        let first = *prices.first()?;
        prices.iter().all(|p| *p == first).then_some(first)
    };
    // A router's rounding or small margin (OpenRouter's 2.75/8.1 for Mistral's 2.7/8.1) is
    // the same price: within 5% on input and on output.
    let near = |a: (f64, f64), b: (f64, f64)| {
        let close = |x: f64, y: f64| (x - y).abs() <= 0.05 * x.max(y);
        close(a.0, b.0) && close(a.1, b.1)
    };
    let mut lines: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for key in groups.keys() {
        if let Some((stem, date)) = names::split_date(key) {
            lines
                .entry(stem.to_string())
                .or_default()
                .push((date_rank(date), key.clone()));
        }
    }
    let mut moves: Vec<(String, usize, String)> = Vec::new();
    for (stem, mut line) in lines {
        line.sort_by(|a, b| b.cmp(a));
        for (at, (_, key)) in line.iter().enumerate() {
            let Some(joined) = groups.get(key).and_then(|recs| own(recs, &stem)) else {
                continue;
            };
            for (i, r) in groups.get(key).into_iter().flatten().enumerate() {
                let undated = r.parsed.as_ref().is_some_and(|p| p.key == stem);
                let Some(p) = price(r).filter(|p| !near(*p, joined)) else {
                    continue;
                };
                if !undated || r.rank <= 2 || r.mode.is_some() {
                    continue;
                }
                let older = line[at + 1..].iter().find(|(_, k)| {
                    groups
                        .get(k)
                        .and_then(|recs| own(recs, &stem))
                        .is_some_and(|o| near(o, p))
                });
                if let Some((_, older)) = older {
                    moves.push((key.clone(), i, older.clone()));
                }
            }
        }
    }
    // Highest index first, so the indexes left to move stay valid.
    moves.sort_by(|a, b| (&a.0, b.1).cmp(&(&b.0, a.1)));
    for (from, i, into) in moves {
        if let Some(r) = groups.get_mut(&from).map(|recs| recs.remove(i)) {
            groups.entry(into).or_default().push(r);
        }
    }
}

/// Moves each `from` group into `into`, in order, and every key it owned with it.
fn join_groups(
    groups: &mut BTreeMap<String, Vec<ModelRecord>>,
    key_owner: &mut BTreeMap<String, String>,
    joins: Vec<(String, String)>,
) {
    for (from, mut into) in joins {
        // A join into a group an earlier join moved goes where that one went (LLM Gateway's
        // `seed-1-6-250615` into `doubao-seed-1-6`, itself joined into `seed-1-6`), never
        // into a new group of the moved key.
        for _ in 0..8 {
            match key_owner.get(&into) {
                Some(next) if !groups.contains_key(&into) && *next != into => {
                    into.clone_from(next);
                }
                _ => break,
            }
        }
        if from == into {
            continue;
        }
        if let Some(recs) = groups.remove(&from) {
            groups.entry(into.clone()).or_default().extend(recs);
        }
        for owner in key_owner.values_mut() {
            if *owner == from {
                owner.clone_from(&into);
            }
        }
    }
}

/// The model a key names now: its group's, after the spelling moves made before grouping
/// (`prefixed`: a vendor's dash prefix, a host's label).
fn owner_of(
    prefixed: &[(String, String)],
    key_owner: &BTreeMap<String, String>,
    k: &str,
) -> Option<String> {
    let to = prefixed
        .iter()
        .find(|(from, _)| from == k)
        .map_or(k, |(_, to)| to);
    key_owner.get(to).cloned()
}

/// An id as a floating alias is compared: lowercase, without its path and a router's `~`.
fn floating_id(raw: &str) -> String {
    raw.rsplit('/')
        .next()
        .unwrap_or(raw)
        .trim_start_matches('~')
        .to_ascii_lowercase()
}

/// The floating aliases (`…-latest`) creators' own price entries bill under an entry for
/// another name (Google's `gemini-3.1-pro-preview` billing `gemini-pro-latest`).
fn floating_billed(records: &[ModelRecord]) -> BTreeSet<String> {
    records
        .iter()
        .filter(|r| r.rank <= 2)
        .flat_map(|r| {
            let own = names::parse(&r.raw_id).key;
            r.bills
                .iter()
                .filter(|b| b.to_ascii_lowercase().ends_with("-latest"))
                .filter(move |b| names::parse(b).key != own)
                .map(|b| floating_id(b))
        })
        .collect()
}

/// Groups records into canonical models (see the module docs).
pub fn resolve(records: Vec<ModelRecord>) -> Resolved {
    let mut by_key: BTreeMap<String, Vec<ModelRecord>> = BTreeMap::new();
    let keys: BTreeSet<String> = records
        .iter()
        .filter_map(|r| r.parsed.as_ref().map(|p| p.key.clone()))
        .collect();
    let hosts: BTreeSet<String> = records.iter().filter_map(|r| r.provider.clone()).collect();
    let floating = floating_billed(&records);
    // Ids read as another model's (below), kept as its aliases: (the id's slug, the key).
    let mut renamed: Vec<(String, String)> = Vec::new();
    for mut r in records {
        // A floating alias the creator's own price entry bills as another model (Google's
        // `gemini-3.1-pro-preview` entry bills `gemini-pro-latest`) is no listing of the
        // model its words without `latest` name (Gemini 1.0 Pro): a host's entry under it
        // sells whatever the alias points to today, so it witnesses no model
        // (docs/methodology.md, "Identity").
        if r.rank > 2 && floating.contains(&floating_id(&r.raw_id)) {
            continue;
        }
        let mut own_slug = r.parsed.as_ref().map(|p| p.slug.clone());
        if let Some(product) = identities::router_product(&r) {
            r.parsed = Some(product);
            // A bare word that names no router (Kilo's `small`, LLM Gateway's `custom`) is
            // no name of the product; `model-router` is.
            own_slug = own_slug.filter(|s| super::curation::names_router(s, None));
        }
        read_through_host(&mut r, &hosts, &keys);
        // A tuned-only host's endpoint label (Groq's `-reasoning`, `-preview`) after a known
        // model's id: that model (docs/methodology.md, "Identity").
        let labelled = r
            .provider
            .as_deref()
            .zip(r.parsed.as_ref())
            .and_then(|(host, p)| {
                identities::endpoint_labelled(host, &p.key, |k| keys.contains(k))
            });
        if let Some(head) = labelled {
            r.parsed = Some(names::parse(&head));
        }
        // A host's file under a line's undated name whose `base_model` is one dated snapshot
        // of that name (Helicone's `mistral-small`, based on `mistral-small-2506`) sells that
        // snapshot, not the newest the undated name joins (docs/methodology.md, "Identity").
        let pinned = r.based_on.as_ref().filter(|base| {
            r.rank > 2
                && keys.contains(*base)
                && r.parsed
                    .as_ref()
                    .is_some_and(|p| names::split_date(base).is_some_and(|(stem, _)| stem == p.key))
        });
        if let Some(base) = pinned {
            r.parsed = Some(names::parse(base));
        }
        if let Some(p) = &r.parsed
            && !p.key.is_empty()
        {
            if let Some(own) = own_slug.filter(|s| *s != p.slug) {
                renamed.push((own, p.key.clone()));
            }
            by_key.entry(p.key.clone()).or_default().push(r);
        }
    }
    // Some providers write the vendor as a dash prefix (`openai-gpt-4o`,
    // `meta-llama-3-8b-instruct`): such a key joins the unprefixed one when that names a model
    // of the same creator (so `deepseek-v3.2` or `minimax-m2-her` stay as they are).
    // The rest is parsed again, so a vendor's own word order applies (`anthropic-claude-4.6-opus`
    // joins `claude-opus-4-6`).
    let mut prefixed: Vec<(String, String)> = by_key
        .keys()
        .filter_map(|k| {
            DASH_VENDORS.iter().find_map(|(prefix, creator)| {
                let rest = names::parse(k.strip_prefix(prefix)?).key;
                (by_key.contains_key(&rest) && names::creator_for(None, &rest) == Some(*creator))
                    .then(|| (k.clone(), rest))
            })
        })
        .collect();
    // Run configurations sold or listed under their own id (`claude-sonnet-4-5-thinking`,
    // `gemini-3.1-pro-preview-high`) are the model they configure.
    let configured: Vec<(String, String)> = by_key
        .keys()
        .filter(|k| !prefixed.iter().any(|(from, _)| from == *k))
        .filter(|k| {
            !by_key
                .get(*k)
                .is_some_and(|recs| identities::window_named(k, recs))
        })
        .filter_map(|k| identities::configured(k, |base| by_key.contains_key(base)))
        .map(|(k, base)| (k.to_string(), base))
        .collect();
    prefixed.extend(configured);
    // A host's own label (Groq's `-instant`, Novita's `-p`) on an id no creator's record
    // names is the model it labels (docs/methodology.md, "Identity").
    let labelled: Vec<(String, String)> = by_key
        .iter()
        .filter(|(k, recs)| {
            !prefixed.iter().any(|(from, _)| from == *k)
                && recs.iter().all(|r| r.rank > 2 && r.rank < BENCHMARK_RANK)
        })
        .filter_map(|(k, _)| {
            identities::host_labelled(k, |base| by_key.contains_key(base)).map(|b| (k.clone(), b))
        })
        .collect();
    prefixed.extend(labelled);
    prefixed.extend(identities::phantom_snapshots(&by_key));
    prefixed.extend(identities::dashed_days(&by_key));
    prefixed.extend(identities::context_labelled(&by_key));
    // A spelling may name a key that itself moves (`meta-llama-3-70b-instruct-turbo` →
    // `meta-llama-3-70b-instruct` → `llama-3-70b-instruct`): each goes to the end of its chain.
    let moves: BTreeMap<String, String> = prefixed.iter().cloned().collect();
    for (_, to) in &mut prefixed {
        for _ in 0..4 {
            match moves.get(to.as_str()) {
                Some(next) if next != to => to.clone_from(next),
                _ => break,
            }
        }
    }
    for (from, to) in &prefixed {
        if let Some(recs) = by_key.remove(from) {
            by_key.entry(to.clone()).or_default().extend(recs);
        }
    }
    // For each undated key, the dated keys that share its stem, newest first. The creator's
    // own name for a snapshot spells a stem too: Mistral's `ministral-14b-2512` is "Ministral
    // 3 14B 2512", so hosts' undated `ministral-3-14b` is that snapshot (docs/methodology.md,
    // "Identity").
    let spelt = identities::creator_spelt_stems(&by_key);
    let mut snapshots: BTreeMap<&str, Vec<(String, &str)>> = BTreeMap::new();
    for key in by_key.keys() {
        if let Some((stem, date)) = names::split_date(key) {
            snapshots
                .entry(stem)
                .or_default()
                .push((date_rank(date), key.as_str()));
        }
    }
    for (stem, key) in &spelt {
        if let Some((_, date)) = names::split_date(key) {
            let dated = snapshots.entry(stem.as_str()).or_default();
            if !dated.iter().any(|(_, k)| k == key) {
                dated.push((date_rank(date), key.as_str()));
            }
        }
    }
    let newest: BTreeMap<String, Vec<&str>> = snapshots
        .into_iter()
        .map(|(stem, mut dated)| {
            dated.sort_by(|a, b| b.cmp(a));
            (
                stem.to_string(),
                dated.into_iter().map(|(_, k)| k).collect(),
            )
        })
        .collect();
    let mut groups: BTreeMap<String, Vec<ModelRecord>> = BTreeMap::new();
    let mut index: BTreeMap<String, String> = BTreeMap::new();
    let mut key_owner: BTreeMap<String, String> = BTreeMap::new();
    let all_keys: BTreeSet<String> = by_key.keys().cloned().collect();
    let targets: Vec<String> = by_key
        .iter()
        .map(
            |(key, recs)| match newest.get(key).and_then(|s| Some((s, *s.first()?))) {
                Some((snapshots, dated)) if names::split_date(key).is_none() => {
                    identities::named_snapshot(key, recs, &all_keys)
                        .or_else(|| identities::billed_snapshot(recs, snapshots))
                        .or_else(|| identities::named_older(key, recs, snapshots, &by_key))
                        .or_else(|| identities::by_window(key, recs, snapshots, &by_key))
                        .unwrap_or_else(|| {
                            if identities::weighed_apart(recs, dated)
                                || identities::by_release(key, recs, snapshots, &by_key)
                            {
                                key.clone()
                            } else {
                                dated.to_string()
                            }
                        })
                }
                _ => key.clone(),
            },
        )
        .collect();
    drop(newest);
    for ((key, recs), target) in by_key.into_iter().zip(targets) {
        key_owner.insert(key, target.clone());
        groups.entry(target).or_default().extend(recs);
    }
    // Spellings no rule above joins but that every source names alike are one model when
    // nothing in them says otherwise (`identities::same_name`): names as they are first,
    // then, over what is left, without the served words sellers leave out of names.
    for unsaid in [false, true] {
        for (key, recs) in groups.iter_mut() {
            recs.sort_by_key(|r| record_order(r, key));
        }
        let candidates: Vec<identities::Candidate> = groups
            .iter()
            .filter_map(|(key, recs)| candidate(key, recs))
            .collect();
        let same = identities::same_name(&candidates, unsaid);
        join_groups(&mut groups, &mut key_owner, same);
    }
    // models.dev's maintainers say which model a provider's entry is (`base_model`): a
    // group with no metadata file of its own whose entries name one base joins that base's
    // model (Bedrock's `nvidia.nemotron-nano-9b-v2`, listed alone as `nemotron-nano-9b`, is
    // `nemotron-nano-9b-v2`), unless it is a dated snapshot of it (the undated name joins
    // the snapshot instead). A model with a file of its own stays itself, whatever one
    // host's entry says (docs/methodology.md, "Identity").
    let mut joins: Vec<(String, String)> = identities::reordered(&groups, &key_owner);
    joins.extend(identities::unsized_snapshots(&groups));
    // A key a vendor's dash prefix moved (`nvidia-nemotron-3-5-super-vl`) still names its model.
    let owner = |k: &str| owner_of(&prefixed, &key_owner, k);
    joins.extend(identities::sized_host_names(&groups, owner));
    joins.extend(identities::named_sizes(&groups, &key_owner));
    joins.extend(identities::first_versions(&groups, &key_owner));
    joins.extend(identities::named_snapshots(&groups));
    joins.extend(identities::version_spellings(&groups));
    joins.extend(identities::vision_left_out(&groups));
    joins.extend(identities::named_by_creator(&groups, &key_owner));
    joins.extend(identities::floating_named(&groups, &key_owner));
    joins.extend(identities::prefix_rules(&groups));
    joins.extend(identities::build_ids(&groups, &key_owner));
    joins.extend(identities::creator_spelt_keys(&groups));
    joins.extend(identities::creator_named(&groups));
    joins.extend(
        groups
            .iter()
            .filter(|(_, recs)| recs.iter().all(|r| r.rank > 0))
            .filter_map(|(key, recs)| {
                let entries: Vec<&ModelRecord> = recs
                    .iter()
                    .filter(|r| r.source == sources::models_dev::SOURCE)
                    .collect();
                let bases: BTreeSet<&str> = entries
                    .iter()
                    .filter_map(|r| r.based_on.as_deref())
                    .collect();
                let [base] = bases.into_iter().collect::<Vec<_>>()[..] else {
                    return None;
                };
                // Most of the group's entries say so: one host's slip (a distill's entry naming
                // the model it distils) moves nothing.
                let saying = entries.iter().filter(|r| r.based_on.is_some()).count();
                let into = key_owner.get(base)?;
                let snapshot = names::split_date(key).is_some_and(|(stem, _)| stem == base);
                // Two snapshots of different dates stay two models.
                let other_date = names::split_date(key)
                    .zip(names::split_date(into))
                    .is_some_and(|((_, a), (_, b))| a != b);
                // A host's short spelling of the base's own id needs no majority.
                ((2 * saying > entries.len() || identities::shortened(key, base))
                    && into != key
                    && !snapshot
                    && !other_date
                    && groups.contains_key(into))
                .then(|| (key.clone(), into.clone()))
            }),
    );
    // Packagings of a model no source lists plainly join under its plain key, where no rule
    // above moves them or names the plain key.
    let moved: BTreeSet<&String> = joins.iter().flat_map(|(f, i)| [f, i]).collect();
    let packaged: Vec<(String, String)> = identities::packagings_only(&groups)
        .into_iter()
        .filter(|(from, into)| !moved.contains(from) && !moved.contains(into))
        .collect();
    joins.extend(packaged);
    // Last, so what joined an undated id (Vercel's reordered `grok-4.20-reasoning-beta`)
    // follows it into its snapshot.
    joins.extend(identities::dated_within(&groups));
    join_groups(&mut groups, &mut key_owner, joins);
    // Last, over what the joins made: an id with `.0` after its number is the model its plain
    // id names now (a plain id that moved to another version names nothing of it).
    let zeros = identities::point_zero(&groups, |k| owner_of(&prefixed, &key_owner, k));
    join_groups(&mut groups, &mut key_owner, zeros);
    move_priced_records(&mut groups);
    // The prefixed spellings stay names of the model they joined.
    for (from, to) in prefixed {
        if let Some(group) = key_owner.get(&to).cloned() {
            key_owner.insert(from, group);
        }
    }
    // A mode entry alone never makes a model: OpenRouter's `openai/gpt-6.1-terra-pro:batch`
    // is a batch price of a model no source lists (docs/data.md, "Price modes").
    groups.retain(|_, recs| recs.iter().any(|r| r.mode.is_none()));
    // Nor does a floating alias that names no version (`~anthropic/claude-haiku-latest`,
    // `grok-latest`): it is whichever model its maker's line serves today, and its price
    // changes when the target does (docs/methodology.md, "Identity"). A versioned one
    // (`chatgpt-4o-latest`) is a model its maker sells under that id.
    groups.retain(|key, recs| {
        key.bytes().any(|b| b.is_ascii_digit())
            || !recs.iter().all(|r| {
                let id = r.raw_id.to_ascii_lowercase();
                id.starts_with('~') || id.ends_with("latest")
            })
    });
    // Nor does a router's routing tier: an effort word after a name that is no model, sold
    // only by routers and credited to no one (NanoGPT's `hermes-high`, `claw-low`: whichever
    // model the router sends that tier to).
    let tables = crate::ingest::prices::Tables::shared();
    let tiers: Vec<String> = groups
        .iter()
        .filter(|(key, recs)| {
            ["-high", "-medium", "-low", "-minimal"].iter().any(|t| {
                key.strip_suffix(t)
                    .is_some_and(|base| !base.is_empty() && !groups.contains_key(base))
            }) && recs.iter().all(|r| {
                r.creator.is_none()
                    && r.provider.as_deref().is_some_and(|p| {
                        tables.provider_kind(p) == entity::vocab::ProviderKind::Router
                    })
            })
        })
        .map(|(key, _)| key.clone())
        .collect();
    for key in tiers {
        groups.remove(&key);
    }
    // A tuned-only host sells the tuned checkpoint under the line's plain id.
    for (from, into) in identities::tuned_sales(&groups) {
        let Some(recs) = groups.get_mut(&from) else {
            continue;
        };
        let (moved, kept): (Vec<ModelRecord>, Vec<ModelRecord>) = std::mem::take(recs)
            .into_iter()
            .partition(|r| identities::tuned_host(r.provider.as_deref()));
        *recs = kept;
        let emptied = recs.is_empty();
        if emptied {
            groups.remove(&from);
        }
        for (key, group) in key_owner.iter_mut() {
            let moved_key = moved
                .iter()
                .any(|r| r.parsed.as_ref().is_some_and(|p| &p.key == key));
            if *group == from && (emptied || moved_key && *key != from) {
                group.clone_from(&into);
            }
        }
        // The ids of what moved (Groq's `llama-3.1-405b-reasoning`) name the tuned model.
        key_owner
            .entry(into.clone())
            .or_insert_with(|| into.clone());
        for (own, key) in &mut renamed {
            if *key == from && moved.iter().any(|r| names::parse(&r.raw_id).slug == *own) {
                key.clone_from(&into);
            }
        }
        groups.entry(into).or_default().extend(moved);
    }
    let mut models = BTreeMap::new();
    let mut slug_of_group = BTreeMap::new();
    for (key, mut recs) in groups {
        recs.sort_by_key(|r| record_order(r, &key));
        // The slug is the best record's own spelling of the (dated) key; a seller's
        // spelling that writes a version with a dash (Bedrock's `llama3-1-8b-instruct`) takes
        // the dots another record writes (`llama-3.1-8b-instruct`), while the creator's own
        // spelling stays as it is (xAI's `grok-4-1-fast-reasoning`): docs/methodology.md,
        // "Identity".
        let spellings = || {
            recs.iter()
                .filter(|r| r.parsed.as_ref().is_some_and(|p| p.key == key))
        };
        let best = spellings().next();
        // A name spelt as the id (NVIDIA's "dracarys-llama-3.1-70b-instruct" for its
        // `dracarys-llama-3_1-70b-instruct`, "FLUX.1-Kontext-dev") writes its dots too.
        // (A creator writing a version's dot as `_`, NVIDIA's `cosmos-transfer2_5-2b`, has
        // not written a dash.)
        let underscored = |id: &str| dot_underscores(id) != id;
        let dotted = best
            .filter(|r| r.rank > 2 || underscored(&r.raw_id))
            .and_then(|r| {
                let plain = r.parsed.as_ref()?.slug.replace('.', "-");
                spellings()
                    .filter_map(|o| Some(o.parsed.as_ref()?.slug.clone()))
                    .chain(
                        recs.iter()
                            .filter_map(|o| o.name.as_deref())
                            .filter(|n| !n.contains(' '))
                            .map(names::slugify),
                    )
                    .chain(
                        recs.iter()
                            .filter(|o| underscored(&o.raw_id))
                            .map(|o| names::parse(&dot_underscores(&o.raw_id)).slug),
                    )
                    .filter(|o| o.replace('.', "-") == plain)
                    .max_by_key(|o| o.matches('.').count())
                    .filter(|o| o.contains('.'))
            });
        // A key no record spells (one host's packagings joined under the plain key) is
        // spelt as a record spells it, without what its key adds (`l3.1-70b-celeste-v0.1`).
        let unpackaged = || {
            recs.iter().filter_map(|r| r.parsed.as_ref()).find_map(|p| {
                let added = p.key.strip_prefix(key.as_str())?;
                Some(p.slug.strip_suffix(added)?.to_string())
            })
        };
        let slug = dotted
            .or_else(|| best.and_then(|r| Some(r.parsed.as_ref()?.slug.clone())))
            .or_else(unpackaged)
            .unwrap_or_else(|| key.clone());
        slug_of_group.insert(key, slug.clone());
        models.insert(slug, recs);
    }
    for (key, group) in &key_owner {
        if let Some(slug) = slug_of_group.get(group) {
            index.insert(key.clone(), slug.clone());
        }
    }
    // An id read as another model's stays that model's alias, unless ids of two models
    // read so (two routers' `free`): then it names neither.
    let mut claimed: BTreeMap<String, BTreeSet<&String>> = BTreeMap::new();
    for (own, key) in &renamed {
        if let Some(slug) = key_owner.get(key).and_then(|g| slug_of_group.get(g)) {
            claimed.entry(own.clone()).or_default().insert(slug);
        }
    }
    for (own, slugs) in claimed {
        if let [slug] = slugs.into_iter().collect::<Vec<_>>()[..] {
            index.entry(own).or_insert_with(|| slug.clone());
        }
    }
    for (slug, recs) in &models {
        index.entry(slug.clone()).or_insert_with(|| slug.clone());
        for p in recs.iter().filter_map(|r| r.parsed.as_ref()) {
            index.entry(p.slug.clone()).or_insert_with(|| slug.clone());
        }
        // LiteLLM's dated ids joined to the undated model they name are its aliases.
        for r in recs.iter().filter(|r| r.source == sources::litellm::SOURCE) {
            index
                .entry(names::parse(&r.raw_id).slug)
                .or_insert_with(|| slug.clone());
        }
    }
    // The undated name a creator's own price entry matches for a dated snapshot (xAI's
    // `grok-2-1212` entry matching `grok-2`) names that snapshot where no model answers to
    // it, so hosts selling the undated name sell it (docs/methodology.md, "Identity").
    for (slug, recs) in &models {
        let Some(undated) = identities::undated(slug) else {
            continue;
        };
        let key = names::parse(undated).key;
        if recs.iter().any(|r| r.rank <= 2 && r.same_as.contains(&key)) {
            index.entry(key).or_insert_with(|| slug.clone());
        }
    }
    let mut offerings = offerings::pick(&models);
    offerings::billed_ids(&models, &index, &mut offerings);
    Resolved {
        models,
        index,
        offerings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Prices;

    #[test]
    fn an_underscore_between_digits_is_a_version_dot_not_a_quantisation() {
        assert_eq!(
            dot_underscores("cosmos-transfer2_5-2b"),
            "cosmos-transfer2.5-2b"
        );
        assert_eq!(dot_underscores("v1_1"), "v1.1");
        assert_eq!(
            dot_underscores("gemma-2-27b-instruct-q8_0"),
            "gemma-2-27b-instruct-q8_0"
        );
        assert_eq!(dot_underscores("a_b"), "a_b");
    }

    fn rec(source: &'static str, provider: &str, id: &str, input: f64) -> ModelRecord {
        ModelRecord {
            source,
            provider: Some(provider.into()),
            raw_id: id.into(),
            parsed: Some(names::parse(id)),
            rank: 3,
            prices: Some(Prices {
                input: Some(input),
                ..Prices::default()
            }),
            ..ModelRecord::default()
        }
    }

    #[test]
    fn a_join_into_a_moved_group_follows_it() {
        let mut groups: BTreeMap<String, Vec<ModelRecord>> =
            ["seed-1-6", "doubao-seed-1-6", "seed-1-6-250615"]
                .into_iter()
                .map(|k| (k.to_string(), vec![rec("models-dev", "host", k, 0.25)]))
                .collect();
        let mut key_owner: BTreeMap<String, String> =
            groups.keys().map(|k| (k.clone(), k.clone())).collect();
        join_groups(
            &mut groups,
            &mut key_owner,
            vec![
                ("doubao-seed-1-6".into(), "seed-1-6".into()),
                ("seed-1-6-250615".into(), "doubao-seed-1-6".into()),
            ],
        );
        assert_eq!(groups.keys().collect::<Vec<_>>(), ["seed-1-6"]);
        assert_eq!(groups["seed-1-6"].len(), 3);
        assert!(key_owner.values().all(|o| o == "seed-1-6"), "{key_owner:?}");
    }

    #[test]
    fn dash_vendor_prefixes_join_the_model_of_that_vendor_only() {
        let r = resolve(vec![
            rec("models-dev", "openai", "gpt-4o-2024-11-20", 2.5),
            rec(
                "models-dev",
                "digitalocean",
                "openai-gpt-4o-2024-11-20",
                2.5,
            ),
            rec("models-dev", "deepseek", "deepseek-v3.2", 0.3),
            rec("models-dev", "other", "v3.2", 0.3),
        ]);
        assert_eq!(
            r.lookup("openai-gpt-4o-2024-11-20"),
            Some("gpt-4o-2024-11-20")
        );
        assert_eq!(
            r.lookup("deepseek-v3.2"),
            Some("deepseek-v3.2"),
            "v3.2 is no DeepSeek model name"
        );
    }

    #[test]
    fn undated_names_join_the_newest_snapshot_and_stay_aliases() {
        let r = resolve(vec![
            rec("genai-prices", "openai", "gpt-4o", 2.5),
            rec("models-dev", "openai", "gpt-4o-2024-05-13", 5.0),
            rec("models-dev", "openai", "gpt-4o-2024-11-20", 2.5),
            rec("models-dev", "openrouter", "openai/gpt-4o-2024-11-20", 2.6),
        ]);
        assert_eq!(
            r.models.keys().collect::<Vec<_>>(),
            ["gpt-4o-2024-05-13", "gpt-4o-2024-11-20"]
        );
        assert_eq!(r.lookup("gpt-4o"), Some("gpt-4o-2024-11-20"));
        assert_eq!(r.lookup("openai/gpt-4o"), Some("gpt-4o-2024-11-20"));
        assert_eq!(r.lookup("gpt-4o-2024-05-13"), Some("gpt-4o-2024-05-13"));
        // One offering per provider; the pricing dataset wins at openai.
        let newest: Vec<_> = r
            .offerings
            .iter()
            .filter(|o| o.model_slug == "gpt-4o-2024-11-20")
            .collect();
        assert_eq!(newest.len(), 2);
        assert_eq!(newest[0].provider_slug, "openai");
        assert_eq!(newest[0].source, "genai-prices");
        assert_eq!(newest[0].input_price, Some(2.5));
    }
}
