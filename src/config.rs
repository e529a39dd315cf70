//! The one configuration: command-line flags with environment-variable fallbacks, so
//! `mds --help` documents every setting.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Arg, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

pub const DEFAULT_DATABASE_URL: &str = "sqlite://mds.db?mode=rwc";

#[derive(Debug, Parser)]
#[command(
    name = "mds",
    version,
    about = "Model Data Service: REST and GraphQL API over public data about AI models"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Database URL: `sqlite://FILE?mode=rwc` or `postgres://USER@HOST/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, global = true)]
    pub database_url: String,
}

impl Cli {
    /// Parses `args` with the environment, where a variable set to the empty string counts
    /// as unset (`REDIS_URL=` in an env file means "no Redis", not "a Redis at ''"), as
    /// shells, compose files and `.env` files commonly write an unset setting.
    pub fn parse_env_aware<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        fn unset_empty(a: Arg) -> Arg {
            let empty = a
                .get_env()
                .is_some_and(|name| std::env::var_os(name).is_some_and(|v| v.is_empty()));
            if empty { a.env(None::<&str>) } else { a }
        }
        fn walk(c: clap::Command) -> clap::Command {
            let names: Vec<String> = c
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect();
            let mut c = c.mut_args(unset_empty);
            for n in names {
                c = c.mut_subcommand(n, walk);
            }
            c
        }
        let mut matches = walk(Self::command()).try_get_matches_from(args)?;
        Self::from_arg_matches_mut(&mut matches)
    }
}

/// Whether a command line names no command, so `serve` is meant: nothing after the
/// program's name, or only flags (`mds --bind 0.0.0.0:8080`), other than a request for help
/// or the version.
pub fn needs_default_command(args: &[std::ffi::OsString]) -> bool {
    let cli = Cli::command();
    let commands: Vec<&str> = cli
        .get_subcommands()
        .map(clap::Command::get_name)
        .chain(["help"])
        .collect();
    let rest: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let asks_help = rest
        .iter()
        .any(|a| matches!(a.as_str(), "-h" | "--help" | "-V" | "--version"));
    !asks_help && !rest.iter().any(|a| commands.contains(&a.as_str()))
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API (the default). Migrates and imports the embedded dataset into an empty database.
    Serve(ServeConfig),
    /// Serve MCP over stdin and stdout (docs/mcp.md), for desktop agents: the same tools as
    /// `/mcp`, over the same database (embedded SQLite by default, filled on first start).
    Mcp(ServeConfig),
    /// Apply pending database migrations.
    Migrate,
    /// Load a snapshot into the database (default: the one embedded in the binary).
    Import {
        /// Snapshot file written by `mds ingest`.
        file: Option<PathBuf>,
        /// Only import when the database holds no dataset yet (for one-shot deploy jobs).
        #[arg(long)]
        if_empty: bool,
    },
    /// Exit 0 when the server at URL answers 200 (a container healthcheck needing no curl).
    Probe {
        #[arg(default_value = "http://127.0.0.1:8080/readyz")]
        url: String,
    },
    /// Read the raw public datasets and write a normalized snapshot.
    Ingest {
        /// Directory with the raw sources.
        #[arg(long, default_value = "../shared/data/raw")]
        sources: PathBuf,
        /// Output file.
        #[arg(long, default_value = "data/snapshot.json.gz")]
        out: PathBuf,
        /// Leave out a source (repeatable), e.g. `--exclude swe-bench` for its non-commercial licence;
        /// an unknown name is refused. Sources: genai-prices, genai-prices-history, models-dev,
        /// litellm, aider, livebench, lmarena, bfcl, epoch, epoch-capabilities, swe-bench.
        #[arg(long)]
        exclude: Vec<String>,
        /// The derived price-change log (default: `<sources>/../derived/genai_prices_git_price_changes.csv`).
        #[arg(long)]
        price_changes: Option<PathBuf>,
        /// Earlier observed copies, `<archive>/genai-prices/<YYYY-MM-DD>/…` and
        /// `<archive>/litellm/<YYYY-MM-DD or release>/…` in the raw layout (default:
        /// `<sources>/../archive`): price changes between them and the current copy become
        /// history, and the earliest copy listing a model is its `first_seen`.
        #[arg(long)]
        archive: Option<PathBuf>,
        /// A labelled truth set (CSV `slug,field,value,source,entry,note`) to score the
        /// catalogue and each source against; the scores are printed with the report. A
        /// missing file scores nothing.
        #[arg(long, default_value = "data/labels.csv")]
        labels: Option<PathBuf>,
        /// Where to write the manifest of the files read (source, path, sha256, bytes,
        /// observed day, upstream release): the bundled dataset's observations.
        #[arg(long, default_value = "data/observations.csv")]
        manifest: PathBuf,
    },
    /// Fetch every source (or a mirror's copies), check each with its adapter, record what
    /// changed in the database's observation store, and import the dataset built from the
    /// store's copies as a new version only if it differs. Takes the sync lock the scheduled
    /// sync takes. Exits non-zero when any source failed or the dataset waits for a source;
    /// a failed source keeps its last stored copy and the served data never changes
    /// because of it.
    Sync(SyncArgs),
    /// The dataset's versions (docs/sync.md, "Versions"): list them, compare two, serve one.
    #[command(subcommand)]
    Dataset(DatasetCommand),
    /// Print the GraphQL schema (SDL, sorted).
    Schema,
    /// Print the OpenAPI 3.1 description of the REST API.
    Openapi,
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
}

/// Settings of `mds sync`.
#[derive(Debug, Clone, Args)]
pub struct SyncArgs {
    /// The sync's working directory (the build's input, the upstream's validators); the
    /// copies themselves are in the database's observation store.
    #[arg(long, env = "MDS_DATA_DIR", default_value = "mds-data")]
    pub data_dir: PathBuf,
    /// Fetch every file from `URL/<source>/<path in the raw layout>` instead of upstream (a
    /// static file server over a directory laid out like the raw sources, with models.dev's
    /// `api.json` as `models-dev/api.json`).
    #[arg(long, env = "MDS_SYNC_MIRROR")]
    pub mirror: Option<String>,
    /// Only this source (repeatable): genai-prices, models-dev, litellm, aider, livebench,
    /// lmarena, bfcl, epoch, epoch-capabilities, swe-bench.
    #[arg(long)]
    pub only: Vec<String>,
    /// Report what would change; write nothing (no database row, no directory).
    #[arg(long)]
    pub dry_run: bool,
    /// Seconds one file may take, connection included.
    #[arg(long, default_value_t = crate::sync::DEFAULT_TIMEOUT_SECS, value_parser = clap::value_parser!(u64).range(1..=3_600))]
    pub timeout: u64,
    /// Largest file accepted, in megabytes.
    #[arg(long, default_value_t = crate::sync::DEFAULT_MAX_FILE_MB, value_parser = clap::value_parser!(u64).range(1..=4_096))]
    pub max_file_mb: u64,
    /// Further tries of a file after a network error or a 5xx (back-off 0.25 s, ×4 each).
    #[arg(long, default_value_t = crate::sync::DEFAULT_RETRIES, value_parser = clap::value_parser!(u32).range(0..=10))]
    pub retries: u32,
    /// The derived price-change log (default: `<data-dir>/derived/genai_prices_git_price_changes.csv`
    /// when present; without it the price history is the live feed's dated prices).
    #[arg(long)]
    pub price_changes: Option<PathBuf>,
    /// Accept this source's new copy although it grew or shrank beyond the guard's bounds
    /// or had too many entries dropped (repeatable; see docs/security.md).
    #[arg(long)]
    pub accept: Vec<String>,
    /// Seconds the whole sync may take; a source not done by then fails and keeps its
    /// last good copy.
    #[arg(long, env = "MDS_SYNC_DEADLINE", default_value_t = crate::sync::DEFAULT_DEADLINE_SECS, value_parser = clap::value_parser!(u64).range(10..=86_400))]
    pub deadline: u64,
    /// Log format of the sync's log lines (stderr): each failure at WARN with its reason.
    #[arg(long, env = "MDS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

#[derive(Debug, Subcommand)]
pub enum DatasetCommand {
    /// Every version with its dates and counts (`*` marks the one served).
    List,
    /// The models added, removed and repriced from version A to version B.
    Diff { a: i32, b: i32 },
    /// Serve version N and pin it: syncs keep observing but do not switch to a new version
    /// until `mds dataset use latest`, which unpins and serves the newest version.
    Use { version: String },
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key; the key is printed once, alone on the last line.
    Create {
        #[arg(long)]
        name: String,
        #[arg(long, value_enum, default_value_t = KeyTier::Authenticated)]
        tier: KeyTier,
    },
    /// List keys (never the keys themselves).
    List,
    /// Revoke a key by its prefix or id.
    Revoke { key: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeyTier {
    Authenticated,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

impl LogFormat {
    /// Its name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Json => "json",
        }
    }
}

/// Settings of `mds serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "MDS_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Redis URL for shared rate-limit counters; unset = in-process counters.
    #[arg(long, env = "REDIS_URL")]
    pub redis_url: Option<String>,
    /// Prefix of the rate-limit keys in Redis.
    #[arg(long, env = "MDS_REDIS_PREFIX", default_value = "mds:rl")]
    pub redis_prefix: String,
    /// Requests per clock hour for the Free tier (per client IP).
    #[arg(long, env = "MDS_FREE_LIMIT", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub free_limit: u64,
    /// Requests per clock hour for the Authenticated tier (per API key).
    #[arg(long, env = "MDS_AUTHENTICATED_LIMIT", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub authenticated_limit: u64,
    /// Proxies whose `X-Forwarded-For` is trusted (CIDRs, comma-separated).
    #[arg(
        long = "trusted-proxy",
        env = "MDS_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Free-tier clients on IPv6 are counted per network of this many bits (a /64 is one
    /// subscriber, who may pick any address in it).
    #[arg(long, env = "MDS_IPV6_PREFIX", default_value_t = 64, value_parser = clap::value_parser!(u8).range(32..=128))]
    pub ipv6_prefix: u8,
    /// Log format.
    #[arg(long, env = "MDS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Seconds a request may take, its body included, before it is answered 503 (408 while
    /// its body is still arriving).
    #[arg(long, env = "MDS_REQUEST_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3_600))]
    pub request_timeout: u64,
    /// Seconds a client may take to send a request's headers; slow clients are disconnected.
    #[arg(long, env = "MDS_HEADER_READ_TIMEOUT", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub header_read_timeout: u64,
    /// Seconds a connection may stay silent (no byte either way) before it is closed:
    /// connections that never send a request, idle keep-alive and idle HTTP/2 connections.
    /// Never less than the request timeout plus one second.
    #[arg(long, env = "MDS_IDLE_TIMEOUT", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub idle_timeout: u64,
    /// Megabytes of stored GET answers (bodies and their compressed forms); 0 stores none.
    #[arg(long, env = "MDS_CACHE_SIZE_MB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(0..=65_536))]
    pub cache_size_mb: u64,
    /// Most connections open at once (also held under the open-file limit less 128).
    #[arg(long, env = "MDS_MAX_CONNECTIONS", default_value_t = 10_000, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub max_connections: usize,
    /// Most connections open at once from one client address (trusted proxies exempt).
    #[arg(long, env = "MDS_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub max_connections_per_address: usize,
    /// Milliseconds between checks of the database's dataset version; an import is served
    /// by every instance within this interval.
    #[arg(long, env = "MDS_RELOAD_INTERVAL_MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(100..=3_600_000))]
    pub reload_interval_ms: u64,
    /// Migrate an unmigrated database and import the embedded dataset into an empty one at
    /// start-up. Turn off where a one-shot job migrates (several instances must not race).
    #[arg(long, env = "MDS_AUTO_MIGRATE", default_value_t = true, action = clap::ArgAction::Set)]
    pub auto_migrate: bool,
    /// The base of every URL the service writes (`Link` headers, the Atom feed, the
    /// attribution). Empty: the request's own origin (`http://` + its Host, or the forwarded
    /// headers of a trusted proxy), so links are always absolute.
    #[arg(long, env = "MDS_PUBLIC_URL", default_value = "")]
    pub public_url: String,
    /// Run `mds sync` in the background every interval (`90s`, `30m`, `6h`, `1d`; 60 s to 30
    /// days), at multiples of it since the Unix epoch, and at start-up when no sync tried
    /// within the interval; one instance per tick syncs (a lock). `0` turns it off.
    #[arg(long, env = "MDS_SYNC_INTERVAL", value_parser = parse_sync_interval, default_value = "24h")]
    pub sync_interval: Option<u64>,
    /// The background sync's data directory (as `mds sync --data-dir`).
    #[arg(long = "data-dir", env = "MDS_DATA_DIR", default_value = "mds-data")]
    pub sync_data_dir: PathBuf,
    /// The background sync's mirror (as `mds sync --mirror`); empty: upstream.
    #[arg(long, env = "MDS_SYNC_MIRROR")]
    pub sync_mirror: Option<String>,
    /// A source with no successful sync for this long (`36h`, `7d`; 60 s to 30 days) is
    /// `stale` in `/api/v1/sources`.
    #[arg(long, env = "MDS_SYNC_STALE_AFTER", value_parser = parse_interval, default_value = "48h")]
    pub sync_stale_after: u64,
    /// How a scheduled sync runs: in a child process (`mds serve` sets this binary, so the
    /// sync's fetch, build and import give their memory back when the child exits and the
    /// server's resting memory stays flat over many syncs), or in-process where `None` (a
    /// configuration built in code). Not a flag.
    #[arg(skip)]
    pub sync_program: Option<crate::sync::schedule::Program>,
}

/// The sync interval: `0` (or `off`) is no schedule, written as `Some(0)`; otherwise an
/// interval as [`parse_interval`] reads it.
pub fn parse_sync_interval(text: &str) -> Result<u64, String> {
    match text.trim() {
        "0" | "0s" | "0m" | "0h" | "0d" | "off" => Ok(0),
        _ => parse_interval(text),
    }
}

impl ServeConfig {
    /// Seconds between background syncs; `None` when off (`--sync-interval 0`, or a
    /// configuration built in code: see [`ServeConfig::default`]).
    pub fn sync_every(&self) -> Option<u64> {
        self.sync_interval.filter(|s| *s > 0)
    }
}

/// Seconds of an interval written `<n>s`, `<n>m`, `<n>h` or `<n>d` (or bare seconds),
/// from 60 s to 30 days.
pub fn parse_interval(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (num, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, "s"),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{text:?} is not an interval such as 90s, 30m, 6h or 1d"))?;
    let per = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        _ => return Err(format!("{text:?}: the unit is s, m, h or d")),
    };
    let secs = n.saturating_mul(per);
    if (60..=30 * 86_400).contains(&secs) {
        Ok(secs)
    } else {
        Err(format!("{text:?}: an interval is from 60 s to 30 days"))
    }
}

/// The flags' defaults, except that no sync is scheduled: `mds serve` syncs daily from the
/// real upstreams (docs/sync.md, "Scheduling"), but a configuration built in code (the
/// tests, an embedding program) must never reach the network unless it asks to.
impl Default for ServeConfig {
    fn default() -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            redis_url: None,
            redis_prefix: "mds:rl".into(),
            free_limit: 100,
            authenticated_limit: 1000,
            trusted_proxies: Vec::new(),
            ipv6_prefix: 64,
            log_format: LogFormat::Text,
            request_timeout: 30,
            header_read_timeout: 10,
            idle_timeout: 60,
            reload_interval_ms: 2000,
            cache_size_mb: 64,
            max_connections: 10_000,
            max_connections_per_address: 256,
            auto_migrate: true,
            public_url: String::new(),
            sync_interval: None,
            sync_data_dir: PathBuf::from("mds-data"),
            sync_mirror: None,
            sync_stale_after: crate::catalog::freshness::DEFAULT_STALE_AFTER.as_secs(),
            sync_program: None,
        }
    }
}

#[cfg(test)]
mod docs_tests {
    use super::*;

    /// `docs/configuration.md` and `mds <command> --help` name the same flags: every flag of
    /// `serve` and `sync` (and the global one) is in the docs with its environment variable,
    /// and every flag the docs name exists.
    #[test]
    fn flags_without_a_command_mean_serve() {
        let args = |a: &[&str]| -> Vec<std::ffi::OsString> {
            std::iter::once("mds")
                .chain(a.iter().copied())
                .map(Into::into)
                .collect()
        };
        assert!(needs_default_command(&args(&[])));
        assert!(needs_default_command(&args(&["--bind", "0.0.0.0:8080"])));
        assert!(!needs_default_command(&args(&["sync", "--dry-run"])));
        assert!(!needs_default_command(&args(&["--help"])));
        assert!(!needs_default_command(&args(&[
            "--database-url",
            "x",
            "migrate"
        ])));
        let mut with_serve = args(&["--bind", "127.0.0.1:0"]);
        with_serve.insert(1, "serve".into());
        assert!(Cli::parse_env_aware(with_serve).is_ok());
    }

    /// `mds serve` syncs daily unless told not to; `0` turns it off; a configuration built
    /// in code (every test's) never syncs.
    #[test]
    fn serve_syncs_daily_by_default_and_zero_turns_it_off() {
        let cli = Cli::command();
        let serve = cli.find_subcommand("serve").unwrap();
        let arg = serve
            .get_arguments()
            .find(|a| a.get_long() == Some("sync-interval"))
            .unwrap();
        assert_eq!(arg.get_default_values(), ["24h"]);
        let every = |v: &str| match Cli::parse_env_aware(["mds", "serve", "--sync-interval", v]) {
            Ok(Cli {
                command: Command::Serve(c),
                ..
            }) => c.sync_every(),
            other => panic!("{v}: {other:?}"),
        };
        assert_eq!(every("24h"), Some(86_400));
        assert_eq!(every("0"), None);
        assert_eq!(every("off"), None);
        assert!(Cli::parse_env_aware(["mds", "serve", "--sync-interval", "5s"]).is_err());
        assert_eq!(ServeConfig::default().sync_every(), None);
    }

    #[test]
    fn the_docs_and_the_help_name_the_same_flags() {
        let docs = include_str!("../docs/configuration.md");
        let cli = Cli::command();
        let mut known = vec!["help".to_string(), "version".to_string()];
        let global: Vec<(&str, &Arg)> = cli
            .get_arguments()
            .filter_map(|a| a.get_long().map(|l| (l, a)))
            .collect();
        let mut checked = 0;
        for command in ["serve", "sync"] {
            let sub = cli
                .find_subcommand(command)
                .unwrap_or_else(|| panic!("no {command}"));
            let args = sub
                .get_arguments()
                .filter_map(|a| a.get_long().map(|l| (l, a)));
            for (long, arg) in args.chain(global.iter().copied()) {
                if long == "help" {
                    continue;
                }
                known.push(long.to_string());
                assert!(
                    docs.contains(&format!("`--{long}")),
                    "--{long} of mds {command} is not in docs/configuration.md"
                );
                if let Some(env) = arg.get_env() {
                    let env = env.to_string_lossy();
                    assert!(
                        docs.contains(&format!("`{env}`")),
                        "{env} (--{long}) is not in docs/configuration.md"
                    );
                }
                checked += 1;
            }
        }
        for sub in cli.get_subcommands() {
            known.extend(
                sub.get_arguments()
                    .filter_map(|a| a.get_long().map(str::to_string)),
            );
            for nested in sub.get_subcommands() {
                known.extend(
                    nested
                        .get_arguments()
                        .filter_map(|a| a.get_long().map(str::to_string)),
                );
            }
        }
        for (i, _) in docs.match_indices("`--") {
            let name: String = docs[i + 3..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                .collect();
            assert!(
                known.contains(&name),
                "docs/configuration.md names --{name}, which no command takes"
            );
        }
        assert!(checked > 20, "{checked}");
    }
}
