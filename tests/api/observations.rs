//! The observation store (docs/sync.md): the dataset is a function of what was observed, the
//! same on every instance. Against a loopback mirror over `../shared/data/raw` laid out as it
//! is (the bundled files), on a database holding the bundled dataset.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use entity::vocab::SourceStatus;
use mds::sync::{DatasetOutcome, Options, Outcome};
use sea_orm::{EntityTrait, PaginatorTrait};

use crate::helpers::{BACKENDS, Backend, fresh_database, raw_sources};
use crate::sync::{Fault, options, outcome, start, tempdir};

/// What the mirror answers instead of a file, by path.
type Faults = std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, Fault>>>;

/// A mirror serving `../shared/data/raw` as it is: byte for byte the files the bundled
/// dataset was built from (models.dev's TOML bundle in place of `api.json`).
fn bundle_mirror() -> tempdir::Dir {
    let dir = tempdir::Dir::new();
    for entry in std::fs::read_dir(raw_sources()).unwrap() {
        let entry = entry.unwrap();
        std::os::unix::fs::symlink(entry.path(), dir.0.join(entry.file_name())).unwrap();
    }
    dir
}

const FEED: &str = "genai-prices/prices/new_data/v2/data.json";

/// The live feed with `field` of `model` at `provider` written `to` instead of `from`,
/// edited as text so every other byte stays.
fn repriced(feed: &str, edits: &[(&str, &str, &str, &str, &str)]) -> Vec<u8> {
    let mut text = feed.to_string();
    for (provider, model, field, from, to) in edits {
        let p = text.find(&format!("{{\"id\":\"{provider}\",")).unwrap();
        let m = p + text[p..].find(&format!("{{\"id\":\"{model}\",")).unwrap();
        let prices = m + text[m..].find("\"prices\":").unwrap();
        let old = format!("\"{field}\":{from}");
        let at = prices + text[prices..].find(&old).unwrap();
        text.replace_range(at..at + old.len(), &format!("\"{field}\":{to}"));
    }
    text.into_bytes()
}

fn on(data: &Path, url: &str, today: &str) -> Options {
    Options {
        today: today.into(),
        ..options(data, url)
    }
}

/// The bundled files on a loopback mirror: its directory (kept while the test runs), its
/// URL, and the faults it can be told to answer.
async fn bundle_on_mirror() -> (tempdir::Dir, String, Faults) {
    let mirror = bundle_mirror();
    let (url, faults) = start(&mirror.0).await;
    (mirror, url, faults)
}

/// Makes the mirror serve BFCL's table without its last row: a copy that changed.
fn serve_bfcl_one_row_short(mirror: &Path, faults: &Faults) {
    let bfcl = "bfcl/data_overall.csv";
    let mut fewer = std::fs::read(mirror.join(bfcl)).unwrap();
    let last = fewer[..fewer.len() - 1]
        .iter()
        .rposition(|b| *b == b'\n')
        .unwrap();
    fewer.truncate(last + 1);
    faults
        .lock()
        .unwrap()
        .insert(bfcl.into(), Fault::Body(fewer));
}

/// A new database holding the bundled dataset (and so its observations), and its URL.
async fn bundled_db(backend: Backend) -> (sea_orm::DatabaseConnection, String) {
    let url = fresh_database(backend).await;
    let db = mds::store::connect(&url).await.unwrap();
    mds::store::migrate(&db).await.unwrap();
    (db, url)
}

async fn observations(db: &sea_orm::DatabaseConnection) -> u64 {
    entity::observation::Entity::find().count(db).await.unwrap()
}

/// (model, provider, from) of every price period.
type Periods = BTreeSet<(String, String, String)>;

/// Each model's first sighting and, where no source dates it, whether that sighting dates it.
type Sightings = BTreeMap<String, (Option<String>, Option<&'static str>)>;

/// (model, provider, from) of every price period, and each model's first sighting.
fn history(c: &mds::catalog::Catalog) -> (Periods, Sightings) {
    (
        c.all_history()
            .iter()
            .map(|p| {
                (
                    p.model_slug.clone(),
                    p.provider_slug.clone(),
                    p.effective_from.clone(),
                )
            })
            .collect(),
        c.all_models()
            .iter()
            .map(|m| {
                let basis = m
                    .release_date
                    .is_none()
                    .then(|| m.date_basis.map(|b| b.as_str()))
                    .flatten();
                (m.slug.clone(), (m.first_seen.clone(), basis))
            })
            .collect(),
    )
}

/// The served periods are all still there (for the models still listed), and every model
/// keeps its first sighting and whether that dates it (docs/data.md, "New and first seen").
fn keeps_history(before: &mds::catalog::Catalog, after: &mds::catalog::Catalog) {
    let (periods_before, seen_before) = history(before);
    let (periods_after, seen_after) = history(after);
    assert!(
        periods_after.len() >= periods_before.len(),
        "{} periods, {} before",
        periods_after.len(),
        periods_before.len()
    );
    let lost: Vec<_> = periods_before
        .iter()
        .filter(|p| seen_after.contains_key(&p.0) && !periods_after.contains(*p))
        .take(5)
        .collect();
    assert!(lost.is_empty(), "periods lost: {lost:?}");
    let moved: Vec<_> = seen_before
        .iter()
        .filter(|(m, d)| seen_after.get(*m).is_some_and(|a| a != *d))
        .take(5)
        .collect();
    assert!(moved.is_empty(), "first sightings moved: {moved:?}");
}

/// The manifest shipped in `data/observations.csv` is what `mds ingest` reads in
/// `../shared/data`: every file's sha256 and length, current copies and earlier ones.
#[test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
fn the_manifest_matches_the_raw_data() {
    let rows =
        mds::sync::manifest::of_sources(&raw_sources(), None, None, &BTreeSet::new()).unwrap();
    assert_eq!(
        mds::store::observations::write_manifest(&rows).unwrap(),
        mds::store::observations::MANIFEST,
        "data/observations.csv is stale: run `mds ingest`"
    );
    assert!(
        rows.iter()
            .any(|r| r.source == "genai-prices" && r.observed == "2026-08-21")
    );
    assert!(rows.iter().any(|r| r.source == "genai-prices-history"));
}

/// Acceptance (a): a first sync against a mirror equal to the bundled files records the
/// observations and makes no version; ten more syncs from another data directory neither.
/// Then a changed price makes one version that keeps every served period and first
/// sighting, counts one model repriced, and takes a float artefact (75 → 75.0001) for no
/// change.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn a_first_sync_of_the_bundled_files_makes_no_version() {
    let (mirror, url, faults) = bundle_on_mirror().await;
    let (db, db_url) = bundled_db(Backend::Sqlite).await;
    let before = mds::catalog::Catalog::load(&db).await.unwrap();
    let version = before.version();
    let rows = observations(&db).await;
    assert!(
        rows > 50,
        "the manifest is recorded with the bundled dataset: {rows}"
    );
    let (one, two) = (tempdir::Dir::new(), tempdir::Dir::new());
    let first = mds::sync::run(&db, &on(&one.0, &url, "2026-11-27"))
        .await
        .unwrap();
    assert!(!first.failed(), "{}", first.render());
    assert!(
        first
            .sources
            .iter()
            .all(|s| s.outcome == Outcome::Unchanged),
        "{}",
        first.render()
    );
    assert_eq!(first.dataset, DatasetOutcome::Unchanged { version });
    assert_eq!(
        observations(&db).await,
        rows,
        "the same observations, with their bytes now"
    );
    let summary = mds::store::observations::summary(&db).await.unwrap();
    assert!(summary.stored > 40, "{summary:?}");
    // Another instance's data directory, ten times: the same store, nothing new.
    for _ in 0..10 {
        let again = mds::sync::run(&db, &on(&two.0, &url, "2026-11-27"))
            .await
            .unwrap();
        assert_eq!(
            again.dataset,
            DatasetOutcome::Unchanged { version },
            "{}",
            again.render()
        );
    }
    assert_eq!(observations(&db).await, rows);

    // A price cut at OpenAI, and a float artefact at Anthropic.
    let feed = std::fs::read_to_string(mirror.0.join(FEED)).unwrap();
    let body = repriced(
        &feed,
        &[
            ("openai", "gpt-4o", "input_mtok", "2.5", "2"),
            (
                "anthropic",
                "claude-opus-4-1",
                "output_mtok",
                "75",
                "75.0001",
            ),
        ],
    );
    faults
        .lock()
        .unwrap()
        .insert(FEED.into(), Fault::Body(body));
    let second = mds::sync::run(&db, &on(&one.0, &url, "2026-11-28"))
        .await
        .unwrap();
    assert_eq!(
        *outcome(&second, "genai-prices"),
        Outcome::Updated { files: 1 }
    );
    let DatasetOutcome::Imported {
        version: v2,
        changes,
    } = second.dataset
    else {
        panic!("{}", second.render())
    };
    assert_eq!(v2, version + 1);
    let after = mds::catalog::Catalog::load(&db).await.unwrap();
    let diff = mds::store::versions::Diff::between(
        &mds::store::versions::Side::of_snapshot(
            &mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap(),
        ),
        &mds::store::versions::Side::of_database(&db).await.unwrap(),
    );
    assert_eq!(
        (
            changes.models_added,
            changes.models_removed,
            changes.models_repriced
        ),
        (0, 0, 1),
        "{} {diff:?}",
        second.render()
    );
    assert!(
        second.render().contains("1 repriced"),
        "{}",
        second.render()
    );
    keeps_history(&before, &after);
    let gpt4o = after.lookup("gpt-4o").unwrap().slug.clone();
    let cut: Vec<_> = after
        .history_of(&gpt4o)
        .iter()
        .filter(|p| p.provider_slug == "openai" && p.effective_from == "2026-11-28")
        .collect();
    assert_eq!(cut.len(), 1, "{:?}", after.history_of(&gpt4o));
    assert_eq!(cut[0].input_price, Some(2.0));
    assert_eq!(cut[0].observed_after.as_deref(), Some("2026-11-10"));
    assert!(
        !after.all_history().iter().any(
            |p| p.model_slug.starts_with("claude-opus-4-1") && p.effective_from == "2026-11-28"
        ),
        "a float artefact is no price change"
    );
    // What the version changed is served.
    let app = crate::helpers::TestApp::spawn_on(&db_url, mds::config::ServeConfig::default()).await;
    let (status, body) = app.get_json("/api/v1/dataset").await;
    assert_eq!(status, 200);
    let c = &body["data"]["changes"];
    assert_eq!(c["compared_to"], version);
    assert_eq!(c["models_repriced"], 1);
    assert_eq!(c["models_removed"], 0);
    assert_eq!(body["data"]["pinned"], false);
}

/// Acceptance (a), the other way round: the first sync already sees a new price, and the
/// store holds no bytes of the bundled copy to compare with. The served dataset is the
/// observation before it: its history stays, and the cut starts a period on the day it was
/// observed, after the bundled copy's day.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn a_first_sync_that_sees_a_new_price_keeps_the_bundled_history() {
    let (mirror, url, faults) = bundle_on_mirror().await;
    let (db, _) = bundled_db(Backend::Sqlite).await;
    let before = mds::catalog::Catalog::load(&db).await.unwrap();
    let feed = std::fs::read_to_string(mirror.0.join(FEED)).unwrap();
    faults.lock().unwrap().insert(
        FEED.into(),
        Fault::Body(repriced(
            &feed,
            &[("openai", "gpt-4o", "input_mtok", "2.5", "2")],
        )),
    );
    let data = tempdir::Dir::new();
    let r = mds::sync::run(&db, &on(&data.0, &url, "2026-11-27"))
        .await
        .unwrap();
    let DatasetOutcome::Imported { changes, .. } = r.dataset else {
        panic!("{}", r.render())
    };
    assert_eq!(
        (
            changes.models_added,
            changes.models_removed,
            changes.models_repriced
        ),
        (0, 0, 1),
        "{}",
        r.render()
    );
    let after = mds::catalog::Catalog::load(&db).await.unwrap();
    keeps_history(&before, &after);
    let gpt4o = after.lookup("gpt-4o").unwrap().slug.clone();
    let mut periods: Vec<_> = after
        .history_of(&gpt4o)
        .iter()
        .filter(|p| p.provider_slug == "openai")
        .map(|p| {
            (
                p.effective_from.clone(),
                p.effective_to.clone(),
                p.input_price,
                p.observed_after.clone(),
            )
        })
        .collect();
    periods.sort_by(|a, b| a.0.cmp(&b.0));
    let last = periods.last().unwrap();
    assert_eq!(
        last,
        &(
            "2026-11-27".to_string(),
            None,
            Some(2.0),
            Some("2026-11-10".to_string())
        ),
        "{periods:?}"
    );
    assert_eq!(
        periods[periods.len() - 2].1.as_deref(),
        Some("2026-11-27"),
        "{periods:?}"
    );
}

/// Item 3: one source down on a first sync. With no stored copy of it (its only observation
/// is the bundled one), nothing is built: the report and `/api/v1/sources` say what waits
/// and that the served dataset is kept. Once it is fetched, what was observed meanwhile is
/// served; later, with its copy stored, a source down no longer stops the others.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn one_source_down_on_a_first_sync_waits_and_says_so() {
    let (mirror, url, faults) = bundle_on_mirror().await;
    let (db, _) = bundled_db(Backend::Sqlite).await;
    let version = mds::store::import::current(&db)
        .await
        .unwrap()
        .unwrap()
        .version;
    let data = tempdir::Dir::new();
    let table = "livebench/public/table_2026_01_08.csv";
    let mut shorter = std::fs::read(mirror.0.join(table)).unwrap();
    let last = shorter[..shorter.len() - 1]
        .iter()
        .rposition(|b| *b == b'\n')
        .unwrap();
    shorter.truncate(last + 1);
    {
        let mut f = faults.lock().unwrap();
        f.insert(FEED.into(), Fault::Status(404));
        f.insert(table.into(), Fault::Body(shorter));
    }
    let r = mds::sync::run(&db, &on(&data.0, &url, "2026-11-27"))
        .await
        .unwrap();
    assert!(r.failed());
    assert_eq!(
        r.dataset,
        DatasetOutcome::Waiting {
            missing: vec!["genai-prices".into()],
            version: Some(version)
        },
        "{}",
        r.render()
    );
    let text = r.render();
    assert!(
        text.contains("WAITING")
            && text.contains("genai-prices")
            && text.contains(&format!("version {version} is kept")),
        "{text}"
    );
    assert_eq!(*outcome(&r, "livebench"), Outcome::Updated { files: 1 });
    let served = mds::catalog::Catalog::load(&db).await.unwrap();
    assert_eq!(served.version(), version);
    let sources: BTreeMap<String, mds::graphql::types::Source> =
        mds::graphql::types::Source::all(&served)
            .into_iter()
            .map(|s| (s.slug.clone(), s))
            .collect();
    let genai = &sources["genai-prices"];
    assert_eq!(genai.status, SourceStatus::Failed);
    assert!(
        genai.error.as_deref().is_some_and(
            |e| e.contains("404") && e.contains("no copy of this source is stored yet")
        ),
        "{genai:?}"
    );
    let livebench = &sources["livebench"];
    assert_eq!(livebench.status, SourceStatus::Waiting);
    assert!(
        livebench
            .error
            .as_deref()
            .is_some_and(|e| e.contains("genai-prices") && e.contains("served dataset is kept")),
        "{livebench:?}"
    );
    assert_eq!(sources["bfcl"].status, SourceStatus::Ok);

    // genai-prices is back: LiveBench's change is served with it.
    faults.lock().unwrap().remove(FEED);
    let r = mds::sync::run(&db, &on(&data.0, &url, "2026-11-27"))
        .await
        .unwrap();
    assert!(
        matches!(r.dataset, DatasetOutcome::Imported { version: v, .. } if v == version + 1),
        "{}",
        r.render()
    );
    let served = mds::catalog::Catalog::load(&db).await.unwrap();
    let statuses: Vec<SourceStatus> = mds::graphql::types::Source::all(&served)
        .into_iter()
        .filter(|s| s.status != SourceStatus::Bundled)
        .map(|s| s.status)
        .collect();
    assert!(
        !statuses.is_empty() && statuses.iter().all(|s| *s == SourceStatus::Ok),
        "{statuses:?}"
    );

    // Down again, now with its copy stored: the other sources still import.
    faults
        .lock()
        .unwrap()
        .insert(FEED.into(), Fault::Status(500));
    serve_bfcl_one_row_short(&mirror.0, &faults);
    let r = mds::sync::run(&db, &on(&data.0, &url, "2026-11-28"))
        .await
        .unwrap();
    assert!(matches!(
        outcome(&r, "genai-prices"),
        Outcome::Failed { .. }
    ));
    assert!(
        matches!(r.dataset, DatasetOutcome::Imported { version: v, .. } if v == version + 2),
        "{}",
        r.render()
    );
}

/// Acceptance (e): two instances with their own data directories on one PostgreSQL
/// database, syncing every 3 s from a mirror that never changes: after their first syncs
/// (which record each source's status) ten more ticks make no version, record no
/// observation, reload no catalogue and empty no response cache.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn two_instances_with_their_own_directories_make_no_version_from_nothing_new() {
    let (_mirror, url, _faults) = bundle_on_mirror().await;
    let db_url = fresh_database(Backend::Postgres).await;
    let (dir_a, dir_b) = (tempdir::Dir::new(), tempdir::Dir::new());
    let config = |dir: &Path| mds::config::ServeConfig {
        sync_interval: Some(3),
        sync_data_dir: dir.to_path_buf(),
        sync_mirror: Some(url.clone()),
        reload_interval_ms: 200,
        free_limit: 1_000_000,
        ..mds::config::ServeConfig::default()
    };
    let a = crate::helpers::TestApp::spawn_on(&db_url, config(&dir_a.0)).await;
    let b = crate::helpers::TestApp::spawn_on(&db_url, config(&dir_b.0)).await;
    let version = a.state.catalog.snapshot().version();
    let db = mds::store::connect(&db_url).await.unwrap();
    let rows = observations(&db).await;
    let ran = |app: &crate::helpers::TestApp| {
        ["imported", "unchanged", "failed", "skipped"]
            .iter()
            .map(|o| app.state.metrics.sync_runs(o))
            .sum::<u64>()
    };
    let wait_for = |n: u64| {
        let (a, b) = (&a, &b);
        async move {
            let deadline = std::time::Instant::now() + Duration::from_secs(240);
            while ran(a) < n || ran(b) < n {
                assert!(
                    std::time::Instant::now() < deadline,
                    "{} and {} syncs",
                    ran(a),
                    ran(b)
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };
    wait_for(2).await;
    // Both have seen the first syncs' statuses once neither reloads for a second (five
    // reload intervals; a fixed wait was too short for a loaded machine's reload).
    let settled = std::time::Instant::now() + Duration::from_secs(60);
    let (cat_a, cat_b) = loop {
        let (cat_a, cat_b) = (a.state.catalog.snapshot(), b.state.catalog.snapshot());
        tokio::time::sleep(Duration::from_secs(1)).await;
        if std::sync::Arc::ptr_eq(&cat_a, &a.state.catalog.snapshot())
            && std::sync::Arc::ptr_eq(&cat_b, &b.state.catalog.snapshot())
        {
            break (cat_a, cat_b);
        }
        assert!(
            std::time::Instant::now() < settled,
            "the catalogues keep reloading"
        );
    };
    for app in [&a, &b] {
        assert_eq!(app.get("/api/v1/models?limit=3").await.status(), 200);
    }
    let (entries_a, entries_b) = (a.state.cache.len(), b.state.cache.len());
    let done = ran(&a).min(ran(&b));
    wait_for(done + 10).await;
    assert_eq!(
        a.state.metrics.sync_runs("failed") + b.state.metrics.sync_runs("failed"),
        0
    );
    assert_eq!(
        a.state.metrics.sync_runs("imported") + b.state.metrics.sync_runs("imported"),
        0
    );
    assert_eq!(
        mds::store::import::current(&db)
            .await
            .unwrap()
            .unwrap()
            .version,
        version
    );
    assert_eq!(observations(&db).await, rows, "nothing new was observed");
    assert!(
        std::sync::Arc::ptr_eq(&cat_a, &a.state.catalog.snapshot())
            && std::sync::Arc::ptr_eq(&cat_b, &b.state.catalog.snapshot()),
        "a tick that observed nothing reloaded a catalogue"
    );
    for (app, entries) in [(&a, entries_a), (&b, entries_b)] {
        let hits = app.state.cache.counts().0;
        assert_eq!(app.get("/api/v1/models?limit=3").await.status(), 200);
        assert_eq!(
            app.state.cache.counts().0,
            hits + 1,
            "the answer was still cached"
        );
        assert!(app.state.cache.len() >= entries);
    }
}

/// `--dry-run` writes nothing: no data directory, no row (observations, statuses,
/// versions), the database file not created when absent.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn a_dry_run_writes_nothing() {
    let (mirror, url, faults) = bundle_on_mirror().await;
    serve_bfcl_one_row_short(&mirror.0, &faults);
    let db_url = fresh_database(Backend::Sqlite).await;
    let db = mds::store::connect(&db_url).await.unwrap();
    let count = |db: sea_orm::DatabaseConnection| async move {
        (
            observations(&db).await,
            mds::store::observations::summary(&db).await.unwrap().stored,
            entity::source_status::Entity::find()
                .count(&db)
                .await
                .unwrap(),
            entity::dataset_version::Entity::find()
                .count(&db)
                .await
                .unwrap(),
            mds::store::import::current(&db)
                .await
                .unwrap()
                .unwrap()
                .version,
        )
    };
    let before = count(db.clone()).await;
    let scratch = tempdir::Dir::new();
    let data = scratch.0.join("never-created");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_mds"))
        .args(["sync", "--dry-run", "--mirror", &url, "--data-dir"])
        .arg(&data)
        .env("DATABASE_URL", &db_url)
        .env_remove("REDIS_URL")
        .env("RUST_LOG", "warn")
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("would import a new version"), "{stdout}");
    assert!(
        stdout.contains("bfcl") && stdout.contains("updated (1 files)"),
        "{stdout}"
    );
    assert!(!data.exists(), "a dry run made its data directory");
    assert_eq!(
        count(db.clone()).await,
        before,
        "a dry run wrote to the database"
    );
    // No database file is made either.
    let absent = scratch.0.join("absent.db");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_mds"))
        .args(["sync", "--dry-run", "--mirror", &url, "--data-dir"])
        .arg(&data)
        .env(
            "DATABASE_URL",
            format!("sqlite://{}?mode=rwc", absent.display()),
        )
        .env_remove("REDIS_URL")
        .output()
        .await
        .unwrap();
    assert!(!out.status.success());
    assert!(!absent.exists() && !data.exists());
}

/// `mds sync` run from cron before any server has started, on an empty database, against
/// a mirror of the bundled files: it starts from the embedded dataset, so the bundled
/// history is kept whole and no second version is made.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn mds_sync_on_an_empty_database_starts_from_the_bundle() {
    let (_mirror, url, _faults) = bundle_on_mirror().await;
    let scratch = tempdir::Dir::new();
    let db_url = format!("sqlite://{}?mode=rwc", scratch.0.join("cron.db").display());
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_mds"))
        .args(["sync", "--mirror", &url, "--data-dir"])
        .arg(scratch.0.join("data"))
        .env("DATABASE_URL", &db_url)
        .env_remove("REDIS_URL")
        .env("RUST_LOG", "warn")
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("imported the embedded dataset first"),
        "{stdout}"
    );
    let bundled = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let db = mds::store::connect(&db_url).await.unwrap();
    let periods = entity::price_history::Entity::find()
        .count(&db)
        .await
        .unwrap();
    assert_eq!(periods as usize, bundled.price_history.len(), "{stdout}");
    let current = mds::store::import::current(&db).await.unwrap().unwrap();
    assert_eq!(current.version, 1, "{stdout}");
}

/// `mds sync` from cron takes the lock the scheduled sync takes: while another sync holds
/// it, it says so and changes nothing.
#[tokio::test]
async fn mds_sync_skips_while_another_sync_holds_the_lock() {
    for backend in BACKENDS {
        let db_url = fresh_database(backend).await;
        let db = mds::store::connect(&db_url).await.unwrap();
        let held = mds::sync::lock::acquire(&db, Duration::from_secs(60))
            .await
            .unwrap()
            .expect("the lock is free");
        assert!(
            mds::sync::lock::acquire(&db, Duration::from_secs(60))
                .await
                .unwrap()
                .is_none(),
            "{backend:?}: taken twice"
        );
        let scratch = tempdir::Dir::new();
        let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_mds"))
            .args(["sync", "--mirror", "http://127.0.0.1:9", "--data-dir"])
            .arg(scratch.0.join("data"))
            .env("DATABASE_URL", &db_url)
            .env_remove("REDIS_URL")
            .output()
            .await
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{backend:?}: {stdout}");
        assert!(stdout.contains("skipped"), "{backend:?}: {stdout}");
        assert_eq!(
            entity::source_status::Entity::find()
                .count(&db)
                .await
                .unwrap(),
            0,
            "{backend:?}"
        );
        mds::sync::lock::release(&db, held).await.unwrap();
        let again = mds::sync::lock::acquire(&db, Duration::from_secs(60))
            .await
            .unwrap();
        assert!(again.is_some(), "{backend:?}: released");
        mds::sync::lock::release(&db, again.unwrap()).await.unwrap();
    }
}

/// `mds dataset list|diff|use`: versions listed with their counts, two compared, an old one
/// served and pinned (a sync observes but does not switch), then the newest again.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn versions_are_listed_compared_pinned_and_followed_again() {
    let db_url = fresh_database(Backend::Sqlite).await;
    let db = mds::store::connect(&db_url).await.unwrap();
    // Version 2: one model gone, one price changed, one a float artefact.
    let mut s = mds::snapshot::Snapshot::decode(mds::snapshot::EMBEDDED).unwrap();
    let gone = s
        .models
        .iter()
        .find(|m| {
            !s.offerings.iter().any(|o| o.model_slug == m.slug)
                && !s.scores.iter().any(|x| x.model_slug == m.slug)
                && !s.aliases.iter().any(|a| a.model_slug == m.slug)
                && !s.agent_models.iter().any(|a| a.model_slug == m.slug)
                && !s.price_history.iter().any(|p| p.model_slug == m.slug)
        })
        .unwrap()
        .slug
        .clone();
    s.models.retain(|m| m.slug != gone);
    let o = s
        .offerings
        .iter_mut()
        .find(|o| o.model_slug == "gpt-4o-2024-11-20" && o.provider_slug == "openai")
        .unwrap();
    o.input_price = Some(2.0);
    let o = s
        .offerings
        .iter_mut()
        .find(|o| o.output_price == Some(75.0))
        .unwrap();
    o.output_price = Some(75.0001);
    let v2 = mds::store::import::import(&db, &s.encode().unwrap())
        .await
        .unwrap();
    assert_eq!(v2, mds::store::import::Outcome::Imported { version: 2 });
    let mds = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mds"))
            .args(args)
            .env("DATABASE_URL", &db_url)
            .env_remove("REDIS_URL")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{args:?}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    let list = mds(&["dataset", "list"]);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 3, "{list}");
    assert!(
        lines[2].starts_with("* 2") && lines[2].contains("+0 -1 ~1 against version 1"),
        "{list}"
    );
    assert!(lines[1].contains("(first version)"), "{list}");
    let diff = mds(&["dataset", "diff", "1", "2"]);
    assert!(diff.contains(&format!("- {gone}")), "{diff}");
    assert!(
        diff.contains("~ gpt-4o-2024-11-20 at openai: 2.5/10 -> 2/10"),
        "{diff}"
    );
    assert!(
        diff.contains("0 models added, 1 removed, 1 repriced (1 price changes)"),
        "{diff}"
    );

    assert!(mds(&["dataset", "use", "1"]).contains("pinned"));
    let served = mds::catalog::Catalog::load(&db).await.unwrap();
    assert_eq!(served.version(), 1);
    assert!(served.version_record.as_ref().is_some_and(|r| r.pinned));
    // A sync while pinned observes and records, and serves what it served.
    let (mirror, url, faults) = bundle_on_mirror().await;
    serve_bfcl_one_row_short(&mirror.0, &faults);
    let data = tempdir::Dir::new();
    let rows = observations(&db).await;
    let r = mds::sync::run(&db, &on(&data.0, &url, "2026-11-27"))
        .await
        .unwrap();
    assert_eq!(
        r.dataset,
        DatasetOutcome::Pinned { version: 1 },
        "{}",
        r.render()
    );
    assert_eq!(
        observations(&db).await,
        rows + 1,
        "the new BFCL table is recorded"
    );
    assert_eq!(
        mds::store::import::current(&db)
            .await
            .unwrap()
            .unwrap()
            .version,
        1
    );

    assert!(mds(&["dataset", "use", "latest"]).contains("serving version 2"));
    assert_eq!(
        mds::store::import::current(&db)
            .await
            .unwrap()
            .unwrap()
            .version,
        2
    );
    // Following the syncs again: what was observed meanwhile makes the next version.
    let r = mds::sync::run(&db, &on(&data.0, &url, "2026-11-27"))
        .await
        .unwrap();
    assert!(
        matches!(r.dataset, DatasetOutcome::Imported { version: 3, .. }),
        "{}",
        r.render()
    );
}

/// A database migrated from a release that kept no versions and no observations, serving the
/// bundled dataset: the first sync records it as a version with its manifest, so a mirror of
/// the bundled files makes no new version there either.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn a_database_from_before_the_store_adopts_its_bundled_dataset() {
    let (_mirror, url, _faults) = bundle_on_mirror().await;
    let (db, _) = bundled_db(Backend::Sqlite).await;
    entity::observation::Entity::delete_many()
        .exec(&db)
        .await
        .unwrap();
    entity::dataset_version::Entity::delete_many()
        .exec(&db)
        .await
        .unwrap();
    let data = tempdir::Dir::new();
    let r = mds::sync::run(&db, &on(&data.0, &url, "2026-11-27"))
        .await
        .unwrap();
    assert_eq!(
        r.dataset,
        DatasetOutcome::Unchanged { version: 1 },
        "{}",
        r.render()
    );
    let versions = mds::store::versions::list(&db).await.unwrap();
    assert_eq!(versions.len(), 1);
    assert!(observations(&db).await > 50);
}
