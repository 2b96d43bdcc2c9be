//! `arena tune GAME`: SPSA over the game's declared parameters, by game pairs.
//!
//! Iteration `k` plays `pairs` openings, each in every seat order of the cycle: θ+ against
//! θ− (self-play), or each of them against a fixed opponent. A game's `diff` is θ+'s
//! points less θ−'s in it (a win 1, a loss 0, anything else ½; a spec in two seats of a
//! three-player game gets the mean of its seats); the iteration's result is the mean over
//! its pairs of `2 · Σ diff / w`, where `w` counts a game with both points in it once and a
//! game with one of them (against the opponent) a half: θ+'s score less θ−'s per game pair,
//! between −2 and 2.
//!
//! Everything a game depends on follows from the iteration, its index and the settings
//! (opening `k · pairs + j`, seats, seeds, θ±), so a killed run resumes exactly
//! (`--resume`), and `--shard K/N` workers sharing a directory each play the pairs `j` of
//! iteration `k` with `(k · pairs + j) % N == K − 1`, wait for the others' games of the
//! iteration in their files, and compute the same θ.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use plyforge::agent::{Kind, Spec};
use plyforge::duration::{parse_duration, show_duration};
use plyforge::params::{search_params, show_number, Param};
use plyforge::search::rng::XorShift64Star as Rng;
use plyforge::search::{Limits, Record};
use plyforge::GameAdapter;

use super::spsa::{ParamPlan, Schedule, Spsa};
use super::tunefile::{self, Header, Line, TuneGame};
use crate::draw::{paint, Paint};
use crate::fail::{outln, Fail};
use crate::matchup::book::{self, Starts};
use crate::matchup::game::{self, Adjudication, Engines, Setup};
use crate::matchup::matchfile::{Ending, GameLine};
use crate::matchup::schedule::{seatings, Shard};
use crate::matchup::{fnv1a, open_lines, play_jobs, progress_bar_of, with_match_table, Siblings};

/// The options of `arena tune` (SPSA).
#[derive(Clone, Debug)]
pub(crate) struct TuneOptions {
    /// `--param NAME` or `NAME=START` (empty: every declared parameter).
    pub params: Vec<String>,
    /// The engine whose parameters are tuned (default `engine`).
    pub engine: Option<String>,
    /// A fixed opponent instead of self-play.
    pub opponent: Option<String>,
    /// Iterations.
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs: u64,
    /// Time per move of specs without a limit.
    pub time: String,
    /// Threads per engine.
    pub threads: usize,
    /// A start position (or `random`/`fair`).
    pub position: Option<String>,
    /// Random opening plies.
    pub opening: Option<usize>,
    /// An opening book.
    pub book: Option<PathBuf>,
    /// The seed.
    pub seed: u64,
    /// Games at once.
    pub concurrency: usize,
    /// The tune file.
    pub out: Option<PathBuf>,
    /// Continue the run of `out`.
    pub resume: bool,
    /// This worker's slice.
    pub shard: Option<Shard>,
    /// The learning rate at the end.
    pub r_end: f64,
    /// Spall's α.
    pub alpha: f64,
    /// Spall's γ.
    pub gamma: f64,
    /// A as a fraction of the iterations.
    pub a_ratio: f64,
    /// No line per iteration.
    pub quiet: bool,
    /// Verify the result by an SPRT match.
    pub verify: Option<super::verify::VerifyOptions>,
    /// Draw the run here.
    pub svg: Option<PathBuf>,
}

/// How often a worker looks at the other workers' files while it waits.
const WAIT_EVERY: Duration = Duration::from_millis(100);

/// The parameters a run can tune with this base spec: the evaluation's, and the search's
/// own for its algorithm.
pub(crate) fn available<A: GameAdapter>(base: &Spec) -> Vec<Param> {
    let mut all = A::params();
    all.extend(search_params(&base.config::<A>(None)));
    all
}

/// The value a base spec gives a parameter, if it sets it.
fn base_value(base: &Spec, p: &Param) -> Option<f64> {
    match p.name {
        "c" => base.exploration,
        "bias" => base.bias,
        "scale" => base.scale,
        "playout" => base.playout.map(f64::from),
        name => base
            .params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v),
    }
}

/// The spec text without the keys of `names` (so that the tuned values are the only ones).
pub(crate) fn without_keys(text: &str, names: &[&str]) -> String {
    text.split(',')
        .map(str::trim)
        .filter(|part| {
            let key = part.split_once('=').map_or(*part, |(k, _)| k.trim());
            !names.contains(&key)
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The spec text of `base` with the parameters set to `values` (rounded as played).
pub(crate) fn spec_text(base: &str, params: &[Param], values: &[f64]) -> String {
    let mut s = base.to_string();
    for (p, &v) in params.iter().zip(values) {
        s.push_str(&format!(",{}={}", p.name, p.show(p.used(v))));
    }
    s
}

/// The parameters chosen by `--param` (all by default) with their start values.
pub(crate) fn choose_params<A: GameAdapter>(
    base: &Spec,
    wanted: &[String],
) -> Result<Vec<(Param, f64)>, Fail> {
    let all = available::<A>(base);
    if all.is_empty() {
        return Err(Fail::usage(format!(
            "{} has no tunable parameters{}",
            A::TITLE,
            if base.kind == Kind::Search(Some(plyforge::search::Algorithm::Mcts)) {
                String::new()
            } else {
                " (its evaluation declares none; an mcts engine has the search's own: c, bias, scale, playout)".to_string()
            }
        )));
    }
    let names = || all.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
    let mut chosen: Vec<(Param, f64)> = Vec::new();
    if wanted.is_empty() {
        for p in &all {
            let start = base_value(base, p).unwrap_or(p.default);
            chosen.push((p.clone(), start));
        }
        return Ok(chosen);
    }
    for w in wanted {
        for item in w.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = match item.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim())),
                None => (item, None),
            };
            let Some(p) = all.iter().find(|p| p.name == name) else {
                return Err(Fail::usage(format!(
                    "--param {item}: {} has no parameter {name:?} (its parameters: {})",
                    A::TITLE,
                    names()
                )));
            };
            if chosen.iter().any(|(q, _)| q.name == name) {
                return Err(Fail::usage(format!("--param {name}: given twice")));
            }
            let start = match value {
                Some(v) => p
                    .parse(v)
                    .map_err(|e| Fail::usage(format!("--param {e}")))?,
                None => base_value(base, p).unwrap_or(p.default),
            };
            chosen.push((p.clone(), start));
        }
    }
    Ok(chosen)
}

/// What a run plays: the base, the parameters, the cycle, the starts.
pub(crate) struct Plan<A: GameAdapter> {
    /// The base spec's text without the tuned keys.
    pub base: String,
    /// The parameters.
    pub params: Vec<Param>,
    /// The opponent's spec.
    pub opponent: Option<Spec>,
    /// The seat orders of one opening: spec indices (0 θ+, 1 θ−, 2 the opponent).
    pub cycle: Vec<Vec<usize>>,
    /// Limits of specs without their own.
    pub fallback: Limits,
    /// Where openings start.
    pub starts: Starts<A>,
    /// Random opening plies.
    pub opening: usize,
    /// The header of the tune file.
    pub header: Header,
}

/// The seat orders: θ+ against θ− in every seating, or each against the opponent.
fn cycle(players: usize, opponent: bool) -> Vec<Vec<usize>> {
    match (players, opponent) {
        (2, true) => vec![vec![0, 2], vec![2, 0], vec![1, 2], vec![2, 1]],
        (p, true) => seatings(p, 3),
        (p, false) => seatings(p, 2),
    }
}

/// Checks the options and works out the [`Plan`].
pub(crate) fn plan<A: GameAdapter>(o: &TuneOptions) -> Result<Plan<A>, Fail> {
    let base_text = o.engine.clone().unwrap_or_else(|| "engine".to_string());
    let base = Spec::parse::<A>(&base_text)
        .map_err(|e| Fail::usage(format!("--engine {base_text:?}: {}", e.reason())))?;
    if !matches!(base.kind, Kind::Search(_)) {
        return Err(Fail::usage(format!(
            "--engine {base_text:?}: tuning needs the search engine (greedy and random players take no parameters)"
        )));
    }
    let chosen = choose_params::<A>(&base, &o.params)?;
    let names: Vec<&str> = chosen.iter().map(|(p, _)| p.name).collect();
    let base_clean = without_keys(base.text.trim(), &names);
    let opponent = match &o.opponent {
        None => None,
        Some(t) => Some(
            Spec::parse::<A>(t)
                .map_err(|e| Fail::usage(format!("--opponent {t:?}: {}", e.reason())))?,
        ),
    };
    if o.iterations == 0 || o.pairs == 0 {
        return Err(Fail::usage("--iterations and --pairs must be at least 1"));
    }
    if o.concurrency == 0 || o.concurrency > 1024 {
        return Err(Fail::usage(format!(
            "--concurrency {}: between 1 and 1024",
            o.concurrency
        )));
    }
    if !(o.r_end > 0.0 && o.r_end.is_finite()) {
        return Err(Fail::usage("--r-end must be a positive number"));
    }
    if !(o.alpha > 0.0 && o.alpha <= 1.0 && o.gamma > 0.0 && o.gamma <= 1.0 && o.a_ratio >= 0.0) {
        return Err(Fail::usage(
            "--spsa-alpha and --spsa-gamma must be in (0, 1], --spsa-a at least 0",
        ));
    }
    if o.resume && o.out.is_none() {
        return Err(Fail::usage(
            "--resume continues the run of --out FILE: give it",
        ));
    }
    if o.shard.is_some() && o.out.is_none() {
        return Err(Fail::usage(
            "--shard: the workers meet in their files: give --out DIR/FILE.jsonl (one directory for all)",
        ));
    }
    if let Some(path) = &o.out {
        if o.shard.is_some() && path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            return Err(Fail::usage(format!(
                "--out {}: a worker's file must end in .jsonl (the workers read each other's .jsonl files)",
                path.display()
            )));
        }
    }
    let time = parse_duration(&o.time).map_err(|e| Fail::usage(format!("--time: {e}")))?;
    let fallback = Limits::movetime(time.max(Duration::from_millis(1)));
    if o.book.is_some() && o.position.is_some() {
        return Err(Fail::usage(
            "--book and --position both give the start: choose one",
        ));
    }
    let openings = o.iterations.saturating_mul(o.pairs);
    let (starts, book_hash) = match &o.book {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Fail::usage(format!("--book {}: {e}", path.display())))?;
            (
                Starts::<A>::book(path, book::Order::Random, o.seed, openings)?,
                Some(fnv1a(&bytes)),
            )
        }
        None => (
            Starts::<A>::from_position(o.position.as_deref(), o.seed)?,
            None,
        ),
    };
    let opening = o
        .opening
        .unwrap_or(if starts.is_fixed() || starts.is_book() {
            0
        } else {
            A::default_opening_plies()
        });
    let schedule = Schedule {
        iterations: o.iterations,
        alpha: o.alpha,
        gamma: o.gamma,
        a_ratio: o.a_ratio,
    };
    let plans: Vec<ParamPlan> = chosen
        .iter()
        .map(|(p, start)| ParamPlan {
            name: p.name.to_string(),
            start: *start,
            min: p.min,
            max: p.max,
            c_end: p.step,
            r_end: o.r_end,
            integer: p.integer,
        })
        .collect();
    let mut settings = format!(
        "game={} engine={:?} opponent={:?} iterations={} pairs={} time={}us threads={} seed={} opening={} alpha={} gamma={} a_ratio={}",
        A::NAME,
        base_clean,
        opponent.as_ref().map(|s| s.text.clone()),
        o.iterations,
        o.pairs,
        time.as_micros(),
        o.threads,
        o.seed,
        opening,
        o.alpha,
        o.gamma,
        o.a_ratio,
    );
    for p in &plans {
        settings.push_str(&format!(
            " {}={}:{}..{}:c{}:r{}",
            p.name, p.start, p.min, p.max, p.c_end, p.r_end
        ));
    }
    if let Some(p) = &o.position {
        settings.push_str(&format!(" position={:?}", p.trim()));
    }
    if let Some(h) = book_hash {
        settings.push_str(&format!(" book={h:016x}"));
    }
    let header = Header {
        tune_id: format!("{:016x}", fnv1a(settings.as_bytes())),
        game: A::NAME.to_string(),
        engine: base_clean.clone(),
        opponent: opponent.as_ref().map(|s| s.text.clone()),
        params: plans,
        schedule,
        pairs: o.pairs,
        seed: o.seed,
        shard: o.shard,
        settings,
    };
    Ok(Plan {
        base: base_clean,
        params: chosen.into_iter().map(|(p, _)| p).collect(),
        cycle: cycle(A::PLAYERS, opponent.is_some()),
        opponent,
        fallback,
        starts,
        opening,
        header,
    })
}

/// θ+'s points less θ−'s in a finished game: a win 1, a loss 0, anything else ½, the mean
/// over a spec's seats; a point not in the game counts as 0 against the other's points
/// less ½.
pub(crate) fn diff(line: &GameLine) -> f64 {
    let points = |seat: usize| match line.ending {
        Ending::Win(w) if w == seat => 1.0,
        Ending::Win(_) => 0.0,
        _ => 0.5,
    };
    let mean = |spec: usize| -> Option<f64> {
        let seats: Vec<usize> = (0..line.seats.len())
            .filter(|&s| line.seats[s] == spec)
            .collect();
        (!seats.is_empty())
            .then(|| seats.iter().map(|&s| points(s)).sum::<f64>() / seats.len() as f64)
    };
    match (mean(0), mean(1)) {
        (Some(p), Some(m)) => p - m,
        (Some(p), None) => p - 0.5,
        (None, Some(m)) => 0.5 - m,
        (None, None) => 0.0,
    }
}

/// The weight of a game of the cycle: 1 when both points play in it, ½ when one does.
fn weight(seats: &[usize]) -> f64 {
    if seats.contains(&0) && seats.contains(&1) {
        1.0
    } else {
        0.5
    }
}

/// The result of an iteration from its games' diffs (in game order).
pub(crate) fn iteration_result(cycle: &[Vec<usize>], pairs: u64, diffs: &[f64]) -> f64 {
    let w: f64 = cycle.iter().map(|s| weight(s)).sum();
    let per_pair: f64 = diffs.iter().sum::<f64>() * 2.0 / w;
    per_pair / pairs as f64
}

/// The games of a run known so far: its file's and (for a worker) the other workers'.
struct Known {
    games: BTreeMap<(u64, u64), TuneGame>,
}

impl Known {
    fn insert(&mut self, g: TuneGame) {
        self.games.entry((g.iter, g.index)).or_insert(g);
    }
}

/// Reads the tune file to resume: the header must be this run's; returns its games and the
/// length of its complete lines.
fn read_resumed(path: &Path, header: &Header) -> Result<Option<(Vec<TuneGame>, u64)>, Fail> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Fail::runtime(format!("--out {}: {e}", path.display()))),
    };
    let (lines, complete) = tunefile::parse_text(&text)
        .map_err(|(n, e)| Fail::usage(format!("--resume: {} line {n}: {e}", path.display())))?;
    let mut games = Vec::new();
    for (n, line) in lines {
        match line {
            Line::Header(h) => {
                if h.tune_id != header.tune_id {
                    return Err(Fail::usage(format!(
                        "--resume: {} holds tuning run {} ({}), but these options make run {} ({})",
                        path.display(),
                        h.tune_id,
                        h.settings,
                        header.tune_id,
                        header.settings
                    )));
                }
                if h.shard != header.shard {
                    let show = |s: Option<Shard>| s.map_or("none".to_string(), |s| s.to_string());
                    return Err(Fail::usage(format!(
                        "--resume: {} was written by worker {}, not {}",
                        path.display(),
                        show(h.shard),
                        show(header.shard)
                    )));
                }
            }
            Line::Game(g) => {
                if g.tune_id != header.tune_id {
                    return Err(Fail::usage(format!(
                        "--resume: {} line {n} belongs to run {}, not {}",
                        path.display(),
                        g.tune_id,
                        header.tune_id
                    )));
                }
                games.push(*g);
            }
        }
    }
    Ok(Some((games, complete as u64)))
}

/// The final state of a run: θ after its iterations, and its path.
pub(crate) struct Outcome {
    /// The run.
    pub spsa: Spsa,
    /// The base spec's text (without the tuned keys).
    pub base: String,
    /// The parameters.
    pub params: Vec<Param>,
    /// Games played now.
    pub played: u64,
}

impl Outcome {
    /// The tuned engine's specification.
    pub(crate) fn tuned_spec(&self) -> String {
        spec_text(&self.base, &self.params, &self.spsa.theta)
    }

    /// The engine's specification at the start values.
    pub(crate) fn start_spec(&self) -> String {
        let start: Vec<f64> = self.spsa.params.iter().map(|p| p.start).collect();
        spec_text(&self.base, &self.params, &start)
    }
}

/// Says what is about to happen: the run, and the schedule's values per parameter.
fn announce<A: GameAdapter>(o: &TuneOptions, plan: &Plan<A>, resumed_games: usize) {
    let h = &plan.header;
    let s = &h.schedule;
    let games = plan.cycle.len() as u64 * h.pairs;
    outln!(
        "{} tune (SPSA): {} iterations of {} game{} ({} pair{} x {} seat orders), {}",
        paint(A::TITLE, Paint::Bold),
        s.iterations,
        games,
        if games == 1 { "" } else { "s" },
        h.pairs,
        if h.pairs == 1 { "" } else { "s" },
        plan.cycle.len(),
        match &plan.opponent {
            Some(opp) => format!("theta+ and theta- each against {}", opp.text),
            None => "theta+ against theta-".to_string(),
        }
    );
    outln!(
        "  engine: {} (time {} per move unless it says)",
        plan.base,
        o.time
    );
    outln!(
        "  schedule: alpha {} gamma {} A {} ({} of the iterations); a_k = a/(A+k+1)^alpha, c_k = c/(k+1)^gamma",
        show_number(s.alpha),
        show_number(s.gamma),
        show_number(s.big_a()),
        show_number(s.a_ratio)
    );
    outln!(
        "  {:<20} {:>9} {:>19} {:>8} {:>7} {:>9} {:>10}",
        "parameter",
        "start",
        "range",
        "c_end",
        "r_end",
        "c",
        "a"
    );
    for (p, plan_p) in plan.params.iter().zip(&h.params) {
        outln!(
            "  {:<20} {:>9} {:>19} {:>8} {:>7} {:>9} {:>10}",
            p.name,
            show_number(plan_p.start),
            format!("{}..{}", p.show(p.min), p.show(p.max)),
            show_number(plan_p.c_end),
            show_number(plan_p.r_end),
            show_number(s.c(plan_p)),
            show_number(s.a(plan_p)),
        );
    }
    if let Some(shard) = h.shard {
        outln!("  worker {shard}: the pairs of each iteration whose opening is its own");
    }
    if let Some(path) = &o.out {
        if resumed_games > 0 {
            outln!(
                "  games to {} (run {}; {} games there already)",
                path.display(),
                h.tune_id,
                resumed_games
            );
        } else {
            outln!("  games to {} (run {})", path.display(), h.tune_id);
        }
    }
}

/// The values as `name=value` pairs for the progress bar.
fn values_text(params: &[Param], theta: &[f64]) -> String {
    params
        .iter()
        .zip(theta)
        .map(|(p, &v)| {
            format!(
                "{}={}",
                p.name,
                if p.integer {
                    format!("{v:.1}")
                } else {
                    show_number(v)
                }
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// True when `a` and `b` are the same values (to rounding in the file).
fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + x.abs().max(y.abs())))
}

/// Runs `arena tune` (SPSA): plays the iterations not yet in the files, and returns the
/// final state.
pub(crate) fn run_spsa<A: GameAdapter>(o: &TuneOptions) -> Result<Outcome, Fail> {
    let plan = plan::<A>(o)?;
    let header = &plan.header;
    // The games known: this run's file (when resuming) and, for a worker, the others'.
    let mut known = Known {
        games: BTreeMap::new(),
    };
    let resumed = match &o.out {
        Some(path) if o.resume => read_resumed(path, header)?,
        Some(path) => {
            if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
                return Err(Fail::usage(format!(
                    "--out {}: the file exists (--resume continues its run; or remove it)",
                    path.display()
                )));
            }
            None
        }
        None => None,
    };
    let resumed_games = resumed.as_ref().map_or(0, |(g, _)| g.len());
    let complete = resumed.as_ref().map(|(_, c)| *c);
    for g in resumed.map(|(g, _)| g).unwrap_or_default() {
        known.insert(g);
    }
    let mut out = match &o.out {
        Some(path) => Some(open_lines(path, &tunefile::header_json(header), complete)?),
        None => None,
    };
    let mut siblings = o
        .out
        .as_ref()
        .filter(|_| o.shard.is_some())
        .map(|p| Siblings::new(p, WAIT_EVERY));
    let tune_id = header.tune_id.clone();
    let poll = |known: &mut Known, siblings: &mut Option<Siblings>| {
        if let Some(s) = siblings.as_mut() {
            s.poll(|line| {
                if let Ok(Line::Game(g)) = tunefile::parse_line(line) {
                    if g.tune_id == tune_id {
                        known.insert(*g);
                    }
                }
            });
        }
    };
    announce(o, &plan, resumed_games);

    let mut spsa = Spsa::new(header.params.clone(), header.schedule, header.seed);
    let per_iteration = plan.cycle.len() as u64 * header.pairs;
    let bar = progress_bar_of(header.schedule.iterations as usize, "iterations");
    bar.set_message(values_text(&plan.params, &spsa.theta));
    let started = Instant::now();
    let mut played = 0u64;
    let stop = AtomicBool::new(false);
    let mut error: Option<Fail> = None;
    while !spsa.finished() {
        let k = spsa.done;
        let points = spsa.points();
        let plus = spec_text(&plan.base, &plan.params, &points.plus);
        let minus = spec_text(&plan.base, &plan.params, &points.minus);
        let mut specs = Vec::new();
        for text in [&plus, &minus] {
            let s = Spec::parse::<A>(text)
                .map_err(|e| Fail::runtime(format!("the point {text:?}: {}", e.reason())))?;
            specs.push(with_match_table::<A>(s));
        }
        specs.extend(plan.opponent.clone().map(with_match_table::<A>));
        // The games of this iteration that this process plays and no file has.
        poll(&mut known, &mut siblings);
        let cycle_len = plan.cycle.len() as u64;
        let jobs: Vec<u64> = (0..per_iteration)
            .filter(|&i| {
                let opening = k * header.pairs + i / cycle_len;
                o.shard.map_or(true, |s| s.has(opening))
            })
            .filter(|&i| !known.games.contains_key(&(k, i)))
            .collect();
        let setup = Setup {
            match_id: &tune_id,
            specs: &specs,
            fallback: plan.fallback,
            threads: o.threads,
            seed: o.seed,
            adjudication: Adjudication::default(),
        };
        let play_one = |engines: &mut Engines<A>, i: u64| {
            let opening = k * header.pairs + i / cycle_len;
            let mut record = Record::<A::Pos>::new(plan.starts.start(opening));
            let mut rng = Rng::seeded(o.seed.wrapping_mul(1_000_003).wrapping_add(opening));
            book::play_opening::<A>(&mut record, plan.opening, &mut rng);
            let g = k * per_iteration + i;
            game::play::<A>(
                &setup,
                engines,
                g,
                opening,
                &plan.cycle[(i % cycle_len) as usize],
                &record,
            )
        };
        play_jobs::<A>(
            o.concurrency,
            &jobs,
            specs.len(),
            &stop,
            &play_one,
            &mut |result| match result {
                Ok(line) => {
                    let index = line.game - k * per_iteration;
                    let g = TuneGame {
                        tune_id: tune_id.clone(),
                        iter: k,
                        index,
                        plus: points.plus.clone(),
                        minus: points.minus.clone(),
                        diff: diff(&line),
                        game: line,
                    };
                    if let Some(f) = out.as_mut() {
                        if let Err(e) =
                            writeln!(f, "{}", tunefile::game_json(&g)).and_then(|()| f.flush())
                        {
                            error.get_or_insert(Fail::runtime(format!(
                                "writing the tune file: {e}"
                            )));
                            stop.store(true, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                    played += 1;
                    known.insert(g);
                }
                Err(e) => {
                    error.get_or_insert(e);
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            },
        );
        if let Some(e) = error.take() {
            bar.finish_and_clear();
            return Err(e);
        }
        // Wait for the other workers' games of this iteration.
        let mut waiting_since: Option<Instant> = None;
        let mut said = Duration::ZERO;
        loop {
            let missing: Vec<u64> = (0..per_iteration)
                .filter(|&i| !known.games.contains_key(&(k, i)))
                .collect();
            if missing.is_empty() {
                break;
            }
            if siblings.is_none() {
                return Err(Fail::runtime(format!(
                    "iteration {} is incomplete and no other worker can finish it",
                    k + 1
                )));
            }
            // Which workers it waits for, on the bar, and now and then as a line (a worker
            // that is not running holds every other one here).
            let since = *waiting_since.get_or_insert_with(Instant::now);
            let n = o.shard.map_or(1, |s| s.n);
            let mut workers: Vec<u64> = missing
                .iter()
                .map(|&i| (k * header.pairs + i / cycle_len) % n + 1)
                .collect();
            workers.sort_unstable();
            workers.dedup();
            let text = format!(
                "waiting for worker {} (games of iteration {})",
                workers
                    .iter()
                    .map(|w| format!("{w}/{n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                k + 1
            );
            bar.set_message(text.clone());
            if since.elapsed() >= said + Duration::from_secs(60) {
                said += Duration::from_secs(60);
                bar.suspend(|| eprintln!("arena: {text} for {}", show_duration(since.elapsed())));
            }
            std::thread::sleep(WAIT_EVERY);
            poll(&mut known, &mut siblings);
        }
        let mut diffs = Vec::new();
        for i in 0..per_iteration {
            let g = &known.games[&(k, i)];
            if !same(&g.plus, &points.plus) || !same(&g.minus, &points.minus) {
                bar.finish_and_clear();
                return Err(Fail::runtime(format!(
                    "iteration {} game {} was played with other values ({:?} / {:?}, here {:?} / {:?}): a file of another arena version?",
                    k + 1,
                    i + 1,
                    g.plus,
                    g.minus,
                    points.plus,
                    points.minus
                )));
            }
            diffs.push(g.diff);
        }
        spsa.update(iteration_result(&plan.cycle, header.pairs, &diffs));
        bar.set_message(values_text(&plan.params, &spsa.theta));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let outcome = Outcome {
        spsa,
        base: plan.base.clone(),
        params: plan.params.clone(),
        played,
    };
    report(o, A::NAME, &outcome, started.elapsed());
    Ok(outcome)
}

/// The final values: a table and the engine specification.
fn report(o: &TuneOptions, game: &str, r: &Outcome, elapsed: Duration) {
    let s = &r.spsa;
    outln!();
    outln!(
        "{} iterations done ({} games played now, in {})",
        s.done,
        r.played,
        show_duration(elapsed)
    );
    outln!(
        "  {:<20} {:>10} {:>12} {:>10}",
        "parameter",
        "start",
        "theta",
        "tuned"
    );
    for (i, p) in r.params.iter().enumerate() {
        outln!(
            "  {:<20} {:>10} {:>12} {:>10}",
            p.name,
            p.show(s.params[i].start),
            show_number(s.theta[i]),
            p.show(p.used(s.theta[i]))
        );
    }
    outln!("tuned: {}", paint(&r.tuned_spec(), Paint::Bold));
    if !o.quiet {
        outln!(
            "(as an engine: arena match {game} --engine '{}' --engine '{}')",
            r.tuned_spec(),
            r.start_spec()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(seats: Vec<usize>, ending: Ending) -> GameLine {
        GameLine {
            match_id: "0123456789abcdef".to_string(),
            game: 0,
            opening: 0,
            engines: vec![String::new(); seats.len()],
            seats,
            ending,
            result: String::new(),
            adjudicated: None,
            places: vec![],
            start: String::new(),
            opening_moves: vec![],
            moves: vec![],
            time_ms: vec![],
            nodes: vec![],
            scores: vec![],
            setup_ms: 0.0,
            wall_ms: 0.0,
        }
    }

    #[test]
    fn a_game_scores_theta_plus_less_theta_minus() {
        assert_eq!(diff(&line(vec![0, 1], Ending::Win(0))), 1.0);
        assert_eq!(diff(&line(vec![1, 0], Ending::Win(0))), -1.0);
        assert_eq!(diff(&line(vec![0, 1], Ending::Draw)), 0.0);
        // Against the opponent (spec 2): θ+'s points less ½, or ½ less θ−'s.
        assert_eq!(diff(&line(vec![0, 2], Ending::Win(0))), 0.5);
        assert_eq!(diff(&line(vec![2, 1], Ending::Win(0))), 0.5);
        assert_eq!(diff(&line(vec![2, 1], Ending::Draw)), 0.0);
        // Three players, θ− in two seats: the mean of its seats.
        assert_eq!(diff(&line(vec![1, 0, 1], Ending::Win(2))), -0.5);
        assert_eq!(diff(&line(vec![1, 0, 1], Ending::Win(1))), 1.0);
    }

    #[test]
    fn an_iteration_scores_per_pair() {
        let self_play = cycle(2, false);
        // θ+ wins both games of its one pair: +2.
        assert_eq!(iteration_result(&self_play, 1, &[1.0, 1.0]), 2.0);
        // Two pairs, one won and one split: (2 + 0) / 2.
        assert_eq!(iteration_result(&self_play, 2, &[1.0, 1.0, 1.0, -1.0]), 1.0);
        // Against an opponent: θ+ wins both, θ− loses both: +2 per pair.
        let opp = cycle(2, true);
        assert_eq!(iteration_result(&opp, 1, &[0.5, 0.5, 0.5, 0.5]), 2.0);
        // Three players: θ+ wins all six games of the cycle; where it holds two seats one of them
        // won, half of its seats: (3 · 1 + 3 · ½) · 2 / 6.
        let three = cycle(3, false);
        let all: Vec<f64> = three
            .iter()
            .map(|s| {
                diff(&line(
                    s.clone(),
                    Ending::Win(s.iter().position(|&x| x == 0).unwrap()),
                ))
            })
            .collect();
        assert_eq!(iteration_result(&three, 1, &all), 1.5);
    }

    #[test]
    fn parameters_are_chosen_by_name_with_their_start_values() {
        use crate::tune::testgame::{Plain, TwoGame};
        let engine = Spec::parse::<TwoGame>("engine,depth=2,wb=30").unwrap();
        let all = choose_params::<TwoGame>(&engine, &[]).unwrap();
        let starts: Vec<(&str, f64)> = all.iter().map(|(p, v)| (p.name, *v)).collect();
        assert_eq!(
            starts,
            [("wa", 10.0), ("wb", 30.0)],
            "the spec's value is the start"
        );
        let one = choose_params::<TwoGame>(&engine, &["wa=12".to_string()]).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].1, 12.0);
        let msg = |r: Result<Vec<(Param, f64)>, Fail>| r.expect_err("refused").to_string();
        let e = msg(choose_params::<TwoGame>(&engine, &["wc".to_string()]));
        assert!(
            e.contains("no parameter \"wc\"") && e.contains("wa, wb"),
            "{e}"
        );
        let e = msg(choose_params::<TwoGame>(&engine, &["wa=500".to_string()]));
        assert!(e.contains("between 0 and 100"), "{e}");
        let e = msg(choose_params::<TwoGame>(&engine, &["wa,wa".to_string()]));
        assert!(e.contains("given twice"), "{e}");
        let plain = Spec::parse::<Plain>("engine").unwrap();
        let e = msg(choose_params::<Plain>(&plain, &[]));
        assert!(e.contains("Plain has no tunable parameters"), "{e}");
        // An mcts engine has the search's own parameters, whatever the game.
        let mcts = Spec::parse::<Plain>("mcts,c=0.8").unwrap();
        let m = choose_params::<Plain>(&mcts, &[]).unwrap();
        assert_eq!(m[0].0.name, "c");
        assert_eq!(m[0].1, 0.8);
    }

    #[test]
    fn spec_texts_drop_the_tuned_keys_and_set_them() {
        assert_eq!(
            without_keys("engine, depth=3 ,material=300,eval=default", &["material"]),
            "engine,depth=3,eval=default"
        );
        let p = [
            Param::int("material", 300, 0, 1000, 40, ""),
            Param::real("c", 0.4, 0.0, 4.0, 0.1, ""),
        ];
        assert_eq!(
            spec_text("mcts,nodes=100", &p, &[312.6, 0.45]),
            "mcts,nodes=100,material=313,c=0.45"
        );
    }
}
