//! Ingest and import over the real public datasets.

use std::collections::{BTreeMap, BTreeSet};

use mds::ingest::{self, Options};
use mds::snapshot::Snapshot;

use crate::helpers::{BACKENDS, Backend, fresh_database, raw_sources};

fn run() -> (Snapshot, ingest::Report) {
    let sources = raw_sources();
    let opts = Options {
        sources,
        price_changes: None,
        exclude: BTreeSet::new(),
        archive: None,
        observed: Default::default(),
        today: None,
        labels: None,
        prior: None,
    };
    ingest::run(&opts).expect("ingest of the real data")
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn real_data_meets_the_coverage_floor() {
    let (s, _) = run();
    assert!(s.models.len() >= 1000, "{} models", s.models.len());
    assert!(s.providers.len() >= 30, "{} providers", s.providers.len());
    let priced = s
        .offerings
        .iter()
        .filter(|o| o.input_price.is_some())
        .count();
    assert!(priced >= 3000, "{priced} offerings with an input price");
    assert!(
        s.price_history.len() >= 300,
        "{} price points",
        s.price_history.len()
    );
    let covered: BTreeSet<&str> = s
        .price_history
        .iter()
        .map(|p| p.model_slug.as_str())
        .collect();
    assert!(
        covered.len() >= 150,
        "history covers {} models",
        covered.len()
    );
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn well_known_models_carry_the_published_prices() {
    let (s, _) = run();
    let offering = |model: &str, provider: &str| {
        s.offerings
            .iter()
            .find(|o| o.model_slug == model && o.provider_slug == provider)
            .unwrap_or_else(|| panic!("no offering of {model} at {provider}"))
    };
    // (canonical slug, provider, input, output) as published in genai-prices at 47df840a.
    let cases = [
        ("gpt-4o-2024-11-20", "openai", 2.5, 10.0),
        ("gpt-4.1-2025-04-14", "openai", 2.0, 8.0),
        // o3's list price was cut on 2025-06-10 (a dated constraint in the feed).
        ("o3-2025-04-16", "openai", 2.0, 8.0),
        ("gpt-5-2025-08-07", "openai", 1.25, 10.0),
        ("claude-3-5-sonnet-20241022", "anthropic", 3.0, 15.0),
        ("claude-sonnet-4-5-20250929", "anthropic", 3.0, 15.0),
        ("claude-opus-4-1-20250805", "anthropic", 15.0, 75.0),
        ("claude-3-haiku-20240307", "anthropic", 0.25, 1.25),
        ("gemini-2.5-pro", "google", 1.25, 10.0),
        ("gemini-2.0-flash", "google", 0.1, 0.4),
        ("mistral-large-2512", "mistral", 0.5, 1.5),
        // DeepSeek's standard (peak-hours) price, not the off-peak discount.
        ("deepseek-chat", "deepseek", 0.27, 1.1),
        ("deepseek-reasoner", "deepseek", 0.55, 2.19),
        ("grok-4-0709", "xai", 3.0, 15.0),
        ("command-r-plus-08-2024", "cohere", 2.5, 10.0),
    ];
    for (model, provider, input, output) in cases {
        let o = offering(model, provider);
        assert_eq!(
            (o.input_price, o.output_price),
            (Some(input), Some(output)),
            "{model} at {provider}"
        );
        assert_eq!(o.source, "genai-prices");
    }
    // Prices in other units, as published: image output tokens, Perplexity's request fee,
    // Anthropic's one-hour cache write.
    let units = |model: &str, provider: &str| {
        entity::offering::UnitPrice::decode(offering(model, provider).unit_prices.as_deref())
            .into_iter()
            .map(|u| (u.item, u.unit, u.price))
            .collect::<Vec<_>>()
    };
    assert!(units("gemini-2.5-flash-image", "google").contains(&(
        "output_image".into(),
        "1M tokens".into(),
        30.0
    )));
    assert!(units("sonar-pro", "perplexity").contains(&(
        "request".into(),
        "1K requests".into(),
        14.0
    )));
    // Sonar at Perplexity's Agent API: per search, not per request.
    assert!(units("sonar", "perplexity").contains(&(
        "web_search".into(),
        "1K searches".into(),
        2.5
    )));
    assert!(
        units("claude-sonnet-4-5-20250929", "anthropic")
            .iter()
            .any(|u| u.0 == "cache_write_1h"),
        "{:?}",
        units("claude-sonnet-4-5-20250929", "anthropic")
    );
    assert!(
        units("gpt-4o-2024-11-20", "openai")
            .iter()
            .all(|u| u.0 != "request")
    );
    let by_slug: BTreeMap<&str, &entity::model::Model> =
        s.models.iter().map(|m| (m.slug.as_str(), m)).collect();
    assert_eq!(
        by_slug["claude-3-5-sonnet-20241022"]
            .creator_slug
            .as_deref(),
        Some("anthropic")
    );
    assert_eq!(
        by_slug["llama-3.3-70b-instruct"].creator_slug.as_deref(),
        Some("meta")
    );
    assert_eq!(by_slug["llama-3.3-70b-instruct"].open_source, Some(true));
    assert_eq!(by_slug["gpt-4o-2024-11-20"].category.as_str(), "multimodal");
    let alias = |a: &str| {
        s.aliases
            .iter()
            .find(|x| x.alias == a)
            .map(|x| x.model_slug.as_str())
    };
    assert_eq!(alias("gpt-4o"), Some("gpt-4o-2024-11-20"));
    assert_eq!(
        alias("claude-3-5-sonnet"),
        Some("claude-3-5-sonnet-20241022")
    );
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn prices_are_never_invented() {
    let (s, _) = run();
    for o in &s.offerings {
        assert!(!o.source.is_empty(), "offering without a source: {o:?}");
        assert!(
            s.sources.iter().any(|x| x.slug == o.source),
            "unknown source {}",
            o.source
        );
    }
    // deepseek-chat:free at OpenRouter publishes no price: it stays unknown, not 0.
    let unknown = s
        .offerings
        .iter()
        .filter(|o| o.input_price.is_none())
        .count();
    assert!(
        unknown > 0,
        "some offerings have no published input price and must stay null"
    );
    for m in &s.models {
        if let Some(p) = m.input_price {
            assert!(p >= 0.0 && p.is_finite());
            assert!(
                s.offerings
                    .iter()
                    .any(|o| o.model_slug == m.slug && o.input_price == Some(p))
            );
        }
    }
    for p in &s.price_history {
        assert!(
            p.effective_to
                .as_ref()
                .is_none_or(|t| *t > p.effective_from),
            "{p:?}"
        );
    }
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn ingest_is_reproducible_and_the_committed_snapshot_is_current() {
    let (a, _) = run();
    let (b, _) = run();
    let (a, b) = (a.encode().unwrap(), b.encode().unwrap());
    assert_eq!(a, b, "same input must give byte-identical snapshots");
    assert!(
        a == mds::snapshot::EMBEDDED,
        "data/snapshot.json.gz is stale: run `cargo run -- ingest` and commit it"
    );
}

/// The labelled truth sets: the project's `data/labels.csv` where present, and this suite's
/// own small one (every label read in the raw files by hand).
fn label_files() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        root.join("data/labels.csv"),
        root.join("tests/api/fixtures/labels.csv"),
    ]
    .into_iter()
    .filter(|p| p.exists())
    .collect()
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn the_merged_catalogue_is_as_accurate_as_its_best_source_on_the_labels() {
    use mds::ingest::labels::MERGED;
    for path in label_files() {
        let opts = Options {
            sources: raw_sources(),
            price_changes: None,
            exclude: BTreeSet::new(),
            archive: None,
            observed: Default::default(),
            today: None,
            labels: Some(path.clone()),
            prior: None,
        };
        let (_, report) = ingest::run(&opts).unwrap();
        let scores = report.labels.clone().expect("the labels are scored");
        let table = scores.render();
        assert!(
            report.render(0).contains("labels "),
            "the report prints the scores"
        );
        let mut compared = 0;
        for (field, n) in &scores.labels {
            if *n < 5 {
                continue;
            }
            // Head to head: on the labels a source answers (at least 5 of the field's), the
            // merged catalogue is right at least as often as the source.
            for (source, t) in scores.tallies[field]
                .iter()
                .filter(|(w, t)| *w != MERGED && t.answered >= 5)
            {
                compared += 1;
                assert!(
                    t.merged_right >= t.right,
                    "{}: {field}: on the {} labels {source} answers, merged {} right, {source} {}\n{table}",
                    path.display(),
                    t.answered,
                    t.merged_right,
                    t.right
                );
            }
        }
        assert!(
            compared > 0,
            "{}: no field compared\n{table}",
            path.display()
        );
        if path.ends_with("tests/api/fixtures/labels.csv") {
            assert!(scores.missing.is_empty(), "{table}");
        }
    }
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn excluding_a_source_leaves_it_out() {
    let sources = raw_sources();
    let opts = Options {
        sources,
        price_changes: None,
        exclude: ["genai-prices-history".to_string()].into(),
        archive: None,
        observed: Default::default(),
        today: None,
        labels: None,
        prior: None,
    };
    let (s, _) = ingest::run(&opts).unwrap();
    assert!(
        s.price_history
            .iter()
            .all(|p| p.source != "genai-prices-history")
    );
    assert!(s.sources.iter().all(|x| x.slug != "genai-prices-history"));
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn the_report_counts_rows_per_source() {
    let (_, report) = run();
    let history = &report.sources["genai-prices-history"];
    assert!(history.read > 1000);
    assert!(report.match_rate("genai-prices-history") > 0.9);
    assert!(report.render(5).contains("genai-prices-history:"));
    // Rows matched to a model that a price list or model catalogue knows, per source, at
    // least the rates measured when the datasets were collected (SOURCES.md).
    for (source, floor) in [
        ("epoch-runs", 0.90),
        ("swe-bench-agents", 0.85),
        ("swe-bench", 0.85),
        ("livebench", 0.84),
        ("aider", 0.69),
        ("lmarena", 0.57),
        ("bfcl", 0.56),
        ("epoch-external", 0.41),
    ] {
        let rate = report.match_rate(source);
        assert!(
            rate >= floor,
            "{source}: {:.1}% matched, below {:.0}%",
            rate * 100.0,
            floor * 100.0
        );
    }
    // A lab's own chat ids LiteLLM lists that name no model are named, and few (at most 5):
    // today Mistral's Vibe CLI products and `qwen-coder` (docs/methodology.md, "Identity");
    // a preview, an unversioned name of the only numbered model and a model named by its
    // size (Perplexity's 2024 `sonar-small-chat`) are known.
    let unknown = &report.unknown_own;
    assert!(unknown.len() <= 5, "{unknown:?}");
    for known in [
        "claude-mythos-preview",
        "xai/grok-code-fast",
        "perplexity/sonar-small-chat",
    ] {
        assert!(
            !unknown.iter().any(|id| id == known),
            "{known}: {unknown:?}"
        );
    }
    assert_eq!(
        report.rules["identity: LiteLLM first-party chat ids naming no model"],
        unknown.len()
    );
    assert!(
        report
            .render(50)
            .contains("unknown first-party id mistral/mistral-vibe-cli-fast")
            || !unknown.contains(&"mistral/mistral-vibe-cli-fast".to_string())
    );
    assert!(!unknown.iter().any(|id| id.contains("titan-text-premier")));
}

async fn counts(url: &str) -> Vec<u64> {
    use sea_orm::{EntityTrait, PaginatorTrait};
    let db = mds::store::connect(url).await.unwrap();
    let v = vec![
        entity::model::Entity::find().count(&db).await.unwrap(),
        entity::offering::Entity::find().count(&db).await.unwrap(),
        entity::price_history::Entity::find()
            .count(&db)
            .await
            .unwrap(),
        entity::provider::Entity::find().count(&db).await.unwrap(),
        entity::model_alias::Entity::find()
            .count(&db)
            .await
            .unwrap(),
    ];
    db.close().await.unwrap();
    v
}

#[tokio::test]
async fn importing_twice_changes_nothing_on_both_backends() {
    let snap = Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let expected = vec![
        snap.models.len() as u64,
        snap.offerings.len() as u64,
        snap.price_history.len() as u64,
        snap.providers.len() as u64,
        snap.aliases.len() as u64,
    ];
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        assert_eq!(counts(&url).await, expected, "{backend:?}");
        let db = mds::store::connect(&url).await.unwrap();
        let again = mds::store::import::import(&db, mds::snapshot::EMBEDDED)
            .await
            .unwrap();
        assert_eq!(
            again,
            mds::store::import::Outcome::Unchanged { version: 1 },
            "{backend:?}"
        );
        db.close().await.unwrap();
        assert_eq!(counts(&url).await, expected, "{backend:?}");
    }
}

#[tokio::test]
async fn a_new_snapshot_replaces_the_data_and_bumps_the_version() {
    let url = fresh_database(Backend::Sqlite).await;
    let mut snap = Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    snap.models.truncate(10);
    // The rows naming the models left out go with them: the import refuses a dangling
    // reference.
    let kept: BTreeSet<String> = snap.models.iter().map(|m| m.slug.clone()).collect();
    snap.offerings.retain(|o| kept.contains(&o.model_slug));
    snap.price_history.retain(|p| kept.contains(&p.model_slug));
    snap.aliases.retain(|a| kept.contains(&a.model_slug));
    snap.scores.retain(|x| kept.contains(&x.model_slug));
    snap.agent_models.retain(|x| kept.contains(&x.model_slug));
    snap.model_domains.retain(|x| kept.contains(&x.model_slug));
    assert_eq!(snap.dangling(), Vec::<String>::new());
    let bytes = snap.encode().unwrap();
    let db = mds::store::connect(&url).await.unwrap();
    let out = mds::store::import::import(&db, &bytes).await.unwrap();
    assert_eq!(out, mds::store::import::Outcome::Imported { version: 2 });
    db.close().await.unwrap();
    assert_eq!(counts(&url).await[0], 10);
}

#[tokio::test]
async fn a_corrupt_snapshot_is_refused_and_the_data_stays() {
    let url = fresh_database(Backend::Postgres).await;
    let before = counts(&url).await;
    let db = mds::store::connect(&url).await.unwrap();
    assert!(mds::store::import::import(&db, b"not gzip").await.is_err());
    db.close().await.unwrap();
    assert_eq!(counts(&url).await, before);
}

#[tokio::test]
async fn a_snapshot_with_a_dangling_reference_is_refused_and_the_data_stays() {
    let url = fresh_database(Backend::Postgres).await;
    let before = counts(&url).await;
    // One offering naming a provider no row describes, as LiteLLM's `volcengine` did.
    let mut snap = Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    snap.offerings[0].provider_slug = "nowhere".into();
    let bytes = snap.encode().unwrap();
    let db = mds::store::connect(&url).await.unwrap();
    let err = mds::store::import::import(&db, &bytes).await.unwrap_err();
    assert!(
        matches!(&err, mds::store::import::ImportError::Dangling(refs)
            if refs.len() == 1 && refs[0].ends_with("no provider nowhere")),
        "{err}"
    );
    db.close().await.unwrap();
    assert_eq!(counts(&url).await, before);
}

/// Every reference `Snapshot::dangling` checks, as the schema declares it (docs/data.md,
/// "References"): `(table, column, referenced table)`.
const REFERENCES: &[(&str, &str, &str)] = &[
    ("agent_models", "agent_slug", "agents"),
    ("agent_models", "model_slug", "models"),
    ("agent_scores", "agent_slug", "agents"),
    ("agent_scores", "benchmark_slug", "benchmarks"),
    ("model_aliases", "model_slug", "models"),
    ("model_domains", "model_slug", "models"),
    ("models", "creator_slug", "providers"),
    ("offerings", "model_slug", "models"),
    ("offerings", "provider_slug", "providers"),
    ("price_history", "model_slug", "models"),
    ("price_history", "provider_slug", "providers"),
    ("scores", "benchmark_slug", "benchmarks"),
    ("scores", "model_slug", "models"),
];

#[tokio::test]
async fn the_schema_declares_its_references_and_refuses_a_dangling_row() {
    use sea_orm::ConnectionTrait;
    for backend in BACKENDS {
        let url = fresh_database(backend).await;
        let before = counts(&url).await;
        let db = mds::store::connect(&url).await.unwrap();
        let declared = match backend {
            Backend::Postgres => {
                "SELECT tc.table_name AS t, kcu.column_name AS c, ccu.table_name AS r \
                 FROM information_schema.table_constraints tc \
                 JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name \
                 JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name \
                 WHERE tc.constraint_type = 'FOREIGN KEY' ORDER BY 1, 2"
            }
            Backend::Sqlite => {
                "SELECT m.name AS t, f.\"from\" AS c, f.\"table\" AS r \
                 FROM sqlite_master m, pragma_foreign_key_list(m.name) f \
                 WHERE m.type = 'table' ORDER BY 1, 2"
            }
        };
        let read = || async {
            let rows = db
                .query_all_raw(sea_orm::Statement::from_string(
                    db.get_database_backend(),
                    declared,
                ))
                .await
                .unwrap();
            rows.iter()
                .map(|r| {
                    (
                        r.try_get::<String>("", "t").unwrap(),
                        r.try_get::<String>("", "c").unwrap(),
                        r.try_get::<String>("", "r").unwrap(),
                    )
                })
                .collect::<Vec<_>>()
        };
        let expected: Vec<(String, String, String)> = REFERENCES
            .iter()
            .map(|(t, c, r)| (t.to_string(), c.to_string(), r.to_string()))
            .collect();
        assert_eq!(read().await, expected, "{backend:?}");
        // The migration undoes and redoes cleanly, every row kept.
        use migration::MigratorTrait;
        migration::Migrator::down(&db, Some(1)).await.unwrap();
        assert_eq!(read().await, Vec::new(), "{backend:?}");
        migration::Migrator::up(&db, None).await.unwrap();
        assert_eq!(read().await, expected, "{backend:?}");
        assert_eq!(counts(&url).await, before, "{backend:?}");
        // Each kind of dangling write, outside the import, is refused by the database.
        for sql in [
            "INSERT INTO model_aliases (alias, model_slug) VALUES ('ghost', 'no-such-model')",
            "UPDATE offerings SET provider_slug = 'nowhere' WHERE id = (SELECT MIN(id) FROM offerings)",
            "UPDATE scores SET benchmark_slug = 'nowhere' WHERE id = (SELECT MIN(id) FROM scores)",
            "UPDATE models SET creator_slug = 'nowhere' WHERE slug = (SELECT MIN(slug) FROM models WHERE creator_slug IS NOT NULL)",
            "DELETE FROM providers WHERE slug = 'openai'",
            "DELETE FROM models WHERE slug = (SELECT model_slug FROM scores ORDER BY id LIMIT 1)",
        ] {
            assert!(
                db.execute_unprepared(sql).await.is_err(),
                "{backend:?} accepted: {sql}"
            );
        }
        db.close().await.unwrap();
        assert_eq!(counts(&url).await, before, "{backend:?}");
    }
}

fn headline<'a>(s: &'a Snapshot, model: &str, benchmark: &str) -> &'a entity::score::Model {
    s.scores
        .iter()
        .find(|x| x.model_slug == model && x.benchmark_slug == benchmark && x.is_headline)
        .unwrap_or_else(|| panic!("no headline score of {model} on {benchmark}"))
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn benchmark_data_meets_the_coverage_floor() {
    let (s, _) = run();
    assert!(
        s.benchmarks.len() >= 12,
        "{} benchmarks",
        s.benchmarks.len()
    );
    let headlines: Vec<_> = s.scores.iter().filter(|x| x.is_headline).collect();
    assert!(
        headlines.len() >= 3000,
        "{} headline scores",
        headlines.len()
    );
    let scored: BTreeMap<&str, usize> = headlines.iter().fold(BTreeMap::new(), |mut m, x| {
        *m.entry(x.model_slug.as_str()).or_default() += 1;
        m
    });
    assert!(scored.len() >= 400, "{} models with a score", scored.len());
    let priced_with_three = s
        .models
        .iter()
        .filter(|m| m.input_price.is_some() && scored.get(m.slug.as_str()).is_some_and(|n| *n >= 3))
        .count();
    assert!(
        priced_with_three >= 150,
        "{priced_with_three} priced models with >= 3 scores"
    );
    assert!(s.agents.len() >= 200, "{} agents", s.agents.len());
    // One headline per (model, benchmark).
    let mut seen = BTreeSet::new();
    for x in &headlines {
        assert!(
            seen.insert((&x.model_slug, &x.benchmark_slug)),
            "two headlines for {x:?}"
        );
    }
}

#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn scores_carry_the_published_values() {
    let (s, _) = run();
    // (model, benchmark, score, config, source) as published by each source.
    let cases: &[(&str, &str, f64, Option<&str>, &str)] = &[
        (
            "claude-opus-4-5-20251101",
            "bfcl",
            77.47,
            Some("FC"),
            "bfcl",
        ),
        (
            "claude-sonnet-4-5-20250929",
            "bfcl",
            73.24,
            Some("FC"),
            "bfcl",
        ),
        ("gemini-2.5-pro", "lmarena-text", 1470.0, None, "lmarena"),
        (
            "gpt-4o-2024-11-20",
            "aider-polyglot",
            18.2,
            Some("edit_format=diff"),
            "aider",
        ),
        (
            "o3-2025-04-16",
            "aider-polyglot",
            78.2,
            Some("edit_format=architect, reasoning_effort=high"),
            "aider",
        ),
        (
            "deepseek-reasoner",
            "aider-polyglot",
            74.2,
            Some("edit_format=diff"),
            "aider",
        ),
        (
            "claude-3-5-sonnet-20241022",
            "aider-edit",
            84.2,
            Some("edit_format=diff"),
            "aider",
        ),
        ("gpt-4o-2024-11-20", "mmlu", 88.1, Some("shots=5"), "epoch"),
        ("grok-4-0709", "simplebench", 60.5, None, "epoch"),
        // Epoch publishes 0.862 for GPT-5 (high) on GPQA Diamond: stored as a percentage.
        (
            "gpt-5-2025-08-07",
            "gpqa-diamond",
            86.2,
            Some("effort=high"),
            "epoch",
        ),
        // LiveBench's global average of the 2026-01-08 release (mean of the category means).
        (
            "claude-sonnet-4-5-20250929",
            "livebench",
            68.19,
            Some("thinking-64k"),
            "livebench",
        ),
    ];
    for (model, bench, score, config, source) in cases {
        let x = headline(&s, model, bench);
        assert_eq!(x.score, *score, "{model} on {bench}");
        assert_eq!(x.config.as_deref(), *config, "{model} on {bench}");
        assert_eq!(x.source, *source, "{model} on {bench}");
    }
    let agent = |slug: &str| {
        s.agents
            .iter()
            .find(|a| a.slug == slug)
            .unwrap_or_else(|| panic!("no agent {slug}"))
    };
    let agent_score = |slug: &str, bench: &str| {
        s.agent_scores
            .iter()
            .find(|x| x.agent_slug == slug && x.benchmark_slug == bench && x.is_headline)
            .map(|x| x.score)
    };
    let trae = agent("trae-doubao-seed-code");
    assert_eq!(trae.organization.as_deref(), Some("ByteDance"));
    assert_eq!(
        agent_score("trae-doubao-seed-code", "swe-bench-verified"),
        Some(78.8)
    );
    let opus = agent("claude-4.5-opus-medium-20251101");
    assert_eq!(opus.date.as_deref(), Some("2025-11-24"));
    assert_eq!(
        agent_score("claude-4.5-opus-medium-20251101", "swe-bench-bash-only"),
        Some(74.4)
    );
    let rovo: Vec<&str> = s
        .agent_models
        .iter()
        .filter(|m| m.agent_slug == "atlassian-rovo-dev-2025-09-02")
        .map(|m| m.model_slug.as_str())
        .collect();
    assert_eq!(rovo, ["claude-sonnet-4-20250514", "gpt-5-2025-08-07"]);
    assert_eq!(
        agent_score("apex2-claude-sonnet-4-5-20250929", "terminal-bench"),
        Some(64.5)
    );
    let swe = s.sources.iter().find(|x| x.slug == "swe-bench").unwrap();
    assert_eq!(swe.license, "CC-BY-NC-4.0");
}

/// `average_score` is the expected mean on the core set predicted from the index: the same
/// benchmarks for every model, Elo never among them, and every counted score from LiveBench's
/// newest release or a release of its own.
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn average_score_is_the_expected_mean_on_the_core_set() {
    let (s, _) = run();
    let core: Vec<(f64, f64)> = s
        .benchmarks
        .iter()
        .filter(|b| b.in_average)
        .map(|b| (b.slope.unwrap(), b.difficulty.unwrap()))
        .collect();
    for b in s.benchmarks.iter().filter(|b| b.unit == "elo") {
        assert!(
            !b.in_average,
            "Elo benchmark {} is not in the core set",
            b.slug
        );
    }
    let mut checked = 0;
    for slug in [
        "gpt-4o-2024-11-20",
        "claude-sonnet-4-5-20250929",
        "gemini-2.5-pro",
        "o3-2025-04-16",
        "gpt-5-2025-08-07",
    ] {
        let m = s.models.iter().find(|m| m.slug == slug).unwrap();
        let c = m.capability_index.unwrap();
        let mean = 100.0
            * core
                .iter()
                .map(|(a, d)| 1.0 / (1.0 + (-a * (c - d)).exp()))
                .sum::<f64>()
            / core.len() as f64;
        let avg = m.average_score.unwrap();
        assert!((avg - mean).abs() < 0.3, "{slug}: {avg} vs {mean}");
        checked += 1;
    }
    assert_eq!(checked, 5);
    // Every model with an index has an average, every average is a percentage.
    for m in &s.models {
        assert_eq!(
            m.capability_index.is_some(),
            m.average_score.is_some(),
            "{}",
            m.slug
        );
        assert!(m.average_score.is_none_or(|a| (0.0..=100.0).contains(&a)));
    }
}

/// A scheduled price is `upcoming` until its day and the price in effect from then: built
/// for 2026-12-02 (as a sync on that day builds it), Gemini 4 Argon at Google is 4/20, its
/// 2/10 period closes on 2026-12-01, and nothing is announced any more.
#[test]
#[ignore = "reads ../shared/data/raw; scripts/test.sh runs it where that directory exists"]
fn a_scheduled_price_takes_effect_on_its_day() {
    let opts = |today: Option<&str>| Options {
        sources: raw_sources(),
        price_changes: None,
        exclude: BTreeSet::new(),
        archive: None,
        observed: Default::default(),
        today: today.map(str::to_string),
        labels: None,
        prior: None,
    };
    let argon = |s: &Snapshot| {
        s.offerings
            .iter()
            .find(|o| o.model_slug == "gemini-4-argon" && o.provider_slug == "google")
            .cloned()
            .expect("Gemini 4 Argon at Google")
    };
    let (now, _) = ingest::run(&opts(None)).unwrap();
    let before = argon(&now);
    assert_eq!(
        (before.input_price, before.output_price),
        (Some(2.0), Some(10.0))
    );
    let next = entity::offering::Upcoming::decode(before.upcoming.as_deref()).unwrap();
    assert_eq!(
        (
            next.effective_from.as_str(),
            next.input_price,
            next.output_price
        ),
        ("2026-12-01", Some(4.0), Some(20.0))
    );

    let (later, _) = ingest::run(&opts(Some("2026-12-02"))).unwrap();
    let after = argon(&later);
    assert_eq!(
        (after.input_price, after.output_price),
        (Some(4.0), Some(20.0))
    );
    assert_eq!(after.upcoming, None);
    let periods: Vec<_> = later
        .price_history
        .iter()
        .filter(|p| p.model_slug == "gemini-4-argon" && p.provider_slug == "google")
        .collect();
    assert!(
        periods
            .iter()
            .any(|p| p.effective_from == "2026-12-01" && p.input_price == Some(4.0)),
        "{periods:?}"
    );
}
