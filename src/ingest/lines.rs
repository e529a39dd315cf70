//! What a model's line says of it, once every model is merged: a dated snapshot's name
//! after its line's, and a line's date that a creator's file gives a later model of it
//! (docs/methodology.md, "Identity"; docs/data.md, "Witnesses and votes").

use std::collections::{BTreeMap, BTreeSet};

use entity::model;

use super::{BENCHMARK_RANK, ModelRecord, identities, names};

/// Names the dated snapshots no record names but by their id, or that share their line's
/// name with another snapshot, after their line: the name of the model the undated name
/// joins, then the date (`qwen-plus-2025-07-14` → "Qwen Plus (2025-07-14)"; docs/methodology.md,
/// "Identity"). Where a line has several snapshots, the one the undated name joins says its
/// date too ("Qwen Plus (2025-09-11)").
pub fn name_snapshots(models: &mut [model::Model], index: &BTreeMap<String, String>) {
    let current: BTreeMap<String, String> = models
        .iter()
        .map(|m| (m.slug.clone(), m.name.clone()))
        .collect();
    // Each line's dated snapshots and the name of the model its undated name joins.
    let mut lines: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in models.iter() {
        if let Some(line) = identities::undated(&m.slug) {
            lines
                .entry(line.to_string())
                .or_default()
                .push(m.slug.clone());
        }
    }
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    for (line, slugs) in &lines {
        let Some(head) = index.get(&names::parse(line).key) else {
            continue;
        };
        // The line's name: the joined snapshot's, without a parenthesis writing its own date
        // ("Qwen3 Max (2026-01-23)" names the line "Qwen3 Max"), unless it is a bare id or
        // writes that date otherwise.
        let digits = |t: &str| t.chars().filter(char::is_ascii_digit).collect::<String>();
        let head_date = identities::undated(head).map(|u| &head[u.len() + 1..]);
        let Some(head_name) = current.get(head).filter(|n| *n != head) else {
            continue;
        };
        let line_name = match head_date {
            Some(d) => head_name
                .strip_suffix(&format!(" ({d})"))
                .unwrap_or(head_name),
            None => head_name,
        };
        if head_date.is_some_and(|d| digits(line_name).contains(&digits(d))) {
            continue;
        }
        // Where the line has other snapshots, the joined one's name says its date too.
        if let Some(d) = head_date.filter(|_| slugs.len() > 1 && line_name == head_name) {
            renamed.insert(head.clone(), format!("{line_name} ({d})"));
        }
        for slug in slugs.iter().filter(|s| *s != head) {
            let name = &current[slug];
            // A name that only spells the id names nothing more: the id itself in any case
            // (`GLM-4-0116`), or ending in the id's dashed date (`Qwen VL-MAX-2025-01-25`).
            let date = &slug[line.len() + 1..];
            let bare = names::slugify(name) == *slug
                && (!name.contains(' ')
                    || date.contains('-') && name.ends_with(&format!("-{date}")));
            let shared = slugs
                .iter()
                .chain([head])
                .filter(|o| *o != slug)
                .any(|o| current[o].eq_ignore_ascii_case(name));
            if bare || shared {
                renamed.insert(slug.clone(), format!("{line_name} ({date})"));
            }
        }
    }
    // A name spelling another model's slug names that model (`gpt 4 (0613)` for
    // `gpt-4-32k-0613`, whose line is misnamed "gpt 4"): kept as it was.
    renamed.retain(|slug, name| {
        let spelt = names::slugify(name);
        spelt == *slug || !current.contains_key(&spelt)
    });
    for m in models.iter_mut() {
        if let Some(name) = renamed.remove(&m.slug) {
            m.name = name;
        }
    }
}

/// Names a name several models share apart where only a benchmark table gives it: such a
/// table names its model family, not the version (Epoch's `Model`: five OpenAI ids are
/// "GPT-3.5", `babbage` and `babbage-002` "GPT-3 XL"), so each model it names so is named
/// with its id, as the table writes its own unique names ("GPT-3 175B (davinci-002)").
/// A model a price list or host names so keeps the name (Google's `gemini-1.5-pro`
/// beside Epoch's `gemini-1.5-pro-001`), and so does the one whose id the name spells
/// ("MPT-7B" is `mpt-7b`, not `mpt-7b-instruct`) — docs/methodology.md, "Identity".
pub fn name_apart(models: &mut [model::Model], records: &BTreeMap<String, Vec<ModelRecord>>) {
    let mut sharing: BTreeMap<String, usize> = BTreeMap::new();
    for m in models.iter() {
        *sharing.entry(m.name.to_lowercase()).or_default() += 1;
    }
    // A name a table gives rows of two models or more is a family name there too, whatever
    // the other model is served as (Epoch's "Mistral NeMo" for `Mistral-Nemo-Base-2407` and
    // for the instruct model, which sellers call "Mistral Nemo Instruct 2407").
    let mut tabled: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (slug, recs) in records {
        for r in recs.iter().filter(|r| r.rank >= BENCHMARK_RANK) {
            if let Some(name) = &r.name {
                tabled.entry(name.to_lowercase()).or_default().insert(slug);
            }
        }
    }
    for m in models.iter_mut() {
        let name = m.name.to_lowercase();
        let shared = sharing.get(&name).is_some_and(|n| *n >= 2)
            || tabled.get(&name).is_some_and(|s| s.len() >= 2);
        if !shared {
            continue;
        }
        let recs = records.get(&m.slug).map_or(&[][..], Vec::as_slice);
        let said_by_seller = recs.iter().any(|r| {
            r.rank < BENCHMARK_RANK
                && r.name
                    .as_deref()
                    .is_some_and(|n| n.eq_ignore_ascii_case(&m.name))
        });
        let spells_id = names::parse(&m.name).key == names::parse(&m.slug).key;
        if said_by_seller || spells_id || recs.is_empty() {
            continue;
        }
        // One parenthesis: "DeepSeek-V2 (MoE-236B, deepseek-v2-chat-0628)".
        m.name = match m.name.strip_suffix(')') {
            Some(open) if open.contains('(') => format!("{open}, {})", m.slug),
            _ => format!("{} ({})", m.name, m.slug),
        };
    }
}

/// Each model dated to the day, by slug: its creator and that day.
fn full_dates(models: &[model::Model]) -> BTreeMap<String, (Option<String>, String)> {
    models
        .iter()
        .filter_map(|m| {
            let d = m.release_date.clone().filter(|d| d.len() == 10)?;
            Some((m.slug.clone(), (m.creator_slug.clone(), d)))
        })
        .collect()
}

/// A release date a creator's file gives a model that is the date of a shorter model of its
/// line (the same creator; its id the first words of this one's) is the line's date where a
/// benchmark table dates the model four weeks or more later: the earliest such date is its
/// release (Microsoft's files date `phi-4-reasoning-plus` with Phi-4's 2024-12-11; Epoch
/// dates it 2025-04-30; Google's date `gemini-2.0-flash-lite` with 2.0 Flash's). A table's
/// row for a quantisation of the model (`…-Q8_0-GGUF`) dates the quantisation, not it.
pub fn date_from_line(models: &mut [model::Model], records: &BTreeMap<String, Vec<ModelRecord>>) {
    let dated = full_dates(models);
    let day = |d: &str| chrono::NaiveDate::parse_from_str(d.get(..10)?, "%Y-%m-%d").ok();
    for m in models.iter_mut() {
        let Some((creator, date)) = dated.get(&m.slug) else {
            continue;
        };
        let words: Vec<&str> = m.slug.split('-').collect();
        let line_date = (1..words.len()).any(|i| {
            dated
                .get(&words[..i].join("-"))
                .is_some_and(|(c, d)| c == creator && d == date)
        });
        let Some(released) = day(date).filter(|_| line_date) else {
            continue;
        };
        let later = records
            .get(&m.slug)
            .into_iter()
            .flatten()
            .filter(|r| r.rank >= BENCHMARK_RANK && !identities::packaged(&r.raw_id))
            .filter_map(|r| r.release_date.as_deref())
            .filter(|d| day(d).is_some_and(|d| (d - released).num_days() >= 28))
            .min();
        if let Some(later) = later {
            m.release_date = Some(later.to_string());
        }
    }
    // With no table to date it, a model of a branch of the line that came out later
    // (`phi-4-mini-reasoning` of Phi-4 Mini, `phi-4-mini-instruct` of 2025-02-27) was not out
    // on the line's day: its date is unknown rather than its line's. A slug's own date stands.
    let dated = full_dates(models);
    for m in models.iter_mut() {
        let Some((creator, date)) = dated.get(&m.slug) else {
            continue;
        };
        // (A date ending the slug, `…-preview-06-17`, is the model's own.)
        if names::split_date(&m.slug).is_some()
            || m.slug
                .rsplit('-')
                .next()
                .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        let Some(released) = day(date) else {
            continue;
        };
        let words: Vec<&str> = m.slug.split('-').collect();
        let Some(line_prefix) = (1..words.len())
            .filter(|&i| {
                dated
                    .get(&words[..i].join("-"))
                    .is_some_and(|(c, d)| c == creator && d == date)
            })
            .max()
        else {
            continue;
        };
        let branch_later = (line_prefix + 1..words.len()).any(|j| {
            let branch = format!("{}-", words[..j].join("-"));
            dated.iter().any(|(slug, (c, d))| {
                slug.starts_with(&branch)
                    && *slug != m.slug
                    && c == creator
                    && day(d).is_some_and(|d| (d - released).num_days() >= 28)
            })
        });
        if branch_later {
            m.release_date = None;
        }
    }
}
