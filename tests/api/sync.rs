//! `mds sync` against an upstream on loopback: a static file server over a directory laid out
//! like the raw sources (with models.dev's published `api.json`), able to fail on purpose.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use entity::vocab::SourceStatus;
use mds::sync::{DatasetOutcome, Options, Outcome};

use crate::helpers::{Backend, fresh_database};

/// How the upstream misbehaves for one path.
#[derive(Clone)]
pub(crate) enum Fault {
    Status(u16),
    /// Answers after this long.
    Stall(Duration),
    /// The first tenth of the file.
    Truncated,
    /// An HTML page with status 200.
    Html,
    /// This body instead of the file.
    Body(Vec<u8>),
    /// A redirect to this URL.
    Redirect(String),
    /// The file, one byte every this long.
    Trickle(Duration),
}

#[derive(Clone)]
struct Upstream {
    dir: PathBuf,
    faults: Arc<Mutex<HashMap<String, Fault>>>,
}

async fn serve_file(State(u): State<Upstream>, headers: HeaderMap, req: Request) -> Response {
    let path = req.uri().path().trim_start_matches('/').to_string();
    let fault = u.faults.lock().unwrap().get(&path).cloned();
    let Ok(mut bytes) = std::fs::read(u.dir.join(&path)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match fault {
        Some(Fault::Status(s)) => return StatusCode::from_u16(s).unwrap().into_response(),
        Some(Fault::Stall(d)) => tokio::time::sleep(d).await,
        Some(Fault::Truncated) => bytes.truncate(bytes.len() / 10),
        Some(Fault::Html) => {
            bytes = b"<!DOCTYPE html><html><body>Rate limited</body></html>".to_vec()
        }
        Some(Fault::Body(b)) => bytes = b,
        Some(Fault::Redirect(to)) => {
            return (StatusCode::FOUND, [(header::LOCATION, to)]).into_response();
        }
        Some(Fault::Trickle(every)) => {
            let stream = futures_util::stream::unfold(0usize, move |i| {
                let bytes = bytes.clone();
                async move {
                    if i >= bytes.len() {
                        return None;
                    }
                    tokio::time::sleep(every).await;
                    Some((
                        Ok::<_, std::io::Error>(axum::body::Bytes::copy_from_slice(&bytes[i..=i])),
                        i + 1,
                    ))
                }
            });
            return axum::body::Body::from_stream(stream).into_response();
        }
        None => {}
    }
    let etag = format!("\"{}\"", mds::snapshot::sha256_hex(&bytes));
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(etag.as_str())
    {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    ([(header::ETAG, etag)], bytes).into_response()
}

/// A mirror over `../shared/data/raw`, with the archived `api.json` as models.dev's file.
pub(crate) fn mirror_dir() -> tempdir::Dir {
    let raw = crate::helpers::raw_sources();
    let dir = tempdir::Dir::new();
    for entry in std::fs::read_dir(&raw).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != "models-dev" {
            std::os::unix::fs::symlink(entry.path(), dir.0.join(entry.file_name())).unwrap();
        }
    }
    std::fs::create_dir_all(dir.0.join("models-dev")).unwrap();
    let gz = std::fs::File::open(raw.join("../archive/models-dev/1.0.398/api.json.gz")).unwrap();
    let mut api = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gz), &mut api).unwrap();
    std::fs::write(dir.0.join("models-dev/api.json"), api).unwrap();
    dir
}

pub(crate) mod tempdir {
    /// A directory removed when dropped.
    pub struct Dir(pub std::path::PathBuf);

    impl Dir {
        pub fn new() -> Self {
            let p = std::env::temp_dir().join(format!(
                "mds-sync-{}-{}",
                std::process::id(),
                crate::helpers::free_port()
            ));
            std::fs::create_dir_all(&p).unwrap();
            Self(p)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

pub(crate) async fn start(dir: &Path) -> (String, Arc<Mutex<HashMap<String, Fault>>>) {
    let faults = Arc::new(Mutex::new(HashMap::new()));
    let app = axum::Router::new()
        .fallback(serve_file)
        .with_state(Upstream {
            dir: dir.to_path_buf(),
            faults: faults.clone(),
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}"), faults)
}

pub(crate) fn options(data: &Path, mirror: &str) -> Options {
    Options {
        timeout: Duration::from_secs(2),
        max_bytes: 16 * 1024 * 1024,
        retries: 0,
        price_changes: Some(
            crate::helpers::raw_sources().join("../derived/genai_prices_git_price_changes.csv"),
        ),
        ..Options::new(data.to_path_buf(), Some(mirror.to_string()))
    }
}

/// A new database synced once from the mirror at `url`: every source kept, a version imported.
async fn first_sync(data: &Path, url: &str) -> (sea_orm::DatabaseConnection, i32) {
    let db = mds::store::connect(&fresh_database(Backend::Sqlite).await)
        .await
        .unwrap();
    mds::store::migrate(&db).await.unwrap();
    let first = mds::sync::run(&db, &options(data, url)).await.unwrap();
    assert!(!first.failed(), "{}", first.render());
    let DatasetOutcome::Imported { version, .. } = first.dataset else {
        panic!("{}", first.render())
    };
    (db, version)
}

pub(crate) fn outcome<'a>(r: &'a mds::sync::Report, source: &str) -> &'a Outcome {
    &r.sources
        .iter()
        .find(|s| s.source == source)
        .unwrap()
        .outcome
}

/// A first sync keeps every source and imports a version; a second against the same mirror
/// changes nothing (conditional GETs answered 304) and imports nothing; a dry run after a
/// change reports it and keeps nothing.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn a_second_sync_of_the_same_files_changes_nothing() {
    let mirror = mirror_dir();
    let (url, faults) = start(&mirror.0).await;
    let data = tempdir::Dir::new();
    let (db, version) = first_sync(&data.0, &url).await;
    // The build read the store's copies from the working directory.
    assert!(data.0.join("build/raw/models-dev/api.json").exists());
    let second = mds::sync::run(&db, &options(&data.0, &url)).await.unwrap();
    assert!(
        second
            .sources
            .iter()
            .all(|s| s.outcome == Outcome::Unchanged),
        "{}",
        second.render()
    );
    assert_eq!(second.dataset, DatasetOutcome::Unchanged { version });

    // A changed file on a dry run: reported, nothing kept, nothing imported.
    let table = "bfcl/data_overall.csv";
    let mut changed = std::fs::read(mirror.0.join(table)).unwrap();
    let cut = changed.len()
        - 1
        - changed[..changed.len() - 1]
            .iter()
            .rposition(|b| *b == b'\n')
            .unwrap();
    changed.truncate(changed.len() - cut);
    faults
        .lock()
        .unwrap()
        .insert(table.into(), Fault::Body(changed));
    let dry = mds::sync::run(
        &db,
        &Options {
            dry_run: true,
            only: vec!["bfcl".into()],
            ..options(&data.0, &url)
        },
    )
    .await
    .unwrap();
    assert_eq!(dry.sources.len(), 1);
    assert_eq!(
        *outcome(&dry, "bfcl"),
        Outcome::Updated { files: 1 },
        "{}",
        dry.render()
    );
    assert!(
        matches!(dry.dataset, DatasetOutcome::WouldImport { .. }),
        "{}",
        dry.render()
    );
    assert_eq!(
        mds::store::import::current(&db)
            .await
            .unwrap()
            .unwrap()
            .version,
        version
    );
    let only = mds::sync::run(
        &db,
        &Options {
            only: vec!["nonsense".into()],
            ..options(&data.0, &url)
        },
    )
    .await;
    assert!(only.unwrap_err().to_string().contains("no such source"));
}

/// The file of each source made to fail.
const FAILING: [(&str, &str); 7] = [
    ("genai-prices", "genai-prices/prices/new_data/v2/data.json"),
    (
        "aider",
        "aider/aider/website/_data/polyglot_leaderboard.yml",
    ),
    ("swe-bench", "swe-bench/data/leaderboards.json"),
    ("lmarena", "lmarena/csv/lmarena_text.csv"),
    ("epoch", "epoch/data/benchmarks_runs.csv"),
    ("models-dev", "models-dev/api.json"),
    ("bfcl", "bfcl/data_overall.csv"),
];

/// Every failure mode keeps that source's last good copy, names the reason, and lets the
/// other sources update.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn a_failing_source_keeps_its_last_good_copy_and_the_others_update() {
    let mirror = mirror_dir();
    let (url, faults) = start(&mirror.0).await;
    let data = tempdir::Dir::new();
    let (db, version) = first_sync(&data.0, &url).await;
    let before: HashMap<&str, Vec<u8>> = FAILING
        .into_iter()
        .map(|(s, p)| (s, std::fs::read(data.0.join("build/raw").join(p)).unwrap()))
        .collect();

    let api = std::fs::read(mirror.0.join("models-dev/api.json")).unwrap();
    let api: serde_json::Value = serde_json::from_slice(&api).unwrap();
    let small: serde_json::Map<String, serde_json::Value> = api
        .as_object()
        .unwrap()
        .iter()
        .take(3)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut huge = std::fs::read(mirror.0.join("bfcl/data_overall.csv")).unwrap();
    while huge.len() < 17 * 1024 * 1024 {
        huge.extend_from_within(..);
    }
    let livebench = "livebench/public/table_2026_01_08.csv";
    let mut table = std::fs::read(mirror.0.join(livebench)).unwrap();
    let last = table[..table.len() - 1]
        .iter()
        .rposition(|b| *b == b'\n')
        .unwrap();
    table.truncate(last + 1);
    {
        let mut f = faults.lock().unwrap();
        f.insert(
            "genai-prices/prices/new_data/v2/data.json".into(),
            Fault::Status(404),
        );
        f.insert(
            "aider/aider/website/_data/polyglot_leaderboard.yml".into(),
            Fault::Status(500),
        );
        f.insert("swe-bench/data/leaderboards.json".into(), Fault::Truncated);
        f.insert(
            "lmarena/csv/lmarena_text.csv".into(),
            Fault::Stall(Duration::from_secs(5)),
        );
        f.insert("epoch/data/benchmarks_runs.csv".into(), Fault::Html);
        f.insert(
            "models-dev/api.json".into(),
            Fault::Body(serde_json::to_vec(&small).unwrap()),
        );
        f.insert("bfcl/data_overall.csv".into(), Fault::Body(huge));
        f.insert(livebench.into(), Fault::Body(table));
    }
    let started = std::time::Instant::now();
    // The mirror is named with credentials this time: they never reach the report or the
    // statuses `/api/v1/sources` publishes.
    let with_credentials = url.replacen("http://", "http://mirroruser:s3cret@", 1);
    let r = mds::sync::run(&db, &options(&data.0, &with_credentials))
        .await
        .unwrap();
    assert!(!r.render().contains("s3cret"), "{}", r.render());
    for status in mds::store::rows::statuses(&db).await.unwrap() {
        assert!(!format!("{status:?}").contains("s3cret"), "{status:?}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(r.failed());
    let reason = |s: &str| match outcome(&r, s) {
        Outcome::Failed { reason } | Outcome::Held { reason } => reason.clone(),
        other => panic!("{s}: {other:?}\n{}", r.render()),
    };
    assert!(reason("genai-prices").contains("404"), "{}", r.render());
    assert!(reason("aider").contains("500"), "{}", r.render());
    assert!(
        reason("swe-bench").contains("cannot read"),
        "{}",
        r.render()
    );
    assert!(reason("lmarena").contains("timed out"), "{}", r.render());
    assert!(reason("epoch").contains("HTML"), "{}", r.render());
    // A copy that lost most of its entries is held for review, not failed.
    assert!(
        matches!(outcome(&r, "models-dev"), Outcome::Held { .. })
            && reason("models-dev").contains("held for review")
            && reason("models-dev").contains("shrink"),
        "{}",
        r.render()
    );
    assert!(reason("bfcl").contains("cap"), "{}", r.render());
    assert_eq!(
        *outcome(&r, "livebench"),
        Outcome::Updated { files: 1 },
        "{}",
        r.render()
    );
    for (source, path) in FAILING {
        let bytes = &before[source];
        assert_eq!(
            &std::fs::read(data.0.join("build/raw").join(path)).unwrap(),
            bytes,
            "{source}: the last good copy was replaced"
        );
    }
    // The dataset is rebuilt from the good copies: only LiveBench's change is new.
    assert!(
        matches!(r.dataset, DatasetOutcome::Imported { version: v, changes } if v == version + 1 && changes.models_added == 0 && changes.price_changes == 0),
        "{}",
        r.render()
    );

    // What a client reads: each failed source `failed` with its reason, the others `ok`,
    // and the rows of the copy still served.
    let served = mds::catalog::Catalog::load(&db).await.unwrap();
    let sources: HashMap<String, mds::graphql::types::Source> =
        mds::graphql::types::Source::all(&served)
            .into_iter()
            .map(|s| (s.slug.clone(), s))
            .collect();
    for (source, _) in FAILING {
        let s = &sources[source];
        let status = if source == "models-dev" {
            SourceStatus::Held
        } else {
            SourceStatus::Failed
        };
        assert_eq!(s.status, status, "{source}");
        assert_eq!(
            s.error.as_deref(),
            Some(reason(source).as_str()),
            "{source}"
        );
        assert!(
            s.last_success.is_some() && s.last_success <= s.last_fetched,
            "{source}: {s:?}"
        );
        assert!(s.rows.is_some_and(|n| n > 0), "{source}");
    }
    let livebench = &sources["livebench"];
    assert_eq!(livebench.status, SourceStatus::Ok);
    assert!(
        livebench
            .upstream
            .as_deref()
            .is_some_and(|u| u.starts_with(&url))
    );
    assert!(livebench.upstream_version.is_some(), "the mirror's ETag");
    // The derived log is not fetched: it stays the bundled copy.
    assert_eq!(
        sources["genai-prices-history"].status,
        SourceStatus::Bundled
    );
}

/// Two instances on one PostgreSQL database, each syncing every 3 s as `mds serve` does, in
/// a child process (`mds sync`): at each tick one child holds the advisory lock and syncs
/// while the other skips, and both instances serve the version it imported.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn two_instances_sync_once_per_tick_and_both_serve_the_result() {
    let mirror = mirror_dir();
    let (url, _faults) = start(&mirror.0).await;
    let db_url = fresh_database(Backend::Postgres).await;
    let (dir_a, dir_b) = (tempdir::Dir::new(), tempdir::Dir::new());
    let config = |dir: &Path| mds::config::ServeConfig {
        sync_interval: Some(3),
        sync_data_dir: dir.to_path_buf(),
        sync_mirror: Some(url.clone()),
        sync_program: Some(mds::sync::schedule::Program {
            path: env!("CARGO_BIN_EXE_mds").into(),
            database_url: db_url.clone(),
            log_format: mds::config::LogFormat::Text,
        }),
        reload_interval_ms: 200,
        ..mds::config::ServeConfig::default()
    };
    let a = crate::helpers::TestApp::spawn_on(&db_url, config(&dir_a.0)).await;
    let b = crate::helpers::TestApp::spawn_on(&db_url, config(&dir_b.0)).await;
    let start_version = a.state.catalog.snapshot().version();
    let ran = |app: &crate::helpers::TestApp| {
        ["imported", "unchanged", "failed"]
            .iter()
            .map(|o| app.state.metrics.sync_runs(o))
            .sum::<u64>()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(40);
    loop {
        let (va, vb) = (
            a.state.catalog.snapshot().version(),
            b.state.catalog.snapshot().version(),
        );
        if va > start_version && va == vb {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "versions {va}/{vb} after 40 s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let imported = a.state.metrics.sync_runs("imported") + b.state.metrics.sync_runs("imported");
    assert_eq!(imported, 1, "one import of the one new dataset");
    let skipped = a.state.metrics.sync_runs("skipped") + b.state.metrics.sync_runs("skipped");
    assert!(skipped >= 1, "the other instance skipped the tick");
    assert!(
        ran(&a) + ran(&b) <= skipped + 1,
        "at most one sync per tick"
    );
    let metrics = a.get("/metrics").await.text().await.unwrap()
        + &b.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("mds_sync_runs_total{outcome=\"skipped\"}"),
        "{metrics}"
    );
}

/// Points the mirror's copy of `slug` at one observed copy of its file `file`.
pub(crate) fn use_copy(mirror: &Path, slug: &str, file: &str, copy: &Path) {
    let dir = mirror.join(slug);
    match std::fs::symlink_metadata(&dir) {
        Ok(m) if m.file_type().is_symlink() => std::fs::remove_file(&dir).unwrap(),
        Ok(_) => std::fs::remove_dir_all(&dir).unwrap(),
        Err(_) => {}
    }
    let file = dir.join(file);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(copy, file).unwrap();
}

/// Points the mirror's genai-prices at one observed copy of its live feed.
fn use_genai_copy(mirror: &Path, feed: &Path) {
    use_copy(mirror, "genai-prices", "prices/new_data/v2/data.json", feed);
}

/// The cost map's file, in LiteLLM's directory.
const LITELLM_FILE: &str = "model_prices_and_context_window.json";

/// A catalogue built from the August copy of genai-prices (and LiteLLM 1.104.0), then synced
/// to the November ones: the November models appear (first seen that day), the price changes
/// between the two observations become history periods that say when they were seen
/// (`observed_after`), the replaced copies are archived, and the changes feed announces them;
/// then a later LiteLLM release (1.108.0 with one price changed) adds a period observed after
/// the November copy, a float artefact adds none, and `/api/v1/sources`' release follows.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn a_sync_from_the_august_copy_to_the_november_one_records_what_changed() {
    let raw = crate::helpers::raw_sources();
    let feed = "prices/new_data/v2/data.json";
    let mirror = mirror_dir();
    use_genai_copy(
        &mirror.0,
        &raw.join("../archive/genai-prices/2026-08-21").join(feed),
    );
    // LiteLLM's earlier copy too (1.104.0): it already lists Claude Opus 5.5 and GPT-6 Sol.
    use_copy(
        &mirror.0,
        "litellm",
        LITELLM_FILE,
        &raw.join("../archive/litellm/1.104.0").join(LITELLM_FILE),
    );
    let (url, _) = start(&mirror.0).await;
    let data = tempdir::Dir::new();
    let db = mds::store::connect(&fresh_database(Backend::Sqlite).await)
        .await
        .unwrap();
    mds::store::migrate(&db).await.unwrap();
    let august = Options {
        today: "2026-08-21".into(),
        ..options(&data.0, &url)
    };
    let first = mds::sync::run(&db, &august).await.unwrap();
    assert!(
        matches!(first.dataset, DatasetOutcome::Imported { .. }),
        "{}",
        first.render()
    );
    let before = mds::catalog::Catalog::load(&db).await.unwrap();
    assert!(before.model("claude-haiku-5-5").is_none());
    let mixtral = |c: &mds::catalog::Catalog| {
        c.offerings_of("mixtral-8x22b-instruct")
            .iter()
            .find(|o| o.provider_slug == "mistral")
            .map(|o| (o.input_price, o.output_price))
    };
    assert_eq!(mixtral(&before), Some((Some(0.9), Some(0.9))));

    use_genai_copy(&mirror.0, &raw.join("genai-prices").join(feed));
    use_copy(
        &mirror.0,
        "litellm",
        LITELLM_FILE,
        &raw.join("litellm").join(LITELLM_FILE),
    );
    let november = Options {
        today: "2026-11-10".into(),
        ..options(&data.0, &url)
    };
    let second = mds::sync::run(&db, &november).await.unwrap();
    assert_eq!(
        *outcome(&second, "genai-prices"),
        Outcome::Updated { files: 1 },
        "{}",
        second.render()
    );
    let DatasetOutcome::Imported { changes, .. } = second.dataset else {
        panic!("{}", second.render())
    };
    assert!(
        changes.models_added > 100 && changes.price_changes > 10,
        "{}",
        second.render()
    );
    assert!(
        data.0
            .join("build/archive/genai-prices/2026-08-21")
            .join(feed)
            .exists(),
        "the August observation is read as an earlier copy"
    );

    let after = mds::catalog::Catalog::load(&db).await.unwrap();
    let haiku = after.model("claude-haiku-5-5").expect("a November model");
    assert_eq!(haiku.first_seen.as_deref(), Some("2026-11-10"));
    // OpenRouter's entry for it matches its dated id, `anthropic/claude-haiku-5.5-20261007`.
    assert_eq!(haiku.date_basis.map(|b| b.as_str()), Some("release_date"));
    assert_eq!(haiku.release_date.as_deref(), Some("2026-10-07"));
    // Mistral's Mixtral 8x22B went from 0.9/0.9 to 2/6 between the two observations; no
    // source dates the change, so its period begins on the later observation and says
    // after which one it happened.
    assert_eq!(mixtral(&after), Some((Some(2.0), Some(6.0))));
    let periods: Vec<_> = after
        .history_of("mixtral-8x22b-instruct")
        .iter()
        .filter(|p| p.provider_slug == "mistral")
        .collect();
    let new = periods
        .iter()
        .find(|p| p.effective_from == "2026-11-10")
        .expect("a period from the November observation");
    assert_eq!(new.observed_after.as_deref(), Some("2026-08-21"));
    assert_eq!((new.input_price, new.output_price), (Some(2.0), Some(6.0)));
    assert!(
        periods
            .iter()
            .any(|p| p.effective_to.as_deref() == Some("2026-11-10") && p.input_price == Some(0.9)),
        "the August price's period closes on the day the change was seen"
    );
    let announced: Vec<&str> = after
        .changes(Some("2026-11-10"), &[])
        .map(|c| c.id.as_str())
        .collect();
    assert!(announced.contains(&"price:mixtral-8x22b-instruct:mistral:2026-11-10"));
    // A new model is announced on its release date.
    assert!(
        after
            .changes(Some("2026-10-07"), &[])
            .any(|c| c.id == "model:claude-haiku-5-5")
    );

    // LiteLLM's copies too: the replaced one is archived, and a price only LiteLLM states
    // (GPT-5.6 Sol through Perplexity, 5/30 in 1.104.0, 4/20 in 1.108.0) changed between them.
    assert!(
        data.0
            .join("build/archive/litellm/2026-08-21")
            .join(LITELLM_FILE)
            .exists()
    );
    let mut sol: Vec<_> = after
        .history_of("gpt-5.6-sol")
        .iter()
        .filter(|p| p.provider_slug == "perplexity")
        .map(|p| {
            (
                p.input_price,
                p.effective_from.as_str(),
                p.observed_after.as_deref(),
            )
        })
        .collect();
    sol.sort_by_key(|p| p.1);
    assert_eq!(
        sol,
        [
            (Some(5.0), "2026-08-21", None),
            (Some(4.0), "2026-11-10", Some("2026-08-21"))
        ]
    );
    // The served release is the observation the version was built from (its ETag on this
    // mirror), not the bundle's "1.108.0".
    let etag = |bytes: &[u8]| format!("\"{}\"", mds::snapshot::sha256_hex(bytes));
    let november_map = std::fs::read(raw.join("litellm").join(LITELLM_FILE)).unwrap();
    assert_eq!(
        after
            .freshnesses()
            .served("litellm")
            .and_then(|c| c.release.clone()),
        Some(etag(&november_map))
    );

    // A later release (issue 33, acceptance (b)): 1.108.0 with one price changed (GPT-5.6 Sol
    // through Perplexity, input 4 → 3) and one float artefact (GPT-6 Sol's output 10 →
    // 10.0000001 per million, the same price at 6 significant digits).
    let mut map: serde_json::Value = serde_json::from_slice(&november_map).unwrap();
    map["perplexity/openai/gpt-5.6-sol"]["input_cost_per_token"] = serde_json::json!(3e-06);
    map["perplexity/openai/gpt-6-sol"]["output_cost_per_token"] = serde_json::json!(1.00000001e-05);
    let later = tempdir::Dir::new();
    let later_file = later.0.join(LITELLM_FILE);
    let later_bytes = serde_json::to_vec(&map).unwrap();
    std::fs::write(&later_file, &later_bytes).unwrap();
    use_copy(&mirror.0, "litellm", LITELLM_FILE, &later_file);
    let third = mds::sync::run(
        &db,
        &Options {
            today: "2026-11-25".into(),
            ..options(&data.0, &url)
        },
    )
    .await
    .unwrap();
    assert_eq!(
        *outcome(&third, "litellm"),
        Outcome::Updated { files: 1 },
        "{}",
        third.render()
    );
    let DatasetOutcome::Imported { changes, .. } = third.dataset else {
        panic!("{}", third.render())
    };
    assert!(changes.price_changes >= 1, "{}", third.render());
    let latest = mds::catalog::Catalog::load(&db).await.unwrap();
    let mut sol: Vec<_> = latest
        .history_of("gpt-5.6-sol")
        .iter()
        .filter(|p| p.provider_slug == "perplexity")
        .map(|p| {
            (
                p.input_price,
                p.effective_from.as_str(),
                p.effective_to.as_deref(),
                p.observed_after.as_deref(),
            )
        })
        .collect();
    sol.sort_by_key(|p| p.1);
    assert_eq!(
        sol,
        [
            (Some(5.0), "2026-08-21", Some("2026-11-10"), None),
            (
                Some(4.0),
                "2026-11-10",
                Some("2026-11-25"),
                Some("2026-08-21")
            ),
            (Some(3.0), "2026-11-25", None, Some("2026-11-10")),
        ]
    );
    let artefact: Vec<_> = latest
        .history_of("gpt-6-sol")
        .iter()
        .filter(|p| p.provider_slug == "perplexity" && p.effective_from == "2026-11-25")
        .collect();
    assert!(
        artefact.is_empty(),
        "a float artefact made a period: {artefact:?}"
    );
    assert!(
        latest
            .history_of("gpt-6-sol")
            .iter()
            .any(|p| p.provider_slug == "perplexity"),
        "GPT-6 Sol through Perplexity has a history to compare"
    );
    assert_eq!(
        latest
            .freshnesses()
            .served("litellm")
            .and_then(|c| c.release.clone()),
        Some(etag(&later_bytes))
    );
}

// ---- Hardening (4): hostile upstreams (docs/security.md) ----

/// The reason a source's outcome gives, held or failed.
fn why(r: &mds::sync::Report, source: &str) -> String {
    match outcome(r, source) {
        Outcome::Failed { reason } | Outcome::Held { reason } => reason.clone(),
        other => panic!("{source}: {other:?}\n{}", r.render()),
    }
}

/// Findings 3, 4, 5, 7 and 9 of the hardening issue, against one synced catalogue:
/// - absurd prices (gpt-4o at -5 and 1e308 in genai-prices) are dropped, never served;
/// - a models.dev copy that more than doubles (a made-up provider of 6,000 models) is held,
///   the good copy keeps being served, restoring the genuine file is no failure, and a
///   copy that shrank is kept once an operator accepts it;
/// - an aider YAML of 200,000 nested `[` fails at once, not after a minute of CPU;
/// - a redirect to another origin is not followed, and a file quoting a secret is refused
///   with a reason that quotes nothing and names no local path;
/// - a mirror trickling bytes cannot outlast the sync's deadline.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn hostile_upstream_values_are_dropped_held_or_failed_and_never_served() {
    let mirror = mirror_dir();
    let (url, faults) = start(&mirror.0).await;
    let (elsewhere, _) = start(&mirror.0).await;
    let data = tempdir::Dir::new();
    let (db, version) = first_sync(&data.0, &url).await;
    let models_before = mds::catalog::Catalog::load(&db)
        .await
        .unwrap()
        .all_models()
        .len();

    let feed_path = "genai-prices/prices/new_data/v2/data.json";
    let mut feed: serde_json::Value =
        serde_json::from_slice(&std::fs::read(mirror.0.join(feed_path)).unwrap()).unwrap();
    let mut poisoned = 0;
    for provider in feed.as_array_mut().unwrap() {
        if provider["id"] != "openai" {
            continue;
        }
        for m in provider["models"].as_array_mut().unwrap() {
            if m["id"] == "gpt-4o" {
                m["prices"] = serde_json::json!({"input_mtok": -5, "output_mtok": 1e308});
                poisoned += 1;
            }
        }
    }
    assert_eq!(poisoned, 1);
    let api_path = "models-dev/api.json";
    let genuine_api = std::fs::read(mirror.0.join(api_path)).unwrap();
    let mut api: serde_json::Value = serde_json::from_slice(&genuine_api).unwrap();
    let fake: serde_json::Map<String, serde_json::Value> = (0..6_000)
        .map(|i| {
            let id = format!("fake-model-{i}");
            (
                id.clone(),
                serde_json::json!({"id": id, "name": id, "cost": {"input": 1, "output": 2}}),
            )
        })
        .collect();
    api["fakeprovider"] = serde_json::json!({"id": "fakeprovider", "name": "Fake", "models": fake});
    {
        let mut f = faults.lock().unwrap();
        f.insert(
            feed_path.into(),
            Fault::Body(serde_json::to_vec(&feed).unwrap()),
        );
        f.insert(
            api_path.into(),
            Fault::Body(serde_json::to_vec(&api).unwrap()),
        );
        // A file the adapter's error would quote (it used to be published).
        f.insert(
            "aider/aider/website/_data/polyglot_leaderboard.yml".into(),
            Fault::Body(
                b"- model: x\n  pass_rate_2: AKIAEXAMPLESECRET-internal-token-42\n".to_vec(),
            ),
        );
        f.insert(
            "lmarena/csv/lmarena_text.csv".into(),
            Fault::Redirect(format!(
                "{}/lmarena/csv/lmarena_text.csv",
                elsewhere.replace("127.0.0.1", "localhost")
            )),
        );
    }
    let started = std::time::Instant::now();
    let r = mds::sync::run(&db, &options(&data.0, &url)).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    eprintln!("{}", r.render());
    // Absurd prices: that entry dropped, the rest of the copy kept.
    let genai = r
        .sources
        .iter()
        .find(|s| s.source == "genai-prices")
        .unwrap();
    assert_eq!(
        genai.outcome,
        Outcome::Updated { files: 1 },
        "{}",
        r.render()
    );
    assert_eq!(genai.dropped, 1, "{}", r.render());
    // Growth: held, with the counts.
    let held = why(&r, "models-dev");
    assert!(
        matches!(outcome(&r, "models-dev"), Outcome::Held { .. })
            && held.contains("growth")
            && held.contains("10"),
        "{}",
        r.render()
    );
    assert!(why(&r, "aider").contains("cannot read"), "{}", r.render());
    assert!(
        why(&r, "lmarena").contains("another origin"),
        "{}",
        r.render()
    );
    let data_dir = data.0.display().to_string();
    for s in r.sources.iter() {
        if let Outcome::Failed { reason } | Outcome::Held { reason } = &s.outcome {
            assert!(
                !reason.contains("AKIA")
                    && !reason.contains(&data_dir)
                    && !reason.contains("staging"),
                "{}: {reason}",
                s.source
            );
        }
    }
    let served = mds::catalog::Catalog::load(&db).await.unwrap();
    assert!(
        matches!(r.dataset, DatasetOutcome::Imported { version: v, .. } if v > version),
        "{}",
        r.render()
    );
    assert_eq!(
        served.all_models().len(),
        models_before,
        "no fake model served"
    );
    // No offering anywhere at an absurd price, and gpt-4o's history neither.
    let offerings = served.all_offerings();
    assert!(!offerings.is_empty());
    for o in offerings.iter() {
        for p in [o.input_price, o.output_price].into_iter().flatten() {
            assert!(p.is_finite() && (0.0..1e5).contains(&p), "{o:?}");
        }
    }
    let gpt4o = served.lookup("gpt-4o").expect("gpt-4o").slug.clone();
    let history = served.history_of(&gpt4o);
    assert!(!history.is_empty());
    for p in history.iter() {
        for v in [p.input_price, p.output_price].into_iter().flatten() {
            assert!(v.is_finite() && (0.0..1e5).contains(&v), "{p:?}");
        }
    }
    let sources: HashMap<String, mds::graphql::types::Source> =
        mds::graphql::types::Source::all(&served)
            .into_iter()
            .map(|s| (s.slug.clone(), s))
            .collect();
    assert_eq!(sources["models-dev"].status, SourceStatus::Held);
    assert_eq!(sources["aider"].status, SourceStatus::Failed);

    let only = |s: &str| Options {
        only: vec![s.into()],
        ..options(&data.0, &url)
    };
    // 200,000 nested `[` in a YAML file: refused by the scan before the parser (which
    // took 63 s of CPU on it).
    faults.lock().unwrap().insert(
        "aider/aider/website/_data/polyglot_leaderboard.yml".into(),
        Fault::Body("[".repeat(200_000).into_bytes()),
    );
    let started = std::time::Instant::now();
    let r = mds::sync::run(&db, &only("aider")).await.unwrap();
    assert!(why(&r, "aider").contains("cannot read"), "{}", r.render());
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );

    // Restoring the genuine file: nothing to hold (the held copy never replaced it).
    faults
        .lock()
        .unwrap()
        .insert(api_path.into(), Fault::Body(genuine_api.clone()));
    let r = mds::sync::run(&db, &only("models-dev")).await.unwrap();
    assert_eq!(
        *outcome(&r, "models-dev"),
        Outcome::Unchanged,
        "{}",
        r.render()
    );

    // A copy that shrank is held until accepted.
    let small: serde_json::Map<String, serde_json::Value> = api
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| *k != "fakeprovider")
        .take(100)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    faults.lock().unwrap().insert(
        api_path.into(),
        Fault::Body(serde_json::to_vec(&small).unwrap()),
    );
    let r = mds::sync::run(&db, &only("models-dev")).await.unwrap();
    assert!(why(&r, "models-dev").contains("shrink"), "{}", r.render());
    let r = mds::sync::run(
        &db,
        &Options {
            accept: vec!["models-dev".into()],
            ..only("models-dev")
        },
    )
    .await
    .unwrap();
    assert_eq!(
        *outcome(&r, "models-dev"),
        Outcome::Updated { files: 1 },
        "{}",
        r.render()
    );

    // A trickling mirror (its 33 KB file would take almost two hours at this pace): the
    // fetch ends at the sync's deadline, and says so; building the dataset after it takes
    // a few seconds more.
    faults.lock().unwrap().insert(
        "bfcl/data_overall.csv".into(),
        Fault::Trickle(Duration::from_millis(200)),
    );
    let started = std::time::Instant::now();
    let r = mds::sync::run(
        &db,
        &Options {
            deadline: Duration::from_secs(3),
            timeout: Duration::from_secs(60),
            ..only("bfcl")
        },
    )
    .await
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(why(&r, "bfcl").contains("deadline"), "{}", r.render());
}

/// Findings 2 and 9: an `lmarena_text.csv` of 200 long column names and 200,000 rows of
/// commas (40 MB) took gigabytes and aborted `mds sync`; a 62 MB LiteLLM file of
/// `[0,0,…]` peaked at 1.6 GB. Under a 2 GB address-space limit, the real binary now fails
/// each source over its parse budget and exits normally.
#[tokio::test]
#[ignore = "reads ../shared/data; scripts/test.sh runs it where that directory exists"]
async fn hostile_files_fail_their_source_within_a_memory_limit() {
    let mirror = mirror_dir();
    let (url, faults) = start(&mirror.0).await;
    let mut csv = (0..200)
        .map(|i| format!("{i:0>200}"))
        .collect::<Vec<_>>()
        .join(",");
    csv.push('\n');
    let row = format!("{}\n", ",".repeat(199));
    csv.push_str(&row.repeat(200_000));
    let mut zeros = "0,".repeat(31_000_000);
    zeros.pop();
    let zeros = format!("[{zeros}]");
    for (source, path, body) in [
        ("lmarena", "lmarena/csv/lmarena_text.csv", csv),
        (
            "litellm",
            "litellm/model_prices_and_context_window.json",
            zeros,
        ),
    ] {
        faults
            .lock()
            .unwrap()
            .insert(path.into(), Fault::Body(body.into_bytes()));
        let data = tempdir::Dir::new();
        let started = std::time::Instant::now();
        let out = tokio::process::Command::new("prlimit")
            .arg("--as=2147483648")
            .arg("--")
            .arg(env!("CARGO_BIN_EXE_mds"))
            .args(["sync", "--only", source, "--mirror", &url, "--data-dir"])
            .arg(&data.0)
            .env(
                "DATABASE_URL",
                format!("sqlite://{}/mds.db?mode=rwc", data.0.display()),
            )
            .env_remove("REDIS_URL")
            .env("RUST_LOG", "warn")
            .output()
            .await
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{source}: {stdout}\n{stderr}");
        assert!(
            stdout.contains(source) && stdout.contains("FAILED") && stdout.contains("parse budget"),
            "{stdout}\n{stderr}"
        );
        // stdout is the report alone (what a scheduled sync's parent reads); the failure is
        // a WARN line with its reason on stderr.
        assert!(!stdout.contains("WARN"), "{stdout}");
        assert!(
            stderr.contains("WARN") && stderr.contains(source),
            "{stderr}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{source}: {:?}",
            started.elapsed()
        );
    }
}
