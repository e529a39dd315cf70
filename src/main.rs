//! The `mds` command line: wires configuration to the library; no logic lives here.

use std::collections::BTreeSet;
use std::process::ExitCode;

use mds::config::{Cli, Command, DatasetCommand, KeysCommand};
use mds::{app, ingest, snapshot, store};

/// The binary's allocator (see the workspace manifest for why).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    // `mds` alone serves, so `cargo run --release` starts the API; so do flags without a
    // command (`mds --bind 0.0.0.0:8080`).
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if mds::config::needs_default_command(&args) {
        args.insert(1, "serve".into());
    }
    let cli = match Cli::parse_env_aware(args) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

async fn run(cli: Cli) -> Result<(), BoxError> {
    match cli.command {
        Command::Serve(mut config) => {
            app::init_logging(config.log_format);
            // Scheduled syncs run as `mds sync` in a child process (docs/sync.md, "Memory
            // over many syncs").
            config.sync_program =
                mds::sync::schedule::Program::this_binary(&cli.database_url, config.log_format);
            let app = app::App::build(&cli.database_url, config).await?;
            tracing::info!(address = %app.local_addr(), "listening");
            app.run_until_stopped(app::shutdown_signal()).await?;
        }
        Command::Mcp(config) => {
            // stdout carries the protocol: logs go to stderr.
            let filter = tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_writer(std::io::stderr)
                .try_init();
            let state = app::state(&cli.database_url, config).await?;
            mds::mcp::stdio(state).await?;
        }
        Command::Migrate => {
            let db = store::connect(&cli.database_url).await?;
            store::migrate(&db).await?;
            println!("migrations applied");
        }
        Command::Import { file, if_empty } => {
            let bytes = match file {
                Some(path) => {
                    std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?
                }
                None => snapshot::EMBEDDED.to_vec(),
            };
            let db = store::connect(&cli.database_url).await?;
            store::migrate(&db).await?;
            if let Some(current) = store::import::current(&db).await?.filter(|_| if_empty) {
                println!(
                    "migrations applied; dataset version {} already loaded, not importing",
                    current.version
                );
                return Ok(());
            }
            match store::import::import(&db, &bytes).await? {
                store::import::Outcome::Imported { version } => {
                    println!("imported dataset version {version}")
                }
                store::import::Outcome::Unchanged { version } => {
                    println!(
                        "dataset unchanged (version {version}): this snapshot is already loaded"
                    )
                }
            }
        }
        Command::Ingest {
            sources,
            out,
            exclude,
            price_changes,
            archive,
            labels,
            manifest,
        } => {
            // The labels are the project's own file: a clone without it scores nothing.
            let labels = labels.filter(|p| {
                let present = p.exists();
                if !present {
                    eprintln!("no labels at {}: nothing scored", p.display());
                }
                present
            });
            let opts = ingest::Options {
                sources,
                price_changes,
                exclude: exclude.into_iter().collect::<BTreeSet<_>>(),
                archive,
                observed: Default::default(),
                today: None,
                labels,
                prior: None,
            };
            let (snap, report) = ingest::run(&opts)?;
            // What the snapshot was built from, so the bundled dataset is an observation
            // too (docs/sync.md): hashes and sizes only, never the files.
            let rows = mds::sync::manifest::of_sources(
                &opts.sources,
                opts.archive.as_deref(),
                opts.price_changes.as_deref(),
                &opts.exclude,
            )
            .map_err(|e| format!("the manifest: {e}"))?;
            std::fs::write(&manifest, store::observations::write_manifest(&rows)?)
                .map_err(|e| format!("{}: {e}", manifest.display()))?;
            eprint!("{}", report.render(15));
            let bytes = snap.encode()?;
            std::fs::write(&out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
            println!(
                "wrote {} ({} files observed)",
                manifest.display(),
                rows.len()
            );
            println!(
                "wrote {} ({} bytes): {} models, {} providers, {} offerings, {} price points, {} benchmarks, {} scores, {} agents",
                out.display(),
                bytes.len(),
                snap.models.len(),
                snap.providers.len(),
                snap.offerings.len(),
                snap.price_history.len(),
                snap.benchmarks.len(),
                snap.scores.len(),
                snap.agents.len()
            );
        }
        Command::Sync(args) => {
            // Each failure is a WARN line with its reason on stderr (the report, on stdout,
            // says what became of each source); a scheduled sync's child writes into the
            // server's log stream this way.
            app::init_sync_logging(args.log_format);
            let opts = mds::sync::Options {
                only: args.only,
                dry_run: args.dry_run,
                timeout: std::time::Duration::from_secs(args.timeout),
                max_bytes: args.max_file_mb * 1024 * 1024,
                retries: args.retries,
                price_changes: args.price_changes,
                accept: args.accept,
                deadline: std::time::Duration::from_secs(args.deadline),
                ..mds::sync::Options::new(args.data_dir, args.mirror)
            };
            let report = if opts.dry_run {
                // A dry run writes nothing: no migration, no lock, a read-only connection.
                let hint = "a dry run writes nothing: run `mds migrate` (or a sync) first";
                let db = store::connect(&store::read_only_url(&cli.database_url))
                    .await
                    .map_err(|e| format!("{e} ({hint})"))?;
                if store::needs_migration_read_only(&db).await? {
                    return Err(format!("the database has pending migrations ({hint})").into());
                }
                mds::sync::run(&db, &opts).await?
            } else {
                let db = store::connect(&cli.database_url).await?;
                store::migrate(&db).await?;
                if store::import::seed_if_empty(&db).await?.is_some() {
                    println!("empty database: imported the embedded dataset first");
                }
                let lease = mds::sync::schedule::lease(&opts);
                match mds::sync::lock::exclusive(&db, lease, mds::sync::run(&db, &opts)).await? {
                    Some(report) => report?,
                    None => {
                        println!("{}", mds::sync::schedule::SKIPPED);
                        return Ok(());
                    }
                }
            };
            print!("{}", report.render());
            if report.failed() {
                return Err(
                    "sync incomplete: see the failed or held sources, or what the dataset waits for, above"
                        .into(),
                );
            }
        }
        Command::Dataset(cmd) => {
            let db = store::connect(&cli.database_url).await?;
            store::migrate(&db).await?;
            dataset(&db, cmd).await?;
        }
        Command::Probe { url } => probe(&url)?,
        Command::Schema => print!("{}", mds::graphql::sdl()),
        Command::Openapi => println!("{}", mds::rest::openapi::document_json()),
        Command::Keys(cmd) => {
            let db = store::connect(&cli.database_url).await?;
            store::migrate(&db).await?;
            match cmd {
                KeysCommand::Create { name, tier } => {
                    let created = store::keys::create(&db, &name, tier).await?;
                    println!(
                        "created key {} (id {}, tier {}); store it now, it is not shown again:",
                        created.row.prefix, created.row.id, created.row.tier
                    );
                    println!("{}", created.key);
                }
                KeysCommand::List => {
                    println!(
                        "{:<6} {:<14} {:<14} {:<22} {:<22} name",
                        "id", "prefix", "tier", "created", "revoked"
                    );
                    for k in store::keys::list(&db).await? {
                        println!(
                            "{:<6} {:<14} {:<14} {:<22} {:<22} {}",
                            k.id,
                            k.prefix,
                            k.tier,
                            k.created_at,
                            k.revoked_at.as_deref().unwrap_or("-"),
                            k.name
                        );
                    }
                }
                KeysCommand::Revoke { key } => {
                    let row = store::keys::revoke(&db, &key).await?;
                    println!("revoked key {} (id {})", row.prefix, row.id);
                }
            }
        }
    }
    Ok(())
}

/// `mds dataset list|diff|use` (docs/sync.md, "Versions").
async fn dataset(db: &sea_orm::DatabaseConnection, cmd: DatasetCommand) -> Result<(), BoxError> {
    use store::versions;
    let served = store::import::current(db).await?.map(|d| d.version);
    match cmd {
        DatasetCommand::List => {
            println!(
                "{:<2}{:<9} {:<11} {:<21} {:>7} {:>9} {:>8}  changes",
                "", "version", "built", "imported", "models", "offerings", "periods"
            );
            for v in versions::list(db).await? {
                let changes = match (v.models_added, v.models_removed, v.models_repriced) {
                    (Some(a), Some(r), Some(p)) => format!(
                        "+{a} -{r} ~{p} against version {}",
                        v.compared_to.map_or_else(|| "-".into(), |c| c.to_string())
                    ),
                    _ => "(first version)".to_string(),
                };
                println!(
                    "{:<2}{:<9} {:<11} {:<21} {:>7} {:>9} {:>8}  {changes}{}",
                    if served == Some(v.version) { "*" } else { "" },
                    v.version,
                    v.built_at,
                    v.imported_at,
                    v.models,
                    v.offerings,
                    v.price_periods,
                    if v.pinned { " (pinned)" } else { "" }
                );
            }
        }
        DatasetCommand::Diff { a, b } => {
            let side = |v: i32| async move {
                let bytes = versions::snapshot(db, v)
                    .await?
                    .ok_or_else(|| format!("no snapshot of version {v} is stored"))?;
                let snap = snapshot::Snapshot::decode(&bytes)?;
                Ok::<_, BoxError>(versions::Side::of_snapshot(&snap))
            };
            let diff = versions::Diff::between(&side(a).await?, &side(b).await?);
            println!("version {a} -> {b}: {}", diff.counts());
            for m in &diff.added {
                println!("+ {m}");
            }
            for m in &diff.removed {
                println!("- {m}");
            }
            let price = |p: Option<f64>| p.map_or_else(|| "-".to_string(), |x| x.to_string());
            for r in &diff.repriced {
                println!(
                    "~ {} at {}: {}/{} -> {}/{}",
                    r.model,
                    r.provider,
                    price(r.before.0),
                    price(r.before.1),
                    price(r.after.0),
                    price(r.after.1)
                );
            }
        }
        DatasetCommand::Use { version } => {
            let target = if version == "latest" {
                versions::pin(db, None).await?;
                versions::newest(db)
                    .await?
                    .ok_or("no dataset version is recorded")?
            } else {
                version
                    .parse::<i32>()
                    .map_err(|_| format!("{version:?}: a version number or `latest`"))?
            };
            let bytes = versions::snapshot(db, target)
                .await?
                .ok_or_else(|| format!("no snapshot of version {target} is stored"))?;
            let meta = store::import::Meta {
                basis: None,
                serve: Some(target),
            };
            store::import::import_with(db, &bytes, meta).await?;
            if version == "latest" {
                println!(
                    "serving version {target}, the newest; syncs switch to new versions again"
                );
            } else {
                versions::pin(db, Some(target)).await?;
                println!(
                    "serving version {target}, pinned: syncs keep observing but do not switch until `mds dataset use latest`"
                );
            }
        }
    }
    Ok(())
}

/// A minimal HTTP/1.1 GET over loopback: succeeds on a 200 answer.
fn probe(url: &str) -> Result<(), BoxError> {
    use std::io::{Read, Write};
    let rest = url
        .strip_prefix("http://")
        .ok_or("probe takes an http:// URL")?;
    let (authority, path) = rest
        .split_once('/')
        .map_or((rest, "/".to_string()), |(a, p)| (a, format!("/{p}")));
    let mut stream = std::net::TcpStream::connect(authority)?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(5)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
    )?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head)?;
    if head.starts_with(b"HTTP/1.1 200") {
        Ok(())
    } else {
        Err(format!("{url} answered {}", String::from_utf8_lossy(&head)).into())
    }
}
