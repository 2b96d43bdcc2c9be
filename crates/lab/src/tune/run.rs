//! SPSA over a game's declared parameters, by game pairs.
//!
//! Iteration `k` plays `pairs` openings, each in every seat order of the cycle: θ+ against
//! θ− (self-play), or each of them against a fixed opponent. A game's `diff` is θ+'s
//! points less θ−'s in it ([`tunefile::diff`]); the iteration's result is the mean over
//! its pairs of `2 · Σ diff / w`, where `w` counts a game with both points in it once and a
//! game with one of them (against the opponent) a half: θ+'s score less θ−'s per game pair,
//! between −2 and 2.
//!
//! Everything a game depends on follows from the iteration, its index and the settings
//! (opening `k · pairs + j`, seats, seeds, θ±), so a killed run resumes exactly
//! (`resume`), and workers sharing a folder (`shard` K/N) each play the pairs `j` of
//! iteration `k` with `(k · pairs + j) % N == K − 1`, wait for the others' games of the
//! iteration in their files, and compute the same θ.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use plyforge::agent::{Kind, Spec};
use plyforge::params::Param;
use plyforge::search::Limits;
use plyforge::GameAdapter;

use super::params::{choose_params, spec_text, without_keys};
use super::spsa::{self, ParamPlan, Points, Schedule, Spsa};
use super::tunefile::{self, Header, TuneFile, TuneGame};
use crate::book::{self, Openings, Starts};
use crate::error::Error;
use crate::game::{self, Adjudication, Engines, Setup};
use crate::jsonl::{fnv1a, Journal, Opened, Siblings};
use crate::matches::with_match_table;
use crate::observe::{waiting, Observer, Progress};
use crate::runner::play_jobs;
use crate::schedule::{seatings, Shard};

/// What a tuning run tunes and how it plays. Each field is `arena tune`'s option of the
/// same name (`alpha`, `gamma`, `a_ratio` are `--spsa-alpha`, `--spsa-gamma`, `--spsa-a`).
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// `NAME` or `NAME=START` (each may list several, `NAME,NAME`); empty: every declared
    /// parameter.
    pub params: Vec<String>,
    /// The engine whose parameters are tuned (`None`: `engine`).
    pub engine: Option<String>,
    /// A fixed opponent instead of self-play.
    pub opponent: Option<String>,
    /// Iterations.
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs: u64,
    /// Time per move of specifications without a limit.
    pub time: Duration,
    /// Threads per engine.
    pub threads: usize,
    /// A start position (or `random` / `fair`).
    pub position: Option<String>,
    /// Random opening plies (`None`: the game's default, or none from a position or book).
    pub opening: Option<usize>,
    /// An opening book (walked in a seeded random order).
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
}

impl Default for TuneSettings {
    /// `arena tune`'s defaults: every parameter of `engine`, 200 iterations of one pair,
    /// 20 ms per move, Spall's schedule.
    fn default() -> Self {
        TuneSettings {
            params: Vec::new(),
            engine: None,
            opponent: None,
            iterations: 200,
            pairs: 1,
            time: Duration::from_millis(20),
            threads: 1,
            position: None,
            opening: None,
            book: None,
            seed: 1,
            concurrency: 1,
            out: None,
            resume: false,
            shard: None,
            r_end: spsa::R_END,
            alpha: spsa::ALPHA,
            gamma: spsa::GAMMA,
            a_ratio: spsa::A_RATIO,
        }
    }
}

/// How often a worker looks at the other workers' files while it waits.
const WAIT_EVERY: Duration = Duration::from_millis(100);

/// What a run plays, worked out from its settings.
pub struct TunePlan<A: GameAdapter> {
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
    /// Each opening: where it starts and its random plies (distinct where they share a
    /// start).
    pub openings: Openings<A>,
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

/// The settings' numbers in range, and the files they need.
fn check(o: &TuneSettings) -> Result<(), Error> {
    if o.iterations == 0 || o.pairs == 0 {
        return Err(Error::settings(
            "--iterations and --pairs must be at least 1",
        ));
    }
    if o.concurrency == 0 || o.concurrency > 1024 {
        return Err(Error::settings(format!(
            "--concurrency {}: between 1 and 1024",
            o.concurrency
        )));
    }
    if !(o.r_end > 0.0 && o.r_end.is_finite()) {
        return Err(Error::settings("--r-end must be a positive number"));
    }
    if !(o.alpha > 0.0 && o.alpha <= 1.0 && o.gamma > 0.0 && o.gamma <= 1.0 && o.a_ratio >= 0.0) {
        return Err(Error::settings(
            "--spsa-alpha and --spsa-gamma must be in (0, 1], --spsa-a at least 0",
        ));
    }
    if o.resume && o.out.is_none() {
        return Err(Error::settings(
            "--resume continues the run of --out FILE: give it",
        ));
    }
    if o.shard.is_some() && o.out.is_none() {
        return Err(Error::settings(
            "--shard: the workers meet in their files: give --out DIR/FILE.jsonl (one directory for all)",
        ));
    }
    if let Some(path) = &o.out {
        if o.shard.is_some() && path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            return Err(Error::settings(format!(
                "--out {}: a worker's file must end in .jsonl (the workers read each other's .jsonl files)",
                path.display()
            )));
        }
    }
    if o.book.is_some() && o.position.is_some() {
        return Err(Error::settings(
            "--book and --position both give the start: choose one",
        ));
    }
    Ok(())
}

/// The engine whose parameters are tuned, and the opponent.
fn engines<A: GameAdapter>(o: &TuneSettings) -> Result<(Spec, Option<Spec>), Error> {
    let base_text = o.engine.clone().unwrap_or_else(|| "engine".to_string());
    let base = Spec::parse::<A>(&base_text)
        .map_err(|e| Error::settings(format!("--engine {base_text:?}: {}", e.reason())))?;
    if !matches!(base.kind, Kind::Search(_)) {
        return Err(Error::settings(format!(
            "--engine {base_text:?}: tuning needs the search engine (greedy and random players take no parameters)"
        )));
    }
    let opponent = match &o.opponent {
        None => None,
        Some(t) => Some(
            Spec::parse::<A>(t)
                .map_err(|e| Error::settings(format!("--opponent {t:?}: {}", e.reason())))?,
        ),
    };
    Ok((base, opponent))
}

/// Where the openings start, the book's hash, and the random plies of each.
fn openings<A: GameAdapter>(o: &TuneSettings) -> Result<(Starts<A>, Option<u64>, usize), Error> {
    let openings = o.iterations.saturating_mul(o.pairs);
    let (starts, book_hash) = match &o.book {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Error::input(format!("--book {}", path.display()), None, e))?;
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
    Ok((starts, book_hash, opening))
}

/// The settings that decide the run's games, as text: the run's id is its hash.
fn settings_text<A: GameAdapter>(
    o: &TuneSettings,
    base: &str,
    opponent: Option<&Spec>,
    openings: &Openings<A>,
    plans: &[ParamPlan],
    book_hash: Option<u64>,
) -> String {
    let mut settings = format!(
        "game={} engine={:?} opponent={:?} iterations={} pairs={} time={}us threads={} seed={} opening={}{} alpha={} gamma={} a_ratio={}",
        A::NAME,
        base,
        opponent.map(|s| s.text.clone()),
        o.iterations,
        o.pairs,
        o.time.as_micros(),
        o.threads,
        o.seed,
        openings.plies(),
        // Openings drawn distinct: see the match's settings.
        if openings.distinct() { " distinct" } else { "" },
        o.alpha,
        o.gamma,
        o.a_ratio,
    );
    for p in plans {
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
    settings
}

impl<A: GameAdapter> TunePlan<A> {
    /// Checks the settings and works out the plan.
    pub fn new(o: &TuneSettings) -> Result<TunePlan<A>, Error> {
        let (base, opponent) = engines::<A>(o)?;
        let chosen = choose_params::<A>(&base, &o.params)?;
        let names: Vec<&str> = chosen.iter().map(|(p, _)| p.name).collect();
        let base_clean = without_keys(base.text.trim(), &names);
        check(o)?;
        let fallback = Limits::movetime(o.time);
        let (starts, book_hash, opening) = openings::<A>(o)?;
        let openings = Openings::new(starts, opening, o.seed);
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
        let settings = settings_text::<A>(
            o,
            &base_clean,
            opponent.as_ref(),
            &openings,
            &plans,
            book_hash,
        );
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
        Ok(TunePlan {
            base: base_clean,
            params: chosen.into_iter().map(|(p, _)| p).collect(),
            cycle: cycle(A::PLAYERS, opponent.is_some()),
            opponent,
            fallback,
            openings,
            header,
        })
    }

    /// Games per iteration.
    pub fn per_iteration(&self) -> u64 {
        self.cycle.len() as u64 * self.header.pairs
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

/// True when `a` and `b` are the same values (to rounding in the file).
fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + x.abs().max(y.abs())))
}

/// A game of the run known so far, and the file and line it was read from (none for a game
/// played by this process).
struct Known {
    game: TuneGame,
    from: Option<(PathBuf, usize)>,
}

/// A tuning run ready to play: its plan, its file open, the games of a resumed file read.
pub struct Tuning<A: GameAdapter> {
    settings: TuneSettings,
    plan: TunePlan<A>,
    /// The games known: this run's file's, the other workers', and those played now.
    known: BTreeMap<(u64, u64), Known>,
    out: Option<Journal<TuneFile>>,
    siblings: Option<Siblings<TuneFile>>,
    opened: Option<Opened>,
    played: u64,
}

impl<A: GameAdapter> Tuning<A> {
    /// Checks the settings, works out the plan and opens the tune file (a file to resume is
    /// read, and must be this run's and this worker's).
    pub fn new(settings: &TuneSettings) -> Result<Tuning<A>, Error> {
        let plan = TunePlan::<A>::new(settings)?;
        let mut known = BTreeMap::new();
        let (out, opened) = match &settings.out {
            Some(path) => {
                let (journal, games, opened) =
                    Journal::<TuneFile>::open(path, &plan.header, settings.resume)?;
                for (line, game) in games {
                    known.entry((game.iter, game.index)).or_insert(Known {
                        game,
                        from: Some((path.clone(), line)),
                    });
                }
                (Some(journal), Some(opened))
            }
            None => (None, None),
        };
        let siblings = settings
            .out
            .as_ref()
            .filter(|_| settings.shard.is_some())
            .map(|p| Siblings::new(p, WAIT_EVERY));
        Ok(Tuning {
            settings: settings.clone(),
            plan,
            known,
            out,
            siblings,
            opened,
            played: 0,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &TunePlan<A> {
        &self.plan
    }

    /// The settings.
    pub fn settings(&self) -> &TuneSettings {
        &self.settings
    }

    /// How the tune file was opened (`None` without one).
    pub fn opened(&self) -> Option<Opened> {
        self.opened
    }

    /// Plays the iterations (the games not yet in the files), telling `observer` as they
    /// finish, and returns the final values.
    pub fn run(mut self, observer: &mut dyn Observer) -> Result<TuneOutcome, Error> {
        let h = &self.plan.header;
        let mut spsa = Spsa::new(h.params.clone(), h.schedule, h.seed);
        observer.progress(Progress::Begin {
            total: h.schedule.iterations,
            unit: "iterations",
        });
        observer.progress(Progress::Iteration {
            done: 0,
            values: &spsa.theta,
        });
        let started = Instant::now();
        let result = self.iterations(&mut spsa, observer);
        observer.progress(Progress::End);
        result?;
        Ok(TuneOutcome {
            spsa,
            base: self.plan.base.clone(),
            params: self.plan.params.clone(),
            played: self.played,
            elapsed: started.elapsed(),
        })
    }

    /// Every iteration not done: its games played or found, then θ moved.
    fn iterations(&mut self, spsa: &mut Spsa, observer: &mut dyn Observer) -> Result<(), Error> {
        while !spsa.finished() {
            let k = spsa.done;
            let points = spsa.points();
            self.play_iteration(k, &points, observer)?;
            self.wait_for_workers(k, observer)?;
            let diffs = self.diffs(k, &points)?;
            let r = iteration_result(&self.plan.cycle, self.plan.header.pairs, &diffs);
            spsa.update(r);
            observer.progress(Progress::Iteration {
                done: spsa.done,
                values: &spsa.theta,
            });
        }
        Ok(())
    }

    /// The engines of θ+ and θ− (and the opponent) of an iteration.
    fn specs(&self, points: &Points) -> Result<Vec<Spec>, Error> {
        let plan = &self.plan;
        let mut specs = Vec::new();
        for values in [&points.plus, &points.minus] {
            let text = spec_text(&plan.base, &plan.params, values);
            let s = Spec::parse::<A>(&text)
                .map_err(|e| Error::Run(format!("the point {text:?}: {}", e.reason())))?;
            specs.push(with_match_table::<A>(s));
        }
        specs.extend(plan.opponent.clone().map(with_match_table::<A>));
        Ok(specs)
    }

    /// Adds the other workers' new games to those known.
    fn poll(&mut self) {
        let Some(s) = self.siblings.as_mut() else {
            return;
        };
        let known = &mut self.known;
        s.poll_each(&self.plan.header.tune_id, |path, line, game| {
            known.entry((game.iter, game.index)).or_insert(Known {
                game,
                from: Some((path.to_path_buf(), line)),
            });
        });
    }

    /// Plays the games of iteration `k` that this process plays and no file has.
    fn play_iteration(
        &mut self,
        k: u64,
        points: &Points,
        observer: &mut dyn Observer,
    ) -> Result<(), Error> {
        let specs = self.specs(points)?;
        self.poll();
        let (o, plan) = (&self.settings, &self.plan);
        let (pairs, per_iteration) = (plan.header.pairs, plan.per_iteration());
        let cycle_len = plan.cycle.len() as u64;
        let jobs: Vec<u64> = (0..per_iteration)
            .filter(|&i| o.shard.map_or(true, |s| s.has(k * pairs + i / cycle_len)))
            .filter(|&i| !self.known.contains_key(&(k, i)))
            .collect();
        let tune_id = &plan.header.tune_id;
        let setup = Setup {
            match_id: tune_id,
            specs: &specs,
            fallback: plan.fallback,
            threads: o.threads,
            seed: o.seed,
            adjudication: Adjudication::default(),
            clock: None,
        };
        let play_one = |engines: &mut Engines<A>, i: u64| {
            let opening = k * pairs + i / cycle_len;
            let record = plan.openings.get(opening)?;
            let seats = &plan.cycle[(i % cycle_len) as usize];
            game::play::<A>(
                &setup,
                engines,
                k * per_iteration + i,
                opening,
                seats,
                &record,
            )
        };
        let stop = AtomicBool::new(false);
        let mut error: Option<Error> = None;
        let (known, out, played) = (&mut self.known, &mut self.out, &mut self.played);
        let mut finished = |result: Result<crate::matchfile::GameLine, Error>| {
            let line = match result {
                Ok(line) => line,
                Err(e) => {
                    error.get_or_insert(e);
                    return stop.store(true, Ordering::Relaxed);
                }
            };
            observer.progress(Progress::Game {
                line: &line,
                of: per_iteration,
            });
            let g = TuneGame {
                tune_id: tune_id.clone(),
                iter: k,
                index: line.game - k * per_iteration,
                plus: points.plus.clone(),
                minus: points.minus.clone(),
                diff: tunefile::diff(&line),
                game: line,
            };
            if let Some(Err(e)) = out.as_mut().map(|f| f.append(&g)) {
                error.get_or_insert(e);
                stop.store(true, Ordering::Relaxed);
            }
            *played += 1;
            known.entry((g.iter, g.index)).or_insert(Known {
                game: g,
                from: None,
            });
        };
        play_jobs::<A>(
            o.concurrency,
            &jobs,
            specs.len(),
            &stop,
            &play_one,
            &mut finished,
        );
        error.map_or(Ok(()), Err)
    }

    /// Waits for the other workers' games of iteration `k` (an error without workers).
    fn wait_for_workers(&mut self, k: u64, observer: &mut dyn Observer) -> Result<(), Error> {
        let per_iteration = self.plan.per_iteration();
        let cycle_len = self.plan.cycle.len() as u64;
        let since = Instant::now();
        loop {
            let missing: Vec<u64> = (0..per_iteration)
                .filter(|&i| !self.known.contains_key(&(k, i)))
                .collect();
            if missing.is_empty() {
                return Ok(());
            }
            if self.siblings.is_none() {
                return Err(Error::Run(format!(
                    "iteration {} is incomplete and no other worker can finish it",
                    k + 1
                )));
            }
            let n = self.settings.shard.map_or(1, |s| s.n);
            let workers = missing
                .iter()
                .map(|&i| (k * self.plan.header.pairs + i / cycle_len) % n + 1);
            let what = format!("games of iteration {}", k + 1);
            waiting(observer, workers, n, &what, since.elapsed());
            std::thread::sleep(WAIT_EVERY);
            self.poll();
        }
    }

    /// The diffs of iteration `k`'s games, each checked to have been played with the
    /// iteration's values.
    fn diffs(&self, k: u64, points: &Points) -> Result<Vec<f64>, Error> {
        let mut diffs = Vec::new();
        for i in 0..self.plan.per_iteration() {
            let Known { game: g, from } = &self.known[&(k, i)];
            if !same(&g.plus, &points.plus) || !same(&g.minus, &points.minus) {
                let reason = format!(
                    "iteration {} game {} was played with other values ({:?} / {:?}) than this run computes for it ({:?} / {:?})",
                    k + 1,
                    i + 1,
                    g.plus,
                    g.minus,
                    points.plus,
                    points.minus
                );
                return Err(match from {
                    Some((path, line)) => Error::input(shown(path), Some(*line), reason),
                    None => Error::Run(reason),
                });
            }
            diffs.push(g.diff);
        }
        Ok(diffs)
    }
}

/// A file's name as messages show it.
fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// The final state of a run: θ after its iterations, and its path.
#[derive(Clone, Debug)]
pub struct TuneOutcome {
    /// The run.
    pub spsa: Spsa,
    /// The base spec's text (without the tuned keys).
    pub base: String,
    /// The parameters.
    pub params: Vec<Param>,
    /// Games played by this process.
    pub played: u64,
    /// This process's wall time.
    pub elapsed: Duration,
}

impl TuneOutcome {
    /// The tuned engine's specification.
    pub fn tuned_spec(&self) -> String {
        spec_text(&self.base, &self.params, &self.spsa.theta)
    }

    /// The engine's specification at the start values.
    pub fn start_spec(&self) -> String {
        let start: Vec<f64> = self.spsa.params.iter().map(|p| p.start).collect();
        spec_text(&self.base, &self.params, &start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchfile::{Ending, GameLine};

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
    fn an_iteration_scores_per_pair() {
        let diff = tunefile::diff;
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
}
