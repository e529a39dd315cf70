//! Benchmark and agent adapters: Aider, LiveBench, LMArena, BFCL, Epoch (its own runs and
//! external leaderboards), the benchmark rows of models.dev, SWE-bench and Terminal-Bench.
//!
//! Each adapter yields [`RawScore`]s naming a model the way its source does; [`attach`]
//! resolves those names to canonical models (splitting run configuration such as
//! reasoning effort or function calling into `config`), picks the headline score per
//! (model, benchmark) and reports what it could not resolve.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use entity::{agent, agent_model, agent_score, benchmark, score};
use serde_json::Value;

use super::names::{self, slugify};
use super::{IngestError, Report, Resolved, identities, read_json};

/// A benchmark's definition.
#[derive(Debug, Clone)]
pub struct Def {
    pub slug: &'static str,
    pub name: &'static str,
    pub category: &'static str,
    pub unit: &'static str,
    pub higher_is_better: bool,
    pub in_average: bool,
    pub description: &'static str,
    pub source_url: &'static str,
    /// The benchmark's publisher among our sources: its own figures are headline scores.
    pub source: &'static str,
}

// A row constructor for the table below: positional arguments keep each row on one line.
#[allow(clippy::too_many_arguments)]
const fn def(
    slug: &'static str,
    name: &'static str,
    category: &'static str,
    unit: &'static str,
    in_average: bool,
    source: &'static str,
    source_url: &'static str,
    description: &'static str,
) -> Def {
    Def {
        slug,
        name,
        category,
        unit,
        higher_is_better: true,
        in_average,
        description,
        source_url,
        source,
    }
}

/// Every benchmark with a fixed definition. Per-category LiveBench figures are components of
/// the LiveBench global average and stay out of `average_score`, so one suite is not counted
/// eight times; Elo ratings are not on a 0-100 scale and stay out too.
pub const DEFS: &[Def] = &[
    def(
        "aider-polyglot",
        "Aider Polyglot",
        "coding",
        "percent",
        true,
        "aider",
        "https://aider.chat/docs/leaderboards/",
        "225 Exercism exercises in C++, Go, Java, JavaScript, Python and Rust; percent solved within two attempts.",
    ),
    def(
        "aider-edit",
        "Aider code editing",
        "coding",
        "percent",
        true,
        "aider",
        "https://aider.chat/docs/leaderboards/edit.html",
        "133 Python Exercism exercises (the older Aider benchmark); percent solved within two attempts.",
    ),
    def(
        "aider-refactor",
        "Aider refactoring",
        "coding",
        "percent",
        true,
        "aider",
        "https://aider.chat/docs/leaderboards/refactor.html",
        "89 large refactorings of Python methods; percent done correctly.",
    ),
    def(
        "livebench",
        "LiveBench (global average)",
        "reasoning",
        "percent",
        true,
        "livebench",
        "https://livebench.ai",
        "Contamination-limited benchmark of fresh questions; mean of the category averages of the latest release.",
    ),
    def(
        "livebench-reasoning",
        "LiveBench Reasoning",
        "reasoning",
        "percent",
        false,
        "livebench",
        "https://livebench.ai",
        "LiveBench reasoning tasks (mean).",
    ),
    def(
        "livebench-coding",
        "LiveBench Coding",
        "coding",
        "percent",
        false,
        "livebench",
        "https://livebench.ai",
        "LiveBench code generation and completion (mean).",
    ),
    def(
        "livebench-agentic-coding",
        "LiveBench Agentic Coding",
        "agentic",
        "percent",
        false,
        "livebench",
        "https://livebench.ai",
        "LiveBench agentic coding tasks (mean).",
    ),
    def(
        "livebench-mathematics",
        "LiveBench Mathematics",
        "math",
        "percent",
        false,
        "livebench",
        "https://livebench.ai",
        "LiveBench mathematics tasks (mean).",
    ),
    def(
        "livebench-data-analysis",
        "LiveBench Data Analysis",
        "data-analysis",
        "percent",
        false,
        "livebench",
        "https://livebench.ai",
        "LiveBench data analysis tasks (mean).",
    ),
    def(
        "livebench-language",
        "LiveBench Language",
        "language",
        "percent",
        false,
        "livebench",
        "https://livebench.ai",
        "LiveBench language tasks (mean).",
    ),
    def(
        "livebench-if",
        "LiveBench Instruction Following",
        "instruction-following",
        "percent",
        false,
        "livebench",
        "https://livebench.ai",
        "LiveBench instruction-following tasks (mean).",
    ),
    def(
        "lmarena-text",
        "LMArena Text",
        "human-preference",
        "elo",
        false,
        "lmarena",
        "https://lmarena.ai/leaderboard/text",
        "Elo rating from pairwise human votes on text prompts.",
    ),
    def(
        "lmarena-vision",
        "LMArena Vision",
        "human-preference",
        "elo",
        false,
        "lmarena",
        "https://lmarena.ai/leaderboard/vision",
        "Elo rating from pairwise human votes on prompts with images.",
    ),
    def(
        "lmarena-image",
        "LMArena Text-to-Image",
        "human-preference",
        "elo",
        false,
        "lmarena",
        "https://lmarena.ai/leaderboard/text-to-image",
        "Elo rating from pairwise human votes on generated images.",
    ),
    def(
        "bfcl",
        "Berkeley Function-Calling Leaderboard",
        "agentic",
        "percent",
        true,
        "bfcl",
        "https://gorilla.cs.berkeley.edu/leaderboard.html",
        "BFCL v4 overall accuracy of function calls (native function calling or prompting).",
    ),
    def(
        "gpqa-diamond",
        "GPQA Diamond",
        "knowledge",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks/gpqa-diamond",
        "198 graduate-level multiple-choice science questions.",
    ),
    def(
        "math-level-5",
        "MATH Level 5",
        "math",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks/math-level-5",
        "The hardest tier of the MATH competition problems.",
    ),
    def(
        "otis-mock-aime",
        "OTIS Mock AIME 2024-2025",
        "math",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks/otis-mock-aime",
        "AIME-style competition problems.",
    ),
    def(
        "frontiermath",
        "FrontierMath (tiers 1-3)",
        "math",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/frontiermath",
        "Research-level mathematics problems, private set.",
    ),
    def(
        "frontiermath-tier-4",
        "FrontierMath Tier 4",
        "math",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/frontiermath",
        "The hardest FrontierMath problems, private set.",
    ),
    def(
        "swe-bench-verified",
        "SWE-bench Verified",
        "agentic",
        "percent",
        true,
        "swe-bench",
        "https://www.swebench.com",
        "500 human-validated GitHub issues; percent resolved.",
    ),
    def(
        "swe-bench-lite",
        "SWE-bench Lite",
        "agentic",
        "percent",
        true,
        "swe-bench",
        "https://www.swebench.com",
        "300 GitHub issues; percent resolved.",
    ),
    def(
        "swe-bench-full",
        "SWE-bench (full test set)",
        "agentic",
        "percent",
        true,
        "swe-bench",
        "https://www.swebench.com",
        "2,294 GitHub issues; percent resolved.",
    ),
    def(
        "swe-bench-multimodal",
        "SWE-bench Multimodal",
        "agentic",
        "percent",
        true,
        "swe-bench",
        "https://www.swebench.com",
        "Visual JavaScript issues; percent resolved.",
    ),
    def(
        "swe-bench-bash-only",
        "SWE-bench Bash Only",
        "agentic",
        "percent",
        true,
        "swe-bench",
        "https://www.swebench.com",
        "SWE-bench Verified with a minimal bash-only agent, comparing models.",
    ),
    def(
        "terminal-bench",
        "Terminal-Bench",
        "agentic",
        "percent",
        true,
        "epoch",
        "https://www.tbench.ai",
        "Tasks in a terminal environment; mean accuracy.",
    ),
    def(
        "mmlu",
        "MMLU",
        "knowledge",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Multiple-choice questions over 57 subjects.",
    ),
    def(
        "gsm8k",
        "GSM8K",
        "math",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Grade-school math word problems.",
    ),
    def(
        "hellaswag",
        "HellaSwag",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Commonsense sentence completion.",
    ),
    def(
        "arc-agi",
        "ARC-AGI",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://arcprize.org",
        "Abstract visual reasoning puzzles.",
    ),
    def(
        "simplebench",
        "SimpleBench",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://simple-bench.com",
        "Trick questions on spatio-temporal and social reasoning.",
    ),
    def(
        "weirdml",
        "WeirdML",
        "coding",
        "percent",
        true,
        "epoch",
        "https://htihle.github.io/weirdml.html",
        "Unusual machine-learning tasks solved by writing code.",
    ),
    def(
        "winogrande",
        "WinoGrande",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Pronoun-resolution commonsense problems.",
    ),
    def(
        "triviaqa",
        "TriviaQA",
        "knowledge",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Trivia questions (exact match).",
    ),
    def(
        "piqa",
        "PIQA",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Physical commonsense questions.",
    ),
    def(
        "openbookqa",
        "OpenBookQA",
        "knowledge",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Elementary science questions.",
    ),
    def(
        "bbh",
        "BIG-Bench Hard",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "23 hard BIG-Bench tasks (average).",
    ),
    def(
        "lambada",
        "LAMBADA",
        "language",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Last-word prediction over long contexts.",
    ),
    def(
        "boolq",
        "BoolQ",
        "knowledge",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Yes/no reading-comprehension questions.",
    ),
    def(
        "scienceqa",
        "ScienceQA",
        "knowledge",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Multimodal science questions.",
    ),
    def(
        "arc-challenge",
        "ARC (AI2) Challenge",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Grade-school science questions, challenge set.",
    ),
    def(
        "anli",
        "Adversarial NLI",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Adversarially collected natural-language inference.",
    ),
    def(
        "csqa2",
        "CommonsenseQA 2.0",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Yes/no commonsense questions.",
    ),
    def(
        "superglue",
        "SuperGLUE",
        "language",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Language-understanding task suite.",
    ),
    def(
        "cybench",
        "Cybench",
        "agentic",
        "percent",
        true,
        "epoch",
        "https://cybench.github.io",
        "Capture-the-flag security tasks, unguided percent solved.",
    ),
    def(
        "vpct",
        "VPCT",
        "reasoning",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "Visual physics comprehension test.",
    ),
    def(
        "video-mme",
        "Video-MME",
        "multimodal",
        "percent",
        true,
        "epoch",
        "https://video-mme.github.io",
        "Video understanding, without subtitles.",
    ),
    def(
        "gso-bench",
        "GSO",
        "coding",
        "percent",
        true,
        "epoch",
        "https://gso-bench.github.io",
        "Software optimization tasks, OPT@1.",
    ),
    def(
        "cadeval",
        "CadEval",
        "coding",
        "percent",
        true,
        "epoch",
        "https://epoch.ai/benchmarks",
        "OpenSCAD modelling tasks, overall pass rate.",
    ),
    def(
        "frontiermath-public",
        "FrontierMath (public problems)",
        "math",
        "percent",
        false,
        "epoch",
        "https://epoch.ai/frontiermath",
        "The published sample of FrontierMath tiers 1-3; Epoch's runs.",
    ),
    def(
        "frontiermath-tier-4-public",
        "FrontierMath Tier 4 (public problems)",
        "math",
        "percent",
        false,
        "epoch",
        "https://epoch.ai/frontiermath",
        "The published sample of FrontierMath tier 4; Epoch's runs.",
    ),
    def(
        "lech-mazur-writing",
        "Lech Mazur Creative Writing",
        "writing",
        "score",
        false,
        "epoch",
        "https://github.com/lechmazur/writing",
        "Short stories graded by LLM judges; mean score out of 10.",
    ),
    def(
        "geobench",
        "GeoBench",
        "multimodal",
        "percent",
        false,
        "epoch",
        "https://geobench.org",
        "Geolocation from photos (ACW set); percent of countries guessed right.",
    ),
    def(
        "the-agent-company",
        "TheAgentCompany",
        "agentic",
        "percent",
        false,
        "epoch",
        "https://the-agent-company.com",
        "Workplace tasks in a simulated company; partial-credit score.",
    ),
    def(
        "deep-research-bench",
        "Deep Research Bench",
        "agentic",
        "percent",
        false,
        "epoch",
        "https://drb.futuresearch.ai",
        "Web research tasks; average score.",
    ),
    def(
        "os-world",
        "OSWorld",
        "agentic",
        "percent",
        false,
        "epoch",
        "https://os-world.github.io",
        "Computer-use tasks in a desktop operating system; success rate.",
    ),
    def(
        "mc-bench",
        "MC-Bench",
        "multimodal",
        "elo",
        false,
        "epoch",
        "https://mcbench.ai",
        "Minecraft builds compared by human votes; Elo rating.",
    ),
    def(
        "fiction-livebench",
        "Fiction.LiveBench (120k tokens)",
        "long-context",
        "percent",
        false,
        "epoch",
        "https://fiction.live",
        "Story comprehension over a 120k-token context; percent correct.",
    ),
    def(
        "osuniverse",
        "OSUniverse",
        "agentic",
        "percent",
        false,
        "epoch",
        "https://arxiv.org/abs/2505.03570",
        "Desktop GUI navigation tasks; weighted score.",
    ),
    def(
        "metr-time-horizon",
        "METR time horizon",
        "agentic",
        "minutes",
        false,
        "epoch",
        "https://metr.org/blog/2025-03-19-measuring-ai-ability-to-complete-long-tasks/",
        "Length of software tasks (in human minutes) completed with 50% reliability.",
    ),
    def(
        "balrog",
        "BALROG",
        "agentic",
        "percent",
        false,
        "epoch",
        "https://balrogai.com",
        "Text and visual games (BabyAI to NetHack); average progress.",
    ),
    def(
        "factorio-learning-environment",
        "Factorio Learning Environment",
        "agentic",
        "percent",
        false,
        "epoch",
        "https://jackhopkins.github.io/factorio-learning-environment/",
        "Factory-building tasks in Factorio; lab-play success rate.",
    ),
];

/// A score as a source states it.
#[derive(Debug, Clone)]
pub struct RawScore {
    pub source: &'static str,
    pub benchmark: String,
    /// The benchmark's name where the source names a benchmark of its own (models.dev).
    pub benchmark_name: Option<String>,
    /// The model as the source names it.
    pub model: String,
    pub score: f64,
    pub config: Option<String>,
    pub as_of: Option<String>,
}

/// An agent result as a source states it.
#[derive(Debug, Clone)]
pub struct RawAgent {
    pub source: &'static str,
    pub benchmark: &'static str,
    pub name: String,
    pub organization: Option<String>,
    pub open_source: Option<bool>,
    pub models: Vec<String>,
    pub score: f64,
    pub as_of: Option<String>,
}

fn err(path: &Path, e: impl std::fmt::Display) -> IngestError {
    IngestError(format!("{}: {e}", path.display()))
}

fn csv_rows(path: &Path) -> Result<Vec<BTreeMap<String, String>>, IngestError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .map_err(|e| err(path, e))?;
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| err(path, e))?
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').to_string())
        .collect();
    let mut out = Vec::new();
    for rec in reader.records() {
        let rec = rec.map_err(|e| err(path, e))?;
        out.push(
            headers
                .iter()
                .cloned()
                .zip(rec.iter().map(str::to_string))
                .collect(),
        );
    }
    Ok(out)
}

/// `77.0%`, `77`, `0.77` (with `fraction`) → percent.
fn percent(text: &str, fraction: bool) -> Option<f64> {
    let t = text.trim();
    let (num, had_pct) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (t, false),
    };
    let v: f64 = num.parse().ok().filter(|v: &f64| v.is_finite())?;
    let v = if fraction && !had_pct { v * 100.0 } else { v };
    (0.0..=100.0).contains(&v).then(|| round(v, 4))
}

fn round(v: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (v * f).round() / f
}

// ---- Aider ----

#[derive(serde::Deserialize)]
struct AiderRun {
    model: Option<String>,
    command: Option<String>,
    edit_format: Option<String>,
    pass_rate_2: Option<f64>,
    reasoning_effort: Option<String>,
    date: Option<serde_norway::Value>,
}

pub fn aider(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    for (file, bench) in [
        ("polyglot_leaderboard.yml", "aider-polyglot"),
        ("edit_leaderboard.yml", "aider-edit"),
        ("refactor_leaderboard.yml", "aider-refactor"),
    ] {
        let path = dir.join("aider/aider/website/_data").join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| err(&path, e))?;
        let runs: Vec<AiderRun> = serde_norway::from_str(&text).map_err(|e| err(&path, e))?;
        for run in runs {
            let Some(score) = run.pass_rate_2 else {
                continue;
            };
            // `aider --model provider/api-id` names the model exactly; the display name is a fallback.
            let model = run
                .command
                .as_deref()
                .and_then(|c| c.split_whitespace().skip_while(|w| *w != "--model").nth(1))
                .map(str::to_string)
                .or(run.model.clone())
                .unwrap_or_default();
            let mut config = vec![];
            if let Some(f) = run.edit_format.filter(|f| !f.is_empty()) {
                config.push(format!("edit_format={f}"));
            }
            if let Some(r) = run.reasoning_effort.filter(|r| !r.is_empty()) {
                config.push(format!("reasoning_effort={r}"));
            }
            let as_of = run.date.and_then(|d| match d {
                serde_norway::Value::String(s) => Some(s),
                _ => None,
            });
            out.push(RawScore {
                source: "aider",
                benchmark: bench.to_string(),
                benchmark_name: None,
                model,
                score,
                config: (!config.is_empty()).then(|| config.join(", ")),
                as_of,
            });
        }
    }
    Ok(())
}

// ---- LiveBench ----

pub fn livebench(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    let public = dir.join("livebench/public");
    let mut releases: Vec<String> = std::fs::read_dir(&public)
        .map_err(|e| err(&public, e))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| {
            n.strip_prefix("table_")?
                .strip_suffix(".csv")
                .map(str::to_string)
        })
        .collect();
    releases.sort();
    // Every release: older results are scores as of their release date, and the headline
    // rule (most recent first) makes the newest release each model appears in the headline.
    for release in releases {
        livebench_release(&public, &release, out)?;
    }
    Ok(())
}

/// One LiveBench release: category means of its tasks, and their mean as the global score.
fn livebench_release(
    public: &Path,
    release: &str,
    out: &mut Vec<RawScore>,
) -> Result<(), IngestError> {
    let categories = read_json(&public.join(format!("categories_{release}.json")))?;
    let rows = csv_rows(&public.join(format!("table_{release}.csv")))?;
    let date = release.replace('_', "-");
    let cats: Vec<(String, Vec<String>)> = categories
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
            )
        })
        .collect();
    for row in rows {
        let Some(model) = row.get("model").cloned() else {
            continue;
        };
        let mut means = Vec::new();
        for (cat, tasks) in &cats {
            let vals: Vec<f64> = tasks
                .iter()
                .filter_map(|t| row.get(t)?.trim().parse::<f64>().ok())
                .collect();
            // A category is scored only when every one of its tasks is.
            if vals.len() != tasks.len() || vals.is_empty() {
                continue;
            }
            let mean = vals.iter().sum::<f64>() / vals.len() as f64;
            means.push(mean);
            out.push(RawScore {
                source: "livebench",
                benchmark: format!("livebench-{}", slugify(cat)),
                benchmark_name: None,
                model: model.clone(),
                score: round(mean, 2),
                config: None,
                as_of: Some(date.clone()),
            });
        }
        if means.len() == cats.len() && !means.is_empty() {
            out.push(RawScore {
                source: "livebench",
                benchmark: "livebench".into(),
                benchmark_name: None,
                model,
                score: round(means.iter().sum::<f64>() / means.len() as f64, 2),
                config: None,
                as_of: Some(date.clone()),
            });
        }
    }
    Ok(())
}

// ---- LMArena ----

pub fn lmarena(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    for (file, bench) in [
        ("lmarena_text.csv", "lmarena-text"),
        ("lmarena_vision.csv", "lmarena-vision"),
        ("lmarena_image.csv", "lmarena-image"),
    ] {
        for row in csv_rows(&dir.join("lmarena/csv").join(file))? {
            let (Some(model), Some(score)) = (
                row.get("model"),
                row.get("arena_score")
                    .and_then(|s| s.trim().parse::<f64>().ok()),
            ) else {
                continue;
            };
            out.push(RawScore {
                source: "lmarena",
                benchmark: bench.into(),
                benchmark_name: None,
                model: model.clone(),
                score,
                config: None,
                as_of: Some("2025-08-06".into()),
            });
        }
    }
    Ok(())
}

// ---- BFCL ----

pub fn bfcl(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    for row in csv_rows(&dir.join("bfcl/data_overall.csv"))? {
        let (Some(model), Some(score)) = (
            row.get("Model"),
            row.get("Overall Acc").and_then(|s| percent(s, false)),
        ) else {
            continue;
        };
        // `(FC)` / `(Prompt)` is how the model was run, not another model.
        let (name, config) = match model.rsplit_once(" (") {
            Some((n, c)) => (n.to_string(), Some(c.trim_end_matches(')').to_string())),
            None => (model.clone(), None),
        };
        out.push(RawScore {
            source: "bfcl",
            benchmark: "bfcl".into(),
            benchmark_name: None,
            model: name,
            score,
            config,
            as_of: Some("2025-12-16".into()),
        });
    }
    Ok(())
}

// ---- Epoch ----

fn epoch_date(text: &str) -> Option<String> {
    // `17 November 2025 4:28pm`
    let mut it = text.split_whitespace();
    let day: u32 = it.next()?.parse().ok()?;
    let month = match it.next()?.to_lowercase().as_str() {
        "january" => 1,
        "february" => 2,
        "march" => 3,
        "april" => 4,
        "may" => 5,
        "june" => 6,
        "july" => 7,
        "august" => 8,
        "september" => 9,
        "october" => 10,
        "november" => 11,
        "december" => 12,
        _ => return None,
    };
    let year: u32 = it.next()?.parse().ok()?;
    Some(format!("{year:04}-{month:02}-{day:02}"))
}

pub fn epoch(dir: &Path, out: &mut Vec<RawScore>) -> Result<(), IngestError> {
    let data = dir.join("epoch/data");
    for row in csv_rows(&data.join("benchmarks_runs.csv"))? {
        let bench = match row.get("task").map(String::as_str) {
            Some("GPQA diamond") => "gpqa-diamond",
            Some("MATH level 5") => "math-level-5",
            Some("OTIS Mock AIME 2024-2025") => "otis-mock-aime",
            Some("FrontierMath-2025-02-28-Private") => "frontiermath",
            Some("FrontierMath-Tier-4-2025-07-01-Private") => "frontiermath-tier-4",
            Some("FrontierMath-2025-02-28-Public") => "frontiermath-public",
            Some("FrontierMath-Tier-4-2025-07-01-Public") => "frontiermath-tier-4-public",
            Some("SWE-Bench verified") => "swe-bench-verified",
            _ => continue,
        };
        let (Some(model), Some(score)) = (
            row.get("model"),
            row.get("Best score (across scorers)")
                .and_then(|s| percent(s, true)),
        ) else {
            continue;
        };
        out.push(RawScore {
            source: "epoch",
            benchmark: bench.into(),
            benchmark_name: None,
            model: model.clone(),
            score,
            config: None,
            as_of: row.get("started_at").and_then(|d| epoch_date(d)),
        });
    }
    // (file, benchmark, column, whether the column is a percentage). Epoch's copies of
    // LiveBench and Aider Polyglot join the publishers' own figures, which stay the headline.
    let external: &[(&str, &str, &str, bool)] = &[
        ("mmlu", "mmlu", "EM", true),
        ("gsm8k", "gsm8k", "EM", true),
        ("hellaswag", "hellaswag", "Overall accuracy", true),
        ("arc_agi", "arc-agi", "Score", true),
        ("simple_bench", "simplebench", "Score (AVG@5)", true),
        ("weirdml", "weirdml", "Accuracy", true),
        ("winogrande", "winogrande", "Accuracy", true),
        ("triviaqa", "triviaqa", "EM", true),
        ("piqa", "piqa", "Score", true),
        ("openbookqa", "openbookqa", "Accuracy", true),
        ("bbh", "bbh", "Average", true),
        ("lambada", "lambada", "Score", true),
        ("boolq", "boolq", "Score", true),
        ("scienceqa", "scienceqa", "Score", true),
        ("arc_ai2", "arc-challenge", "Challenge score", true),
        ("anli", "anli", "Score", true),
        ("csqa2", "csqa2", "Score", true),
        ("superglue", "superglue", "Score", true),
        ("cybench", "cybench", "Unguided % Solved", true),
        ("vpct", "vpct", "Correct", true),
        ("videomme", "video-mme", "Overall (no subtitles)", true),
        ("gso_bench", "gso-bench", "Score OPT@1", true),
        ("cadeval", "cadeval", "Overall pass (%)", true),
        (
            "lech_mazur_writing",
            "lech-mazur-writing",
            "Mean score",
            false,
        ),
        ("geobench", "geobench", "ACW Country %", true),
        ("the_agent_company", "the-agent-company", "% Score", true),
        ("deepresearch", "deep-research-bench", "Average score", true),
        ("os_world", "os-world", "Score", true),
        ("livebench", "livebench", "Global average", true),
        ("mcbench", "mc-bench", "ELO", false),
        (
            "fictionlivebench",
            "fiction-livebench",
            "120k token score",
            true,
        ),
        ("osuniverse", "osuniverse", "Weighted Score", true),
        ("metr", "metr-time-horizon", "Time horizon", false),
        ("balrog", "balrog", "Average progress", true),
        (
            "factorio_learning_environment",
            "factorio-learning-environment",
            "Lab Success %",
            true,
        ),
        ("aider_polyglot", "aider-polyglot", "Percent correct", true),
    ];
    for (file, bench, column, pct) in external {
        for row in csv_rows(&data.join(format!("external_benchmark_{file}.csv")))? {
            let model = row
                .get("Model version")
                .filter(|m| !m.trim().is_empty())
                .or_else(|| row.get("Name"));
            let value = |s: &String| {
                if *pct {
                    percent(s, false)
                } else {
                    s.trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .map(|v| round(v, 4))
                }
            };
            let (Some(model), Some(score)) = (model, row.get(*column).and_then(value)) else {
                continue;
            };
            let model = base_checkpoint(row.get("Name").map(String::as_str), model);
            let shots = row
                .get("Shots")
                .filter(|s| !s.trim().is_empty())
                .map(|s| format!("shots={}", s.trim()));
            out.push(RawScore {
                source: "epoch",
                benchmark: (*bench).into(),
                benchmark_name: None,
                model,
                score,
                config: shots,
                as_of: None,
            });
        }
    }
    Ok(())
}

/// The model a row of Epoch's external leaderboards measured: its `Model version`, except
/// that a row whose `Name` is a base checkpoint (`DeepSeek-V3 Base`) measured the base model
/// even where the version names the chat model (`DeepSeek-V3`): base and chat stay apart.
fn base_checkpoint(name: Option<&str>, version: &str) -> String {
    let is_base = |s: &str| {
        let s = s.trim().to_ascii_lowercase();
        s.strip_suffix("base")
            .is_some_and(|head| head.ends_with([' ', '-', '_']))
    };
    let version = version.trim();
    if name.is_some_and(is_base) && !version.to_ascii_lowercase().contains("base") {
        format!("{version}-Base")
    } else {
        version.to_string()
    }
}

/// Terminal-Bench agents, from Epoch's CSV.
pub fn terminal_bench(dir: &Path, out: &mut Vec<RawAgent>) -> Result<(), IngestError> {
    for row in csv_rows(&dir.join("epoch/data/external_benchmark_terminal_bench.csv"))? {
        let (Some(agent), Some(model), Some(score)) = (
            row.get("Agent"),
            row.get("Model version"),
            row.get("Accuracy mean").and_then(|s| percent(s, true)),
        ) else {
            continue;
        };
        if agent.trim().is_empty() {
            continue;
        }
        out.push(RawAgent {
            source: "epoch",
            benchmark: "terminal-bench",
            name: format!("{} ({})", agent.trim(), model.trim()),
            organization: None,
            open_source: None,
            models: vec![model.clone()],
            score,
            as_of: None,
        });
    }
    Ok(())
}

// ---- models.dev benchmark rows ----

pub fn models_dev(data: &Value, out: &mut Vec<RawScore>) {
    for (id, row) in super::models_dev::benchmark_rows(data) {
        let (Some(name), Some(score)) = (
            row.get("name").and_then(Value::as_str),
            row.get("score").and_then(Value::as_f64),
        ) else {
            continue;
        };
        let metric = row.get("metric").and_then(Value::as_str);
        out.push(RawScore {
            source: "models-dev",
            benchmark: slugify(&name.replace('’', "")),
            benchmark_name: Some(name.to_string()),
            model: id.rsplit('/').next().unwrap_or(&id).to_string(),
            score,
            config: metric.map(|m| format!("metric={m}")),
            as_of: row.get("date").and_then(Value::as_str).map(str::to_string),
        });
    }
}

// ---- SWE-bench ----

/// SWE-bench's leaderboards: systems (agents) with the models they ran on. The bash-only
/// board runs every model under one minimal agent, so its rows are also the models' scores.
pub fn swe_bench(
    dir: &Path,
    out: &mut Vec<RawAgent>,
    scores: &mut Vec<RawScore>,
) -> Result<(), IngestError> {
    let data = read_json(&dir.join("swe-bench/data/leaderboards.json"))?;
    for lb in data
        .get("leaderboards")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let bench = match lb.get("name").and_then(Value::as_str) {
            Some("Verified") => "swe-bench-verified",
            Some("Lite") => "swe-bench-lite",
            Some("Test") => "swe-bench-full",
            Some("Multimodal") => "swe-bench-multimodal",
            Some("bash-only") => "swe-bench-bash-only",
            _ => continue,
        };
        for e in lb
            .get("results")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let (Some(name), Some(score)) = (
                e.get("name").and_then(Value::as_str),
                e.get("resolved").and_then(Value::as_f64),
            ) else {
                continue;
            };
            let tags: Vec<&str> = e
                .get("tags")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let tagged = |prefix: &str| -> Vec<String> {
                tags.iter()
                    .filter_map(|t| t.strip_prefix(prefix))
                    .map(|t| t.trim().to_string())
                    .collect()
            };
            if bench == "swe-bench-bash-only"
                && let [model] = tagged("Model:").as_slice()
            {
                scores.push(RawScore {
                    source: "swe-bench",
                    benchmark: bench.into(),
                    benchmark_name: None,
                    model: model.clone(),
                    score,
                    config: Some("harness=mini-swe-agent (bash only)".into()),
                    as_of: e.get("date").and_then(Value::as_str).map(str::to_string),
                });
            }
            out.push(RawAgent {
                source: "swe-bench",
                benchmark: bench,
                name: name.to_string(),
                organization: tagged("Org:").into_iter().next(),
                open_source: e.get("os_system").and_then(Value::as_bool),
                models: tagged("Model:"),
                score,
                as_of: e.get("date").and_then(Value::as_str).map(str::to_string),
            });
        }
    }
    Ok(())
}

// ---- resolution ----

/// Run configurations that appear only in benchmark tables' model names, on top of those a
/// provider may also list as an id ([`identities::CONFIG_SUFFIXES`]). `-base` and `-max`
/// are stripped only to match a name no model has, never to fold two models.
const SCORE_CONFIG_SUFFIXES: &[&str] = &[
    "-reasoning",
    "-base",
    "-xhigh-effort",
    "-high-effort",
    "-medium-effort",
    "-low-effort",
    "-max",
];

/// Splits run configuration off a model name: `gpt-5-2025-08-07_high` → (`gpt-5-2025-08-07`,
/// [`effort=high`]); `claude-opus-4-5-20251101-thinking-64k-high-effort` → (…, [`thinking-64k`, `high-effort`]).
/// Returns every candidate spelling, longest first, each with the configuration it dropped.
pub fn candidates(raw: &str) -> Vec<(String, Vec<String>)> {
    // A display name with a `/` (`LLaVA (ViT-L/16-224)`) is one name, not vendor/model.
    let mut name = if identities::is_display_name(raw) {
        slugify(raw)
    } else {
        raw.trim().to_lowercase()
    };
    let mut config = Vec::new();
    // Epoch writes the reasoning effort after an underscore: `gpt-5-2025-08-07_high`.
    if let Some((head, effort)) = name.rsplit_once('_')
        && ["high", "medium", "low", "minimal", "xhigh", "none", "auto"].contains(&effort)
    {
        config.push(format!("effort={effort}"));
        name = head.to_string();
    }
    let mut key = names::parse(&name).slug;
    let mut out = vec![(key.clone(), config.clone())];
    // n-shot prompting written into the name (`GLaM (64B/64E) (3-shot)`, `(Zero-shot)`).
    if let Some((head, shots)) = shots_suffix(&key) {
        config.push(format!("shots={shots}"));
        key = head.to_string();
        out.push((key.clone(), config.clone()));
    }
    for _ in 0..4 {
        let Some(suffix) = identities::CONFIG_SUFFIXES
            .iter()
            .chain(SCORE_CONFIG_SUFFIXES)
            .find(|s| key.ends_with(*s) && key.len() > s.len())
        else {
            break;
        };
        config.insert(0, suffix.trim_start_matches('-').to_string());
        key.truncate(key.len() - suffix.len());
        out.push((key.clone(), config.clone()));
    }
    out
}

/// `(name, shots)` for a key ending in `-3-shot`, `-zero-shot`, `-one-shot` or `-few-shot`.
fn shots_suffix(key: &str) -> Option<(&str, String)> {
    let head = key.strip_suffix("-shot")?;
    let (name, n) = head.rsplit_once('-')?;
    let shots = match n {
        "zero" => "0".to_string(),
        "one" => "1".to_string(),
        "few" => "few".to_string(),
        n if !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()) => {
            n.to_string()
        }
        _ => return None,
    };
    (!name.is_empty()).then_some((name, shots))
}

/// Canonical slug and run configuration for a model name from a benchmark source.
pub fn match_model(resolved: &Resolved, raw: &str) -> Option<(String, Option<String>)> {
    let spellings = candidates(raw);
    if let Some(s) = resolved.lookup(raw) {
        // A configured id folded into its model at resolution (`…-thinking`): the most
        // stripped spelling naming the same model says which configuration ran.
        let config = spellings
            .iter()
            .rev()
            .find(|(key, config)| !config.is_empty() && resolved.lookup(key) == Some(s))
            .map(|(_, config)| config.join(", "));
        return Some((s.to_string(), config));
    }
    spellings.into_iter().find_map(|(key, config)| {
        let s = resolved.lookup(&key)?;
        Some((
            s.to_string(),
            (!config.is_empty()).then(|| config.join(", ")),
        ))
    })
}

/// Sources whose unmatched model names become models of their own (benchmarked, unpriced):
/// they name real model versions. Agent leaderboards' model tags do not (`Llama 3.1`).
const MODEL_NAMING_SOURCES: &[&str] = &[
    "aider",
    "livebench",
    "lmarena",
    "bfcl",
    "epoch",
    "models-dev",
];

/// Records for benchmarked models no pricing source knows, under the name with its run
/// configuration removed (the most stripped spelling, so `x-high` and `x-low` are one model).
/// Also fills the report: per source, rows read, rows matched to a model that a pricing or
/// metadata source knows, and the names that were not.
pub fn unpriced_models(
    raw: &[RawScore],
    resolved: &Resolved,
    report: &mut Report,
) -> Vec<super::ModelRecord> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for r in raw {
        let feed = report_feed(r);
        report.read(feed);
        if match_model(resolved, &r.model).is_some() {
            report.matched(feed);
            continue;
        }
        report.unmatched(feed, &r.model);
        if !MODEL_NAMING_SOURCES.contains(&r.source) {
            continue;
        }
        let Some((key, _)) = candidates(&r.model).pop() else {
            continue;
        };
        if key.is_empty() || !seen.insert(key.clone()) {
            continue;
        }
        let parsed = names::parse(&key);
        out.push(super::ModelRecord {
            source: r.source,
            raw_id: key.clone(),
            rank: 6,
            creator: names::creator_for(parsed.vendor.as_deref(), &parsed.key).map(str::to_string),
            name: Some(display_name(&r.model)),
            parsed: Some(parsed),
            ..Default::default()
        });
    }
    out
}

/// The name a score row is reported under: Epoch's own runs and the external leaderboards it
/// re-hosts match at very different rates (API ids vs. decade-old paper names).
fn report_feed(r: &RawScore) -> &'static str {
    const RUNS: &[&str] = &[
        "gpqa-diamond",
        "math-level-5",
        "otis-mock-aime",
        "frontiermath",
        "frontiermath-tier-4",
        "frontiermath-public",
        "frontiermath-tier-4-public",
        "swe-bench-verified",
    ];
    match r.source {
        "epoch" if RUNS.contains(&r.benchmark.as_str()) => "epoch-runs",
        "epoch" => "epoch-external",
        other => other,
    }
}

/// A display name for a model known only by a benchmark: the source's spelling without run
/// configuration in parentheses or after an underscore.
fn display_name(raw: &str) -> String {
    let mut base = raw.split('_').next().unwrap_or(raw).trim();
    // `GLaM (64B/64E) (Zero-shot)`: the prompting is the score's configuration.
    if let Some((head, last)) = base.rsplit_once(" (")
        && last.to_lowercase().ends_with("shot)")
    {
        base = head.trim();
    }
    base.to_string()
}

/// Epoch's model versions: metadata (display name, release date) for models, many of them
/// older than any price list.
pub fn epoch_models(dir: &Path) -> Result<Vec<super::ModelRecord>, IngestError> {
    let mut out = Vec::new();
    for row in csv_rows(&dir.join("epoch/data/model_versions.csv"))? {
        let Some(id) = row.get("id").filter(|i| !i.trim().is_empty()) else {
            continue;
        };
        // Ids carry the reasoning effort (`gpt-5-2025-08-07_high`): one model, several runs.
        let Some((base, effort)) = candidates(id).into_iter().next() else {
            continue;
        };
        let parsed = names::parse(&base);
        if parsed.key.is_empty() {
            continue;
        }
        let hf_vendor = row
            .get("Hugging Face developer id")
            .map(|h| h.trim().to_lowercase())
            .filter(|h| !h.is_empty());
        let columns: &[&str] = if effort.is_empty() {
            &["Unique display name", "Display name", "Model"]
        } else {
            &["Model"]
        };
        let name = columns
            .iter()
            .find_map(|k| row.get(*k).filter(|v| !v.trim().is_empty()))
            .cloned();
        let date = row
            .get("Version release date")
            .filter(|d| d.len() == 10 && d.starts_with("20"))
            .cloned();
        out.push(super::ModelRecord {
            source: "epoch",
            raw_id: id.clone(),
            rank: 5,
            creator: names::creator_for(
                hf_vendor.as_deref().or(parsed.vendor.as_deref()),
                &parsed.key,
            )
            .map(str::to_string),
            name,
            release_date: date,
            parsed: Some(parsed),
            ..Default::default()
        });
    }
    Ok(out)
}

fn dedup_headline<T>(
    rows: &mut [T],
    group: impl Fn(&T) -> (String, String),
    rank: impl Fn(&T) -> (bool, String, i64),
    set: impl Fn(&mut T, bool),
) {
    let mut best: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        let g = group(r);
        match best.get(&g) {
            Some(&j) if rank(&rows[j]) >= rank(r) => {}
            _ => {
                best.insert(g, i);
            }
        }
    }
    let winners: BTreeSet<usize> = best.into_values().collect();
    for (i, r) in rows.iter_mut().enumerate() {
        set(r, winners.contains(&i));
    }
}

/// What [`attach`] produces: the rows of the benchmark and agent tables.
pub struct Attached {
    pub benchmarks: Vec<benchmark::Model>,
    pub scores: Vec<score::Model>,
    pub agents: Vec<agent::Model>,
    pub agent_models: Vec<agent_model::Model>,
    pub agent_scores: Vec<agent_score::Model>,
}

/// Benchmarks and headline-marked scores on canonical models.
pub fn attach(
    raw: Vec<RawScore>,
    agents_raw: Vec<RawAgent>,
    resolved: &Resolved,
    report: &mut Report,
) -> Attached {
    let mut defs: BTreeMap<String, benchmark::Model> = DEFS
        .iter()
        .map(|d| {
            (
                d.slug.to_string(),
                benchmark::Model {
                    slug: d.slug.into(),
                    name: d.name.into(),
                    category: d.category.into(),
                    unit: d.unit.into(),
                    higher_is_better: d.higher_is_better,
                    in_average: d.in_average,
                    description: d.description.into(),
                    source_url: d.source_url.into(),
                    source: d.source.into(),
                    models_count: 0,
                    average_reason: String::new(),
                    difficulty: None,
                    slope: None,
                },
            )
        })
        .collect();
    // models.dev names benchmarks nobody else publishes; they become benchmarks of their own,
    // in the average only when every score is a 0-100 percentage.
    let mut extra: BTreeMap<String, (String, bool)> = BTreeMap::new();
    let mut extra_names: BTreeMap<String, String> = BTreeMap::new();
    for r in raw.iter().filter(|r| !defs.contains_key(&r.benchmark)) {
        let pct = r.config.as_deref().is_some_and(|c| {
            let c = c.to_lowercase();
            ["percent", "rate", "pass@1", "resolved"]
                .iter()
                .any(|k| c.contains(k))
                && !c.contains("index")
        }) && (0.0..=100.0).contains(&r.score);
        if let Some(n) = &r.benchmark_name {
            extra_names
                .entry(r.benchmark.clone())
                .or_insert_with(|| n.clone());
        }
        let e = extra
            .entry(r.benchmark.clone())
            .or_insert((r.model.clone(), true));
        e.1 &= pct;
    }
    for (slug, (_, pct)) in extra {
        let category = if ["swe", "terminal", "code", "aider", "sci"]
            .iter()
            .any(|k| slug.contains(k))
        {
            "coding"
        } else {
            "other"
        };
        defs.insert(
            slug.clone(),
            benchmark::Model {
                name: extra_names
                    .get(&slug)
                    .cloned()
                    .unwrap_or_else(|| slug.clone()),
                slug,
                category: category.into(),
                unit: if pct { "percent" } else { "score" }.into(),
                higher_is_better: true,
                in_average: pct,
                description: "Reported in models.dev model metadata.".into(),
                source_url: "https://models.dev".into(),
                source: "models-dev".into(),
                models_count: 0,
                average_reason: String::new(),
                difficulty: None,
                slope: None,
            },
        );
    }
    let mut scores = Vec::new();
    for r in raw {
        let Some((model, extra_config)) = match_model(resolved, &r.model) else {
            continue;
        };
        let config = match (extra_config, r.config) {
            (Some(a), Some(b)) => Some(format!("{a}, {b}")),
            (a, b) => a.or(b),
        };
        scores.push(score::Model {
            id: 0,
            model_slug: model,
            benchmark_slug: r.benchmark,
            score: r.score,
            config,
            is_headline: false,
            as_of: r.as_of,
            source: r.source.to_string(),
        });
    }
    // Headline: the publisher's own figure, else the most recent, else the best.
    let publisher: BTreeMap<String, String> = defs
        .iter()
        .map(|(k, d)| (k.clone(), d.source.clone()))
        .collect();
    dedup_headline(
        &mut scores,
        |s| (s.model_slug.clone(), s.benchmark_slug.clone()),
        |s| {
            (
                publisher.get(&s.benchmark_slug) == Some(&s.source),
                s.as_of.clone().unwrap_or_default(),
                (s.score * 10_000.0) as i64,
            )
        },
        |s, h| s.is_headline = h,
    );

    // Agents: one per name; models resolved; scores per leaderboard.
    let mut agents: BTreeMap<String, agent::Model> = BTreeMap::new();
    let mut agent_models = BTreeSet::new();
    let mut agent_scores = Vec::new();
    for a in agents_raw {
        report.read(&format!("{}-agents", a.source));
        let slug = slugify(&a.name);
        if slug.is_empty() {
            report.unmatched(&format!("{}-agents", a.source), &a.name);
            continue;
        }
        let mut all_models_known = true;
        for m in &a.models {
            match match_model(resolved, m) {
                Some((s, _)) => {
                    agent_models.insert((slug.clone(), s));
                }
                None => {
                    all_models_known = false;
                    report.unmatched(&format!("{}-agents", a.source), m);
                }
            }
        }
        if all_models_known {
            report.matched(&format!("{}-agents", a.source));
        }
        let e = agents.entry(slug.clone()).or_insert_with(|| agent::Model {
            slug: slug.clone(),
            name: a.name.clone(),
            organization: None,
            open_source: None,
            date: None,
            average_score: None,
            benchmarks_count: 0,
            capability_index: None,
            capability_index_se: None,
        });
        e.organization = e.organization.take().or(a.organization);
        e.open_source = e.open_source.or(a.open_source);
        if a.as_of > e.date {
            e.date = a.as_of.clone();
        }
        agent_scores.push(agent_score::Model {
            id: 0,
            agent_slug: slug,
            benchmark_slug: a.benchmark.to_string(),
            score: a.score,
            is_headline: false,
            as_of: a.as_of,
            source: a.source.to_string(),
        });
    }
    dedup_headline(
        &mut agent_scores,
        |s| (s.agent_slug.clone(), s.benchmark_slug.clone()),
        |s| {
            (
                true,
                s.as_of.clone().unwrap_or_default(),
                (s.score * 10_000.0) as i64,
            )
        },
        |s, h| s.is_headline = h,
    );
    let used: BTreeSet<&str> = scores
        .iter()
        .map(|s| s.benchmark_slug.as_str())
        .chain(agent_scores.iter().map(|s| s.benchmark_slug.as_str()))
        .collect();
    let benchmarks = defs
        .into_values()
        .filter(|d| used.contains(d.slug.as_str()))
        .collect();
    let agent_models = agent_models
        .into_iter()
        .map(|(agent_slug, model_slug)| agent_model::Model {
            agent_slug,
            model_slug,
        })
        .collect();
    Attached {
        benchmarks,
        scores,
        agents: agents.into_values().collect(),
        agent_models,
        agent_scores,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_parse_in_every_spelling() {
        assert_eq!(percent("77.47%", false), Some(77.47));
        assert_eq!(percent("0.850", true), Some(85.0));
        assert_eq!(percent("42", false), Some(42.0));
        assert_eq!(percent("N/A", false), None);
        assert_eq!(percent("140", false), None);
    }

    #[test]
    fn non_thinking_is_one_configuration() {
        let c = candidates("deepseek-v3.2-non-thinking");
        assert_eq!(
            c.last().cloned(),
            Some((
                "deepseek-v3.2".to_string(),
                vec!["non-thinking".to_string()]
            ))
        );
    }

    #[test]
    fn shots_written_into_a_name_are_run_configuration() {
        let c = candidates("GLaM (64B/64E) (3-shot)");
        assert_eq!(c.last().map(|x| x.0.as_str()), Some("glam-64b-64e"));
        assert_eq!(
            c.last().map(|x| x.1.clone()),
            Some(vec!["shots=3".to_string()])
        );
        assert_eq!(
            shots_suffix("palm-zero-shot"),
            Some(("palm", "0".to_string()))
        );
        assert_eq!(
            shots_suffix("gpt-4-8-shot"),
            Some(("gpt-4", "8".to_string()))
        );
        assert_eq!(shots_suffix("snapshot"), None);
    }

    #[test]
    fn base_rows_measure_the_base_model() {
        assert_eq!(
            base_checkpoint(Some("DeepSeek-V3 Base       "), "DeepSeek-V3"),
            "DeepSeek-V3-Base"
        );
        assert_eq!(
            base_checkpoint(Some("DeepSeek-V3 Base"), "DeepSeek-V3-Base"),
            "DeepSeek-V3-Base"
        );
        assert_eq!(
            base_checkpoint(Some("DeepSeek-V3"), "DeepSeek-V3"),
            "DeepSeek-V3"
        );
        assert_eq!(
            base_checkpoint(Some("Database-7B"), "Database-7B"),
            "Database-7B"
        );
        assert_eq!(base_checkpoint(None, "GPT-4"), "GPT-4");
    }

    #[test]
    fn epoch_dates_become_iso() {
        assert_eq!(
            epoch_date("17 November 2025 4:28pm").as_deref(),
            Some("2025-11-17")
        );
        assert_eq!(epoch_date("soon"), None);
    }

    #[test]
    fn run_configuration_is_split_from_the_model() {
        let r = super::super::resolve(vec![super::super::ModelRecord {
            source: "models-dev",
            provider: Some("openai".into()),
            raw_id: "gpt-5-2025-08-07".into(),
            parsed: Some(names::parse("gpt-5-2025-08-07")),
            ..Default::default()
        }]);
        assert_eq!(
            match_model(&r, "gpt-5-2025-08-07_high"),
            Some(("gpt-5-2025-08-07".into(), Some("effort=high".into())))
        );
        assert_eq!(
            match_model(&r, "gpt-5-2025-08-07-thinking-32k"),
            Some(("gpt-5-2025-08-07".into(), Some("thinking-32k".into())))
        );
        assert_eq!(match_model(&r, "unknown-model"), None);
    }
}
