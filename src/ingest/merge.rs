//! The vote stage of `mds ingest`: every attribute of a model that several sources state is
//! chosen from its witnesses by one rule (docs/data.md, "Witnesses and votes").
//!
//! Each record of the model that states a value is a [`Witness`]: its source, its provider
//! and its [`Standing`] — the model's own metadata, an entry at its creator's own API, or
//! anyone else (hosts, routers, gateways, benchmark tables). The witnesses are heard in
//! tiers (the creator's own word first, then everyone else); the first tier where someone
//! speaks decides, by the value the most distinct providers support (independent hosts),
//! then the most distinct sources; a tie goes to the earlier date (dates) or to the most
//! authoritative witness's value (everything else). Placeholders never vote. Where witnesses disagree, the model's
//! `disputes` lists every value each source states.
//!
//! Modalities are voted one at a time (does it take images? make audio?), as sources state
//! them one at a time (LiteLLM's `supports_vision`) as often as in sets (models.dev's lists).

use std::collections::{BTreeMap, BTreeSet};

use entity::model::{self, Dispute, DisputedValue};

use super::{BENCHMARK_RANK, ModelRecord, catalog, identities, names, prices};

/// Whose word a witness is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// A reviewed table of the project (`data/open_families.csv`): no source's word, and
    /// never part of a dispute.
    Reviewed,
    /// The model's own metadata (models.dev's `models/<org>/<id>.toml`).
    Own,
    /// An entry at one of its creator's own APIs (`data/creators.csv`).
    FirstParty,
    /// Any other seller, host, router, gateway or benchmark table.
    Other,
    /// A floating alias's own metadata (models.dev's `models/mistral/magistral-medium-latest.toml`):
    /// it speaks only where no one else does, and there before the floating aliases' other
    /// records.
    FloatingOwn,
    /// A floating alias's record (`devstral-medium-latest`): it describes whichever snapshot
    /// was newest when it was written, so it speaks only where no one else does.
    Floating,
}

/// The tiers every attribute is heard in: the creator's word (its own metadata and its own
/// APIs, voting together), then everyone else.
pub const TIERS: &[&[Standing]] = &[
    &[Standing::Reviewed],
    &[Standing::Own, Standing::FirstParty],
    &[Standing::Other],
    &[Standing::FloatingOwn, Standing::Floating],
];

/// Open weights keep the model's own metadata above its creator's APIs (GLM-5V-Turbo's own
/// file says `false` where Z.ai's API file copies `true`), a floating alias's own file
/// included — whether a line publishes its weights does not float (Magistral Medium's own
/// `-latest` file says `false` where Mistral's API file, and hosts' copies of it, say
/// `true`): docs/data.md, "Open weights".
pub const OPEN_TIERS: &[&[Standing]] = &[
    &[Standing::Reviewed],
    &[Standing::Own],
    &[Standing::FloatingOwn],
    &[Standing::FirstParty],
    &[Standing::Other],
    &[Standing::Floating],
];

/// One value a record states.
#[derive(Debug, Clone)]
pub struct Witness<T> {
    pub source: &'static str,
    pub provider: Option<String>,
    pub standing: Standing,
    /// Its record's place among the model's records, most authoritative first.
    pub order: usize,
    pub value: T,
}

/// A value witnesses can state.
pub trait Stated: Clone + PartialEq + Ord {
    /// Whether a witness stating `self` speaks for `candidate`: the same value, or a coarser
    /// one that contains it (a month speaks for each of its days).
    fn supports(&self, candidate: &Self) -> bool {
        self == candidate
    }
    /// The value as a dispute shows it.
    fn text(&self) -> String;
}

impl Stated for i64 {
    fn text(&self) -> String {
        self.to_string()
    }
}

impl Stated for bool {
    fn text(&self) -> String {
        self.to_string()
    }
}

/// A date as a source states it: a day (`2025-09-29`) or a month (`2025-09`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date(pub String);

impl Stated for Date {
    fn supports(&self, candidate: &Self) -> bool {
        candidate.0.starts_with(&self.0)
    }

    fn text(&self) -> String {
        self.0.clone()
    }
}

/// How a tie of counts is broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// Between values two or more providers give, the earlier (a date: a host's listing
    /// comes after the release, never before); between lone values, as [`Tie::Authority`].
    Earliest,
    /// The value of the most authoritative witness (the order the model's records are in).
    Authority,
    /// Between three or more values equally supported, the middle one (the lower of the two
    /// middle ones of an even count), so one seller's slip at either end (Kilo's 2,824-token
    /// window for Mistral 7B Instruct v0.1, beside 8,192 and 32,768) never decides a limit;
    /// between two, as [`Tie::Authority`].
    Middle,
}

/// How one attribute is voted.
pub struct Rule<'a, T> {
    pub tiers: &'a [&'a [Standing]],
    /// What a value weighs before any count: a `true` open-weights witness outweighs any
    /// number of `false` ones; a date in the month the model's name gives outweighs others.
    pub weight: &'a dyn Fn(&T) -> u8,
    pub tie: Tie,
}

/// The value the witnesses choose under `rule`, `None` when none speaks.
pub fn choose<T: Stated>(witnesses: &[Witness<T>], rule: &Rule<T>) -> Option<T> {
    for tier in rule.tiers {
        let here: Vec<&Witness<T>> = witnesses
            .iter()
            .filter(|w| tier.contains(&w.standing))
            .collect();
        // (weight, providers, sources) of the best value so far, and its first witness.
        type Count = (u8, usize, usize);
        let mut best: Option<(Count, &Witness<T>)> = None;
        let count = |candidate: &Witness<T>| -> Count {
            let support: Vec<&&Witness<T>> = here
                .iter()
                .filter(|w| w.value.supports(&candidate.value))
                .collect();
            let sources: BTreeSet<&str> = support.iter().map(|w| w.source).collect();
            let providers: BTreeSet<&str> = support
                .iter()
                .map(|w| w.provider.as_deref().unwrap_or(w.source))
                .collect();
            (
                (rule.weight)(&candidate.value),
                providers.len(),
                sources.len(),
            )
        };
        for candidate in &here {
            let key = count(candidate);
            let better = match &best {
                None => true,
                Some((k, _)) if key != *k => key > *k,
                // `here` is in authority order, so the first witness of a value is its most
                // authoritative one.
                Some((k, b)) => rule.tie == Tie::Earliest && k.1 >= 2 && candidate.value < b.value,
            };
            if better {
                best = Some((key, candidate));
            }
        }
        if let Some((key, w)) = best {
            if rule.tie == Tie::Middle {
                let mut tied: Vec<&T> = here
                    .iter()
                    .filter(|c| count(c) == key)
                    .map(|c| &c.value)
                    .collect();
                tied.sort_unstable();
                tied.dedup();
                if tied.len() >= 3 {
                    return Some(tied[(tied.len() - 1) / 2].clone());
                }
            }
            return Some(w.value.clone());
        }
    }
    None
}

/// The dispute of `field` when two witnesses state values neither of which speaks for the
/// other (the project's reviewed tables aside): every distinct value each source states.
pub fn dispute<T: Stated>(field: &str, witnesses: &[Witness<T>]) -> Option<Dispute> {
    let stated: Vec<&Witness<T>> = witnesses
        .iter()
        .filter(|w| w.standing != Standing::Reviewed)
        .collect();
    let disagree = stated.iter().enumerate().any(|(i, a)| {
        stated[i + 1..]
            .iter()
            .any(|b| !a.value.supports(&b.value) && !b.value.supports(&a.value))
    });
    if !disagree {
        return None;
    }
    let values: BTreeSet<(&T, &str)> = stated.iter().map(|w| (&w.value, w.source)).collect();
    Some(Dispute {
        field: field.to_string(),
        values: values
            .into_iter()
            .map(|(v, source)| DisputedValue {
                source: source.to_string(),
                value: v.text(),
            })
            .collect(),
    })
}

/// Where each record stands for the model credited to `creator`.
pub fn standing(creator: Option<&str>, r: &ModelRecord) -> Standing {
    if r.raw_id.to_lowercase().ends_with("latest") {
        return if r.provider.is_none() && r.rank == 0 {
            Standing::FloatingOwn
        } else {
            Standing::Floating
        };
    }
    if r.rank >= BENCHMARK_RANK {
        return Standing::Other;
    }
    let Some(provider) = r.provider.as_deref() else {
        return if r.rank == 0 {
            Standing::Own
        } else {
            Standing::Other
        };
    };
    let tables = prices::Tables::shared();
    let own_api = creator.is_some_and(|c| {
        c == provider
            || tables
                .creators
                .get(c)
                .is_some_and(|row| row.first_party.iter().any(|p| p == provider))
    });
    if own_api {
        Standing::FirstParty
    } else {
        Standing::Other
    }
}

/// A dated snapshot that its creator's records name under its own date: the creator's
/// records of its undated name, which joined it, describe the line's abilities as they
/// were (often an older snapshot's: Alibaba's `qwen3-max` files, of 2025-09-23, say no
/// reasoning where every creator entry of `qwen3-max-2026-01-23` says reasoning), so on
/// reasoning, tool calls and structured output they speak as anyone's (docs/data.md,
/// "Witnesses and votes"). Limits and modalities keep the creator's undated word, which
/// its dated entries in gateways' copies often state less well (272,000 input tokens for
/// GPT-5's 400,000 window).
fn demote_line_records(slug: &str, recs: &[ModelRecord], standings: &mut [Standing]) {
    let Some((_, date)) = names::split_date(slug) else {
        return;
    };
    let own_date = |r: &ModelRecord| {
        names::split_date(&names::parse(&r.raw_id).key).is_some_and(|(_, d)| d == date)
    };
    let creator = |s: Standing| matches!(s, Standing::Own | Standing::FirstParty);
    let dated_word = recs
        .iter()
        .zip(standings.iter())
        .any(|(r, s)| creator(*s) && own_date(r));
    if !dated_word {
        return;
    }
    for (r, s) in recs.iter().zip(standings.iter_mut()) {
        if creator(*s) && names::split_date(&names::parse(&r.raw_id).key).is_none() {
            *s = Standing::Other;
        }
    }
}

/// A release date no source means: the first of January (models.dev's listings date 52
/// models 2025-01-01, among them GPT-5, released 2025-08-07) and the Unix epoch.
pub fn placeholder_date(d: &str) -> bool {
    d.get(4..) == Some("-01-01") || d.starts_with("1970")
}

/// An output limit no source means: 0 or 1 token (models.dev's for embeddings and
/// rerankers).
pub fn placeholder_output(n: i64) -> bool {
    n <= 1
}

/// Every modality a model can take or make, in the order the stored lists sort them.
const MODALITIES: [&str; 5] = ["audio", "image", "pdf", "text", "video"];

/// What a record says of one modality on one side: its flag, else its full list (where it
/// gives one), else nothing.
fn says_modality(set: Option<&Vec<String>>, flags: &[(String, bool)], m: &str) -> Option<bool> {
    flags
        .iter()
        .find(|(x, _)| x == m)
        .map(|(_, taken)| *taken)
        .or_else(|| set.map(|s| s.iter().any(|x| x == m)))
}

/// The modalities a record states on one side, as a set: its list with its flags applied,
/// text assumed where it says nothing of text; `None` when it states nothing.
pub fn stated_set(set: Option<&Vec<String>>, flags: &[(String, bool)]) -> Option<Vec<String>> {
    if set.is_none() && flags.is_empty() {
        return None;
    }
    let mut all: BTreeSet<&str> = MODALITIES.into_iter().collect();
    all.extend(set.into_iter().flatten().map(String::as_str));
    all.extend(flags.iter().map(|(m, _)| m.as_str()));
    let out: Vec<String> = all
        .into_iter()
        .filter(|m| says_modality(set, flags, m).unwrap_or(*m == "text"))
        .map(str::to_string)
        .collect();
    Some(if out.is_empty() {
        vec!["text".into()]
    } else {
        out
    })
}

/// How a model derives from another (docs/data.md, "Creators").
#[derive(Debug, Clone, Default)]
pub struct Derivation {
    /// A fine-tune or merge of another model: never credited to the lab its name starts
    /// with, only to a publisher.
    pub derived: bool,
    /// A community fine-tune under its lab's model name ([`identities::unvouched`]): not
    /// open by its family, only by its witnesses.
    pub unvouched: bool,
    /// The day the dataset first observed the model: a seller's later date is the day it
    /// listed the model, never its release.
    pub first_seen: Option<String>,
}

/// The merged model: each attribute voted from `recs` (best first, as resolved), with the
/// disputes found on the way.
pub fn model(slug: &str, recs: &[ModelRecord], how: Derivation) -> model::Model {
    let lab = names::creator_for(None, &slug.replace('.', "-"));
    let creator = identities::model_creator(slug, recs)
        .filter(|c| !(how.derived || how.unvouched) || lab != Some(c.as_str()));
    let standings: Vec<Standing> = recs
        .iter()
        .map(|r| standing(creator.as_deref(), r))
        .collect();
    // What a snapshot can do is its own entries' word first (see `demote_line_records`).
    let mut flag_standings = standings.clone();
    demote_line_records(slug, recs, &mut flag_standings);
    let mut disputes = Vec::new();
    let none = |_: &i64| 0u8;
    // A router's free route is served apart (OpenRouter's `inkling-small:free` at 1,048,576
    // tokens, its paid route at 524,288): where the provider's paid route states a window,
    // the free one's is not that provider's word on the model.
    let free = |r: &ModelRecord| {
        let id = r.raw_id.to_ascii_lowercase();
        id.ends_with(":free") || id.ends_with("-free")
    };
    let paid_window: BTreeSet<&str> = recs
        .iter()
        .filter(|r| !free(r) && r.context.is_some_and(|n| n > 0))
        .filter_map(|r| r.provider.as_deref())
        .collect();
    let context = vote(
        "context_window",
        &of(recs, &standings, |r| {
            let shadowed = free(r)
                && r.provider
                    .as_deref()
                    .is_some_and(|p| paid_window.contains(p));
            r.context.filter(|n| *n > 0 && !shadowed)
        }),
        &Rule {
            tiers: TIERS,
            weight: &none,
            tie: Tie::Middle,
        },
        &mut disputes,
    );
    let max_output = vote(
        "max_output_tokens",
        &of(recs, &standings, |r| {
            r.max_output.filter(|n| !placeholder_output(*n))
        }),
        &Rule {
            tiers: TIERS,
            weight: &none,
            tie: Tie::Middle,
        },
        &mut disputes,
    );
    // An output limit beyond the context window is no limit of this model (a gateway's
    // placeholder, another deployment's): the vote is taken again among the witnesses
    // within the window, and with none the limit is unknown (docs/data.md, "Limits").
    let max_output = match (max_output, context) {
        (Some(out), Some(window)) if out > window => choose(
            &of(recs, &standings, |r| {
                r.max_output
                    .filter(|n| !placeholder_output(*n) && *n <= window)
            }),
            &Rule {
                tiers: TIERS,
                weight: &none,
                tie: Tie::Middle,
            },
        ),
        _ => max_output,
    };
    let flag = |field: &str, get: fn(&ModelRecord) -> Option<bool>, out: &mut Vec<Dispute>| {
        vote(
            field,
            &of(recs, &flag_standings, get),
            &Rule {
                tiers: TIERS,
                weight: &|_: &bool| 0,
                tie: Tie::Authority,
            },
            out,
        )
    };
    // An id its creator named for thinking (`k2-think`, `glm-4.1v-thinking-flash`,
    // `maestro-reasoning`; not `-non-reasoning`), or of a line the reviewed table says
    // reasons (`glm-z1-32b-0414`), reasons, whatever a host's flag says (docs/data.md,
    // "Modalities").
    let reasoning = flag("reasoning", |r| r.reasoning, &mut disputes)
        .map(|said| said || catalog::says_reasoning(slug))
        .or_else(|| catalog::says_reasoning(slug).then_some(true));
    let tool_call = flag("tool_call", |r| r.tool_call, &mut disputes);
    let structured_output = flag("structured_output", |r| r.structured_output, &mut disputes);
    let mut input = modalities(
        "input_modalities",
        recs,
        &standings,
        |r| (r.input_modalities.as_ref(), &r.input_flags),
        &mut disputes,
    );
    // An id its creator named for seeing (`gpt-4-vision-preview`, `qwen2.5-vl-3b-instruct`)
    // takes images whatever a list that writes every model as text says (docs/data.md,
    // "Modalities").
    if catalog::names_vision(slug) && !input.iter().any(|m| m == "image") {
        input.push("image".into());
        input.sort();
    }
    let output = modalities(
        "output_modalities",
        recs,
        &standings,
        |r| (r.output_modalities.as_ref(), &r.output_flags),
        &mut disputes,
    );
    let open_source =
        open_source(slug, recs, &standings, !how.unvouched, &mut disputes).or_else(|| {
            // Only for what is sold: a paper's row names no published checkpoint.
            let listed = recs.iter().any(|r| r.rank < BENCHMARK_RANK);
            (listed && published(slug, creator.as_deref())).then_some(true)
        });
    let release_date = release_date(
        slug,
        recs,
        &standings,
        how.first_seen.as_deref(),
        &mut disputes,
    );
    disputes.sort_by(|a, b| a.field.cmp(&b.field));

    // Where no record names the model, a source's id in its own case names it better than
    // the slug (Together's `togethercomputer/RedPajama-INCITE-Chat-3B-v1`).
    let cased_id = || {
        recs.iter()
            .filter_map(|r| r.raw_id.rsplit('/').next())
            .find(|id| id.eq_ignore_ascii_case(slug) && id.chars().any(|c| c.is_ascii_uppercase()))
            .map(str::to_string)
    };
    let name = snapshot_name(slug, recs)
        .or_else(|| identities::model_name(recs))
        .map(|n| without_maker(&n, slug, creator.as_deref()))
        .or_else(cased_id)
        .unwrap_or_else(|| slug.to_string());
    model::Model {
        slug: slug.to_string(),
        family: family(slug, &name, recs, &standings),
        name,
        creator_slug: creator,
        category: catalog::category(&input, &output),
        open_source,
        release_date,
        context_window: context,
        max_output_tokens: max_output,
        input_modalities: input.join(","),
        output_modalities: output.join(","),
        reasoning,
        tool_call,
        structured_output,
        knowledge_cutoff: recs.iter().find_map(|r| r.knowledge.clone()),
        last_updated: recs.iter().find_map(|r| r.last_updated.clone()),
        disputes: Dispute::encode(&disputes),
        // Only the creator's own entries deprecate the model: a host dropping it is the
        // host's business (docs/data.md, "Lifecycle").
        deprecated: recs.iter().zip(&standings).any(|(r, s)| {
            matches!(s, Standing::Own | Standing::FirstParty) && r.deprecated == Some(true)
        }),
        ..catalog::blank_model(slug)
    }
}

/// The witnesses of one attribute: each record's value where `get` reads one.
fn of<T>(
    recs: &[ModelRecord],
    standings: &[Standing],
    get: impl Fn(&ModelRecord) -> Option<T>,
) -> Vec<Witness<T>> {
    recs.iter()
        .zip(standings)
        .enumerate()
        .filter_map(|(order, (r, standing))| {
            Some(Witness {
                source: r.source,
                provider: r.provider.clone(),
                standing: *standing,
                order,
                value: get(r)?,
            })
        })
        .collect()
}

/// Chooses a value and records the field's dispute, if any.
fn vote<T: Stated>(
    field: &str,
    witnesses: &[Witness<T>],
    rule: &Rule<T>,
    disputes: &mut Vec<Dispute>,
) -> Option<T> {
    disputes.extend(dispute(field, witnesses));
    choose(witnesses, rule)
}

/// A side's modalities, voted one modality at a time (default: text yes, the rest no, where
/// no witness speaks); a dispute names the modality (`input_modalities.image`).
fn modalities(
    field: &str,
    recs: &[ModelRecord],
    standings: &[Standing],
    side: impl Fn(&ModelRecord) -> (Option<&Vec<String>>, &Vec<(String, bool)>),
    disputes: &mut Vec<Dispute>,
) -> Vec<String> {
    let mut all: BTreeSet<String> = MODALITIES.iter().map(|m| m.to_string()).collect();
    for r in recs {
        let (set, flags) = side(r);
        all.extend(set.into_iter().flatten().cloned());
        all.extend(flags.iter().map(|(m, _)| m.clone()));
    }
    let mut out = Vec::new();
    for m in &all {
        let witnesses = of(recs, standings, |r| {
            let (set, flags) = side(r);
            says_modality(set, flags, m)
        });
        let taken = vote(
            &format!("{field}.{m}"),
            &witnesses,
            &Rule {
                tiers: TIERS,
                weight: &|_: &bool| 0,
                tie: Tie::Authority,
            },
            disputes,
        )
        .unwrap_or(m == "text");
        if taken {
            out.push(m.clone());
        }
    }
    if out.is_empty() {
        out.push("text".into());
    }
    out
}

/// Open weights: the reviewed table of open families (`data/open_families.csv`) for a
/// model a price list or catalogue lists (a row of a paper's table, `Llama 2-13B`, names no
/// published checkpoint by itself); else the model's own metadata; else its creator's APIs;
/// else everyone else — and in each tier any `true` is enough, as one host's `false` does not
/// hide published weights (docs/data.md, "Open weights").
fn open_source(
    slug: &str,
    recs: &[ModelRecord],
    standings: &[Standing],
    by_family: bool,
    disputes: &mut Vec<Dispute>,
) -> Option<bool> {
    // A host's default `false` says nothing of a checkpoint whose id names its parameter
    // count, what published weights are named by (NanoGPT's `false` for
    // `l3.3-ms-nevoria-70b`); of an API model it stands where no one else speaks.
    let sized = catalog::names_a_size(slug);
    let mut witnesses = of(recs, standings, |r| {
        r.open_weights
            .filter(|open| *open || !(r.closed_by_default && sized))
    });
    let listed = recs.iter().any(|r| r.rank < BENCHMARK_RANK);
    // The table speaks both ways: an open family's checkpoint, or its API-only tier.
    let reviewed = if catalog::api_only(slug) {
        Some(false)
    } else {
        catalog::open_family(slug).then_some(true)
    };
    if by_family
        && listed
        && let Some(value) = reviewed
    {
        witnesses.push(Witness {
            source: "open_families",
            provider: None,
            standing: Standing::Reviewed,
            order: 0,
            value,
        });
    }
    vote(
        "open_source",
        &witnesses,
        &Rule {
            tiers: OPEN_TIERS,
            weight: &|open: &bool| u8::from(*open),
            tie: Tie::Authority,
        },
        disputes,
    )
}

/// Whether a model nobody says is open or closed is published weights by who made it: a
/// checkpoint named by its parameter count (`skyfall-31b-v4.2`, `magnum-v2-72b`) from a
/// publisher with no API of its own in the reviewed creators table reaches hosts only as
/// weights it published (docs/data.md, "Open weights").
fn published(slug: &str, creator: Option<&str>) -> bool {
    let tables = super::prices::Tables::shared();
    catalog::names_a_size(slug)
        && creator.is_some_and(|c| {
            tables
                .creators
                .get(c)
                .is_none_or(|row| row.first_party.is_empty())
        })
}

/// The release date, by the vote with two rules of its own: a date before the month the
/// model's name gives (`voxtral-mini-3b-2507` is not of 2024-12-01, the date of an earlier
/// model of the line) is no witness, and a date in that month outweighs any other; ties go
/// to the earlier date. Placeholders ([`placeholder_date`]) never vote.
fn release_date(
    slug: &str,
    recs: &[ModelRecord],
    standings: &[Standing],
    first_seen: Option<&str>,
    disputes: &mut Vec<Dispute>,
) -> Option<String> {
    // (A month and day inside the slug, `grok-4.20-beta-0309-reasoning`, names a day its
    // witnesses on it outweigh any count by; unlike a trailing one, it sets no day where
    // none agrees: `olmo-2-1124-13b-instruct`'s `1124` is November 2024.)
    let trailing = names::split_date(slug).map(|(_, d)| d.replace('-', ""));
    let inner = trailing.is_none();
    let named = trailing.or_else(|| identities::inner_month_day(slug).map(str::to_string));
    let month = named.as_deref().and_then(month_of);
    // A date a year or more before the earliest snapshot the model's own ids date is a slip
    // of the year (models.dev dates `o3-deep-research`, whose id is dated 2025-06-26,
    // 2024-06-26).
    let earliest_id = recs
        .iter()
        .filter_map(|r| {
            let key = names::parse(&r.raw_id).key;
            month_of(&names::split_date(&key)?.1.replace('-', ""))
        })
        .min();
    let year_before = earliest_id.as_deref().and_then(|m| {
        let year: i32 = m.get(..4)?.parse().ok()?;
        Some(format!("{}{}", year - 1, m.get(4..)?))
    });
    let possible = |d: &str| {
        month.as_deref().is_none_or(|m| d >= m)
            && year_before
                .as_deref()
                .is_none_or(|y| d.get(..7).is_some_and(|dm| dm > y))
    };
    let agrees = |d: &Date| match named.as_deref() {
        // yyyymmdd: the same day (`o1-2024-12-17` is of 2024-12-17, not the 5th, when o1
        // came to ChatGPT).
        Some(n) if n.len() == 8 => d.0 == format!("{}-{}-{}", &n[..4], &n[4..6], &n[6..]),
        // yymm (`2512`) or mmyyyy (`05-2026`): the same month.
        Some(_) if month.is_some() => month.as_deref().is_some_and(|m| d.0.starts_with(m)),
        // mmdd (`0528`), as `names::split_date` reads it: the same day of the year.
        Some(n) if n.len() == 4 => d.0.get(5..10) == Some(&format!("{}-{}", &n[..2], &n[2..])),
        _ => false,
    };
    // A packaging of the weights (Epoch's `Qwen2.5-Coder-32B-Instruct-Q8_0-GGUF`, a
    // quantisation published three months after the model) is dated by its own
    // publication: heard only where nothing else dates the model.
    let dated = |packaged: bool| {
        of(recs, standings, |r| {
            let d = r.release_date.as_deref()?;
            let d = d.get(..10).unwrap_or(d);
            (!placeholder_date(d) && possible(d) && identities::packaged(&r.raw_id) == packaged)
                .then(|| Date(d.to_string()))
        })
    };
    let mut witnesses = dated(false);
    if witnesses.is_empty() {
        witnesses = dated(true);
    }
    // A day a price entry's own dated id gives (a router's `…/claude-fable-5.1` matching
    // `…-20260831`) is one more witness of its seller's standing.
    witnesses.extend(
        of(recs, standings, |r| Some(r.id_days.clone()))
            .into_iter()
            .flat_map(|w| {
                w.value
                    .iter()
                    .filter(|d| !placeholder_date(d) && possible(d))
                    .map(|d| Witness {
                        source: w.source,
                        provider: w.provider.clone(),
                        standing: w.standing,
                        order: w.order,
                        value: Date(d.clone()),
                    })
                    .collect::<Vec<_>>()
            }),
    );
    // A seller's date after the day the dataset first observed the model is the day that
    // seller listed it (NVIDIA's 2025-07-25 for Sarvam-M, listed elsewhere by 2025-06-22):
    // the model was out before it. Creators and benchmark tables keep their word, and so
    // does a dated snapshot's line (its undated alias, seen earlier, named older models).
    witnesses.retain(|w| {
        let r = &recs[w.order];
        !(w.standing == Standing::Other
            && named.is_none()
            && r.rank < BENCHMARK_RANK
            && first_seen.is_some_and(|seen| w.value.0.get(..10).is_some_and(|d| d > seen)))
    });
    // A seller's date two months or more before the first snapshot the model's own ids
    // date is another model's (NanoGPT dates `o3-deep-research`, whose one snapshot is
    // 2025-06-26, with o3's 2025-04-16).
    let month_number = |m: &str| -> Option<i32> {
        Some(m.get(..4)?.parse::<i32>().ok()? * 12 + m.get(5..7)?.parse::<i32>().ok()?)
    };
    let first_id = earliest_id.as_deref().and_then(month_number);
    // An undated model whose own ids date one day only (`o3-deep-research-2025-06-26`): that
    // day outweighs other dates, as a dated slug's own day does.
    let id_days: BTreeSet<String> = recs
        .iter()
        .filter_map(|r| {
            let key = names::parse(&r.raw_id).key;
            let (_, d) = names::split_date(&key)?;
            let d = d.replace('-', "");
            (d.len() == 8).then(|| format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..]))
        })
        .collect();
    // A price entry's own dated id (a router's `…/seed-1.6-flash` matching `…-20250625`)
    // is a day the model was out by too, where the creator gives no day of its own.
    let creator_day = witnesses.iter().any(|w| {
        matches!(w.standing, Standing::Own | Standing::FirstParty)
            && w.value.0.len() == 10
            && recs[w.order].id_days.is_empty()
    });
    let entry_days: BTreeSet<String> = recs
        .iter()
        .flat_map(|r| r.id_days.iter().cloned())
        .filter(|d| possible(d))
        .collect();
    let id_day = match (named.as_ref(), id_days.len(), entry_days.len()) {
        (None, 1, _) => id_days.into_iter().next(),
        (None, 0, 1) if !creator_day => entry_days.into_iter().next(),
        _ => None,
    };
    witnesses.retain(|w| {
        let r = &recs[w.order];
        !(w.standing == Standing::Other
            && r.rank < BENCHMARK_RANK
            && first_id
                .zip(month_number(&w.value.0))
                .is_some_and(|(id, d)| d + 2 <= id))
    });
    // A seller's first of a month is the day it listed the model, never its release
    // (unless the slug names that day: `qwen-turbo-2024-11-01`).
    witnesses.retain(|w| {
        let r = &recs[w.order];
        let day = &w.value.0;
        let slug_day = named.as_deref() == Some(day.replace('-', "").as_str());
        !(w.standing == Standing::Other
            && r.rank < BENCHMARK_RANK
            && day.len() == 10
            && day.ends_with("-01")
            && !slug_day)
    });
    // A dated snapshot's undated alias, which joined it, dates the line, not the snapshot:
    // its creator's records speak as anyone's (OpenAI's `gpt-3.5-turbo` file says
    // 2023-03-01; `gpt-3.5-turbo-0125` is of 2024-01-25).
    if named.is_some() {
        let key = names::parse(slug).key;
        for w in &mut witnesses {
            let alias = names::parse(&recs[w.order].raw_id).key != key;
            if alias && matches!(w.standing, Standing::Own | Standing::FirstParty) {
                w.standing = Standing::Other;
            }
        }
    }
    // The creator's word decides a date to the day; a month alone is heard with everyone
    // else's dates, speaking for each of its days (Alibaba's files date QwQ-32B `2024-12`,
    // the preview's month; hosts and Epoch give the release, 2025-03-05).
    for w in &mut witnesses {
        // A seller's month, or its date on the first of a month, is the month it listed
        // the model (FastRouter's `2025-06-01` for GPT Realtime 1.5, released 2026-02-23;
        // JieKou's `2026-01` for MiniMax M1, of June 2025): a month is heard only where no
        // one else gives a date, a first of the month never — a listing date is no release
        // date (docs/data.md, "Witnesses and votes").
        let day = &w.value.0;
        // (A first of the month that is the slug's own day is the snapshot's date:
        // `qwen-turbo-2024-11-01`.)
        let slug_day = named.as_deref() == Some(day.replace('-', "").as_str());
        if w.standing == Standing::Other && (day.len() < 10 || day.ends_with("-01") && !slug_day) {
            w.standing = Standing::Floating;
        } else if day.len() < 10 && matches!(w.standing, Standing::Own | Standing::FirstParty) {
            w.standing = Standing::Other;
        }
    }
    let rule = Rule {
        tiers: TIERS,
        weight: &|d: &Date| u8::from(agrees(d) || id_day.as_deref() == Some(d.0.as_str())),
        tie: Tie::Earliest,
    };
    let chosen = vote("release_date", &witnesses, &rule, disputes).map(|chosen| {
        // A month chosen (Alibaba's files give `2025-04` for Qwen3 8B) is the day within it
        // that the witnesses who give one choose, where any does (hosts date it 2025-04-28).
        let days: Vec<Witness<Date>> = witnesses
            .into_iter()
            .filter(|w| w.value.0.len() > chosen.0.len() && chosen.supports(&w.value))
            .collect();
        choose(&days, &rule).unwrap_or(chosen).0
    });
    // A model is out by the day its one dated id gives: that day where nothing dates it, or
    // dates it later (OpenAI's `gpt-audio-2025-08-28` for `gpt-audio`, which a file dates
    // 2026-01-20; `gpt-5.6-luna-2026-07-09`, which nothing else dates).
    // A snapshot nothing dates is of the day its slug names (`qwen-plus-2025-09-11`); one
    // named by a month and day (`deepseek-v4-pro-0813`) that no witness's day agrees with is
    // of that day in the year nearest the date chosen (the witnesses dated its line: 2026-04-24
    // for DeepSeek V4, so 2026-08-13).
    let mmdd = named
        .as_deref()
        .filter(|n| n.len() == 4 && month.is_none() && !inner);
    let chosen = match (chosen, mmdd) {
        (Some(c), Some(n)) if !agrees(&Date(c.clone())) => Some(nearest_day(&c, n).unwrap_or(c)),
        (c, _) => c,
    };
    let slug_day = named
        .filter(|n| n.len() == 8)
        .map(|n| format!("{}-{}-{}", &n[..4], &n[4..6], &n[6..]));
    // (Within a year: an id dated a year or more before every other witness is a slip,
    // OpenRouter's `nemotron-3-super-120b-a12b-20230311`.)
    let within_year = |c: &str, day: &str| {
        let year = |d: &str| d.get(..4).and_then(|y| y.parse::<i32>().ok());
        year(c)
            .zip(year(day))
            .is_some_and(|(a, b)| a == b || a == b + 1 && c.get(4..10) < day.get(4..10))
    };
    match (chosen, id_day) {
        (Some(c), Some(day))
            if c.get(..10)
                .is_some_and(|d| d > day.as_str() && within_year(d, &day)) =>
        {
            Some(day)
        }
        (None, None) => slug_day,
        (None, day) => day,
        (c, _) => c,
    }
}

/// A model's family: the first its own or its creator's records state, else a seller's
/// whose words are words of the model's id or name (NanoGPT files Tongyi DeepResearch under
/// `yi` and Aion-1.0 under `llama`, Vercel Cohere's rerankers under `o`: a host's label, not
/// the model's line; docs/data.md, "Witnesses and votes").
fn family(slug: &str, name: &str, recs: &[ModelRecord], standings: &[Standing]) -> Option<String> {
    recs.iter().zip(standings).find_map(|(r, standing)| {
        let f = r.family.as_ref()?;
        // A router's product says so in any source's word (models.dev's family `auto`).
        let creators = matches!(standing, Standing::Own | Standing::FirstParty) || f == "auto";
        (creators || family_said(f, slug, name)).then(|| f.clone())
    })
}

/// Whether every word of `family` is a word of the model's id or name, or one its version
/// number follows (`qwen` in `qwen3`, `o` in `o1`): `ling` is no word of `kling`, nor `seed`
/// of `seedance`.
pub fn family_said(family: &str, slug: &str, name: &str) -> bool {
    let words = |t: &str| -> BTreeSet<String> {
        t.to_lowercase()
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    // A host's note in parentheses ("Aion 1.0 mini (DeepSeek)", NanoGPT's) is no word of
    // the model's name.
    let name = name.split('(').next().unwrap_or(name);
    let own: BTreeSet<String> = words(slug).into_iter().chain(words(name)).collect();
    words(family).iter().all(|w| {
        own.iter().any(|o| {
            o.strip_prefix(w.as_str())
                .is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit()))
        })
    })
}

/// A host's label that writes the maker before the model's own name ("OpenAI GPT-4.1 Mini"
/// for `gpt-4.1-mini-2025-04-14`, "Google Gemma 3 12B", "Canopy Labs Orpheus Arabic Saudi"
/// in two words for `canopylabs`) is the name without it, where the
/// rest spells the start of the model's id and is a name (with capitals, or an id: "OpenAI
/// o1-preview", "OpenAI o3-pro (2025-06-10)"); a maker's word that is part of the name
/// ("Mistral Large 2") stays (docs/methodology.md, "Identity").
fn without_maker(name: &str, slug: &str, creator: Option<&str>) -> String {
    let Some(creator) = creator else {
        return name.to_string();
    };
    let key = names::parse(slug).key;
    let squash = |s: &str| {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase()
    };
    // The maker in one word ("OpenAI") or two ("Canopy Labs" for `canopylabs`).
    let splits = name
        .match_indices(' ')
        .take(2)
        .map(|(at, _)| (&name[..at], &name[at + 1..]));
    for (maker, rest) in splits {
        let lower = maker.to_ascii_lowercase();
        let is_maker = squash(maker) == squash(creator)
            || !maker.contains(' ') && identities::creator_words(creator).contains(&lower);
        let spelt = names::parse(&names::slugify(rest)).key;
        // (Google writes `instruct` as `it`: "Gemma 3 27B Instruct" spells `gemma-3-27b-it`.)
        let starts = [spelt.clone(), spelt.replace("-instruct", "-it")]
            .iter()
            .any(|s| {
                !s.is_empty()
                    && (key == *s
                        || key
                            .strip_prefix(s.as_str())
                            .is_some_and(|r| r.starts_with('-')))
            });
        // (An id with its date in parentheses, "o3-pro (2025-06-10)", is an id too.)
        let id = rest.split(" (").next().unwrap_or(rest).trim();
        let named = rest.chars().any(|c| c.is_ascii_uppercase()) || !id.contains(' ');
        if is_maker && starts && named {
            return rest.trim().to_string();
        }
    }
    name.to_string()
}

/// A dated snapshot's name, from the price lists' and catalogues' records for its own dated
/// id where one names it other than by the id itself: the undated alias's records that
/// joined it name the line (OpenAI's `gpt-3.5-turbo` file is "GPT-3.5-turbo", its
/// `gpt-3.5-turbo-0125` entries "GPT-3.5 Turbo 0125"). A leaderboard's row names loosely.
fn snapshot_name(slug: &str, recs: &[ModelRecord]) -> Option<String> {
    let (_, date) = names::split_date(slug)?;
    // Any spelling of the same snapshot (Moonshot's `kimi-k2-0905` for `kimi-k2-instruct-0905`).
    let same_date =
        |raw: &str| names::split_date(&names::parse(raw).key).is_some_and(|(_, d)| d == date);
    let own: Vec<ModelRecord> = recs
        .iter()
        .filter(|r| r.rank < BENCHMARK_RANK && same_date(&r.raw_id))
        .filter(|r| {
            r.name.as_deref().is_some_and(|n| {
                let id = r.raw_id.rsplit('/').next().unwrap_or(&r.raw_id);
                !n.eq_ignore_ascii_case(id)
            })
        })
        .cloned()
        .collect();
    // The most authoritative records' names only; among them a name that writes the date
    // says which snapshot it is ("Kimi K2 0905" before "Kimi K2 Instruct").
    let best = own.iter().map(|r| r.rank).min()?;
    let own: Vec<ModelRecord> = own.into_iter().filter(|r| r.rank == best).collect();
    let digits: String = date.chars().filter(char::is_ascii_digit).collect();
    let (dated, undated): (Vec<ModelRecord>, Vec<ModelRecord>) = own.into_iter().partition(|r| {
        r.name.as_deref().is_some_and(|n| {
            n.chars()
                .filter(char::is_ascii_digit)
                .collect::<String>()
                .contains(&digits)
        })
    });
    identities::model_name(&dated).or_else(|| identities::model_name(&undated))
}

/// The month (`yyyy-mm`) a snapshot date gives, its dashes removed: yyyymmdd, yymm (`2512`)
/// or mmyyyy (`052026`); `None` for mmdd (`0528`), which gives no year.
/// The day `mmdd` in the year before, of, or after `near`'s that is nearest it.
fn nearest_day(near: &str, mmdd: &str) -> Option<String> {
    let near = chrono::NaiveDate::parse_from_str(near.get(..10)?, "%Y-%m-%d").ok()?;
    let (m, d) = (mmdd.get(..2)?.parse().ok()?, mmdd.get(2..)?.parse().ok()?);
    let year = chrono::Datelike::year(&near);
    (year - 1..=year + 1)
        .filter_map(|y| chrono::NaiveDate::from_ymd_opt(y, m, d))
        .min_by_key(|day| (*day - near).num_days().abs())
        .map(|day| day.format("%Y-%m-%d").to_string())
}

fn month_of(n: &str) -> Option<String> {
    match n.len() {
        8 => Some(format!("{}-{}", n.get(..4)?, n.get(4..6)?)),
        4 if n.get(..2)? > "12" => Some(format!("20{}-{}", n.get(..2)?, n.get(2..)?)),
        6 => Some(format!("{}-{}", n.get(2..)?, n.get(..2)?)),
        _ => None,
    }
}

/// The witnesses of each labelled field a source answers alone, for scoring sources
/// against a truth set ([`super::labels`]): the value its most authoritative record for the
/// model gives, by field name.
pub fn answers_of(recs: &[&ModelRecord], slug: &str, name: &str) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    let first = |get: &dyn Fn(&ModelRecord) -> Option<String>| recs.iter().find_map(|r| get(r));
    let mut put = |field: &'static str, v: Option<String>| {
        if let Some(v) = v {
            out.insert(field, v);
        }
    };
    put(
        "name",
        first(&|r| {
            r.name
                .as_deref()
                .map(|n| identities::display_name(n).to_string())
        }),
    );
    put("creator", first(&|r| r.creator.clone()));
    put(
        "release_date",
        first(&|r| {
            r.release_date
                .as_deref()
                .filter(|d| !placeholder_date(d))
                .map(str::to_string)
        }),
    );
    put(
        "context_window",
        first(&|r| r.context.filter(|n| *n > 0).map(|n| n.to_string())),
    );
    put(
        "max_output_tokens",
        first(&|r| {
            r.max_output
                .filter(|n| !placeholder_output(*n))
                .map(|n| n.to_string())
        }),
    );
    put(
        "open_source",
        first(&|r| r.open_weights.map(|b| b.to_string())),
    );
    put("tool_call", first(&|r| r.tool_call.map(|b| b.to_string())));
    put("reasoning", first(&|r| r.reasoning.map(|b| b.to_string())));
    put(
        "structured_output",
        first(&|r| r.structured_output.map(|b| b.to_string())),
    );
    let sets = recs.iter().find_map(|r| {
        let input = stated_set(r.input_modalities.as_ref(), &r.input_flags);
        let output = stated_set(r.output_modalities.as_ref(), &r.output_flags);
        (input.is_some() || output.is_some()).then(|| {
            (
                input.unwrap_or_else(|| vec!["text".into()]),
                output.unwrap_or_else(|| vec!["text".into()]),
                r.task,
            )
        })
    });
    if let Some((input, output, task)) = &sets {
        put("input_modalities", Some(input.join("|")));
        put("output_modalities", Some(output.join("|")));
        put(
            "category",
            Some(catalog::category(input, output).to_string()),
        );
        let mut m = catalog::blank_model(slug);
        m.name = name.to_string();
        m.input_modalities = input.join(",");
        m.output_modalities = output.join(",");
        let derived = super::curation::task(&m);
        // The source's own mode where it names a task the name does not overrule.
        let task = match task {
            Some(t) if derived == entity::vocab::Task::Chat => *t,
            _ => derived,
        };
        put("task", Some(task.to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w<T>(source: &'static str, provider: &str, standing: Standing, value: T) -> Witness<T> {
        Witness {
            source,
            provider: (!provider.is_empty()).then(|| provider.to_string()),
            standing,
            order: 0,
            value,
        }
    }

    fn ordered<T>(mut ws: Vec<Witness<T>>) -> Vec<Witness<T>> {
        for (i, w) in ws.iter_mut().enumerate() {
            w.order = i;
        }
        ws
    }

    const MOST: Rule<'static, i64> = Rule {
        tiers: TIERS,
        weight: &|_: &i64| 0,
        tie: Tie::Authority,
    };

    #[test]
    fn the_creator_s_word_outvotes_its_own_metadata_file_when_its_apis_agree() {
        use Standing::*;
        // MiniMax-M3: its own models.dev file says 512,000; models.dev's, genai-prices' and
        // LiteLLM's entries at MiniMax's API say 1,000,000; hosts say 512,000 or 524,288.
        let ws = ordered(vec![
            w("models-dev", "", Own, 512_000),
            w("models-dev", "minimax", FirstParty, 1_000_000),
            w("genai-prices", "minimax", FirstParty, 1_000_000),
            w("litellm", "minimax", FirstParty, 1_000_000),
            w("models-dev", "opencode", Other, 512_000),
            w("genai-prices", "avian", Other, 512_000),
            w("litellm", "azure-ai", Other, 512_000),
        ]);
        assert_eq!(choose(&ws, &MOST), Some(1_000_000));
        let d = dispute("context_window", &ws).unwrap();
        assert_eq!(d.field, "context_window");
        assert_eq!(d.values.len(), 6, "{d:?}");
        assert_eq!(d.values[0].value, "512000", "in value order");
    }

    #[test]
    fn a_limit_tied_between_three_values_is_the_middle_one() {
        use Standing::*;
        let middle = Rule {
            tie: Tie::Middle,
            ..MOST
        };
        // Mistral 7B Instruct v0.1: Kilo's slip read first, then Cloudflare's and Together's.
        let ws = ordered(vec![
            w("models-dev", "kilo", Other, 2_824),
            w("litellm", "cloudflare-workers-ai", Other, 8_192),
            w("litellm", "togetherai", Other, 32_768),
        ]);
        assert_eq!(choose(&ws, &middle), Some(8_192));
        assert_eq!(choose(&ws, &MOST), Some(2_824));
        // Two tied values: the most authoritative, as before; more support still wins.
        assert_eq!(choose(&ws[..2], &middle), Some(2_824));
        let mut more = ws.clone();
        more.push(w("models-dev", "nebius", Other, 2_824));
        assert_eq!(choose(&ordered(more), &middle), Some(2_824));
    }

    #[test]
    fn the_most_providers_then_sources_win_and_a_tie_goes_to_authority() {
        use Standing::*;
        // Llama 3 8B Instruct: one host's 128,000 read first, every other source 8,192.
        let ws = ordered(vec![
            w("models-dev", "cloudflare-ai-gateway", Other, 128_000),
            w("models-dev", "openrouter", Other, 8_192),
            w("genai-prices", "novita-ai", Other, 8_192),
            w("litellm", "together-ai", Other, 8_192),
        ]);
        assert_eq!(choose(&ws, &MOST), Some(8_192));
        // One source at four providers against the same source at one.
        let ws = ordered(vec![
            w("models-dev", "evroc", Other, 100_000),
            w("models-dev", "kilo", Other, 131_072),
            w("models-dev", "novita-ai", Other, 131_072),
        ]);
        assert_eq!(choose(&ws, &MOST), Some(131_072));
        // GLM-4.5-Air at Z.ai: models.dev's own file and both Z.ai API files say 131,072,
        // genai-prices' and LiteLLM's Z.ai entries 128,000: three providers against two.
        let ws = ordered(vec![
            w("models-dev", "", Own, 131_072),
            w("models-dev", "zhipuai", FirstParty, 131_072),
            w("genai-prices", "zhipuai", FirstParty, 128_000),
            w("models-dev", "zai", FirstParty, 131_072),
            w("litellm", "zai", FirstParty, 128_000),
        ]);
        assert_eq!(choose(&ws, &MOST), Some(131_072));
        // One provider each: the value more sources give at its provider.
        let ws = ordered(vec![
            w("models-dev", "fireworks-ai", Other, 256_000),
            w("models-dev", "amazon-bedrock", Other, 128_000),
            w("genai-prices", "amazon-bedrock", Other, 128_000),
        ]);
        assert_eq!(choose(&ws, &MOST), Some(128_000));
        // One against one: the first (most authoritative) record's.
        let ws = ordered(vec![
            w("models-dev", "a", Other, 1),
            w("litellm", "b", Other, 2),
        ]);
        assert_eq!(choose(&ws, &MOST), Some(1));
        assert_eq!(choose::<i64>(&[], &MOST), None);
    }

    #[test]
    fn a_lone_host_speaks_only_when_the_creator_is_silent() {
        use Standing::*;
        let ws = ordered(vec![
            w("models-dev", "x", Other, 7),
            w("models-dev", "y", Other, 7),
            w("litellm", "openai", FirstParty, 9),
        ]);
        assert_eq!(choose(&ws, &MOST), Some(9));
    }

    #[test]
    fn agreeing_values_make_no_dispute_and_a_month_speaks_for_its_days() {
        use Standing::*;
        let ws = ordered(vec![
            w("models-dev", "a", Other, 5),
            w("litellm", "b", Other, 5),
        ]);
        assert!(dispute("context_window", &ws).is_none());
        let dates = ordered(vec![
            w("models-dev", "a", Other, Date("2025-03".into())),
            w("genai-prices", "b", Other, Date("2025-03-12".into())),
        ]);
        assert!(dispute("release_date", &dates).is_none());
        let rule = Rule {
            tiers: TIERS,
            weight: &|_: &Date| 0,
            tie: Tie::Earliest,
        };
        assert_eq!(choose(&dates, &rule), Some(Date("2025-03-12".into())));
        // Two days two hosts give each: the earlier on a tie, and a dispute.
        let dates = ordered(vec![
            w("models-dev", "a", Other, Date("2025-04-01".into())),
            w("models-dev", "b", Other, Date("2025-04-01".into())),
            w("models-dev", "c", Other, Date("2024-05-22".into())),
            w("models-dev", "d", Other, Date("2024-05-22".into())),
        ]);
        assert_eq!(choose(&dates, &rule), Some(Date("2024-05-22".into())));
        assert!(dispute("release_date", &dates).is_some());
        // Two lone days: the most authoritative witness's.
        assert_eq!(choose(&dates[1..3], &rule), Some(Date("2025-04-01".into())));
        // The reviewed table is no source: its word is never a dispute.
        let open = ordered(vec![
            w("open_families", "", Reviewed, true),
            w("models-dev", "a", Other, false),
        ]);
        assert!(dispute("open_source", &open).is_none());
    }

    fn rec(provider: Option<&str>, rank: u8) -> ModelRecord {
        ModelRecord {
            source: "models-dev",
            provider: provider.map(str::to_string),
            raw_id: "m".into(),
            rank,
            ..ModelRecord::default()
        }
    }

    #[test]
    fn standing_follows_the_creators_table() {
        assert_eq!(standing(Some("minimax"), &rec(None, 0)), Standing::Own);
        assert_eq!(
            standing(Some("minimax"), &rec(Some("minimax-cn"), 3)),
            Standing::FirstParty
        );
        assert_eq!(
            standing(Some("meta"), &rec(Some("amazon-bedrock"), 3)),
            Standing::Other,
            "Bedrock is Amazon's own API, not Meta's"
        );
        assert_eq!(
            standing(Some("amazon"), &rec(Some("amazon-bedrock"), 4)),
            Standing::FirstParty
        );
        assert_eq!(standing(None, &rec(Some("openai"), 1)), Standing::Other);
        let floating = ModelRecord {
            raw_id: "devstral-medium-latest".into(),
            ..rec(Some("mistral"), 1)
        };
        assert_eq!(standing(Some("mistral"), &floating), Standing::Floating);
        let own_floating = ModelRecord {
            raw_id: "devstral-medium-latest".into(),
            ..rec(None, 0)
        };
        assert_eq!(
            standing(Some("mistral"), &own_floating),
            Standing::FloatingOwn
        );
        assert_eq!(standing(Some("openai"), &rec(None, 5)), Standing::Other);
    }

    #[test]
    fn modalities_are_voted_one_by_one_from_lists_and_flags() {
        let set = |xs: &[&str]| Some(xs.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        // Claude Mythos 5.1: only LiteLLM's first-party entry states its input, by flags.
        let mut litellm = rec(Some("anthropic"), 4);
        litellm.source = "litellm";
        litellm.input_flags = vec![
            ("image".into(), true),
            ("pdf".into(), true),
            ("text".into(), true),
        ];
        let m = model(
            "claude-mythos-5-1",
            &[litellm.clone()],
            Derivation::default(),
        );
        assert_eq!(m.input_modalities, "image,pdf,text");
        assert_eq!(m.category.as_str(), "multimodal");
        assert_eq!(m.disputes, None);
        // A first-party list without images, against two first-party sources pricing them.
        let mut own_list = rec(Some("google"), 1);
        own_list.input_modalities = set(&["text"]);
        let mut genai = rec(Some("google"), 2);
        genai.source = "genai-prices";
        genai.input_flags = vec![("image".into(), true), ("text".into(), true)];
        let mut ll = rec(Some("google"), 4);
        ll.source = "litellm";
        ll.input_flags = vec![("image".into(), true)];
        let m = model(
            "gemini-embedding-2",
            &[own_list, genai, ll],
            Derivation::default(),
        );
        assert_eq!(m.input_modalities, "image,text");
        let d = Dispute::decode(m.disputes.as_deref());
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].field, "input_modalities.image");
        // A video generator makes no text.
        let mut video = rec(Some("minimax"), 4);
        video.source = "litellm";
        video.output_flags = vec![("video".into(), true), ("text".into(), false)];
        let m = model("minimax-h3-max", &[video], Derivation::default());
        assert_eq!(m.output_modalities, "video");
        // Nothing stated: text in and out.
        let m = model("x-1", &[rec(Some("h"), 3)], Derivation::default());
        assert_eq!(
            (m.input_modalities.as_str(), m.output_modalities.as_str()),
            ("text", "text")
        );
    }

    #[test]
    fn a_free_route_s_window_is_not_its_router_s_word() {
        let with = |provider: &str, id: &str, window: i64| ModelRecord {
            raw_id: id.into(),
            context: Some(window),
            ..rec(Some(provider), 3)
        };
        // OpenRouter's paid and free routes disagree; one other host agrees with the paid.
        let recs = [
            with("baseten", "inkling-small", 1_048_576),
            with("openrouter", "inkling-small:free", 1_048_576),
            with("openrouter", "inkling-small", 524_288),
            with("deepinfra", "inkling-small", 524_288),
        ];
        let m = model("inkling-small", &recs, Derivation::default());
        assert_eq!(m.context_window, Some(524_288));
        // A free route alone still speaks.
        let m = model("x-1", &recs[1..2], Derivation::default());
        assert_eq!(m.context_window, Some(1_048_576));
    }

    #[test]
    fn stated_sets_apply_flags_over_lists() {
        let list = vec!["image".to_string(), "text".to_string()];
        assert_eq!(
            stated_set(
                Some(&list),
                &[("audio".into(), true), ("image".into(), false)]
            ),
            Some(vec!["audio".to_string(), "text".to_string()])
        );
        assert_eq!(stated_set(None, &[]), None);
        assert_eq!(
            stated_set(None, &[("image".into(), true)]),
            Some(vec!["image".to_string(), "text".to_string()])
        );
    }

    #[test]
    fn placeholders_never_vote() {
        let dated = |rank: u8, d: &str| ModelRecord {
            rank,
            provider: Some(format!("p{rank}")),
            release_date: Some(d.into()),
            ..ModelRecord::default()
        };
        let m = model(
            "deepseek-v3.2-exp",
            &[
                dated(3, "2025-01-01"),
                dated(3, "2025-01-01"),
                dated(4, "2025-09-29"),
            ],
            Derivation::default(),
        );
        assert_eq!(m.release_date.as_deref(), Some("2025-09-29"));
        assert!(placeholder_output(1) && !placeholder_output(8192));
        let m = model(
            "only-a-placeholder",
            &[dated(3, "2024-01-01")],
            Derivation::default(),
        );
        assert_eq!(m.release_date, None);
    }

    #[test]
    fn one_open_weights_witness_is_enough() {
        let rec = |w: Option<bool>| ModelRecord {
            open_weights: w,
            rank: 3,
            provider: Some("host".into()),
            ..ModelRecord::default()
        };
        let open =
            |slug: &str, recs: &[ModelRecord]| model(slug, recs, Derivation::default()).open_source;
        assert_eq!(
            open("x-1", &[rec(Some(false)), rec(Some(true))]),
            Some(true)
        );
        // The model's own metadata outweighs a host that says otherwise, either way.
        let own = |w: Option<bool>| ModelRecord {
            rank: 0,
            provider: None,
            ..rec(w)
        };
        assert_eq!(
            open("x-1", &[own(Some(false)), rec(Some(true))]),
            Some(false)
        );
        assert_eq!(
            open("x-1", &[own(Some(true)), rec(Some(false))]),
            Some(true)
        );
        assert_eq!(open("x-1", &[rec(None), rec(Some(false))]), Some(false));
        assert_eq!(open("x-1", &[rec(None)]), None);
        // A floating alias's own file comes before its APIs' and hosts' (Magistral Medium's
        // `-latest` file says `false`, Mistral's API file and a host's copy `true`).
        let floating = |r: ModelRecord| ModelRecord {
            raw_id: "x-latest".into(),
            ..r
        };
        assert_eq!(
            open(
                "x-1",
                &[
                    floating(own(Some(false))),
                    floating(rec(Some(true))),
                    rec(Some(true))
                ]
            ),
            Some(false)
        );
        assert_eq!(open("gpt-oss-20b", &[rec(Some(false))]), Some(true));
        // A host's default `false` says nothing of a sized checkpoint; of an API model it
        // stands where no one else speaks.
        let default = ModelRecord {
            closed_by_default: true,
            ..rec(Some(false))
        };
        assert_eq!(open("x-70b", std::slice::from_ref(&default)), None);
        assert_eq!(open("x-pro", &[default]), Some(false));
        // A paper's row of an open family names no published checkpoint.
        let paper = ModelRecord {
            rank: BENCHMARK_RANK,
            provider: None,
            ..rec(None)
        };
        assert_eq!(open("llama-2-13b", &[paper]), None);
    }

    #[test]
    fn a_quantisation_dates_the_model_only_where_nothing_else_does() {
        let rec = |id: &str, rank: u8, d: &str| ModelRecord {
            rank,
            raw_id: id.into(),
            provider: (rank < BENCHMARK_RANK).then(|| format!("host-{rank}")),
            release_date: Some(d.into()),
            ..ModelRecord::default()
        };
        let date = |recs: &[ModelRecord]| {
            model("qwen2.5-coder-32b-instruct", recs, Derivation::default()).release_date
        };
        let quant = rec(
            "Qwen2.5-Coder-32B-Instruct-Q8_0-GGUF",
            BENCHMARK_RANK,
            "2025-02-16",
        );
        let hosts = [
            rec("qwen/qwen-2.5-coder-32b-instruct", 3, "2024-11-11"),
            rec("Qwen/Qwen2.5-Coder-32B-Instruct", 4, "2024-11-11"),
            quant.clone(),
        ];
        assert_eq!(date(&hosts).as_deref(), Some("2024-11-11"));
        assert_eq!(date(&[quant]).as_deref(), Some("2025-02-16"));
    }

    #[test]
    fn release_dates_are_what_the_creator_else_most_hosts_say() {
        // Records of a DeepSeek model: rank 1 at DeepSeek's API, the others at hosts.
        let rec = |rank: u8, d: &str| ModelRecord {
            rank,
            creator: Some("deepseek".into()),
            provider: Some(if rank <= 2 {
                "deepseek".to_string()
            } else {
                format!("host-{d}-{rank}")
            }),
            release_date: Some(d.into()),
            ..ModelRecord::default()
        };
        let date = |slug: &str, recs: &[ModelRecord]| {
            model(slug, recs, Derivation::default()).release_date
        };
        // The creator's own API says.
        let own = [
            rec(3, "2025-02-01"),
            rec(4, "2025-02-01"),
            rec(1, "2025-09-29"),
        ];
        assert_eq!(date("m", &own).as_deref(), Some("2025-09-29"));
        // Else most hosts, a placeholder never counting.
        let hosts = [
            rec(3, "2025-01-01"),
            rec(4, "2025-01-01"),
            rec(3, "2025-09-29"),
            rec(4, "2025-09-29"),
        ];
        assert_eq!(date("m", &hosts).as_deref(), Some("2025-09-29"));
        // No two agree: the most authoritative host's.
        let split = [rec(3, "2025-04-02"), rec(3, "2024-05-22")];
        assert_eq!(date("m", &split).as_deref(), Some("2025-04-02"));
        // A tie: the earlier.
        let tie = [
            rec(3, "2025-03-13"),
            rec(4, "2025-03-13"),
            rec(3, "2025-03-12"),
            rec(4, "2025-03-12"),
        ];
        assert_eq!(date("m", &tie).as_deref(), Some("2025-03-12"));
        // Only dates from the month the slug names (`2512`, December 2025) count.
        let named = [
            rec(3, "2024-12-02"),
            rec(4, "2024-12-02"),
            rec(3, "2025-12-02"),
        ];
        assert_eq!(
            date("ministral-14b-2512", &named).as_deref(),
            Some("2025-12-02")
        );
        // A date on the day the name gives outweighs any count.
        assert_eq!(
            date(
                "gpt-4-0314",
                &[
                    rec(3, "2023-05-28"),
                    rec(4, "2023-05-28"),
                    rec(3, "2023-03-14")
                ]
            )
            .as_deref(),
            Some("2023-03-14")
        );
        assert_eq!(date("m", &[]), None);
        // A seller's first of a month is its listing date, never a release date.
        assert_eq!(
            date("m", &[rec(3, "2024-10-01"), rec(4, "2024-10-01")]),
            None
        );
        // A date a year before the earliest snapshot the model's own ids date is no witness;
        // one within the year is (an undated release before its first dated id).
        let with_id = |rank: u8, d: &str, id: &str| ModelRecord {
            raw_id: id.into(),
            ..rec(rank, d)
        };
        assert_eq!(
            date(
                "o3-deep-research",
                &[
                    with_id(0, "2024-06-26", "o3-deep-research"),
                    with_id(3, "2025-06-26", "o3-deep-research-2025-06-26")
                ]
            )
            .as_deref(),
            Some("2025-06-26")
        );
        assert_eq!(
            date(
                "grok-imagine-image",
                &[
                    with_id(0, "2026-01-28", "grok-imagine-image"),
                    with_id(3, "2026-03-02", "grok-imagine-image-2026-03-02")
                ]
            )
            .as_deref(),
            Some("2026-01-28")
        );
        // The creator's month alone is heard with the hosts' days: it speaks for those in it.
        let month = |rank: u8, d: &str| ModelRecord {
            release_date: Some(d.into()),
            ..rec(rank, "2000-01-02")
        };
        assert_eq!(
            date(
                "m",
                &[
                    month(1, "2024-12"),
                    rec(3, "2025-03-05"),
                    rec(4, "2025-03-05")
                ]
            )
            .as_deref(),
            Some("2025-03-05")
        );
        assert_eq!(
            date("m", &[month(1, "2025-04"), rec(3, "2025-04-28")]).as_deref(),
            Some("2025-04-28")
        );
        assert_eq!(
            date("m", &[month(1, "2025-04")]).as_deref(),
            Some("2025-04")
        );
        // A date before the named month is no witness, even the creator's own.
        assert_eq!(date("voxtral-mini-3b-2507", &[rec(1, "2024-12-02")]), None);
        assert_eq!(
            date(
                "codestral-2508",
                &[rec(1, "2024-05-29"), rec(3, "2025-08-05")]
            )
            .as_deref(),
            Some("2025-08-05")
        );
        // A seller's first of the month is no witness, even in the named month.
        assert_eq!(
            date(
                "codestral-2508",
                &[rec(1, "2024-05-29"), rec(3, "2025-08-01")]
            ),
            None
        );
    }
}
