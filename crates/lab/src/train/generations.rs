//! Generations (`arena train GAME --generations N`): the engine with the best network so far
//! plays itself, a new network is trained on every generation's games, and it is kept only
//! if it wins an SPRT match against the best so far at equal time per move. The first
//! generation plays with the evaluation its engine names, and its network is judged
//! against that one: the game's own by default, or none at all (`eval=zero`: a game
//! learned from its rules alone).
//!
//! **Files** (with `OUT` the run's [`TrainSettings::out`]): generation `g`'s training run is
//! a run of its own at `OUT.genG` (its network, games, state and curve: each resumable),
//! its match `OUT.genG.match.jsonl` (a match file, resumable), and
//! `OUT.generations.jsonl` one line per decided generation; `OUT` is the best network.
//! A killed run resumes (`resume`) where it stopped: the decided generations are read, the
//! one under way goes on from its files.
//!
//! **Workers** ([`TrainSettings::shard`] `K/N`, each with its own `OUT` in one folder) share
//! every generation: its self-play games (as one run's workers do: each trains on all of
//! them, so each writes the same network), its judging match (each plays the match's
//! openings that are `K − 1` modulo `N`, then waits for the others' games until the test is
//! decided or every game is played, so each reads the same verdict from the same games), and
//! the later generations' training on the earlier ones' games (every worker's files).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use plyforge::agent::Spec;
use plyforge::learned;
use plyforge::GameAdapter;
use serde_json::{json, Value};

use super::games::Games;
use super::{beside, TrainSettings, Training, GAMES_FILE, WAIT_EVERY};
use crate::error::Error;
use crate::jsonl::{self, Siblings};
use crate::matches::{Match, MatchReport, MatchSettings};
use crate::matchfile::MatchFile;
use crate::observe::{waiting, Observer, Progress};
use crate::schedule::Shard;
use crate::sprt::Verdict;
use crate::summary::Figures;

/// How generations are played, trained and judged.
#[derive(Clone, Debug)]
pub struct GenerationSettings {
    /// Each generation's training (its `engine`'s evaluation is the first generation's,
    /// the later ones play with the best network; its `out` the run's `OUT`; its `games`
    /// per generation).
    pub train: TrainSettings,
    /// Generations to run in all.
    pub generations: u64,
    /// The engine of the judging match (each side with its network), default `engine`.
    pub gate_engine: String,
    /// Time per move in the judging match.
    pub gate_time: Duration,
    /// The most games of the judging match.
    pub gate_games: usize,
    /// The SPRT's bounds (normalised Elo) for the new network against the best.
    pub gate_sprt: (f64, f64),
    /// Games at once in the judging match.
    pub gate_concurrency: usize,
}

/// One decided generation.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    /// Its number (from 1).
    pub number: u64,
    /// Its network.
    pub net: PathBuf,
    /// Games of its match, and the new network's score in them (0 … 1).
    pub games: u64,
    /// The new network's score.
    pub score: f64,
    /// The SPRT's verdict (`H1`: kept).
    pub verdict: String,
    /// Kept as the best.
    pub kept: bool,
}

impl Generation {
    fn json(&self) -> String {
        json!({"generation": self.number, "net": self.net, "games": self.games,
               "score": self.score, "verdict": self.verdict, "kept": self.kept})
        .to_string()
    }

    fn parse(line: &str) -> Result<Generation, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
        let get = |k: &str| v.get(k).ok_or_else(|| format!("no field {k:?}"));
        Ok(Generation {
            number: get("generation")?
                .as_u64()
                .ok_or("generation: not a number")?,
            net: PathBuf::from(get("net")?.as_str().ok_or("net: not text")?),
            games: get("games")?.as_u64().ok_or("games: not a number")?,
            score: get("score")?.as_f64().ok_or("score: not a number")?,
            verdict: get("verdict")?
                .as_str()
                .ok_or("verdict: not text")?
                .to_string(),
            kept: get("kept")?.as_bool().ok_or("kept: not true or false")?,
        })
    }
}

/// The spec `spec` of game `A` with the network of `net` as its evaluation (none: the
/// game's own).
fn with_net<A: GameAdapter>(spec: &Spec, net: Option<&Path>) -> Result<Spec, Error> {
    let Some(path) = net else {
        return Ok(spec.clone());
    };
    let loaded = learned::load::<A>(&path.to_string_lossy())
        .map_err(|e| Error::settings(format!("{}: {e}", path.display())))?;
    spec.clone().with_net(loaded).map_err(Error::Plyforge)
}

/// The decided generations of the log at `path` (none if it does not exist).
fn read_log(path: &Path) -> Result<Vec<Generation>, Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::input(path.display().to_string(), None, e)),
    };
    let name = format!("--resume: {}", path.display());
    let (lines, _) = crate::jsonl::complete_lines(&text, Generation::parse)
        .map_err(|(n, e)| Error::input(&name, Some(n), e))?;
    Ok(lines.into_iter().map(|(_, g)| g).collect())
}

/// Runs the generations of game `A`.
pub fn run<A: GameAdapter>(
    s: &GenerationSettings,
    observer: &mut dyn Observer,
) -> Result<Vec<Generation>, Error> {
    let out = s
        .train
        .out
        .clone()
        .ok_or_else(|| Error::settings("--generations needs --out (the run's files)"))?;
    let start = starting_eval::<A>(&s.train)?;
    let log_path = beside(&out, ".generations.jsonl");
    let mut done = if s.train.resume {
        read_log(&log_path)?
    } else {
        if log_path.exists() {
            return Err(Error::settings(format!(
                "{}: the file exists (--resume continues its run; or remove it)",
                log_path.display()
            )));
        }
        Vec::new()
    };
    let mut best: Option<PathBuf> = done.iter().rev().find(|g| g.kept).map(|g| g.net.clone());
    for number in done.len() as u64 + 1..=s.generations {
        let net = beside(&out, &format!(".gen{number}"));
        let mut t = s.train.clone();
        t.out = Some(net.clone());
        t.resume = true;
        t.seed = s.train.seed.wrapping_add(number);
        t.net = best.clone();
        for k in 1..number {
            let own = beside(&beside(&out, &format!(".gen{k}")), GAMES_FILE);
            if s.train.shard.is_some() {
                t.records.extend(workers_files(&own, k)?);
            } else {
                t.records.push(own);
            }
        }
        if !net.exists() {
            Training::<A>::new(&t)?.run(observer)?;
        }
        let g = judge::<A>(
            s,
            number,
            &net,
            best.as_deref(),
            start.as_deref(),
            &out,
            observer,
        )?;
        let mut log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .map_err(|e| Error::output("--out", &log_path, e))?;
        writeln!(log, "{}", g.json()).map_err(|e| Error::output("--out", &log_path, e))?;
        if g.kept {
            std::fs::copy(&net, &out).map_err(|e| Error::output("--out", &out, e))?;
            best = Some(net);
        }
        done.push(g);
    }
    Ok(done)
}

/// The evaluation the first generation plays with, which the first network is judged
/// against: the one the self-play engine names (`eval=zero`: none; a name of the game's), or
/// none named (`None`: the game's default). A network there is refused: the generations
/// play with their own.
fn starting_eval<A: GameAdapter>(t: &TrainSettings) -> Result<Option<String>, Error> {
    let spec = Spec::parse::<A>(t.engine_text()).map_err(Error::Plyforge)?;
    match spec.eval {
        Some(e) if e.starts_with("net:") => Err(Error::settings(
            "--engine: no eval=net: with --generations (each generation plays with the best \
             network so far; the first with the evaluation named, such as eval=zero)",
        )),
        other => Ok(other),
    }
}

/// The match of generation `number`'s network against the best so far (none yet: the
/// gate's engine with the starting evaluation `start`).
fn judge<A: GameAdapter>(
    s: &GenerationSettings,
    number: u64,
    net: &Path,
    best: Option<&Path>,
    start: Option<&str>,
    out: &Path,
    observer: &mut dyn Observer,
) -> Result<Generation, Error> {
    let gate = Spec::parse::<A>(&s.gate_engine).map_err(Error::Plyforge)?;
    let baseline = match (best, start) {
        (None, Some(eval)) => {
            Spec::parse::<A>(&format!("{},eval={eval}", s.gate_engine)).map_err(Error::Plyforge)?
        }
        _ => gate.clone(),
    };
    let settings = MatchSettings {
        specs: vec![
            with_net::<A>(&gate, Some(net))?,
            with_net::<A>(&baseline, best)?,
        ],
        games: Some(s.gate_games),
        time: s.gate_time,
        sprt: Some(s.gate_sprt),
        concurrency: s.gate_concurrency,
        shard: s.train.shard,
        seed: s.train.seed.wrapping_add(number),
        out: Some(beside(out, &format!(".gen{number}.match.jsonl"))),
        resume: true,
        ..MatchSettings::default()
    };
    let mut report = Match::<A>::new(&settings)?.run(observer)?;
    let (figures, verdict) = match settings.shard {
        Some(shard) => wait_for_verdict(&mut report, shard, &settings, observer),
        None => verdict_of(&report),
    };
    Ok(Generation {
        number,
        net: net.to_path_buf(),
        games: figures.games,
        // Points over games: the share of the points (the tally counts points).
        score: figures
            .tally
            .first()
            .map_or(0.0, |t| t.score() / figures.games.max(1) as f64),
        verdict: format!("{verdict:?}"),
        kept: verdict == Verdict::H1,
    })
}

/// A match's figures and its test's verdict.
fn verdict_of(report: &MatchReport) -> (Figures, Verdict) {
    let figures = report.figures();
    let verdict = figures
        .test
        .as_ref()
        .map_or(Verdict::Continue, |t| t.verdict);
    (figures, verdict)
}

/// A worker's wait, once it has played its games of a judging match, for the other workers'
/// games (read from their match files in the folder) until the test is decided or every game
/// is played: every worker then reads the same verdict from the same games.
fn wait_for_verdict(
    report: &mut MatchReport,
    shard: Shard,
    settings: &MatchSettings,
    observer: &mut dyn Observer,
) -> (Figures, Verdict) {
    let all = report.schedule.games_for(None);
    let own = settings.out.clone().unwrap_or_default();
    let mut siblings = Siblings::<MatchFile>::new(&own, WAIT_EVERY);
    let id = report.header.match_id.clone();
    let since = Instant::now();
    observer.progress(Progress::Begin {
        total: all.len() as u64,
        unit: "games",
    });
    loop {
        let (figures, verdict) = verdict_of(report);
        observer.progress(Progress::Played {
            done: report.games.len() as u64,
        });
        let missing: Vec<u64> = all
            .iter()
            .copied()
            .filter(|g| !report.games.contains_key(g))
            .collect();
        if verdict != Verdict::Continue || missing.is_empty() {
            observer.progress(Progress::End);
            return (figures, verdict);
        }
        let workers = missing
            .iter()
            .map(|&g| report.schedule.opening_of(g) % shard.n + 1);
        waiting(
            observer,
            workers,
            shard.n,
            "games of the match",
            since.elapsed(),
        );
        std::thread::sleep(WAIT_EVERY);
        siblings.poll(&id, &mut report.games);
    }
}

/// The games files of generation `k` of every worker of a sharded run: the files of the
/// folder of this worker's (`own`) that end as it does and belong to the same run (the same
/// id in the header), in the order of their names.
fn workers_files(own: &Path, k: u64) -> Result<Vec<PathBuf>, Error> {
    let id_of = |path: &Path| jsonl::header_of::<Games>(path).map(|h| h.id);
    let id = id_of(own).ok_or_else(|| {
        Error::settings(format!(
            "{}: generation {k}'s games are not there (or have no header): --resume needs them",
            own.display()
        ))
    })?;
    let dir = jsonl::folder_of(own);
    let tail = format!(".gen{k}{GAMES_FILE}");
    let entries =
        std::fs::read_dir(&dir).map_err(|e| Error::input(dir.display().to_string(), None, e))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(&tail) && id_of(p).as_ref() == Some(&id))
        .collect();
    files.sort();
    Ok(files)
}
