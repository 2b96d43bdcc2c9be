//! [`Search`]: the engine object users hold, and one search run from start to report.

use std::collections::TryReserveError;
use std::marker::PhantomData;
use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed,
};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::busy::Busy;
use crate::game::{Evaluator, Game, MoveList, Outcome, Player};
use crate::history::History;
use crate::iterate::single;
use crate::maxn::{Maxn, MaxnBounds, Split};
use crate::mcts::{self, Forest, MctsStats};
use crate::report::{maxn_report, nps, report, unsearched};
use crate::score::{end_score, end_scores, repetition_ends, MAX_DEPTH};
use crate::selective::Selective;
use crate::shared::{Iteration, Padded, Shared, NO_SCORE};
use crate::smp;
use crate::thread::{Local, SmpStats, Tasks};
use crate::time::TimeManager;
use crate::trace::{ThreadTrace, Visit};
use crate::tt::Table;
use crate::types::{Algorithm, Config, Limits, Parallel, Report};
use crate::vectors::VectorTable;

/// A game-tree search engine for the game `G` with the evaluation `E`.
///
/// It owns the transposition table (kept between runs, so that analysis of consecutive
/// positions profits from it; [`clear`](Search::clear) forgets it), the helper threads, and
/// a stop flag that another thread may raise ([`stop_handle`](Search::stop_handle)).
///
/// Threads: `Config::threads` threads search together (Lazy SMP) through the shared table,
/// and an iteration is complete when any of them completes it (so with several threads the
/// principal variation may be another thread's, among moves of equal value); with
/// [`Algorithm::MaxN`] they share out the root's moves; without the table (`use_tt: false`)
/// the alpha-beta family is single-threaded.
///
/// See the [crate documentation](crate) for an example.
pub struct Search<G: Game, E: Evaluator<G>> {
    config: Config,
    evaluator: E,
    table: Option<Table>,
    /// Max^n's table of score vectors (made when max^n first searches with the table on).
    vectors: Option<VectorTable>,
    stop: Arc<AtomicBool>,
    age: u8,
    pool: Option<rayon::ThreadPool>,
    locals: Vec<Local<G>>,
    /// What the tasks of split nodes share (spare thread memories, their counters).
    tasks: Tasks<G>,
    /// The history heuristic's table, shared by the threads.
    history: Arc<History>,
    maxn_bounds: Option<MaxnBounds>,
    /// The player the last alpha-beta search maximised: the player to move, or the leader
    /// under attack ([`Config::offensive`]).
    last_hero: Option<Player>,
    /// Monte Carlo tree search's trees, kept for the next search.
    forest: Option<Forest<G>>,
    _game: PhantomData<fn(&G)>,
}

impl<G: Game, E: Evaluator<G>> Search<G, E> {
    /// An engine with this configuration and evaluator. The table is allocated on the first
    /// run.
    pub fn new(config: Config, evaluator: E) -> Self {
        let history = History::new();
        Search {
            config,
            evaluator,
            table: None,
            vectors: None,
            stop: Arc::new(AtomicBool::new(false)),
            age: 0,
            pool: None,
            locals: Vec::new(),
            tasks: Tasks::new(&history),
            history,
            maxn_bounds: None,
            last_hero: None,
            forest: None,
            _game: PhantomData,
        }
    }

    /// An engine whose table is allocated now, so that a table size beyond the memory the
    /// system will give is an error here instead of an abort later. ([`Search::new`]
    /// allocates on the first run and, if the memory is not there, searches without a table.)
    ///
    /// ```
    /// use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
    /// use plyforge_search::{Config, Limits, Search};
    /// let too_big = Config::default().with_tt_mib(usize::MAX >> 20);
    /// assert!(Search::<Synthetic, _>::try_new(too_big.clone(), SyntheticEval).is_err());
    /// assert!(Search::<Synthetic, _>::try_new(Config::default().with_tt_mib(1), SyntheticEval).is_ok());
    /// // `new` defers the table to the first run, which goes without it.
    /// let game = Synthetic::new(Spec::default());
    /// let report = Search::new(too_big, SyntheticEval).run(&game, &[], Limits::depth(3), |_| {});
    /// assert_eq!((report.depth, report.tt_hit_rate), (3, 0.0));
    /// ```
    pub fn try_new(config: Config, evaluator: E) -> Result<Self, TryReserveError> {
        let mut s = Self::new(config, evaluator);
        if s.config.use_tt && s.config.algorithm != Algorithm::MaxN {
            s.table = Some(Table::try_new(s.config.tt_mib)?);
        }
        if s.config.use_tt && s.config.algorithm == Algorithm::MaxN {
            s.vectors = Some(VectorTable::try_new(s.config.tt_mib)?);
        }
        Ok(s)
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the configuration for the next runs (a new table size reallocates the table).
    pub fn set_config(&mut self, config: Config) {
        self.config = config;
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Declares bounds on score vectors that make max^n shallow pruning valid, or `None`
    /// (the default) for no shallow pruning. See [`MaxnBounds`]: wrong bounds give wrong values.
    pub fn set_maxn_bounds(&mut self, bounds: Option<MaxnBounds>) {
        self.maxn_bounds = bounds;
    }

    /// The declared max^n bounds.
    pub fn maxn_bounds(&self) -> Option<MaxnBounds> {
        self.maxn_bounds
    }

    /// A flag that stops the running search promptly when set (from any thread); the search
    /// then returns the last completed iteration. Each run clears it when it starts.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Nodes searched by each thread in the last run, the main thread first (for measuring
    /// parallel search; the report's `nodes` is their sum).
    pub fn thread_nodes(&self) -> Vec<u64> {
        let threads = if self.config.algorithm != Algorithm::MaxN && !self.config.use_tt {
            1
        } else {
            self.config.threads.max(1)
        };
        self.locals.iter().take(threads).map(|l| l.nodes).collect()
    }

    /// What the threads of the last alpha-beta search did to share the work (summed over the
    /// threads): the counts behind its node overhead (see [`SmpStats`]).
    pub fn smp_stats(&self) -> SmpStats {
        let mut s = self
            .tasks
            .smp
            .lock()
            .map_or_else(|_| SmpStats::default(), |s| *s);
        for l in self.locals.iter().take(self.thread_nodes().len()) {
            s.add(&l.smp);
        }
        s
    }

    /// The nodes each thread searched in the last run, the main thread first, taken out of
    /// the engine (with the `trace` feature; without it every thread's trace is empty):
    /// what [`crate::trace::compare`] compares.
    pub fn take_trace(&mut self) -> Vec<ThreadTrace> {
        let threads = self.thread_nodes().len();
        let mut out: Vec<ThreadTrace> = self
            .locals
            .iter_mut()
            .take(threads)
            .map(|l| std::mem::take(&mut l.trace))
            .collect();
        // The tasks' nodes, by the thread that searched them (split nodes: every thread
        // works on the main thread's iterations).
        if let Ok(traces) = self.tasks.traces.get_mut() {
            for (t, visits) in out.iter_mut().zip(traces.iter_mut()) {
                t.visits.append(visits);
                t.completed = u64::MAX;
            }
        }
        out
    }

    /// Forgets the transposition table, the threads' move-ordering history and Monte Carlo
    /// tree search's tree (for a new game). Between the moves of one game they are kept:
    /// the history learnt by one search orders the next, halved at each search.
    pub fn clear(&mut self) {
        if let Some(t) = &self.table {
            t.clear();
        }
        if let Some(t) = &self.vectors {
            t.clear();
        }
        self.history.clear();
        self.forest = None;
    }

    /// What the last Monte Carlo tree search did with its tree (reused visits, iterations,
    /// memory, whether it proved the root); `None` before the first.
    pub fn mcts_stats(&self) -> Option<MctsStats> {
        self.forest.as_ref().map(|f| f.stats)
    }

    /// The root's moves after the last Monte Carlo tree search, in legal-move order: each
    /// with its visits and its mean value (in `[0, 1]`) for every player, summed over the
    /// trees of root parallelism. Empty before the first.
    pub fn mcts_root(&self) -> Vec<(G::Move, u64, [f64; 3])> {
        self.forest.as_ref().map_or_else(Vec::new, |f| f.root())
    }

    /// Forgets everything earlier runs left behind: the table's entries, every thread's
    /// killer and history tables, the table's age. The next run then searches exactly as a
    /// new engine's first run would (with one thread: the same nodes, move and score), but
    /// without allocating the table again: what a match wants between games, where a new
    /// table per game can cost more than the game's searches.
    pub fn reset(&mut self) {
        self.clear();
        self.locals.clear();
        self.age = 0;
    }

    /// Searches `game` within `limits` and returns the result of the last completed iteration.
    ///
    /// - `history`: repetition keys ([`Game::repetition_key`]) of the earlier positions of
    ///   the game, as [`crate::Record::history_keys`] gives them (the current position's key
    ///   may be last or absent). A position of the search that repeats one of them, or one
    ///   on the search path, scores the outcome of the game's repetition rule.
    /// - `on_iteration` is called after every completed iteration.
    ///
    /// Scores are from the view of the player to move at the root (see [`crate::MATE`]);
    /// with [`Algorithm::MaxN`] the report's `scores` holds every player's score.
    /// When the game is already over the report has no move, depth 0 and the outcome's score.
    ///
    /// When the limits stop an iteration after some of its root moves completed and one of
    /// them beat the window, the report's move, score and line are the best of those (its
    /// depth stays the last completed iteration's): a movetime is spent in full.
    ///
    /// With [`Config::repetition_check`] set, a best move that repeats a position of
    /// `history` is checked by a second search (see there). With [`Config::apart`] set and
    /// the player to move out of reach ([`Game::in_contact`]), the search is made with that
    /// algorithm. With [`Config::table_moves`] on, a root where the game knows its best move
    /// ([`Game::table_move`]) is not searched.
    pub fn run(
        &mut self,
        game: &G,
        history: &[u64],
        limits: Limits,
        mut on_iteration: impl FnMut(&Report<G::Move>),
    ) -> Report<G::Move> {
        if self.config.table_moves && game.outcome().is_none() {
            if let Some(mv) = game.table_move() {
                let start = Instant::now();
                let mut report = unsearched(game, &self.evaluator, Some(mv), 0, Duration::ZERO);
                report.elapsed = start.elapsed();
                on_iteration(&report);
                return report;
            }
        }
        let apart = self
            .config
            .apart
            .filter(|&a| a != self.config.algorithm && !game.in_contact(game.to_move()));
        let Some(model) = apart else {
            return self.run_checked(game, history, limits, on_iteration);
        };
        let main = std::mem::replace(&mut self.config.algorithm, model);
        let report = self.run_checked(game, history, limits, on_iteration);
        self.config.algorithm = main;
        report
    }

    /// [`run`](Search::run) with the configured algorithm, and its repetition check.
    fn run_checked(
        &mut self,
        game: &G,
        history: &[u64],
        limits: Limits,
        on_iteration: impl FnMut(&Report<G::Move>),
    ) -> Report<G::Move> {
        let start = Instant::now();
        let first = self.run_once(game, history, limits, on_iteration);
        let Some(model) = self.config.repetition_check else {
            return first;
        };
        let repeats = |mv: G::Move| {
            let mut child = game.clone();
            child.play(mv);
            history.contains(&child.repetition_key())
        };
        let check = game.repetition_rule().is_some()
            && model != self.config.algorithm
            && !self.stop.load(Relaxed)
            && first.best.is_some_and(repeats);
        if !check {
            return first;
        }
        // The second opinion: the same budget again (a clock less the time used), under the
        // other model of the opponents; its move is taken only when it leaves the cycle.
        let mut again = limits;
        if let Some(clock) = again.clock.as_mut() {
            clock.remaining = clock.remaining.saturating_sub(start.elapsed());
        }
        let main = std::mem::replace(&mut self.config.algorithm, model);
        let second = self.run_once(game, history, again, |_| {});
        self.config.algorithm = main;
        let nodes = first.nodes + second.nodes;
        let mut report = if second.best.is_some_and(|mv| !repeats(mv)) {
            Report {
                tt_hit_rate: first.tt_hit_rate,
                ..second
            }
        } else {
            first
        };
        report.nodes = nodes;
        report.elapsed = start.elapsed();
        report.nps = nps(nodes, report.elapsed);
        report
    }

    /// One search of `game` with the configured algorithm (see [`run`](Search::run)).
    fn run_once(
        &mut self,
        game: &G,
        history: &[u64],
        limits: Limits,
        on_iteration: impl FnMut(&Report<G::Move>),
    ) -> Report<G::Move> {
        let start = Instant::now();
        self.stop.store(false, Relaxed);
        if let Some(o) = game.outcome() {
            return self.finished(game, o, start);
        }
        if self.config.algorithm == Algorithm::Mcts {
            return self.run_mcts(game, history, limits, start, on_iteration);
        }
        let maxn = self.config.algorithm == Algorithm::MaxN;
        let use_tt = !maxn && self.ready_table();
        let use_vectors = maxn && self.ready_vectors();
        let hero = if maxn {
            game.to_move()
        } else {
            self.hero(game)
        };
        if !maxn && game.players() > 2 && self.last_hero.is_some_and(|h| h != hero) {
            // With three players the table's values hold for one player maximised (two
            // players' values are each other's negation, and hold for both).
            if let Some(t) = &self.table {
                t.clear();
            }
        }
        if !maxn {
            self.last_hero = Some(hero);
        }
        self.age = (self.age + 1) & 63;
        let threads = if use_tt || maxn {
            self.config.threads.max(1)
        } else {
            1
        };
        self.prepare(threads);
        if !maxn {
            // What the last search's history learnt carries over, fading.
            self.history.age();
        }
        let split = !maxn && threads > 1 && self.config.parallel == Parallel::Split;
        self.tasks.reset(threads);
        let sh = Shared {
            config: &self.config,
            eval: &self.evaluator,
            table: if use_tt { self.table.as_ref() } else { None },
            vectors: if use_vectors {
                self.vectors.as_ref()
            } else {
                None
            },
            age: self.age,
            root_player: game.to_move(),
            hero,
            rule: game.repetition_rule().map(|(_, o)| o),
            history: history.iter().copied().collect(),
            ends: repetition_ends(game, history, self.config.avoid_repetition_end),
            user_stop: &self.stop,
            abort: Padded(AtomicBool::new(false)),
            nodes: Padded(AtomicU64::new(0)),
            probes: Padded(AtomicU64::new(0)),
            hits: Padded(AtomicU64::new(0)),
            node_limit: limits.nodes,
            time: TimeManager::new(&limits, start),
            main_depth: Padded(AtomicU32::new(0)),
            main_score: Padded(AtomicI32::new(NO_SCORE)),
            brs: self.config.algorithm == Algorithm::BestReply,
            selective: self.selective(),
            deeper: self.config.deeper_entries || self.config.selective.is_some(),
            max_depth: limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH)),
            busy: Busy::new(if split { 1 } else { threads }),
            split,
            per_thread: (0..if split { threads } else { 0 })
                .map(|_| Padded(AtomicU64::new(0)))
                .collect(),
            // The main thread.
            working: Padded(AtomicUsize::new(1)),
            threads,
            helper_done: Padded(AtomicU64::new(0)),
            helper_results: Mutex::new(Vec::new()),
            _game: PhantomData,
        };
        let pool = self.pool.as_ref().filter(|_| threads > 1);
        let locals = &mut self.locals[..threads];
        let (last, partial) = if maxn {
            (
                search_maxn(&sh, self.maxn_bounds, pool, locals, game, on_iteration),
                None,
            )
        } else {
            search_alpha_beta(&sh, &self.tasks, pool, locals, game, on_iteration)
        };
        self.final_report(&sh, game, start, last, partial)
    }

    /// [`Search::run_once`] with Monte Carlo tree search ([`mcts::search`]).
    fn run_mcts(
        &mut self,
        game: &G,
        history: &[u64],
        limits: Limits,
        start: Instant,
        on_iteration: impl FnMut(&Report<G::Move>),
    ) -> Report<G::Move> {
        let threads = self.config.threads.max(1);
        self.prepare(threads);
        let pool = self.pool.as_ref().filter(|_| threads > 1);
        mcts::search(
            &self.config,
            &self.evaluator,
            pool,
            &self.stop,
            &mut self.forest,
            game,
            history,
            limits,
            start,
            on_iteration,
        )
    }

    /// The report on a game that is over (`outcome`): no move, depth 0, the outcome's score.
    fn finished(&self, game: &G, outcome: Outcome, start: Instant) -> Report<G::Move> {
        Report {
            best: None,
            score: end_score(&self.evaluator, game, outcome, game.to_move(), 0),
            scores: end_scores(&self.evaluator, game, outcome, game.players(), 0),
            depth: 0,
            nodes: 0,
            nps: 0,
            elapsed: start.elapsed(),
            pv: Vec::new(),
            tt_hit_rate: 0.0,
        }
    }

    /// Whether the run has its table: the configured size allocated (see [`ready`]).
    fn ready_table(&mut self) -> bool {
        ready(&mut self.table, &self.config, Table::mib, Table::try_new)
    }

    /// Whether a max^n run has its table of score vectors (see [`ready`]).
    fn ready_vectors(&mut self) -> bool {
        ready(
            &mut self.vectors,
            &self.config,
            VectorTable::mib,
            VectorTable::try_new,
        )
    }

    /// The selective search's tables where the configuration asks for it (two players and
    /// paranoid search: best-reply search and max^n stay exact).
    fn selective(&self) -> Option<Selective> {
        let family = matches!(
            self.config.algorithm,
            Algorithm::AlphaBeta | Algorithm::Paranoid
        );
        self.config
            .selective
            .filter(|_| family)
            .map(|on| Selective::new(on, self.evaluator.margin()))
    }

    /// The player an alpha-beta search of `game` maximises: the player to move, or under
    /// [`Config::offensive`] a leader ahead of everyone by at least its margin by the
    /// evaluation of the root (the highest score; on a tie the player to move, then the
    /// lowest number).
    fn hero(&self, game: &G) -> Player {
        let root = game.to_move();
        let players = game.players();
        let Some(margin) = self.config.offensive else {
            return root;
        };
        if players < 3
            || !matches!(
                self.config.algorithm,
                Algorithm::Paranoid | Algorithm::AlphaBeta
            )
        {
            return root;
        }
        let s = self.evaluator.evaluate(game);
        let mut leader = root;
        for p in 0..players {
            if s[p] > s[leader] {
                leader = p;
            }
        }
        let second = (0..players)
            .filter(|&p| p != leader)
            .map(|p| s[p])
            .max()
            .unwrap_or(s[leader]);
        if leader != root && i64::from(s[leader]) - i64::from(second) >= i64::from(margin) {
            leader
        } else {
            root
        }
    }

    /// Searches `game` within `limits`, as [`run`](Search::run) does with no earlier
    /// positions and no callback: the simple case of a position without history.
    ///
    /// ```
    /// use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
    /// use plyforge_search::{Config, Limits, Search};
    /// let game = Synthetic::new(Spec::default());
    /// let report = Search::new(Config::default(), SyntheticEval).analyse(&game, Limits::depth(4));
    /// assert_eq!(report.depth, 4);
    /// ```
    pub fn analyse(&mut self, game: &G, limits: Limits) -> Report<G::Move> {
        self.run(game, &[], limits, |_| {})
    }

    /// Allocates what a run needs and keeps it for the next: one thread's memory per
    /// thread, the pool of threads (the table is allocated by `run`). The pool has a thread
    /// per thread of the search: max^n runs its iterations in it; the alpha-beta family and
    /// Monte Carlo tree search run their main thread on the caller and their helpers in it.
    fn prepare(&mut self, threads: usize) {
        while self.locals.len() < threads {
            self.locals.push(Local::new(&self.history));
        }
        if threads > 1 && self.pool.as_ref().map(|p| p.current_num_threads()) != Some(threads) {
            self.pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("search-helper-{i}"))
                .build()
                .ok();
        }
    }

    /// The last completed iteration's report with the run's totals, or, when stopped before
    /// the first iteration completed, the first legal move with the static evaluation. Where
    /// the limits stopped an iteration after some of its root moves completed (`partial`),
    /// their best move, score and line replace the last iteration's (the depth stays the
    /// last completed one's).
    fn final_report(
        &self,
        sh: &Shared<'_, G, E>,
        game: &G,
        start: Instant,
        last: Option<Report<G::Move>>,
        partial: Option<Iteration<G::Move>>,
    ) -> Report<G::Move> {
        let elapsed = start.elapsed();
        let nodes = sh.nodes.load(Relaxed);
        let probes = sh.probes.load(Relaxed);
        let last = match partial {
            Some(p) => {
                let depth = last.as_ref().map_or(0, |l| l.depth);
                Some(report(sh, &p, depth, 0, game.players()))
            }
            None => last,
        };
        match last {
            Some(mut r) => {
                r.nodes = nodes;
                r.elapsed = elapsed;
                r.nps = nps(nodes, elapsed);
                if probes > 0 {
                    r.tt_hit_rate = sh.hits.load(Relaxed) as f64 / probes as f64;
                }
                r
            }
            None => {
                let mut moves = MoveList::new();
                game.legal_moves(&mut moves);
                unsearched(
                    game,
                    &self.evaluator,
                    moves.first().copied(),
                    nodes,
                    elapsed,
                )
            }
        }
    }
}

/// A max^n search of `game` (in the pool's threads, sharing out the tree, where there is a
/// pool): the last completed iteration's report.
fn search_maxn<G: Game, E: Evaluator<G>>(
    sh: &Shared<'_, G, E>,
    bounds: Option<MaxnBounds>,
    pool: Option<&rayon::ThreadPool>,
    locals: &mut [Local<G>],
    game: &G,
    mut on_iteration: impl FnMut(&Report<G::Move>),
) -> Option<Report<G::Move>> {
    let players = game.players();
    let per_thread: Vec<Padded<AtomicU64>> = (0..locals.len())
        .map(|_| Padded(AtomicU64::new(0)))
        .collect();
    let traces: Vec<Mutex<Vec<Visit>>> = (0..locals.len()).map(|_| Mutex::default()).collect();
    let split = pool.map(|pool| Split {
        pool,
        per_thread: &per_thread,
        traces: &traces,
    });
    let mut last = None;
    let mut m = Maxn::new(sh, bounds, players, split);
    m.iterate(game, |scores, pv, depth| {
        let r = maxn_report(sh, scores, pv, depth, players);
        on_iteration(&r);
        last = Some(r);
    });
    if split.is_some() {
        for ((l, n), t) in locals.iter_mut().zip(&per_thread).zip(traces) {
            l.nodes = n.load(Relaxed);
            l.trace = ThreadTrace {
                visits: t.into_inner().unwrap_or_default(),
                completed: u64::MAX,
            };
        }
    } else {
        locals[0].nodes = m.nodes;
        locals[0].trace = ThreadTrace {
            visits: std::mem::take(&mut m.visits),
            completed: u64::MAX,
        };
    }
    last
}

/// Whether `slot` holds a table of the configured size, allocating it if not (the old table
/// goes first, so that both are never held at once; a size the memory cannot hold searches
/// without a table rather than abort, see [`Search::try_new`]); `false` with the table off.
fn ready<T>(
    slot: &mut Option<T>,
    config: &Config,
    mib: fn(&T) -> usize,
    make: fn(usize) -> Result<T, TryReserveError>,
) -> bool {
    if !config.use_tt {
        return false;
    }
    if slot.as_ref().map(mib) != Some(config.tt_mib) {
        *slot = None;
        *slot = make(config.tt_mib).ok();
    }
    slot.is_some()
}

/// What a search leaves for the final report: the last completed iteration's report, and
/// the root moves of an iteration the limits stopped where they beat the last one.
type Outcomes<M> = (Option<Report<M>>, Option<Iteration<M>>);

/// An alpha-beta search of `game` (Lazy SMP where there is a pool): the last completed
/// iteration's report, and the root moves of an iteration the limits stopped where they
/// beat the last one.
fn search_alpha_beta<G: Game, E: Evaluator<G>>(
    sh: &Shared<'_, G, E>,
    tasks: &Tasks<G>,
    pool: Option<&rayon::ThreadPool>,
    locals: &mut [Local<G>],
    game: &G,
    mut on_iteration: impl FnMut(&Report<G::Move>),
) -> Outcomes<G::Move> {
    let players = game.players();
    let mut last = None;
    let mut partial = None;
    let emit = |it: &Iteration<G::Move>, d, complete| {
        if complete {
            let r = report(sh, it, d, 0, players);
            on_iteration(&r);
            last = Some(r);
        } else {
            partial = Some(it.clone());
        }
    };
    match pool {
        Some(pool) if sh.split => {
            split_search(pool, sh, tasks, &mut locals[0], game, emit);
            for (l, n) in locals.iter_mut().zip(&sh.per_thread) {
                l.nodes = n.load(Relaxed);
            }
        }
        Some(pool) => smp::lazy_smp(pool, sh, locals, game, emit),
        None => single(sh, None, &mut locals[0], game, emit),
    }
    (last, partial)
}

/// The main thread's iterative deepening in `pool`, whose threads take the moves of split
/// nodes ([`crate::split`]); the iterations are reported to `emit` on the calling thread.
fn split_search<G: Game, E: Evaluator<G>>(
    pool: &rayon::ThreadPool,
    sh: &Shared<'_, G, E>,
    tasks: &Tasks<G>,
    main: &mut Local<G>,
    game: &G,
    mut emit: impl FnMut(&Iteration<G::Move>, u32, bool),
) {
    let (tx, rx) = std::sync::mpsc::channel();
    pool.in_place_scope(|s| {
        s.spawn(move |_| {
            single(sh, Some(tasks), main, game, |it, depth, complete| {
                let _ = tx.send((it.clone(), depth, complete));
            });
        });
        for (it, depth, complete) in rx {
            emit(&it, depth, complete);
        }
    });
}

impl<G: Game, E: Evaluator<G> + std::fmt::Debug> std::fmt::Debug for Search<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("config", &self.config)
            .field("evaluator", &self.evaluator)
            .field("maxn_bounds", &self.maxn_bounds)
            .finish_non_exhaustive()
    }
}

/// The engine's report on `game` within `limits` with the evaluation `eval`, in one call: a
/// new [`Search`] with [`Config::default`] (one thread, a 64 MiB table) run once. Hold a
/// [`Search`] instead to search several positions (it keeps its table) or to set threads.
///
/// ```
/// use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
/// use plyforge_search::{analyse, reference, Limits};
/// let game = Synthetic::new(Spec::default());
/// let report = analyse(&game, SyntheticEval, Limits::depth(5));
/// assert_eq!(report.score, reference::minimax(&game, &SyntheticEval, 5, &[], true));
/// ```
pub fn analyse<G: Game, E: Evaluator<G>>(game: &G, eval: E, limits: Limits) -> Report<G::Move> {
    Search::new(Config::default(), eval).analyse(game, limits)
}

/// The best move of `game` within `limits` with the evaluation `eval` (`None` when the game
/// is over): [`analyse`]'s move.
///
/// ```
/// use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
/// use plyforge_search::{best_move, Game, Limits};
/// let game = Synthetic::new(Spec::default());
/// let mv = best_move(&game, SyntheticEval, Limits::depth(5)).expect("not over");
/// assert!(game.moves().contains(&mv));
/// ```
pub fn best_move<G: Game, E: Evaluator<G>>(game: &G, eval: E, limits: Limits) -> Option<G::Move> {
    analyse(game, eval, limits).best
}
