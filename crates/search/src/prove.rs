//! Proof-number search: depth-first proof-number search (df-pn, Nagai 2002) with the 1+ε
//! trick (Pawlewicz & Lew 2007), proving or disproving that the player to move at the root
//! can force a win — in any two-player game of this crate's [`Game`] contract, turns
//! alternating or not — optionally within a number of plies, so that the exact distance of
//! a forced win can be found ([`Prover::shortest_win`]).
//!
//! The attacker is the player to move at the root: a position where the attacker is to move
//! is an OR node (one winning move proves it), any other an AND node (every move must
//! lose). A position that ends the game in the attacker's win is proven; any other end (a
//! loss, a draw, both win, both lose) is disproven, and so is a position that repeats one
//! on the path or in the game's history (the search's rule: its first recurrence ends the
//! game with the repetition rule's outcome), and, within a bound, a position with no plies
//! left. What is proven is a forced win against every defence; "disproven" means the
//! attacker cannot force a win (within the bound).
//!
//! **The table.** Every position searched keeps its proof and disproof numbers at the
//! bound it was searched with, and, once settled, a proof "win within `n` plies" (valid at
//! every bound of at least `n`) or a disproof "no win within `n` plies" (valid at every
//! bound up to `n`), so one table serves several bounds. A disproof that rests on a
//! repetition of the current path is not stored (it may not hold on another path: the
//! graph-history interaction), only passed up to the parent; a proof never rests on a
//! repetition, since a repetition is never the attacker's win.
//!
//! ```
//! use plyforge_search::prove::{Proof, Prover};
//! use plyforge_search::synthetic::{Spec, Synthetic};
//! use plyforge_search::Limits;
//!
//! let game = Synthetic::new(Spec { seed: 5, terminal_per_mille: 300, ..Spec::default() });
//! let mut prover = Prover::new();
//! let r = prover.shortest_win(&game, 0, &[], None, Limits::nodes(200_000));
//! // A proven win comes with its exact distance, the winning move and a perfect line.
//! if let Proof::Win { plies } = r.proof {
//!     assert_eq!(r.pv.len(), plies as usize);
//!     assert_eq!(r.best, r.pv.first().copied());
//! }
//! ```

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fxhash::FxHashMap;
use fxhash::FxHashSet;
use smallvec::SmallVec;

use crate::game::{Game, MoveList, Outcome, Player};
use crate::time::TimeManager;
use crate::types::Limits;

/// Larger than any real proof or disproof number: a settled node's other number.
const INF: u32 = u32::MAX / 4;
/// The largest number of a node that is not settled (numbers of large graphs add up).
const MAX_WORKING: u32 = INF - 2;
/// The bound of an unbounded search (and the most plies a proof may have).
pub const UNBOUNDED: u32 = 2000;
/// Nodes between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 4096;
/// No proof / no disproof in an entry.
const NONE: u32 = u32::MAX;

/// What a proof search found, from the view of the player to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Proof {
    /// The player to move can force a win, within `plies` plies (the length of the proof
    /// found; [`Prover::shortest_win`] makes it the shortest).
    Win {
        /// Plies to the win along the proof found, against the longest defence in it.
        plies: u32,
    },
    /// The player to move cannot force a win (within the bound searched).
    NoWin,
    /// The limits were reached first.
    Unknown,
}

/// The result of a proof search.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ProofReport<M> {
    /// What was proven.
    pub proof: Proof,
    /// A winning move, when a win is proven.
    pub best: Option<M>,
    /// A line of the proof: the winning moves and the longest defences in it.
    pub pv: Vec<M>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// The exact value of a position of a two-player game for the player to move, as
/// [`Prover::solve`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Value {
    /// The player to move wins in this many plies with best play.
    Win(u32),
    /// The player to move loses in this many plies with best play.
    Loss(u32),
    /// Neither player can force a win.
    Draw,
}

impl Value {
    /// The value of a finished game for `player`: its win or loss at distance 0, else a
    /// draw (an end that is neither player's win alone, as the proof search counts it: a
    /// draw, both win, both lose).
    ///
    /// ```
    /// use plyforge_search::prove::Value;
    /// use plyforge_search::{DrawKind, Outcome};
    /// assert_eq!(Value::of_outcome(Outcome::Win(1), 1), Value::Win(0));
    /// assert_eq!(Value::of_outcome(Outcome::Win(1), 0), Value::Loss(0));
    /// assert_eq!(Value::of_outcome(Outcome::Draw(DrawKind::Score), 0), Value::Draw);
    /// ```
    pub fn of_outcome(outcome: Outcome, player: Player) -> Value {
        match outcome {
            Outcome::Win(w) if w == player => Value::Win(0),
            Outcome::Win(_) => Value::Loss(0),
            _ => Value::Draw,
        }
    }
}

/// What [`Prover::solve`] found.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Solved<M> {
    /// The value for the player to move.
    pub value: Value,
    /// Every best move: the quickest wins, the slowest losses, or the moves that keep the
    /// draw; in legal-move order.
    pub best: Vec<M>,
    /// One perfect-play line (empty for a draw).
    pub line: Vec<M>,
    /// Nodes searched, all searches together.
    pub nodes: u64,
}

type Hint<'h, G> = Option<&'h HintFn<G>>;

/// What the table keeps of a position.
#[derive(Clone, Copy, Debug)]
struct ProofEntry {
    /// Proof number.
    pn: u32,
    /// Disproof number (both at the last bound the position was searched with).
    dn: u32,
    /// Proven: a win within this many plies ([`NONE`]: not proven).
    win_within: u32,
    /// Disproven: no win within this many plies ([`NONE`]: not disproven at any bound).
    no_win_within: u32,
    /// The index of the move that proves a win (an OR node) or defends longest (an AND
    /// node), for the line.
    best: u16,
}

impl ProofEntry {
    fn new() -> ProofEntry {
        ProofEntry {
            pn: 1,
            dn: 1,
            win_within: NONE,
            no_win_within: NONE,
            best: 0,
        }
    }

    /// The numbers at `bound`: settled values where a proof or disproof covers it, the
    /// working numbers otherwise (those of another bound are a fair guess).
    fn numbers(&self, bound: u32) -> (u32, u32) {
        if self.win_within != NONE && self.win_within <= bound {
            (0, INF)
        } else if self.no_win_within != NONE && self.no_win_within >= bound {
            (INF, 0)
        } else {
            (self.pn, self.dn)
        }
    }
}

/// A child of the node being searched: its numbers, the plies of its proof, and whether
/// its disproof rests on a repetition of the path.
#[derive(Clone, Copy)]
struct Child {
    pn: u32,
    dn: u32,
    /// When proven: a win within this many plies from the child.
    win_within: u32,
    /// The disproof rests on the path (not to be stored above it).
    path_dependent: bool,
}

/// A df-pn prover for the game `G` with its table, kept between searches (so that proofs
/// of several bounds, or of consecutive positions, share what they found).
pub struct Prover<G: Game> {
    table: FxHashMap<u64, ProofEntry>,
    nodes: u64,
    poll_at: u64,
    stopped: bool,
    hint: Option<Arc<HintFn<G>>>,
    max_entries: usize,
}

/// The most positions the table keeps by default (about 32 bytes each): a search that
/// needs more stops with [`Proof::Unknown`].
pub const DEFAULT_MAX_ENTRIES: usize = 8 << 20;

/// A move-ordering hint: among children of equal numbers, the one with the larger hint is
/// searched first (an evaluator's [`crate::Evaluator::move_hint`] is one).
pub type HintFn<G> = dyn Fn(&G, <G as Game>::Move) -> i32 + Send + Sync;

impl<G: Game> Default for Prover<G> {
    fn default() -> Self {
        Prover {
            table: FxHashMap::default(),
            nodes: 0,
            poll_at: 0,
            stopped: false,
            hint: None,
            max_entries: DEFAULT_MAX_ENTRIES,
        }
    }
}

impl<G: Game> std::fmt::Debug for Prover<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prover")
            .field("table", &self.table.len())
            .field("hint", &self.hint.is_some())
            .finish_non_exhaustive()
    }
}

/// What one proof search fixes.
struct ProofCtx<'a> {
    attacker: Player,
    rule: Option<Outcome>,
    history: FxHashSet<u64>,
    /// The repetition keys of the positions on the path (distinct: a repeated one is not
    /// searched further).
    path: FxHashSet<u64>,
    /// Whether repetitions of the path are ignored (a bounded search; see
    /// [`Prover::prove_within`]).
    ignore_path: bool,
    stop: Option<&'a AtomicBool>,
    time: TimeManager,
    node_limit: Option<u64>,
}

impl ProofCtx<'_> {
    /// The table's key of a position: its key, told apart by the attacker (a proof for one
    /// player says nothing of the other's).
    #[inline]
    fn key<G: Game>(&self, pos: &G) -> u64 {
        pos.key() ^ crate::rng::splitmix64(self.attacker as u64 ^ 0x5052_4f56_4552)
    }
}

impl<G: Game> Prover<G> {
    /// A prover with an empty table.
    pub fn new() -> Self {
        Prover::default()
    }

    /// A prover that orders moves by `hint` (see [`HintFn`]), such as an evaluator's
    /// `move_hint`: `Prover::with_hint(move |p, m| eval.move_hint(p, m))`.
    pub fn with_hint(hint: impl Fn(&G, G::Move) -> i32 + Send + Sync + 'static) -> Self {
        Prover {
            hint: Some(Arc::new(hint)),
            ..Prover::default()
        }
    }

    /// This prover with a table of at most `entries` positions (default
    /// [`DEFAULT_MAX_ENTRIES`]); a search that needs more stops with [`Proof::Unknown`].
    pub fn with_max_entries(mut self, entries: usize) -> Self {
        self.max_entries = entries.max(1);
        self
    }

    /// Forgets the table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Positions in the table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Proves or disproves that the player to move in `game` can force a win, with no bound
    /// on its length. See [`Prover::prove_within`].
    pub fn prove(
        &mut self,
        game: &G,
        history: &[u64],
        stop: Option<&AtomicBool>,
        limits: Limits,
    ) -> ProofReport<G::Move> {
        self.prove_within(game, game.to_move(), history, UNBOUNDED, stop, limits)
    }

    /// Proves or disproves that `player` can force a win in `game` within `bound` plies
    /// (against every defence of all the other players). `history`: the repetition keys of
    /// the game's earlier positions (as for [`crate::Search::run`]); `stop`: a flag that
    /// ends the search when set; `limits`: its node and time limits (the depth limit is not
    /// used). The table is kept for the next search. A winning move is reported when
    /// `player` is to move.
    pub fn prove_within(
        &mut self,
        game: &G,
        player: Player,
        history: &[u64],
        bound: u32,
        stop: Option<&AtomicBool>,
        limits: Limits,
    ) -> ProofReport<G::Move> {
        let hint = self.hint.clone();
        self.prove_hinted(game, player, history, bound, stop, limits, hint.as_deref())
    }

    #[allow(clippy::too_many_arguments)]
    fn prove_hinted(
        &mut self,
        game: &G,
        player: Player,
        history: &[u64],
        bound: u32,
        stop: Option<&AtomicBool>,
        limits: Limits,
        hint: Hint<'_, G>,
    ) -> ProofReport<G::Move> {
        let start = Instant::now();
        let bound = bound.min(UNBOUNDED);
        let mut ctx = ProofCtx {
            attacker: player,
            rule: game.repetition_rule().map(|(_, o)| o),
            history: history.iter().copied().collect(),
            path: FxHashSet::default(),
            ignore_path: false,
            stop,
            time: TimeManager::new(&limits, start),
            node_limit: limits.nodes,
        };
        // A bounded search ignores repetitions of its path (but not of the game's
        // history) when positions of equal repetition keys have the same future
        // (`Game::repetition_key_decides_future`) and a repetition is not the attacker's
        // win: a win within `bound` in the game without them is one with them too (the
        // quickest strategy reaches positions ever nearer the win, so never two of the
        // same future, and repetitions only help the defender), and without them a
        // position's result does not depend on the path that reached it, so every proof
        // and disproof can be kept.
        ctx.ignore_path = bound < UNBOUNDED
            && ctx.rule != Some(Outcome::Win(player))
            && game.repetition_key_decides_future();
        self.nodes = 0;
        self.poll_at = POLL_INTERVAL;
        self.stopped = false;
        let root = self.child_numbers(&ctx, game, bound, 0);
        let (pn, dn) = if root.pn == 0 || root.dn == 0 {
            (root.pn, root.dn)
        } else {
            self.mid(&mut ctx, game, bound, INF - 1, INF - 1, 0, hint)
        };
        let proof = if pn == 0 {
            let within = self
                .table
                .get(&ctx.key(game))
                .map_or(root.win_within, |e| e.win_within);
            Proof::Win { plies: within }
        } else if dn == 0 {
            Proof::NoWin
        } else {
            Proof::Unknown
        };
        let pv = match proof {
            Proof::Win { .. } => self.line(&ctx, game),
            _ => Vec::new(),
        };
        ProofReport {
            proof,
            best: pv.first().copied().filter(|_| game.to_move() == player),
            pv,
            nodes: self.nodes,
            elapsed: start.elapsed(),
        }
    }

    /// The exact distance of a forced win of `player`, if it has one: a proof search
    /// without a bound, then bounded searches halving the interval until the shortest win
    /// is proven and every shorter one disproven. `Proof::Win { plies }` then holds the
    /// exact distance (the winner shortens, the loser lengthens the game), and the line is
    /// a perfect one. The limits hold for all the searches together.
    pub fn shortest_win(
        &mut self,
        game: &G,
        player: Player,
        history: &[u64],
        stop: Option<&AtomicBool>,
        limits: Limits,
    ) -> ProofReport<G::Move> {
        let start = Instant::now();
        let mut total = 0;
        let budget = |spent: u64, start: Instant| {
            let mut l = limits;
            l.nodes = limits.nodes.map(|n| n.saturating_sub(spent));
            l.movetime = limits.movetime.map(|t| t.saturating_sub(start.elapsed()));
            l
        };
        let first = self.prove_within(game, player, history, UNBOUNDED, stop, limits);
        total += first.nodes;
        let Proof::Win { plies } = first.proof else {
            return ProofReport {
                nodes: total,
                elapsed: start.elapsed(),
                ..first
            };
        };
        // The shortest win lies in lo..=hi: a win within `hi` is proven, none within `lo - 1`.
        let (mut lo, mut hi) = (1, plies);
        let mut best = first;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let r = self.prove_within(game, player, history, mid, stop, budget(total, start));
            total += r.nodes;
            match r.proof {
                Proof::Win { plies } => {
                    hi = plies.min(mid);
                    best = r;
                }
                Proof::NoWin => lo = mid + 1,
                _ => {
                    return ProofReport {
                        nodes: total,
                        elapsed: start.elapsed(),
                        ..best
                    }
                }
            }
        }
        // The line of the shortest proof.
        let r = self.prove_within(game, player, history, hi, stop, budget(total, start));
        total += r.nodes;
        if let Proof::Win { .. } = r.proof {
            best = r;
        }
        best.proof = Proof::Win { plies: hi };
        best.nodes = total;
        best.elapsed = start.elapsed();
        best
    }

    /// The exact value of `game` for the player to move (a game of two players), every best
    /// move and a perfect line: a win, a loss (each with its exact distance:
    /// [`Prover::shortest_win`] for each side) or, when neither side can force a win, a
    /// draw. A finished game is its result at distance 0 ([`Value::of_outcome`]), with no
    /// move and no line. `None` when the limits (for all the searches together) are reached
    /// first, or when the game does not have two players.
    pub fn solve(
        &mut self,
        game: &G,
        history: &[u64],
        stop: Option<&AtomicBool>,
        limits: Limits,
    ) -> Option<Solved<G::Move>> {
        if game.players() != 2 {
            return None;
        }
        if let Some(o) = game.outcome() {
            return Some(Solved {
                value: Value::of_outcome(o, game.to_move()),
                best: Vec::new(),
                line: Vec::new(),
                nodes: 0,
            });
        }
        let start = Instant::now();
        let mut nodes = 0;
        let left = |nodes: u64| {
            let mut l = limits;
            l.nodes = limits.nodes.map(|n| n.saturating_sub(nodes));
            l.movetime = limits.movetime.map(|t| t.saturating_sub(start.elapsed()));
            l
        };
        let me = game.to_move();
        let them = 1 - me;
        let mut moves: MoveList<G::Move> = MoveList::new();
        game.legal_moves(&mut moves);
        let mut child_history = history.to_vec();
        child_history.push(game.repetition_key());
        // Whether `player` wins from the child after move `m` within `bound` plies.
        let wins_after =
            |p: &mut Prover<G>, m: G::Move, player: Player, bound: u32, nodes: &mut u64| {
                let mut child = game.clone();
                child.play(m);
                let r = p.prove_within(&child, player, &child_history, bound, stop, left(*nodes));
                *nodes += r.nodes;
                r.proof
            };
        let mine = self.shortest_win(game, me, history, stop, left(nodes));
        nodes += mine.nodes;
        let (value, best, line) = match mine.proof {
            Proof::Win { plies } => {
                let mut best = Vec::new();
                for &m in moves.iter() {
                    match wins_after(self, m, me, plies - 1, &mut nodes) {
                        Proof::Win { .. } => best.push(m),
                        Proof::NoWin => {}
                        _ => return None,
                    }
                }
                (Value::Win(plies), best, mine.pv)
            }
            Proof::NoWin => {
                let theirs = self.shortest_win(game, them, history, stop, left(nodes));
                nodes += theirs.nodes;
                match theirs.proof {
                    Proof::Win { plies } => {
                        // The slowest losses: no quicker win for them after the move.
                        let mut best = Vec::new();
                        for &m in moves.iter() {
                            if plies < 2 {
                                // Every move loses at once.
                                best.push(m);
                                continue;
                            }
                            match wins_after(self, m, them, plies - 2, &mut nodes) {
                                Proof::NoWin => best.push(m),
                                Proof::Win { .. } => {}
                                _ => return None,
                            }
                        }
                        (Value::Loss(plies), best, theirs.pv)
                    }
                    Proof::NoWin => {
                        let mut best = Vec::new();
                        for &m in moves.iter() {
                            match wins_after(self, m, them, UNBOUNDED, &mut nodes) {
                                Proof::NoWin => best.push(m),
                                Proof::Win { .. } => {}
                                _ => return None,
                            }
                        }
                        (Value::Draw, best, Vec::new())
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(Solved {
            value,
            best,
            line,
            nodes,
        })
    }

    /// Counts a node; looks at the limits now and then.
    #[inline]
    fn count(&mut self, ctx: &ProofCtx<'_>) {
        self.nodes += 1;
        if self.nodes >= self.poll_at {
            self.poll_at = self.nodes + POLL_INTERVAL;
            if ctx.stop.is_some_and(|s| s.load(Relaxed))
                || ctx.node_limit.is_some_and(|l| self.nodes >= l)
                || self.table.len() >= self.max_entries
                || ctx.time.out_of_time()
            {
                self.stopped = true;
            }
        }
    }

    /// The numbers of a position about to be searched with `bound` plies left: settled at
    /// once where the game ends or repeats, or no plies are left; else from the table.
    fn child_numbers(&self, ctx: &ProofCtx<'_>, pos: &G, bound: u32, ply: u32) -> Child {
        let proven = Child {
            pn: 0,
            dn: INF,
            win_within: 0,
            path_dependent: false,
        };
        let disproven = |path_dependent| Child {
            pn: INF,
            dn: 0,
            win_within: NONE,
            path_dependent,
        };
        if let Some(rule) = ctx.rule {
            let k = pos.repetition_key();
            let on_path = !ctx.ignore_path && ctx.path.contains(&k);
            if ply > 0 && (on_path || ctx.history.contains(&k)) {
                // The first recurrence ends the game (the search's rule). What follows
                // from it holds for this path and history only: it is not stored.
                return if rule == Outcome::Win(ctx.attacker) {
                    proven
                } else {
                    disproven(true)
                };
            }
        }
        match pos.outcome() {
            Some(Outcome::Win(w)) if w == ctx.attacker => return proven,
            Some(_) => return disproven(false),
            None => {}
        }
        if bound == 0 {
            return disproven(false);
        }
        match self.table.get(&ctx.key(pos)) {
            Some(e) => {
                let (pn, dn) = e.numbers(bound);
                Child {
                    pn,
                    dn,
                    win_within: if pn == 0 { e.win_within } else { NONE },
                    path_dependent: false,
                }
            }
            None => Child {
                pn: 1,
                dn: 1,
                win_within: NONE,
                path_dependent: false,
            },
        }
    }

    /// The multiple-iterative-deepening step of df-pn: searches `pos` (not settled) with
    /// `bound` plies left until its proof number reaches `th_pn` or its disproof number
    /// `th_dn`; returns both and stores them.
    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        ctx: &mut ProofCtx<'_>,
        pos: &G,
        bound: u32,
        th_pn: u32,
        th_dn: u32,
        ply: u32,
        hint: Hint<'_, G>,
    ) -> (u32, u32) {
        self.count(ctx);
        let or_node = pos.to_move() == ctx.attacker;
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        let rep_key = pos.repetition_key();
        let on_path = ctx.rule.is_some() && !ctx.ignore_path;
        if on_path {
            ctx.path.insert(rep_key);
        }
        // The moves in the order of the hint (legal order among equal hints): the search
        // tries the first of equally promising children first.
        let mut order: SmallVec<[u8; 128]> = (0..moves.len() as u8).collect();
        if let Some(hint) = hint {
            order.sort_by_key(|&i| std::cmp::Reverse(hint(pos, moves[i as usize])));
        }
        let mut kids: Vec<Child> = Vec::with_capacity(moves.len());
        let mut child = pos.clone();
        for &i in order.iter() {
            child.play_from(pos, moves[i as usize]);
            kids.push(self.child_numbers(ctx, &child, bound - 1, ply + 1));
        }
        let (mut pn, mut dn);
        loop {
            (pn, dn) = combine(or_node, &kids);
            if pn >= th_pn || dn >= th_dn || self.stopped {
                break;
            }
            let (i, second) = select(or_node, &kids);
            let c = kids[i];
            let (c_th_pn, c_th_dn) = if or_node {
                (
                    th_pn.min(one_plus_epsilon(second)),
                    th_dn
                        .saturating_sub(dn)
                        .saturating_add(c.dn)
                        .min(MAX_WORKING + 1),
                )
            } else {
                (
                    th_pn
                        .saturating_sub(pn)
                        .saturating_add(c.pn)
                        .min(MAX_WORKING + 1),
                    th_dn.min(one_plus_epsilon(second)),
                )
            };
            child.play_from(pos, moves[order[i] as usize]);
            let (cpn, cdn) = self.mid(ctx, &child, bound - 1, c_th_pn, c_th_dn, ply + 1, hint);
            let settled = self.table.get(&ctx.key(&child)).copied();
            kids[i] = Child {
                pn: cpn,
                dn: cdn,
                win_within: if cpn == 0 {
                    settled.map_or(NONE, |e| e.win_within)
                } else {
                    NONE
                },
                // A disproof the child could not store rests on the path.
                path_dependent: cdn == 0
                    && settled.map_or(true, |e| {
                        e.no_win_within == NONE || e.no_win_within < bound - 1
                    }),
            };
        }
        if on_path {
            ctx.path.remove(&rep_key);
        }
        self.store(or_node, ctx.key(pos), bound, pn, dn, &kids, &order);
        (pn, dn)
    }

    /// Stores a node's working numbers, or its proof, or its disproof (unless the disproof
    /// rests on a repetition of the path). Working numbers are never settled values, so a
    /// proof or disproof found at one bound is never taken for one at another.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        or_node: bool,
        key: u64,
        bound: u32,
        pn: u32,
        dn: u32,
        kids: &[Child],
        order: &[u8],
    ) {
        if pn == 0 {
            // The plies of the proof: the quickest proven move, or the longest defence.
            let proven = kids.iter().enumerate().filter(|(_, k)| k.pn == 0);
            let (i, within) = if or_node {
                proven.min_by_key(|(_, k)| k.win_within)
            } else {
                proven.max_by_key(|(_, k)| k.win_within)
            }
            .map_or((0, 0), |(i, k)| (i, k.win_within.saturating_add(1)));
            let e = self.table.entry(key).or_insert_with(ProofEntry::new);
            if within < e.win_within {
                e.win_within = within;
                e.best = order.get(i).map_or(0, |&m| u16::from(m));
            }
        } else if dn == 0 {
            let path_dependent = if or_node {
                kids.iter().any(|k| k.path_dependent)
            } else {
                kids.iter().filter(|k| k.dn == 0).all(|k| k.path_dependent)
            };
            if !path_dependent {
                let e = self.table.entry(key).or_insert_with(ProofEntry::new);
                if e.no_win_within == NONE || e.no_win_within < bound {
                    e.no_win_within = bound;
                }
            }
        } else {
            let e = self.table.entry(key).or_insert_with(ProofEntry::new);
            e.pn = pn;
            e.dn = dn;
        }
    }

    /// The line of a proven win: from each position the move the table names (the
    /// quickest proven move of the attacker, the longest defence of the other player).
    fn line(&self, ctx: &ProofCtx<'_>, game: &G) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut pos = game.clone();
        let mut seen: FxHashSet<u64> = ctx.history.clone();
        seen.insert(pos.repetition_key());
        while pos.outcome().is_none() && line.len() < UNBOUNDED as usize {
            let Some(e) = self.table.get(&ctx.key(&pos)) else {
                break;
            };
            if e.win_within == NONE {
                break;
            }
            let mut moves: MoveList<G::Move> = MoveList::new();
            pos.legal_moves(&mut moves);
            let Some(&m) = moves.get(e.best as usize) else {
                break;
            };
            line.push(m);
            pos.play(m);
            if !seen.insert(pos.repetition_key()) {
                break;
            }
        }
        line
    }
}

/// A node's numbers from its children's: an OR node is proven by one child and disproven
/// by all, an AND node the other way round.
fn combine(or_node: bool, kids: &[Child]) -> (u32, u32) {
    let min_of = |f: fn(&Child) -> u32| kids.iter().map(f).min().unwrap_or(INF);
    // A sum is settled (INF) only when a part is; else it stays a working number, below
    // the root's threshold, so that a large graph does not end the search unsettled.
    let sum_of = |f: fn(&Child) -> u32| {
        let sum = kids.iter().map(f).fold(0u32, |a, b| a.saturating_add(b));
        if kids.iter().map(f).any(|v| v >= INF) {
            INF
        } else {
            sum.min(MAX_WORKING)
        }
    };
    if or_node {
        (min_of(|k| k.pn), sum_of(|k| k.dn))
    } else {
        (sum_of(|k| k.pn), min_of(|k| k.dn))
    }
}

/// The child to search next (the smallest proof number at an OR node, the smallest
/// disproof number at an AND node; the first on ties) and the second smallest number.
fn select(or_node: bool, kids: &[Child]) -> (usize, u32) {
    let key = |k: &Child| if or_node { k.pn } else { k.dn };
    let mut best = 0;
    let mut first = INF;
    let mut second = INF;
    for (i, k) in kids.iter().enumerate() {
        let v = key(k);
        if v < first {
            second = first;
            first = v;
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}

/// The 1+ε trick: a child may grow to a quarter beyond its best sibling before the search
/// switches to the sibling (fewer re-expansions than df-pn's `second + 1`).
#[inline]
fn one_plus_epsilon(second: u32) -> u32 {
    second
        .saturating_add(second / 4)
        .saturating_add(1)
        .min(INF - 1)
}
