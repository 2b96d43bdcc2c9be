//! The engine's public vocabulary: configuration, limits, reports and score conventions.

use std::time::Duration;

use crate::game::{Scores, MAX_EVAL};

/// Score of a win at the root (a win `n` plies away scores `MATE - n`).
pub const MATE: i32 = 1_000_000;

/// Scores with a magnitude above this are wins or losses found by the search.
pub const MATE_BOUND: i32 = MATE - 10_000;

/// Scores at least this large mean "proved", the rest are heuristic.
const _: () = assert!(MAX_EVAL < MATE_BOUND);

/// `Some(n)`: the score is a forced win (`n > 0`) or loss (`n < 0`) in `|n|` plies.
pub fn mate_distance(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some(MATE - score)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// Which search algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// Two-player zero-sum negamax alpha-beta (PVS). With three players: [`Algorithm::Paranoid`].
    #[default]
    AlphaBeta,
    /// Root player against a coalition of the others, through the alpha-beta search.
    Paranoid,
    /// Best-reply search (Schadd & Winands 2011): the opponents' single best reply, merged.
    BestReply,
    /// Max^n over per-player utilities with shallow pruning; also the right search for
    /// non-zero-sum two-player games.
    MaxN,
    /// Monte Carlo tree search: UCT with one value per player backed up, the evaluation at
    /// the leaves (or after short evaluation-guided playouts), progressive bias, a solver for
    /// proven results, tree reuse between moves (see [`MctsConfig`]). For 2 and 3 players and
    /// non-zero-sum games.
    Mcts,
}

/// How the threads of a Monte Carlo tree search share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum MctsParallel {
    /// One tree that every thread grows, with virtual loss to spread them over its branches.
    #[default]
    Tree,
    /// A tree per thread (each with its own random seed); the root's statistics are summed.
    Root,
}

/// The settings of Monte Carlo tree search ([`Algorithm::Mcts`]).
///
/// Each iteration descends the tree from the root, at each node taking the move that
/// maximises, for the player to move there,
/// `q + exploration·sqrt(ln(N + 1) / (n + 1)) + bias·prior / (n + 1)` (UCT with progressive
/// bias), where `q` is the mean value of the move for that player (its own component of the
/// backed-up values), `n` its visits, `N` the node's and `prior` the evaluation of the
/// position after the move. Values are in `[0, 1]`: an evaluation `e` counts as
/// `0.05 + 0.9 / (1 + exp(−e / scale))`, a win 1, a loss 0. See the crate documentation.
///
/// ```
/// use plyforge_search::{Algorithm, Config, MctsConfig, MctsParallel};
/// let mcts = MctsConfig::default().with_exploration(0.5).with_seed(7);
/// let c = Config::default().with_algorithm(Algorithm::Mcts).with_mcts(mcts);
/// assert_eq!(c.mcts.seed, 7);
/// assert_eq!(c.mcts.parallel, MctsParallel::Tree);
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct MctsConfig {
    /// The UCT exploration constant (on values in `[0, 1]`).
    pub exploration: f64,
    /// The weight of progressive bias: the evaluation's prior for a move, fading with its visits.
    pub bias: f64,
    /// Evaluation points per unit of the logistic that turns an evaluation into a value.
    pub scale: f64,
    /// Plies of evaluation-guided playout before a leaf is evaluated (each ply plays the move
    /// whose position the evaluation likes best for the mover, a random one with
    /// probability `epsilon`); 0: the leaf's own evaluation.
    pub playout: u32,
    /// Probability of a random move in a playout.
    pub epsilon: f64,
    /// Seed of the random choices (playouts; root-parallel trees add their thread index).
    pub seed: u64,
    /// How several threads share the work.
    pub parallel: MctsParallel,
    /// Virtual losses added to a move while a thread is below it (tree parallelism).
    pub virtual_loss: u32,
    /// Keep the part of the tree that the moves played since the last search lead to.
    pub reuse: bool,
    /// The most memory the tree may take, in MiB: beyond it the tree stops growing.
    pub tree_mib: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.4,
            bias: 0.5,
            scale: 400.0,
            playout: 0,
            epsilon: 0.1,
            seed: 1,
            parallel: MctsParallel::Tree,
            virtual_loss: 1,
            reuse: true,
            tree_mib: 256,
        }
    }
}

impl PartialEq for MctsConfig {
    fn eq(&self, o: &Self) -> bool {
        self.exploration.to_bits() == o.exploration.to_bits()
            && self.bias.to_bits() == o.bias.to_bits()
            && self.scale.to_bits() == o.scale.to_bits()
            && self.playout == o.playout
            && self.epsilon.to_bits() == o.epsilon.to_bits()
            && self.seed == o.seed
            && self.parallel == o.parallel
            && self.virtual_loss == o.virtual_loss
            && self.reuse == o.reuse
            && self.tree_mib == o.tree_mib
    }
}

impl Eq for MctsConfig {}

impl MctsConfig {
    /// These settings with another exploration constant.
    pub fn with_exploration(mut self, c: f64) -> Self {
        self.exploration = c;
        self
    }
    /// These settings with another progressive-bias weight.
    pub fn with_bias(mut self, w: f64) -> Self {
        self.bias = w;
        self
    }
    /// These settings with another evaluation scale.
    pub fn with_scale(mut self, scale: f64) -> Self {
        self.scale = scale;
        self
    }
    /// These settings with playouts of `plies` plies (0: none).
    pub fn with_playout(mut self, plies: u32) -> Self {
        self.playout = plies;
        self
    }
    /// These settings with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
    /// These settings with another way of sharing the threads.
    pub fn with_parallel(mut self, parallel: MctsParallel) -> Self {
        self.parallel = parallel;
        self
    }
    /// These settings with tree reuse between moves on or off.
    pub fn with_reuse(mut self, on: bool) -> Self {
        self.reuse = on;
        self
    }
    /// These settings with another memory budget for the tree.
    pub fn with_tree_mib(mut self, mib: usize) -> Self {
        self.tree_mib = mib;
        self
    }
}

/// The selective search's settings ([`Config::selective`]): which of the standard pruning,
/// reduction and extension techniques of chess engines the alpha-beta family uses, and
/// their constants. Every technique is on in `Default`; turn one off to measure what it
/// brings (`arena match` with the spec keys of the facade).
///
/// What each needs of the game and the evaluation, and what it costs where the game breaks
/// its assumption:
/// - **late-move reductions** (`reductions`): quiet moves late in the order (not the table's
///   move, a killer, a noisy move ([`Game::noisy_moves`](crate::Game::noisy_moves)) or a
///   forcing one ([`Game::is_forcing`](crate::Game::is_forcing))) are searched
///   `r` plies shallower with a null window, `r = base + ln(depth)·ln(move number)/divisor`
///   (hundredths: `lmr_base`, `lmr_divisor`), and again at full depth when they beat alpha.
///   Needs a move order that puts good moves first.
/// - **null-move pruning** (`null_move`): where the side to move could pass
///   ([`Game::skip_turn`](crate::Game::skip_turn)) and its static evaluation is at least
///   beta, a search of the pass at depth `depth − 1 − R` (`R = null_base + depth/4`) that
///   still fails high cuts the node. Where the game says zugzwang is possible
///   ([`Game::zugzwang`](crate::Game::zugzwang)) such a cutoff at depth ≥ 8 is verified by a
///   reduced search of the node itself without null move.
/// - **reverse futility** and **futility pruning** (`futility`): a non-PV node whose
///   static evaluation is at least beta by `rfp_margin·depth` (percent of the evaluation's
///   [`margin`](crate::Evaluator::margin)) returns it; at depth ≤ 3 a quiet move is
///   skipped when the static evaluation is below alpha by more than
///   `margin·(1 + depth/2)`. Needs an evaluation that rarely moves by more than that in a
///   quiet move.
/// - **late-move pruning** (`late_move_pruning`): at depth ≤ 3, quiet moves after the first
///   `3 + depth²` are skipped.
/// - **internal iterative reductions** (`iir`): a node of depth ≥ 4 without a table move is
///   searched one ply shallower.
/// - **extensions** (`extensions`): a position with one legal move is searched a ply
///   deeper; and (singular extensions) at depth ≥ 6 the table's move is searched a ply
///   deeper when every other move fails low against its stored value less a margin at half
///   the depth.
///
/// No pruning happens at the root, at principal-variation nodes, at positions reached by a
/// forcing move, or against forced results (scores beyond [`MATE_BOUND`]).
///
/// ```
/// use plyforge_search::{Config, Selectivity};
/// let c = Config::default().with_selective(Some(Selectivity::default().with_null_move(false)));
/// assert!(c.selective.is_some_and(|s| s.reductions && !s.null_move));
/// assert_eq!(Config::default().selective, None); // exact by default
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Selectivity {
    /// Late-move reductions.
    pub reductions: bool,
    /// Null-move pruning (where the game can pass: [`Game::skip_turn`](crate::Game::skip_turn)).
    pub null_move: bool,
    /// Reverse futility and futility pruning.
    pub futility: bool,
    /// Late-move pruning.
    pub late_move_pruning: bool,
    /// Internal iterative reductions.
    pub iir: bool,
    /// Single-reply and singular extensions.
    pub extensions: bool,
    /// The reductions' constant term, in hundredths of a ply.
    pub lmr_base: i32,
    /// The reductions' divisor of `ln(depth)·ln(move number)`, in hundredths.
    pub lmr_divisor: i32,
    /// The null move's base reduction, in plies.
    pub null_base: i32,
    /// Reverse futility's margin per ply, in percent of the evaluation's
    /// [`margin`](crate::Evaluator::margin).
    pub rfp_margin: i32,
}

impl Default for Selectivity {
    fn default() -> Self {
        Selectivity {
            reductions: true,
            null_move: true,
            futility: true,
            late_move_pruning: true,
            iir: true,
            extensions: true,
            lmr_base: 75,
            lmr_divisor: 225,
            null_base: 3,
            rfp_margin: 70,
        }
    }
}

impl Selectivity {
    /// These settings with late-move reductions on or off.
    pub fn with_reductions(mut self, on: bool) -> Self {
        self.reductions = on;
        self
    }
    /// These settings with null-move pruning on or off.
    pub fn with_null_move(mut self, on: bool) -> Self {
        self.null_move = on;
        self
    }
    /// These settings with (reverse) futility pruning on or off.
    pub fn with_futility(mut self, on: bool) -> Self {
        self.futility = on;
        self
    }
    /// These settings with late-move pruning on or off.
    pub fn with_late_move_pruning(mut self, on: bool) -> Self {
        self.late_move_pruning = on;
        self
    }
    /// These settings with internal iterative reductions on or off.
    pub fn with_iir(mut self, on: bool) -> Self {
        self.iir = on;
        self
    }
    /// These settings with single-reply and singular extensions on or off.
    pub fn with_extensions(mut self, on: bool) -> Self {
        self.extensions = on;
        self
    }
}

/// How the engine searches. `Default` is the strongest general setting; change it with the
/// `with_*` methods (or by assigning fields), so that a field added later breaks nobody:
///
/// ```
/// use plyforge_search::{Algorithm, Config};
/// let c = Config::default().with_algorithm(Algorithm::MaxN).with_threads(2).with_tt_mib(16);
/// assert_eq!((c.algorithm, c.threads, c.tt_mib), (Algorithm::MaxN, 2, 16));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Worker threads (1: fully deterministic).
    pub threads: usize,
    /// Transposition table size in MiB (max^n's table of score vectors, made when max^n
    /// first searches, is as large again).
    pub tt_mib: usize,
    /// Use the transposition table at all (for max^n too).
    pub use_tt: bool,
    /// Use move ordering (TT move, history, the evaluator's hints; noisy moves first and
    /// killers if [`Config::noisy_first`] and [`Config::killers`]). Never changes a
    /// fixed-depth value.
    pub ordering: bool,
    /// Put each ply's killer moves (the last quiet moves that caused a cutoff at that ply)
    /// first after the table's move (among moves of equal hint, after the noisy moves: see
    /// [`Config::noisy_first`]), at
    /// nodes with many moves (twelve or more). At nodes with fewer the game's own order is
    /// kept: there a killer that does not refute costs a subtree (measured: Connect Four's
    /// centre-first order with killers everywhere took 1.6 times the nodes; 6×6
    /// Othello, about ten moves a node, 1.15 times at one position). On by default.
    pub killers: bool,
    /// Search the game's noisy moves ([`Game::noisy_moves`](crate::Game::noisy_moves):
    /// captures and the like) right after the table's move, before the killers and the
    /// history order, in the game's order; the killers and the history heuristic then learn
    /// from the other (quiet) moves only, as chess engines order captures. Where a game has
    /// no noisy moves this changes nothing. On by default: measured (with killers
    /// from twelve moves) on 6×6 Breakthrough, captures as noisy moves, the benchmark
    /// positions took 0.55 times the nodes and Chexers' bench 0.83; Throne's engine settings
    /// turn it off (1.06 times the nodes, and slower), and Jumpy3's (its evaluations' move
    /// hint orders better, and the noisy moves cost their generation at every node). The
    /// evaluator's hint ([`Evaluator::move_hint`](crate::Evaluator::move_hint)) still
    /// decides first: noisy moves go first among moves of equal hint. Only with
    /// [`Config::ordering`]; never changes a fixed-depth value.
    pub noisy_first: bool,
    /// Use aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Extend the horizon with the game's noisy moves (quiescence search): at depth 0 the
    /// side to move may stand pat (take the evaluation) or play a noisy move, until the
    /// position is quiet. On by default. Free for a game without noisy moves
    /// ([`Game::noisy_moves`](crate::Game::noisy_moves) gives none): the last ply is
    /// searched by the same short path either way, and the value is plain minimax's.
    ///
    /// **A game with noisy moves** gets, with quiescence on, a fixed-depth value that is not
    /// the plain minimax value at that depth (it is
    /// [`reference::minimax`](crate::reference::minimax) with quiescence `true`). To
    /// compare values or node counts with another library or a hand-written alpha-beta
    /// that has no quiescence, turn it off: `Config::default().with_quiescence(false)`.
    pub quiescence: bool,
    /// The settings of Monte Carlo tree search ([`Algorithm::Mcts`]).
    pub mcts: MctsConfig,
    /// A second opinion before repeating a position: when the search's best move leads to a
    /// position of the game's history (which the search scores as the game's repetition
    /// rule ends it, typically a draw), the root is searched again with this algorithm, a
    /// different model of the opponents (for three players [`Algorithm::MaxN`]: each
    /// opponent pursues its own score, where [`Algorithm::Paranoid`] assumes they both
    /// attack the root player), under the same limits (a clock less the time already
    /// used, so such a move can take up to twice the usual time). Its move is played when
    /// it does not repeat: under that model a way out is worth more than the repetition.
    /// Otherwise the first search's move stands. `None` (the default): no check. Only for
    /// games with a repetition rule ([`Game::repetition_rule`](crate::Game::repetition_rule)).
    pub repetition_check: Option<Algorithm>,
    /// Whether the player to move at the root keeps out of ending the game by the
    /// repetition rule ([`Game::repetition_rule`](crate::Game::repetition_rule)): a root move
    /// into a position that the game's history already holds as often as the rule allows
    /// less one (so that this occurrence ends the game) scores, from the root player's
    /// view, just below every evaluation ([`MAX_EVAL`](crate::MAX_EVAL)` + 1` below zero)
    /// and above a forced loss, whatever the rule's outcome and the evaluation's
    /// [`draw_scores`](crate::Evaluator::draw_scores). So the root player completes the
    /// repetition only when every other move loses by force. For games where a drawn
    /// result is worth no more than a loss (a tournament that counts wins). Other
    /// repetitions, on the search path or deeper in the tree, still score the rule's
    /// outcome. The alpha-beta family and max^n; Monte Carlo tree search ignores it. Off by
    /// default.
    pub avoid_repetition_end: bool,
    /// The *directed offensive* of MP-Mix (Zuckerman, Felner & Kraus 2009): with three
    /// players and [`Algorithm::Paranoid`], when another player leads by at least this
    /// margin, the search turns against it. The leader and its margin are read off the
    /// evaluation of the root ([`Evaluator::evaluate`](crate::Evaluator::evaluate)): the
    /// player with the highest score, its score less the next highest. Then the leader
    /// maximises its own score and everyone else, the root player too, minimises it (the
    /// paranoid search with the leader in the root player's place); the root plays the
    /// move that holds the leader lowest, and the report's score is that move's value from
    /// the root player's view, the leader's score negated. `None` (the default): the root
    /// player is always the one maximising. (With three players the table is cleared whenever
    /// the player maximised changes from one search to the next, the player to move
    /// included: its values hold for one.)
    pub offensive: Option<i32>,
    /// The model of the opponents where the player to move is out of their reach
    /// ([`Game::in_contact`](crate::Game::in_contact) is `false` at the root): that search
    /// is made with this algorithm in place of [`Config::algorithm`] (for three players
    /// [`Algorithm::MaxN`]: paranoid search only where the pieces can meet). `None` (the
    /// default): always [`Config::algorithm`].
    pub apart: Option<Algorithm>,
    /// Whether the search plays the game's own table move at the root when it has one
    /// ([`Game::table_move`](crate::Game::table_move)): the report then has that move,
    /// depth 0, no nodes, and the evaluation's scores of the position. On by default (a
    /// game without tables has no such move).
    pub table_moves: bool,
    /// The selective search ([`Selectivity`]) of the alpha-beta family (two players and
    /// paranoid search; best-reply search and max^n stay exact), or `None`: the exact search,
    /// whose value at a fixed depth is the brute-force minimax value
    /// ([`crate::reference`]). With it, values at a fixed depth are no longer minimax's: a
    /// selective search is judged by games at a clock, not by its values. It also lets
    /// table entries deeper than the remaining depth cut off (an exact search uses only
    /// entries of the exact depth). `None` by default; each game's `engine_config` says
    /// which wins at its clock.
    pub selective: Option<Selectivity>,
    /// Let table entries deeper than the remaining depth cut off in the exact search too (the
    /// selective search always does). Several threads of Lazy SMP then use what the helpers
    /// searched a ply deeper, which saves nodes; but a fixed-depth value is then no longer
    /// the brute-force minimax value of that depth (it is a value of the position searched
    /// at least that deep, and it depends on what the table holds: on the threads and on
    /// earlier searches). Off by default: with it off every search keeps the exact
    /// guarantee at any thread count. Measured with 16 threads taking turns on 2 cores
    /// (`arena bench --scaling`'s figures, two runs each): the node overhead at 16 threads
    /// went from 1.25–1.45 to 1.21–1.29 on Jumpy3's bench at depth 22, and did not move
    /// beyond the runs' spread on Breakthrough and Connect Four.
    pub deeper_entries: bool,
    /// How the threads of the alpha-beta family share the search ([`Parallel`]).
    pub parallel: Parallel,
}

/// How several threads share an alpha-beta search (two players, paranoid and best-reply
/// search; max^n always shares out its tree, Monte Carlo tree search has its own
/// [`MctsParallel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Parallel {
    /// Young Brothers Wait (Feldmann 1993): a node of enough depth searches its first move
    /// alone, then shares out the others among the threads, which take them in order, each
    /// with the node's best score so far as its bound, and stop when one of them refutes
    /// the node. Every thread searches a part of one tree: few nodes beyond one thread's.
    Split,
    /// Lazy SMP: every thread searches the whole tree through the shared table (helpers at
    /// the main thread's iteration or one ahead, with their own windows), putting off the
    /// moves another thread is searching (ABDADA); an iteration is complete when any thread
    /// completes it.
    Lazy,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            algorithm: Algorithm::AlphaBeta,
            threads: 1,
            tt_mib: 64,
            use_tt: true,
            ordering: true,
            killers: true,
            noisy_first: true,
            aspiration: true,
            quiescence: true,
            mcts: MctsConfig::default(),
            repetition_check: None,
            avoid_repetition_end: false,
            offensive: None,
            apart: None,
            table_moves: true,
            selective: None,
            deeper_entries: false,
            parallel: Parallel::Split,
        }
    }
}

impl Config {
    /// This configuration with another algorithm.
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = algorithm;
        self
    }
    /// This configuration with `threads` worker threads (1: fully deterministic).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }
    /// This configuration with a table of `mib` MiB (0: no table).
    pub fn with_tt_mib(mut self, mib: usize) -> Self {
        self.use_tt = mib > 0;
        if mib > 0 {
            self.tt_mib = mib;
        }
        self
    }
    /// This configuration with move ordering on or off.
    pub fn with_ordering(mut self, on: bool) -> Self {
        self.ordering = on;
        self
    }
    /// This configuration with killer moves on or off (see [`Config::killers`]).
    pub fn with_killers(mut self, on: bool) -> Self {
        self.killers = on;
        self
    }
    /// This configuration with noisy moves first on or off (see [`Config::noisy_first`]).
    pub fn with_noisy_first(mut self, on: bool) -> Self {
        self.noisy_first = on;
        self
    }
    /// This configuration with aspiration windows on or off.
    pub fn with_aspiration(mut self, on: bool) -> Self {
        self.aspiration = on;
        self
    }
    /// This configuration with quiescence search on or off.
    pub fn with_quiescence(mut self, on: bool) -> Self {
        self.quiescence = on;
        self
    }
    /// This configuration with other Monte Carlo tree search settings.
    pub fn with_mcts(mut self, mcts: MctsConfig) -> Self {
        self.mcts = mcts;
        self
    }
    /// This configuration with a second opinion before repeating a position (see
    /// [`Config::repetition_check`]; `None`: none).
    pub fn with_repetition_check(mut self, model: Option<Algorithm>) -> Self {
        self.repetition_check = model;
        self
    }
    /// This configuration with the root player keeping out of the repetition rule's end, or
    /// not (see [`Config::avoid_repetition_end`]).
    pub fn with_avoid_repetition_end(mut self, on: bool) -> Self {
        self.avoid_repetition_end = on;
        self
    }
    /// This configuration with the game's table moves played or searched (see
    /// [`Config::table_moves`]).
    pub fn with_table_moves(mut self, on: bool) -> Self {
        self.table_moves = on;
        self
    }
    /// This configuration with the selective search (see [`Config::selective`]; `None`: the
    /// exact search).
    pub fn with_selective(mut self, selective: Option<Selectivity>) -> Self {
        self.selective = selective;
        self
    }
    /// This configuration with table entries deeper than asked cutting off, or not (see
    /// [`Config::deeper_entries`]).
    pub fn with_deeper_entries(mut self, on: bool) -> Self {
        self.deeper_entries = on;
        self
    }
    /// This configuration with another way for the threads to share the search (see
    /// [`Config::parallel`]).
    pub fn with_parallel(mut self, parallel: Parallel) -> Self {
        self.parallel = parallel;
        self
    }
    /// This configuration with another model of the opponents out of reach (see
    /// [`Config::apart`]; `None`: the same algorithm everywhere).
    pub fn with_apart(mut self, model: Option<Algorithm>) -> Self {
        self.apart = model;
        self
    }
    /// This configuration with the directed offensive against a leader ahead by at least
    /// `margin` (see [`Config::offensive`]; `None`: none).
    pub fn with_offensive(mut self, margin: Option<i32>) -> Self {
        self.offensive = margin;
        self
    }
}

/// A game clock: time left for the rest of the game, increment, moves to the next control.
///
/// ```
/// use std::time::Duration;
/// use plyforge_search::{Clock, Limits};
/// let clock = Clock::new(Duration::from_secs(120)).with_moves_to_go(150);
/// let limits = Limits::default().with_clock(clock);
/// assert_eq!(limits.clock.unwrap().moves_to_go, Some(150));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Clock {
    /// Thinking time left for this side.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves this side still has to make in that time, when known (Throne: 150 minus moves made).
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// `remaining` for the rest of the game, no increment, the number of moves unknown.
    pub fn new(remaining: Duration) -> Self {
        Clock {
            remaining,
            increment: Duration::ZERO,
            moves_to_go: None,
        }
    }
    /// This clock with an increment after each move.
    pub fn with_increment(mut self, increment: Duration) -> Self {
        self.increment = increment;
        self
    }
    /// This clock with the number of moves still to make in its time.
    pub fn with_moves_to_go(mut self, moves: u32) -> Self {
        self.moves_to_go = Some(moves);
        self
    }

    /// The clock to hand the time manager for one move when `remaining` is left for `moves`
    /// more moves (at least 1), keeping a reserve for what the time manager does not see (a
    /// referee's latency, a loaded machine, a game longer than estimated): `moves` to go,
    /// and as the time a share of what lies above `floor`, planned as if `reserve_moves`
    /// more moves were to come: `(r − floor) · m / (m + R)`, but never less than
    /// `r / (4 (m + R))` (so a clock below the floor still gives each move a slice).
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyforge_search::Clock;
    /// let c = Clock::reserved(Duration::from_secs(60), 50, 10, Duration::from_millis(300));
    /// assert_eq!(c.moves_to_go, Some(50));
    /// // (60 s − 0.3 s) · 50 / 60
    /// assert_eq!(c.remaining, Duration::from_millis(49_750));
    /// let low = Clock::reserved(Duration::from_millis(200), 10, 10, Duration::from_millis(300));
    /// assert_eq!(low.remaining, Duration::from_micros(2_500)); // 200 ms / 80
    /// ```
    pub fn reserved(remaining: Duration, moves: u32, reserve_moves: u32, floor: Duration) -> Self {
        let moves = moves.max(1);
        let planned = (moves + reserve_moves) as f64;
        let above_floor = remaining
            .saturating_sub(floor)
            .mul_f64(moves as f64 / planned);
        let minimum = remaining.mul_f64(1.0 / (4.0 * planned));
        Clock::new(above_floor.max(minimum)).with_moves_to_go(moves)
    }
}

/// A game's rule for planning a game clock: [`ClockPolicy::limits`], **the one clock rule**
/// that every front end (matches, the engine protocol, the match server's client, the web
/// page, the Python package) applies for a move on a game clock, with the game's own
/// reserve and floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockPolicy {
    /// Moves of time held back beyond the moves to go (for a game that lasts longer than
    /// estimated): see [`Clock::reserved`].
    pub reserve_moves: u32,
    /// Time never planned: for what the time manager does not see (a referee's or a
    /// network's latency, a loaded machine).
    pub floor: Duration,
}

impl Default for ClockPolicy {
    /// Ten moves of reserve, no floor.
    fn default() -> Self {
        ClockPolicy::DEFAULT
    }
}

impl ClockPolicy {
    /// Ten moves of reserve, no floor: the rule of a game that says nothing of its own.
    pub const DEFAULT: ClockPolicy = ClockPolicy {
        reserve_moves: 10,
        floor: Duration::ZERO,
    };

    /// This policy with a floor of at least `floor` (a caller's own margin, such as a
    /// network's latency).
    pub fn with_floor(mut self, floor: Duration) -> Self {
        self.floor = self.floor.max(floor);
        self
    }

    /// **The clock rule**: the limits for one move with `remaining` on the clock for the
    /// rest of the game (no increment), `moves` the moves the side still expects to make
    /// (`None`: unknown), and `own` the player's own limits (depth, nodes, a time per move),
    /// which apply too (a clock in `own` is replaced).
    ///
    /// With `moves` known, the clock handed to the time manager is [`Clock::reserved`]:
    /// `moves` to go and a share of what lies above the floor, planned as if
    /// [`reserve_moves`](ClockPolicy::reserve_moves) more moves were to come. Unknown, it is
    /// what lies above the floor (never less than a quarter of `remaining`), and the time
    /// manager plans for its default number of moves.
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyforge_search::{ClockPolicy, Limits};
    /// let policy = ClockPolicy { reserve_moves: 10, floor: Duration::from_millis(300) };
    /// let l = policy.limits(Limits::depth(12), Duration::from_secs(60), Some(50));
    /// assert_eq!(l.depth, Some(12));
    /// let c = l.clock.unwrap();
    /// assert_eq!(c.moves_to_go, Some(50));
    /// assert_eq!(c.remaining, Duration::from_millis(49_750)); // (60 s − 0.3 s) · 50 / 60
    /// let unknown = policy.limits(Limits::default(), Duration::from_secs(60), None);
    /// assert_eq!(unknown.clock.unwrap().remaining, Duration::from_millis(59_700));
    /// ```
    pub fn limits(&self, own: Limits, remaining: Duration, moves: Option<u32>) -> Limits {
        let clock = match moves {
            Some(m) => Clock::reserved(remaining, m, self.reserve_moves, self.floor),
            None => Clock::new(remaining.saturating_sub(self.floor).max(remaining / 4)),
        };
        own.with_clock(clock)
    }
}

/// When to stop. Several limits may be set; the first reached stops the search. With none
/// set the search runs until its depth cap or until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest iteration to complete.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// A game clock; the time manager takes a slice of it and never oversteps it.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
    /// Search for a fixed time (at least [`Limits::MIN_MOVETIME`]).
    pub fn movetime(time: Duration) -> Self {
        Limits::default().with_movetime(time)
    }
    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
    /// Think on a game clock.
    pub fn clock(clock: Clock) -> Self {
        Limits {
            clock: Some(clock),
            ..Limits::default()
        }
    }
    /// These limits with a depth limit (`None`: none).
    pub fn with_depth(mut self, depth: impl Into<Option<u32>>) -> Self {
        self.depth = depth.into();
        self
    }
    /// These limits with a node budget (`None`: none).
    pub fn with_nodes(mut self, nodes: impl Into<Option<u64>>) -> Self {
        self.nodes = nodes.into();
        self
    }
    /// The shortest time per move: a shorter one (zero included) is taken as this, so that
    /// a search under a time always gets to look at the position.
    pub const MIN_MOVETIME: Duration = Duration::from_millis(1);

    /// These limits with a time for this move (`None`: none; at least
    /// [`Limits::MIN_MOVETIME`]).
    pub fn with_movetime(mut self, time: impl Into<Option<Duration>>) -> Self {
        self.movetime = time.into().map(|t| t.max(Limits::MIN_MOVETIME));
        self
    }
    /// These limits with a game clock (`None`: none).
    pub fn with_clock(mut self, clock: impl Into<Option<Clock>>) -> Self {
        self.clock = clock.into();
        self
    }
}

/// What the engine reports after each completed iteration, and at the end.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Report<M> {
    /// The best move found (None only when the root has no move: the game is over).
    pub best: Option<M>,
    /// The score from the root player's point of view (see [`MATE`]).
    pub score: i32,
    /// Per-player values (max^n; for the two-player searches `[score, -score, 0]`-like).
    pub scores: Scores,
    /// Depth of the last completed iteration (the move may come from the next one, which
    /// the limits stopped: see [`crate::Search::run`]).
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// Fraction of table probes that found an entry for their key.
    pub tt_hit_rate: f64,
}
