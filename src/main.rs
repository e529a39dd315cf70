//! The `mds` command line: wires configuration to the library; no logic lives here.

use std::collections::BTreeSet;
use std::process::ExitCode;

use mds::config::{Cli, Command, KeysCommand};
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
        Command::Serve(config) => {
            app::init_logging(config.log_format);
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
            };
            let (snap, report) = ingest::run(&opts)?;
            eprint!("{}", report.render(15));
            let bytes = snap.encode()?;
            std::fs::write(&out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
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
            let db = store::connect(&cli.database_url).await?;
            store::migrate(&db).await?;
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
            let report = mds::sync::run(&db, &opts).await?;
            print!("{}", report.render());
            if report.failed() {
                return Err("sync incomplete: see the failed or held sources above".into());
            }
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
