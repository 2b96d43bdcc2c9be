//! A match: engine specifications play each other from openings with the seats rotated,
//! several games at once, every game written to a match file that a killed match resumes
//! from and that [`merge`](crate::merge) combines across the shards of one match; at the
//! end a [`MatchReport`] with the table (Elo, and for two engines the pentanomial,
//! normalised Elo and the SPRT).
//!
//! [`MatchSettings`] say what to play; [`Match::new`] checks them, works out the plan
//! (specifications, schedule, starts, the match file's header) and opens the files;
//! [`Match::run`] plays.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use plyforge::agent::Spec;
use plyforge::search::{Limits, Record};
use plyforge::GameAdapter;

use crate::book::{self, Openings, Starts};
use crate::error::Error;
use crate::game::{self, Adjudication};
use crate::jsonl::{self, fnv1a, Journal, Opened, Siblings};
use crate::matchfile::{GameLine, Header, MatchFile};
use crate::observe::{Observer, Progress};
use crate::runner::play_jobs;
use crate::schedule::{seatings, Schedule, Shard};
use crate::sprt::Sprt;
use crate::summary::{self, Context, Emphasis, Figures, TestTracker};

/// What a match plays, and where its games go. Each field is `arena match`'s option of the
/// same name.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Engine specifications (empty: the game's default match).
    pub engines: Vec<String>,
    /// Engine specifications already parsed for the game (a program that makes its
    /// engines, such as the generations of a training run, hands them over typed); when
    /// not empty they are the match's engines and `engines` is not read.
    pub specs: Vec<Spec>,
    /// The most games; `None`: 10, or 10,000 with a test.
    pub games: Option<usize>,
    /// Time per move of specifications without a limit of their own.
    pub time: Duration,
    /// Threads of specifications without a thread count of their own.
    pub threads: usize,
    /// A start position for every game (or `random` / `fair`: one per opening).
    pub position: Option<String>,
    /// Random opening plies per opening (`None`: the game's default, or none from a
    /// position or a book).
    pub opening: Option<usize>,
    /// The seed of openings, book order, random starts and random players.
    pub seed: u64,
    /// A text record of the games (start, result, moves).
    pub record: Option<PathBuf>,
    /// Games at once.
    pub concurrency: usize,
    /// An opening book: one position per line.
    pub book: Option<PathBuf>,
    /// How the book is walked.
    pub book_order: book::Order,
    /// The test: H0 nElo = ELO0 against H1 nElo = ELO1.
    pub sprt: Option<(f64, f64)>,
    /// The test's chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The test's chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// The match file.
    pub out: Option<PathBuf>,
    /// Continue the match of `out`: play only the games not in it.
    pub resume: bool,
    /// Play only this slice of the match.
    pub shard: Option<Shard>,
    /// Rules for ending games early.
    pub adjudication: Adjudication,
    /// A game clock per side for the whole game: every engine thinks on it (the one clock
    /// rule with the game's policy, `plyforge::clock_limits`; a spec's own depth, nodes or
    /// time apply within it, as on a match server), each move charged with its wall time;
    /// a side whose clock runs out loses.
    pub clock: Option<Duration>,
}

impl Default for MatchSettings {
    /// `arena match`'s defaults: the game's default engines, 10 games, 50 ms per move, one
    /// thread, one game at a time.
    fn default() -> Self {
        MatchSettings {
            engines: Vec::new(),
            specs: Vec::new(),
            games: None,
            time: Duration::from_millis(50),
            threads: 1,
            position: None,
            opening: None,
            seed: 1,
            record: None,
            concurrency: 1,
            book: None,
            book_order: book::Order::Sequential,
            sprt: None,
            alpha: 0.05,
            beta: 0.05,
            out: None,
            resume: false,
            shard: None,
            adjudication: Adjudication::default(),
            clock: None,
        }
    }
}

/// Table size of a match engine whose spec does not set one: many engines live at once.
const MATCH_TT_MIB: usize = 16;

/// The most games of a test without `--games`.
const SPRT_GAMES: usize = 10_000;

/// How often a shard of a test looks at its siblings' files.
const WATCH_EVERY: Duration = Duration::from_secs(5);

/// A spec as an engine of a match, where many engines live at once: the table size it sets,
/// else [`MATCH_TT_MIB`] (or less, if the game recommends less).
pub(crate) fn with_match_table<A: GameAdapter>(mut spec: Spec) -> Spec {
    if spec.tt_mib.is_none() {
        spec.tt_mib = Some(MATCH_TT_MIB.min(A::engine_config().tt_mib.max(1)));
    }
    spec
}

/// The parsed engine specifications (table size capped for matches).
fn parse_specs<A: GameAdapter>(texts: &[String]) -> Result<Vec<Spec>, Error> {
    let texts: Vec<String> = if texts.is_empty() {
        A::default_match().iter().map(|s| s.to_string()).collect()
    } else {
        texts.to_vec()
    };
    let mut specs = Vec::new();
    for t in &texts {
        let s = Spec::parse::<A>(t)
            .map_err(|e| Error::settings(format!("--engine {t:?}: {}", e.reason())))?;
        specs.push(with_match_table::<A>(s));
    }
    Ok(specs)
}

/// Everything that decides which games a match plays and how, as text: the match id is its
/// hash. Concurrency, the shard and the output files are not in it (they do not change the
/// games).
fn settings_text<A: GameAdapter>(
    o: &MatchSettings,
    specs: &[Spec],
    games: u64,
    openings: &Openings<A>,
    book_hash: Option<u64>,
    sprt: Option<Sprt>,
) -> String {
    let mut s = format!(
        "game={} engines={:?} games={} time={}us threads={} seed={} opening={}{}",
        A::NAME,
        specs.iter().map(Spec::identity).collect::<Vec<_>>(),
        games,
        o.time.as_micros(),
        o.threads,
        o.seed,
        openings.plies(),
        // Openings drawn distinct differ from those the same settings drew independently
        // once (which repeated short openings): the word keeps such a file from being
        // resumed as this match.
        if openings.distinct() { " distinct" } else { "" },
    );
    if let Some(p) = &o.position {
        s.push_str(&format!(" position={:?}", p.trim()));
    }
    if let Some(h) = book_hash {
        let order = match o.book_order {
            book::Order::Sequential => "sequential",
            book::Order::Random => "random",
        };
        s.push_str(&format!(" book={h:016x} book-order={order}"));
    }
    let a = &o.adjudication;
    if let Some(m) = a.max_plies {
        s.push_str(&format!(" max-plies={m}"));
    }
    if let Some(r) = a.resign {
        s.push_str(&format!(" resign={},{}", r.moves, r.score));
    }
    if let Some(d) = a.draw {
        s.push_str(&format!(" draw={},{},{}", d.from_ply, d.moves, d.score));
    }
    if let Some(c) = o.clock {
        s.push_str(&format!(" clock={}us", c.as_micros()));
    }
    if let Some(t) = sprt {
        s.push_str(&format!(
            " sprt={},{} alpha={} beta={}",
            t.elo0, t.elo1, t.alpha, t.beta
        ));
    }
    s
}

/// A game in the text record format of `--record`.
fn record_text(line: &GameLine, letters: &dyn Fn(usize) -> &'static str) -> String {
    let names: Vec<String> = line
        .engines
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{}: {}", letters(p), s))
        .collect();
    let mut text = format!(
        "# game {} | start: {} | result: {} | {} | opening: {} plies\n",
        line.game + 1,
        line.start,
        line.result,
        names.join(", "),
        line.opening_moves.len()
    );
    for mv in line.opening_moves.iter().chain(&line.moves) {
        text.push_str(mv);
        text.push('\n');
    }
    text
}

/// What a match plays, worked out from its settings.
pub struct MatchPlan<A: GameAdapter> {
    /// The engines' specifications.
    pub specs: Vec<Spec>,
    /// The test.
    pub sprt: Option<Sprt>,
    /// The most games.
    pub games: u64,
    /// The limits of specifications without their own.
    pub fallback: Limits,
    /// Which games, in which seats.
    pub schedule: Schedule,
    /// Each opening: where it starts and its random plies (distinct where they share a
    /// start).
    pub openings: Openings<A>,
    /// The match file's header (with the match id).
    pub header: Header,
}

/// The settings a match needs that do not depend on the games: the engines' count, the
/// test and the adjudication, the numbers in range.
fn check<A: GameAdapter>(o: &MatchSettings, specs: &[Spec]) -> Result<Option<Sprt>, Error> {
    if seatings(A::PLAYERS, specs.len()).is_empty() {
        return Err(Error::settings(format!(
            "{} needs {} engine specifications (--engine SPEC, given {})",
            A::TITLE,
            if A::PLAYERS == 3 { "2 or 3" } else { "2" },
            specs.len()
        )));
    }
    let sprt = match o.sprt {
        None => None,
        Some(_) if A::PLAYERS != 2 => {
            return Err(Error::settings(format!(
                "--sprt: {} has three players: no game pairs with the seats swapped and no \
                 single Elo difference to test (the table ranks the engines instead)",
                A::TITLE
            )))
        }
        Some((e0, e1)) => Some(Sprt::new(e0, e1, o.alpha, o.beta).map_err(Error::Settings)?),
    };
    if sprt.is_none() && (o.alpha != 0.05 || o.beta != 0.05) {
        return Err(Error::settings("--alpha and --beta go with --sprt"));
    }
    if A::PLAYERS != 2 && (o.adjudication.resign.is_some() || o.adjudication.draw.is_some()) {
        return Err(Error::settings(format!(
            "--resign and --draw judge two-player games by the engines' scores; {} has three \
             players (--max-plies applies)",
            A::TITLE
        )));
    }
    if o.concurrency == 0 || o.concurrency > 1024 {
        return Err(Error::settings(format!(
            "--concurrency {}: between 1 and 1024",
            o.concurrency
        )));
    }
    if o.clock.is_some_and(|c| c.is_zero()) {
        return Err(Error::settings("--clock: the clock needs some time"));
    }
    if o.resume && o.out.is_none() {
        return Err(Error::settings(
            "--resume continues the match of --out FILE: give it",
        ));
    }
    if o.book.is_some() && o.position.is_some() {
        return Err(Error::settings(
            "--book and --position both give the start: choose one",
        ));
    }
    Ok(sprt)
}

/// Where the openings start (from a book, with its hash, or from the position), and the
/// random plies of each.
fn starts<A: GameAdapter>(
    book: Option<&std::path::Path>,
    position: Option<&str>,
    order: book::Order,
    seed: u64,
    openings: u64,
    plies: Option<usize>,
) -> Result<(Starts<A>, Option<u64>, usize), Error> {
    let (starts, book_hash) = match book {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Error::input(format!("--book {}", path.display()), None, e))?;
            (
                Starts::<A>::book(path, order, seed, openings)?,
                Some(fnv1a(&bytes)),
            )
        }
        None => (Starts::<A>::from_position(position, seed)?, None),
    };
    let opening = plies.unwrap_or(if starts.is_fixed() || starts.is_book() {
        0
    } else {
        A::default_opening_plies()
    });
    Ok((starts, book_hash, opening))
}

impl<A: GameAdapter> MatchPlan<A> {
    /// Checks the settings and works out the plan (reading the book, if there is one).
    pub fn new(o: &MatchSettings) -> Result<MatchPlan<A>, Error> {
        let specs = if o.specs.is_empty() {
            parse_specs::<A>(&o.engines)?
        } else {
            o.specs.iter().cloned().map(with_match_table::<A>).collect()
        };
        let sprt = check::<A>(o, &specs)?;
        let games = o
            .games
            .unwrap_or(if sprt.is_some() { SPRT_GAMES } else { 10 }) as u64;
        if games == 0 {
            return Err(Error::settings("--games must be at least 1"));
        }
        let fallback = Limits::movetime(o.time);
        let cycle = seatings(A::PLAYERS, specs.len());
        let schedule = Schedule { cycle, games };
        let (starts, book_hash, opening) = starts::<A>(
            o.book.as_deref(),
            o.position.as_deref(),
            o.book_order,
            o.seed,
            schedule.openings(),
            o.opening,
        )?;
        let openings = Openings::new(starts, opening, o.seed);
        let settings = settings_text(o, &specs, games, &openings, book_hash, sprt);
        let header = Header {
            match_id: format!("{:016x}", fnv1a(settings.as_bytes())),
            game: A::NAME.to_string(),
            engines: specs.iter().map(|s| s.text.clone()).collect(),
            games,
            cycle: schedule.per_opening(),
            sprt,
            shard: o.shard,
            settings,
        };
        Ok(MatchPlan {
            specs,
            sprt,
            games,
            fallback,
            schedule,
            openings,
            header,
        })
    }
}

/// An opening's record, made once by the first game that needs it (or why it cannot be).
type Opening<P> = Result<Record<P>, String>;

/// A match ready to play: its plan, its files open, the games of a resumed file read.
pub struct Match<A: GameAdapter> {
    settings: MatchSettings,
    plan: MatchPlan<A>,
    state: MatchState,
    opened: Option<Opened>,
    jobs: Vec<u64>,
}

impl<A: GameAdapter> Match<A> {
    /// Checks the settings, works out the plan and opens the files (a match file to resume
    /// is read, and must be this match's).
    pub fn new(settings: &MatchSettings) -> Result<Match<A>, Error> {
        let plan = MatchPlan::<A>::new(settings)?;
        let (out, resumed, opened) = match &settings.out {
            Some(path) => {
                let (j, games, opened) =
                    Journal::<MatchFile>::open(path, &plan.header, settings.resume)?;
                (Some(j), games, Some(opened))
            }
            None => (None, Vec::new(), None),
        };
        let record = match &settings.record {
            Some(path) => Some((
                path.clone(),
                BufWriter::new(jsonl::create(path, "--record")?),
            )),
            None => None,
        };
        let mut state = MatchState::new(settings, &plan, resumed, out, record);
        let jobs = state.pending(settings, &plan.schedule);
        Ok(Match {
            settings: settings.clone(),
            plan,
            state,
            opened,
            jobs,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &MatchPlan<A> {
        &self.plan
    }

    /// The settings.
    pub fn settings(&self) -> &MatchSettings {
        &self.settings
    }

    /// How the match file was opened (`None` without one).
    pub fn opened(&self) -> Option<Opened> {
        self.opened
    }

    /// The games that this run will play (at most: a test may stop it sooner).
    pub fn pending(&self) -> usize {
        self.jobs.len()
    }

    /// Plays the games not yet played (all of them, this shard's, or those missing from the
    /// resumed file; none once the test is decided), telling `observer` as they finish.
    pub fn run(mut self, observer: &mut dyn Observer) -> Result<MatchReport, Error> {
        let (o, plan) = (&self.settings, &self.plan);
        let schedule = &plan.schedule;
        // Each opening of the games to play, made once (by whichever game needs it first:
        // fair starts are solved, so this is work worth sharing).
        let openings: HashMap<u64, OnceLock<Opening<A::Pos>>> = self
            .jobs
            .iter()
            .map(|&g| (schedule.opening_of(g), OnceLock::new()))
            .collect();
        let setup = game::Setup {
            match_id: &plan.header.match_id,
            specs: &plan.specs,
            fallback: plan.fallback,
            threads: o.threads,
            seed: o.seed,
            adjudication: o.adjudication,
            clock: o.clock,
        };
        observer.progress(Progress::Begin {
            total: self.jobs.len() as u64,
            unit: "games",
        });
        let started = Instant::now();
        let stop = AtomicBool::new(self.state.decided);
        let play_one = |engines: &mut game::Engines<A>, g: u64| {
            let op = schedule.opening_of(g);
            let from = openings[&op]
                .get_or_init(|| plan.openings.get(op).map_err(|e| e.to_string()))
                .as_ref()
                .map_err(|e| Error::Settings(e.clone()))?;
            game::play::<A>(&setup, engines, g, op, schedule.seats_of(g), from)
        };
        let state = &mut self.state;
        play_jobs::<A>(
            o.concurrency,
            &self.jobs,
            plan.specs.len(),
            &stop,
            &play_one,
            &mut |result| state.finished::<A>(plan, result, &stop, observer),
        );
        observer.progress(Progress::End);
        self.state.close()?;
        Ok(self.report(started.elapsed()))
    }

    /// The report: this match's games (for a shard, with its siblings' when it looked).
    fn report(self, elapsed: Duration) -> MatchReport {
        let state = self.state;
        let mut games = state.all;
        let mut from_siblings = 0;
        for (g, l) in state.foreign {
            if let std::collections::btree_map::Entry::Vacant(v) = games.entry(g) {
                v.insert(l);
                from_siblings += 1;
            }
        }
        MatchReport {
            header: self.plan.header,
            players: A::PLAYERS,
            schedule: self.plan.schedule,
            games,
            played: state.played,
            earlier: state.earlier,
            from_siblings,
            elapsed,
            think_ms: state.think_ms,
            setup_ms: state.setup_ms,
            concurrency: self.settings.concurrency,
        }
    }
}

/// The games of a match as they finish: written to the files, counted, and fed to the test.
struct MatchState {
    /// Every game of this match's file (the earlier ones and those played now).
    all: BTreeMap<u64, GameLine>,
    /// Games in the file before this run.
    earlier: usize,
    /// The match id.
    match_id: String,
    /// For a shard of a test: the other shards' files, and their games.
    siblings: Option<Siblings<MatchFile>>,
    foreign: BTreeMap<u64, GameLine>,
    /// The test's stop, on the games at hand (this file's and, for a shard, its siblings').
    tracker: Option<TestTracker>,
    /// The test was decided before this run played a game.
    decided: bool,
    out: Option<Journal<MatchFile>>,
    record: Option<(PathBuf, BufWriter<File>)>,
    played: u64,
    setup_ms: f64,
    think_ms: f64,
    /// The first failure; the match stops at it.
    error: Option<Error>,
}

impl MatchState {
    fn new<A: GameAdapter>(
        o: &MatchSettings,
        plan: &MatchPlan<A>,
        resumed: Vec<(usize, GameLine)>,
        out: Option<Journal<MatchFile>>,
        record: Option<(PathBuf, BufWriter<File>)>,
    ) -> MatchState {
        let mut all = BTreeMap::new();
        for (_, g) in resumed {
            all.entry(g.game).or_insert(g);
        }
        let siblings = match (&o.out, o.shard, plan.sprt) {
            (Some(path), Some(_), Some(_)) => Some(Siblings::new(path, WATCH_EVERY)),
            _ => None,
        };
        MatchState {
            earlier: all.len(),
            all,
            match_id: plan.header.match_id.clone(),
            siblings,
            foreign: BTreeMap::new(),
            tracker: plan.sprt.map(TestTracker::new),
            decided: false,
            out,
            record,
            played: 0,
            setup_ms: 0.0,
            think_ms: 0.0,
            error: None,
        }
    }

    /// Looks a game up in this file's games, then in the siblings'.
    fn either<'a>(&'a self) -> impl Fn(u64) -> Option<&'a GameLine> + 'a {
        move |g| self.all.get(&g).or_else(|| self.foreign.get(&g))
    }

    /// The games still to play (of this shard, not in the file, before a decided test's
    /// stop).
    fn pending(&mut self, o: &MatchSettings, schedule: &Schedule) -> Vec<u64> {
        if let Some(w) = self.siblings.as_mut() {
            w.poll(&self.match_id, &mut self.foreign);
        }
        let mut tracker = self.tracker.take();
        let stop_before = tracker
            .as_mut()
            .and_then(|t| t.advance(schedule, self.either()));
        self.tracker = tracker;
        self.decided = stop_before.is_some();
        schedule
            .games_for(o.shard)
            .into_iter()
            .filter(|g| !self.all.contains_key(g))
            .filter(|&g| stop_before.map_or(true, |k| schedule.opening_of(g) < k))
            .collect()
    }

    /// What is done with each finished game, in the order they finish.
    fn finished<A: GameAdapter>(
        &mut self,
        plan: &MatchPlan<A>,
        result: Result<GameLine, Error>,
        stop: &AtomicBool,
        observer: &mut dyn Observer,
    ) {
        let line = match result {
            Ok(line) => line,
            Err(e) => return self.fail(e, stop),
        };
        if let Some(Err(e)) = self.out.as_mut().map(|f| f.append(&line)) {
            self.fail(e, stop);
        }
        if let Some((path, f)) = self.record.as_mut() {
            let text = record_text(&line, &A::player_letter);
            if let Err(e) = f.write_all(text.as_bytes()) {
                let e = Error::output("--record", path, e);
                self.fail(e, stop);
            }
        }
        observer.progress(Progress::Game {
            line: &line,
            of: plan.games,
        });
        self.played += 1;
        self.setup_ms += line.setup_ms;
        self.think_ms += line.time_ms.iter().sum::<f64>();
        self.all.insert(line.game, line);
        if let Some(w) = self.siblings.as_mut() {
            w.poll(&self.match_id, &mut self.foreign);
        }
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let mut tracker = self.tracker.take();
        if let Some(k) = tracker
            .as_mut()
            .and_then(|t| t.advance(&plan.schedule, self.either()))
        {
            stop.store(true, Ordering::Relaxed);
            observer.progress(Progress::Decided { pairs: k });
        }
        self.tracker = tracker;
    }

    /// Stops the match at its first failure.
    fn fail(&mut self, e: Error, stop: &AtomicBool) {
        stop.store(true, Ordering::Relaxed);
        self.error.get_or_insert(e);
    }

    /// Flushes the record file; the first failure of the run, if any.
    fn close(&mut self) -> Result<(), Error> {
        if let Some((path, mut f)) = self.record.take() {
            f.flush().map_err(|e| Error::output("--record", &path, e))?;
        }
        self.error.take().map_or(Ok(()), Err)
    }
}

/// What a match played: its games (this run's, a resumed file's, and for a shard of a test
/// its siblings'), and how long they took.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The match file's header.
    pub header: Header,
    /// Players per game.
    pub players: usize,
    /// The schedule.
    pub schedule: Schedule,
    /// The games, by index.
    pub games: BTreeMap<u64, GameLine>,
    /// Games played by this run.
    pub played: u64,
    /// Games in the resumed file before this run.
    pub earlier: usize,
    /// Games read from the other shards' files.
    pub from_siblings: usize,
    /// This run's wall time.
    pub elapsed: Duration,
    /// The engines' thinking time over this run's games, in milliseconds.
    pub think_ms: f64,
    /// The players' time to get ready over this run's games, in milliseconds.
    pub setup_ms: f64,
    /// Games at once.
    pub concurrency: usize,
}

impl MatchReport {
    /// What the figures and the table need besides the games.
    pub fn context(&self) -> Context<'_> {
        Context {
            engines: &self.header.engines,
            players: self.players,
            schedule: &self.schedule,
            sprt: self.header.sprt,
        }
    }

    /// The figures of the games.
    pub fn figures(&self) -> Figures {
        summary::figures(&self.context(), &self.games)
    }

    /// The table of the figures, headings emphasised by `bold`.
    pub fn table(&self, bold: Emphasis<'_>) -> String {
        summary::table(&self.context(), &self.figures(), bold)
    }

    /// The runner's speed (games per second, and where each game's time went), when this
    /// run played games.
    pub fn speed(&self) -> Option<String> {
        if self.played == 0 {
            return None;
        }
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        let per = |x: f64| x / self.played as f64;
        // Each of the `concurrency` threads had the match's wall time to share among its
        // games; what the engines did not use of it went to the runner (or to waiting for a
        // core).
        let slot_ms = secs * 1000.0 * self.concurrency.min(self.played as usize).max(1) as f64;
        Some(format!(
            "speed: {:.2} games/s with {} at once; per game: engines searching {:.2} ms, \
             getting ready {:.2} ms (tables new or cleared), the rest {:.2} ms (the runner, \
             and waiting for a core)",
            self.played as f64 / secs,
            self.concurrency,
            per(self.think_ms),
            per(self.setup_ms),
            per(slot_ms - self.think_ms - self.setup_ms).max(0.0)
        ))
    }
}
