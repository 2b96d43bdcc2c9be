//! The alpha-beta family: negamax with principal-variation search, aspiration windows and
//! quiescence, used for two-player zero-sum games, paranoid search and best-reply search
//! (the iterations are [`crate::iterate`]'s, the threads [`crate::smp`]'s).
//!
//! Values inside the search are from the view of the *side* to move, where the root player
//! is one side and everybody else the other (for two players: plain negamax). A child whose
//! side is the parent's (the same player moves again, or in paranoid search one opponent
//! after another) is searched with the same window and no negation.
//!
//! Table cutoffs are exact: an entry's value is used only when its depth equals the
//! remaining depth, or when it is a forced win or loss within both depths (such a value is
//! the same at every depth that sees it), so a fixed-depth search returns exactly the
//! fixed-depth minimax value with or without the table, ordering and threads.
//!
//! Nodes one ply above the horizon do not use the table: there a probe's cache miss costs
//! more than the search it could save. A deeper node makes
//! all its children first and loads their table buckets together, so that the cache misses
//! overlap instead of coming one after another; then, at a non-PV node, it looks for a child
//! entry that already proves a cutoff (enhanced transposition cutoff, [`Worker::etc`]).
//! It also asks for the buckets of the children of the child it will search first, which
//! that child reads as soon as it starts: they arrive while this node waits for its own.
//! Nodes one ply above the horizon take a short path that evaluates the children in place
//! (or starts their quiescence search: [`Worker::frontier`]).

use smallvec::SmallVec;

use crate::brs::{generate, NodeMoves};
use crate::game::{Evaluator, Game, MoveList, Player, MAX_EVAL};
use crate::movepick::{is_noisy_key, next, noisy_to_front, order_keys, pick};
use crate::score::{from_tt, to_tt, INF, MAX_PLY, MAX_QUIESCENCE_PLY};
use crate::selective::{
    Selective, TableHint, FORCED, IIR_DEPTH, LMR_DEPTH, PRUNE_DEPTH, RFP_DEPTH,
};
use crate::shared::{Iteration, SPLIT_DEPTH};
use crate::thread::Worker;
use crate::trace::kind;
use crate::tt::{Bound, Data, Table, NO_MOVE};
use crate::types::{MATE, MATE_BOUND};

/// Young brothers wait: the moves a node searches alone before it shares out the others
/// ([`crate::split`]): one; but with more than two threads, two at a node outside the
/// principal variation that has at least [`WAIT_MORE_MOVES`] moves. Where the first move
/// does not refute such a node a later one often does, and each thread that took a brother
/// beside it by then searched a subtree in vain: up to one with two threads, up to fifteen
/// with sixteen. Measured with `arena bench --scaling` (six runs each, the two builds
/// alternated, nodes over one thread's): the Breakthrough example's 16 threads 1.43-1.79x
/// before, 1.20-1.41x with this, 4 threads 1.24-1.38x before, 1.14-1.33x with it. Waiting
/// costs idle threads where a node's moves are few or a later move seldom refutes (three
/// runs each, speed over one thread's at 2 threads): Othello's bench 1.54-1.74x against
/// 1.94-2.06x without (nodes equal), Connect Four's (seven moves) 1.76-1.82x against
/// 1.84-1.92x, Jumpy3's (four) 1.08-1.53x against 1.64-1.72x; hence not at 2 threads, and
/// not below eight moves.
const fn brothers_first(pv_node: bool, moves: usize, threads: usize) -> usize {
    if pv_node || moves < WAIT_MORE_MOVES || threads <= 2 {
        1
    } else {
        2
    }
}

/// The fewest moves at which a node outside the principal variation waits for two
/// brothers before a split, with more than two threads ([`brothers_first`]).
const WAIT_MORE_MOVES: usize = 8;

/// Iterations from which aspiration windows are used.
const ASPIRATION_DEPTH: u32 = 4;
/// Nodes with less remaining depth neither probe nor store the table, and nodes with this
/// depth (best-reply search's: the others take [`Worker::frontier`]) only if they have more
/// than [`SMALL_BRANCHING`] moves. Measured: probing from depth 2 on saved 14% of
/// Jumpy3's nodes, 17% of Chexers', 24% of Throne's and 28% of Connect Four's against
/// probing from depth 3 on.
const TT_MIN_DEPTH: i32 = 1;
/// See [`TT_MIN_DEPTH`].
const SMALL_BRANCHING: usize = 0;
/// Killer moves are tried early only at nodes with at least this many moves. With few moves
/// the game's own order (with the table's move and history) is as good, and a killer that
/// does not refute costs a subtree: measured, killers everywhere cost Connect
/// Four (7 moves) 1.6 times the nodes and Jumpy3 (4 moves) 5%, and saved Chexers and Throne
/// (dozens of moves) 30% and 45%; from eight moves on they cost 6×6 Othello (about ten)
/// up to 15% at a position, from twelve on nothing.
const KILLER_MIN_MOVES: usize = 12;
/// Positions with at most this depth are not announced as busy.
const BUSY_DEPTH: i32 = 3;
/// [`NodeEntry::static_eval`] where the selective search does not prune.
const NO_EVAL: i32 = i32::MIN;

/// What a node's entry checks leave for the rest of it ([`Worker::enter`]).
struct NodeEntry {
    /// The node's repetition key (0 without a repetition rule).
    rep_key: u64,
    /// The node's key.
    key: u64,
    /// The table's move for the node (an index), or `NO_MOVE`.
    tt_move: u16,
    /// The entry that gave the table's move (the selective search's singular test).
    hint: Option<TableHint>,
    /// The static evaluation from the node's side where the selective search may prune
    /// here ([`NO_EVAL`] elsewhere).
    static_eval: i32,
    /// Whether the node stores its result in the table.
    use_table: bool,
    /// Whether the window is open.
    pv_node: bool,
    /// The window after mate-distance pruning.
    alpha: i32,
    /// See `alpha`.
    beta: i32,
}

/// What the stages of a node need to know of it.
pub(crate) struct NodeCtx<'n, G: Game> {
    /// The node.
    pub(crate) pos: &'n G,
    /// Where each move is played.
    pub(crate) node: &'n NodeMoves<'n, G>,
    /// The moves, as a plain slice.
    pub(crate) moves: &'n [G::Move],
    /// Remaining depth.
    pub(crate) depth: i32,
    /// Distance from the root.
    pub(crate) ply: usize,
    /// Whether the root player's side is to move.
    pub(crate) side: bool,
    /// Whether the window is open (a principal-variation node).
    pub(crate) pv_node: bool,
    /// Whether children another thread is searching are put off.
    pub(crate) defer: bool,
    /// Whether moves are ordered.
    pub(crate) ordering: bool,
    /// Whether this is best-reply search (whose children may make their moves from a reply
    /// chain: they make their children themselves).
    pub(crate) brs: bool,
    /// The selective search's settings, where it applies (not best-reply search).
    pub(crate) sel: Option<&'n Selective>,
    /// Whether the selective search may prune moves here (a non-PV node not reached by a
    /// forcing move, with its static evaluation).
    pub(crate) prune: bool,
    /// The static evaluation from the node's side, where `prune`.
    pub(crate) static_eval: i32,
    /// The table's move (an index), or `NO_MOVE`.
    pub(crate) tt_move: u16,
    /// The move extended by the singular test (an index), or `usize::MAX`.
    pub(crate) singular: usize,
    /// Whether the moves after the first are shared out among the threads
    /// ([`crate::split`]).
    pub(crate) split: bool,
}

impl<G: Game, E: Evaluator<G>> Worker<'_, '_, G, E> {
    /// Probes the table: the value if an entry allows a cutoff; sets the move to try first.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn probe(
        &mut self,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        tt_move: &mut u16,
        hint: &mut Option<TableHint>,
    ) -> Option<i32> {
        let table = self.sh.table?;
        self.probes += 1;
        let mut hit = false;
        // The move of the entry of this depth, else of the deepest entry.
        let mut move_depth = -1;
        let deeper = self.sh.deeper;
        let hints = self.sh.selective.is_some();
        for e in table.entries(key) {
            if !hit {
                hit = true;
                self.hits += 1;
            }
            if e.mv != NO_MOVE
                && move_depth != depth
                && (e.depth as i32 == depth || e.depth as i32 > move_depth)
            {
                *tt_move = e.mv;
                move_depth = e.depth as i32;
                if hints {
                    *hint = Some(TableHint {
                        score: from_tt(e.score, ply),
                        depth: e.depth as i32,
                        lower: matches!(e.bound, Bound::Lower | Bound::Exact),
                    });
                }
            }
            if ply > 0 && !pv_node && usable(&e, depth, deeper) {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return Some(s);
                }
            }
        }
        None
    }

    /// A node one ply above the horizon (not best-reply search): the same value as the
    /// general case, whose children would each be evaluated (or searched by quiescence
    /// search) at once, without its machinery. With killers on, the killers of this ply go
    /// first; the moves otherwise keep the game's order, and a cutoff updates the killers and
    /// history as the general case does. A game without noisy moves pays nothing for
    /// quiescence search here: its children's quiescence ends at once.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn frontier(
        &mut self,
        pos: &G,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        side: bool,
        pv_node: bool,
        rep_key: u64,
    ) -> i32 {
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        // A plain slice from here on: each access to a `SmallVec` asks where its items are.
        let moves = moves.as_mut_slice();
        let n = moves.len();
        debug_assert!(n > 0, "a position that goes on has a move");
        let ordering = self.sh.config.ordering;
        // With noisy moves first, they lead (in the game's order) and the killers follow.
        let mut noisy_count = 0;
        if ordering && self.sh.config.noisy_first {
            let mut noisy: MoveList<G::Move> = MoveList::new();
            pos.noisy_moves(&mut noisy);
            if !noisy.is_empty() {
                noisy_count = noisy_to_front(moves, &noisy);
            }
        }
        if ordering && n >= KILLER_MIN_MOVES && self.sh.config.killers {
            // Killers to the front (after the noisy moves), in their order; the rest keep
            // theirs.
            let mut front = noisy_count;
            for killer in self.local.heur.killers(ply).into_iter().flatten() {
                if let Some(j) = moves[front..].iter().position(|&m| m == killer) {
                    moves[front..=front + j].rotate_right(1);
                    front += 1;
                }
            }
        }
        if self.sh.rule.is_some() {
            self.push_path(rep_key);
        }
        let sign = if side { 1 } else { -1 };
        let quiescence = self.sh.config.quiescence;
        let mut best = -INF;
        let mut child = pos.clone();
        for (i, &mv) in moves.iter().enumerate() {
            child.play_from(pos, mv);
            self.count_node();
            self.trace_kind(if i == 0 { kind::FIRST } else { 0 });
            self.trace_visit(|| child.key(), 0, ply + 1);
            if self.stopped {
                break;
            }
            // The value of the leaf from this node's side (a child of the other side would
            // negate its own value, which is the same thing).
            let score = match self.terminal(&child, ply + 1, sign) {
                (Some(v), _) => v,
                (None, _) if !quiescence => sign * self.eval(&child),
                (None, rep_key) => {
                    // Quiescence search from the child, as its own node would (a game
                    // without noisy moves returns the evaluation at once).
                    let child_side = child.to_move() == self.sh.hero;
                    if child_side == side {
                        self.quiesce(&child, ply + 1, 0, alpha, beta, side, rep_key)
                    } else {
                        -self.quiesce(&child, ply + 1, 0, -beta, -alpha, child_side, rep_key)
                    }
                }
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let line = &mut self.local.pv[ply];
                        line.clear();
                        line.push(mv);
                    }
                    if score >= beta {
                        // Killers and history learn from quiet moves.
                        if ordering && i >= noisy_count {
                            self.local.heur.cutoff(ply, 1, pos.to_move(), mv, &[]);
                        }
                        break;
                    }
                }
            }
        }
        if self.sh.rule.is_some() {
            self.pop_path();
        }
        if self.stopped {
            return 0;
        }
        best
    }

    /// Enhanced transposition cutoff: the first child (in move order) whose table entry
    /// proves the parent's value at least `beta`, with that value from the parent's side.
    ///
    /// Only entries the child's own probe would use count (of exactly `depth`, or a proven
    /// result within it), and a child that would end the game or repeat a position is left
    /// to the search, which scores it by the rules first; so a cutoff found here is one the
    /// child's search would have returned, and values at a fixed depth do not change.
    #[inline(never)]
    fn etc(
        &mut self,
        table: &Table,
        children: &[G],
        depth: i32,
        ply: usize,
        beta: i32,
        side: bool,
    ) -> Option<(usize, i32)> {
        for (i, child) in children.iter().enumerate() {
            let child_side = child.to_move() == self.sh.hero;
            if child.outcome().is_some()
                || (self.sh.rule.is_some() && self.repeated(child.repetition_key()))
            {
                continue;
            }
            let deeper = self.sh.deeper;
            for e in table.entries(child.key()) {
                if !usable(&e, depth, deeper) {
                    continue;
                }
                let s = from_tt(e.score, ply);
                // A bound on the parent's value from below, if the entry gives one.
                let low = if child_side == side {
                    matches!(e.bound, Bound::Exact | Bound::Lower).then_some(s)
                } else {
                    matches!(e.bound, Bound::Exact | Bound::Upper).then_some(-s)
                };
                if let Some(v) = low.filter(|&v| v >= beta) {
                    return Some((i, v));
                }
            }
        }
        None
    }

    /// Stores a node's result: `score` from its side's view, `best` the index of its best
    /// move (none if out of the table's range).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(
        &self,
        table: &Table,
        key: u64,
        score: i32,
        depth: i32,
        ply: usize,
        best: usize,
        bound: Bound,
    ) {
        let data = Data {
            score: to_tt(score, ply),
            depth: depth as u8,
            mv: if best < NO_MOVE as usize {
                best as u16
            } else {
                NO_MOVE
            },
            bound,
            age: self.sh.age,
        };
        table.store(key, data);
    }

    /// Searches the root to `depth` inside the window; the value is from the root player's view.
    pub(crate) fn root_search(&mut self, root: &G, depth: u32, alpha: i32, beta: i32) -> i32 {
        let side = root.to_move() == self.sh.hero;
        self.trace_kind(kind::OTHER);
        if self.sh.brs {
            self.negamax::<true>(root, depth as i32, 0, alpha, beta, side)
        } else {
            self.negamax::<false>(root, depth as i32, 0, alpha, beta, side)
        }
    }

    /// Value of `child` from the view of the parent's side.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn child_value<const BRS: bool>(
        &mut self,
        child: &G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        side: bool,
        child_side: bool,
    ) -> i32 {
        if child_side == side {
            self.negamax::<BRS>(child, depth, ply, alpha, beta, child_side)
        } else {
            -self.negamax::<BRS>(child, depth, ply, -beta, -alpha, child_side)
        }
    }

    /// Fail-soft negamax alpha-beta with PVS. `side`: whether the hero is to move (the root
    /// player, but for an offensive: [`crate::Config::offensive`]).
    ///
    /// The stages, each a function of its own below (inlined here: they were written as one
    /// function, and the compiler's code for it is the measured one): the entry checks (the
    /// end of the game, the horizon, mate-distance pruning, the table; [`Worker::enter`]);
    /// the node's moves ([`generate`]); the children made up front, the ordering keys, the
    /// grandchildren's buckets and the enhanced transposition cutoff
    /// ([`Worker::prepare_children`]); the moves searched in order
    /// ([`Worker::search_moves`]); the table store.
    pub(crate) fn negamax<const BRS: bool>(
        &mut self,
        pos: &G,
        mut depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        side: bool,
    ) -> i32 {
        let mut e = match self.enter::<BRS>(pos, depth, ply, alpha, beta, side) {
            Ok(e) => e,
            Err(value) => return value,
        };
        let (alpha, beta) = (e.alpha, e.beta);
        // The selective search's steps before the moves: null-move pruning, and a node
        // without a table move searched a ply shallower (internal iterative reduction).
        let sel = self.sh.selective.as_ref().filter(|_| !BRS);
        if let Some(sel) = sel {
            if e.static_eval != NO_EVAL {
                let null = self.null_move(pos, e.rep_key, depth, ply, beta, side, e.static_eval);
                if let Some(v) = null {
                    return v;
                }
            }
            if sel.on.iir && e.tt_move == NO_MOVE && depth >= IIR_DEPTH {
                depth -= 1;
            }
        }
        let mut chain: SmallVec<[G; 3]> = SmallVec::new();
        let mut from: SmallVec<[u8; 128]> = SmallVec::new();
        let mut moves: MoveList<G::Move> = MoveList::new();
        let root_player = self.sh.hero;
        let node = generate(
            pos,
            BRS && !side,
            root_player,
            &mut chain,
            &mut from,
            &mut moves,
        );
        // A plain slice from here on: each access to a `SmallVec` asks where its items are.
        let moves = moves.as_slice();
        let n = moves.len();
        debug_assert!(n > 0, "a position that goes on has a move");
        if self.sh.table.is_some() && depth == TT_MIN_DEPTH && n > SMALL_BRANCHING {
            e.use_table = true;
            let (tt_move, hint) = (&mut e.tt_move, &mut e.hint);
            let probed = self.probe(e.key, depth, ply, alpha, beta, e.pv_node, tt_move, hint);
            if let Some(s) = probed {
                return s;
            }
        }
        // A single reply is searched a ply deeper (within twice the iteration's depth).
        if sel.is_some_and(|s| s.on.extensions) && n == 1 && ply < 2 * self.searching as usize {
            depth += 1;
        }

        if self.sh.rule.is_some() {
            self.push_path(e.rep_key);
        }
        // Parallel search: a child another thread is searching right now is put off to the
        // end (ABDADA's idea), by when its value is likely in the table. Of the children put
        // off, those no longer being searched are taken up first.
        let share = self.sh.busy.enabled() && depth > BUSY_DEPTH;
        let cx = NodeCtx {
            pos,
            node: &node,
            moves,
            depth,
            ply,
            side,
            pv_node: e.pv_node,
            // Children are looked up only where they announce themselves.
            defer: share && depth - 1 > BUSY_DEPTH,
            ordering: self.sh.config.ordering,
            brs: BRS,
            sel,
            prune: e.static_eval != NO_EVAL,
            static_eval: e.static_eval,
            tt_move: e.tt_move,
            singular: usize::MAX,
            // Not the root: its moves are taken one after another, the threads sharing out
            // the nodes below ([`crate::split`], "Not the root").
            split: self.sh.split && depth >= SPLIT_DEPTH && ply > 0,
        };
        let best = self.node_moves::<BRS>(cx, &e, share);
        if self.sh.rule.is_some() {
            self.pop_path();
        }
        best
    }

    /// The moves of a node whose entry checks are done and whose path is pushed: the
    /// children made up front (and the enhanced transposition cutoff), the singular test,
    /// the moves searched in order, the table store. `share`: whether the node announces
    /// itself as busy.
    #[inline(always)]
    fn node_moves<const BRS: bool>(
        &mut self,
        mut cx: NodeCtx<'_, G>,
        e: &NodeEntry,
        share: bool,
    ) -> i32 {
        let (alpha, beta, ply, depth) = (e.alpha, e.beta, cx.ply, cx.depth);
        let mut children = std::mem::take(&mut self.local.children[ply]);
        let mut keys = std::mem::take(&mut self.local.keys[ply]);
        let early = match self.prepare_children(&cx, &mut children, &mut keys, e.tt_move, beta) {
            // An enhanced transposition cutoff.
            Some((i, s)) => {
                if let Some(table) = self.sh.table {
                    self.store(table, e.key, s, depth, ply, i, Bound::Lower);
                }
                Some(s)
            }
            None => self.singular_step(&mut cx, e).err(),
        };
        if let Some(v) = early {
            self.local.children[ply] = children;
            self.local.keys[ply] = keys;
            return v;
        }
        let announced = share && self.sh.busy.announce(e.key, depth);
        if share && !announced {
            self.local.smp.busy_full += 1;
        }
        let (best, best_i) = self.search_moves::<BRS>(&cx, &children, &mut keys, alpha, beta);
        self.local.children[ply] = children;
        self.local.keys[ply] = keys;
        if announced {
            self.sh.busy.withdraw(e.key, depth);
        }
        if self.stopped {
            return 0;
        }
        if let Some(table) = self.sh.table.filter(|_| e.use_table) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(table, e.key, best, depth, ply, best_i, bound);
        }
        best
    }

    /// The selective search's singular test of the table's move, where the node has one
    /// with a usable entry: marks it to be extended, or (`Err`) the node's value by a
    /// multi-cut.
    #[inline(always)]
    fn singular_step(&mut self, cx: &mut NodeCtx<'_, G>, e: &NodeEntry) -> Result<(), i32> {
        let Some(hint) = e.hint.filter(|_| (e.tt_move as usize) < cx.moves.len()) else {
            return Ok(());
        };
        let tt = e.tt_move as usize;
        let (pos, node, moves) = (cx.pos, cx.node, cx.moves);
        if self.singular(
            pos, node, moves, tt, hint, cx.depth, cx.ply, e.beta, cx.side,
        )? {
            cx.singular = tt;
        }
        Ok(())
    }

    /// A node's entry checks: its value at once (`Err`) where the game ends or repeats, at
    /// the horizon, by mate-distance pruning, one ply above the horizon
    /// ([`Worker::frontier`]) or by a table cutoff; else what the rest of the node needs.
    #[inline(always)]
    fn enter<const BRS: bool>(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        side: bool,
    ) -> Result<NodeEntry, i32> {
        self.local.pv[ply].clear();
        self.count_node();
        self.trace_visit(|| pos.key(), depth, ply);
        if self.stopped || (!self.cancel.is_empty() && self.cancelled()) {
            return Err(0);
        }
        let sign = if side { 1 } else { -1 };
        let (end, rep_key) = self.terminal(pos, ply, sign);
        if let Some(v) = end {
            return Err(v);
        }
        if ply >= MAX_PLY {
            return Err(sign * self.eval(pos));
        }
        if depth <= 0 {
            return Err(if self.sh.config.quiescence {
                self.quiesce(pos, ply, 0, alpha, beta, side, rep_key)
            } else {
                sign * self.eval(pos)
            });
        }
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            // Mate-distance pruning: nothing here beats a win on the next ply.
            let best_possible = MATE - ply as i32 - 1;
            alpha = alpha.max(-best_possible);
            beta = beta.min(best_possible);
            if alpha >= beta {
                return Err(alpha);
            }
        }

        // The selective search prunes at non-PV nodes not reached by a forcing move, from
        // the static evaluation: a node that stands at least a margin per ply above beta
        // returns it (reverse futility pruning).
        let mut static_eval = NO_EVAL;
        if let Some(sel) = self.sh.selective.as_ref().filter(|_| !BRS) {
            if ply > 0 && !pv_node && self.local.flags[ply] & FORCED == 0 {
                static_eval = sign * self.eval(pos);
                if sel.on.futility
                    && depth <= RFP_DEPTH
                    && beta.abs() < MATE_BOUND
                    && static_eval - sel.rfp_margin(depth) >= beta
                {
                    return Err(static_eval);
                }
            }
        }

        // The last ply before the horizon: every child is a leaf (or the root of a
        // quiescence search).
        if depth == 1 && !BRS {
            return Err(self.frontier(pos, ply, alpha, beta, side, pv_node, rep_key));
        }

        // Transposition table, probed before move generation where the subtree is large
        // (see `TT_MIN_DEPTH`).
        let key = pos.key();
        let mut tt_move = NO_MOVE;
        let mut hint = None;
        let use_table = self.sh.table.is_some() && depth > TT_MIN_DEPTH;
        if use_table {
            let probed = self.probe(
                key,
                depth,
                ply,
                alpha,
                beta,
                pv_node,
                &mut tt_move,
                &mut hint,
            );
            if let Some(s) = probed {
                return Err(s);
            }
        }
        Ok(NodeEntry {
            rep_key,
            key,
            tt_move,
            hint,
            static_eval,
            use_table,
            pv_node,
            alpha,
            beta,
        })
    }

    /// Deeper nodes make their children up front ([`Worker::make_children`]): their table
    /// buckets are fetched together, so that the cache misses overlap instead of coming one
    /// after another, and then looked at for a cutoff (enhanced transposition cutoff,
    /// [`Worker::etc`], which this returns: the child's index and the value). The ordering
    /// keys are computed between the prefetches and the cutoff test, which reads the
    /// buckets: the work hides part of the wait for them (the test's first read was 78% of
    /// its time in a profile).
    #[inline(always)]
    fn prepare_children(
        &mut self,
        cx: &NodeCtx<'_, G>,
        children: &mut Vec<G>,
        keys: &mut Vec<i32>,
        tt_move: u16,
        beta: i32,
    ) -> Option<(usize, i32)> {
        let (depth, ply) = (cx.depth, cx.ply);
        let up_front = self.sh.table.filter(|_| depth - 1 > TT_MIN_DEPTH);
        let key = cx.pos.key();
        let made_ahead = self.local.made_for[ply] == key && children.len() == cx.moves.len();
        if let Some(table) = up_front {
            if made_ahead && !cx.brs {
                // The parent made them (and asked for their buckets): only the busy slots.
                if cx.defer {
                    for c in children.iter() {
                        self.sh.busy.prefetch(c.key());
                    }
                }
            } else {
                children.clear();
                self.make_children(table, cx, children);
                self.local.made_for[ply] = key;
            }
        } else {
            children.clear();
            self.local.made_for[ply] = 0;
        }
        keys.clear();
        if cx.ordering {
            let heur = &self.local.heur;
            order_keys(
                keys,
                cx.pos,
                cx.node,
                cx.moves,
                self.sh.eval,
                heur,
                ply,
                tt_move,
                self.sh.config.killers && cx.moves.len() >= KILLER_MIN_MOVES,
                self.sh.config.noisy_first,
            );
        }
        let table = up_front?;
        if !cx.node.opponents_layer() && depth - 2 > TT_MIN_DEPTH {
            // The child searched first will make its own children and read their buckets
            // at once: ask for them now, so that they arrive while this node waits for its
            // own.
            let first = if cx.ordering {
                next(keys).unwrap_or(0)
            } else {
                0
            };
            let c = &children[first];
            if c.outcome().is_none() {
                // Its children, made here into the buffer it will use (it takes them
                // instead of making them again: the same moves in the same order, outside
                // best-reply search).
                let grand = &mut self.local.children[ply + 1];
                make_children_of(table, c, grand);
                self.local.made_for[ply + 1] = if cx.brs { 0 } else { c.key() };
            }
        }
        if cx.pv_node {
            return None;
        }
        self.etc(table, children, depth - 1, ply + 1, beta, cx.side)
    }

    /// Makes every child of the node into `children` and starts loading its table bucket
    /// (and, where threads defer busy children, its busy slot).
    #[inline(always)]
    fn make_children(&self, table: &Table, cx: &NodeCtx<'_, G>, children: &mut Vec<G>) {
        let n = cx.moves.len();
        children.reserve(n);
        for i in 0..n {
            children.push(cx.pos.clone());
            let child = &mut children[i];
            cx.node.play_child(cx.pos, cx.moves, i, child);
            let child_key = child.key();
            table.touch(child_key);
            if cx.defer {
                // The slot this node reads before searching the child, and the child
                // writes: another thread may hold its line.
                self.sh.busy.prefetch(child_key);
            }
        }
    }

    /// The moves of a node searched in order (PVS: the first with the full window, the rest
    /// with a null window and again with the full one if they beat it), children another
    /// thread is searching put off to the end; returns the best value and the index of its
    /// move (`usize::MAX` if none was searched). `children` holds the children made up
    /// front, if any; the others are made here.
    #[inline(always)]
    fn search_moves<const BRS: bool>(
        &mut self,
        cx: &NodeCtx<'_, G>,
        children: &[G],
        keys: &mut [i32],
        mut alpha: i32,
        beta: i32,
    ) -> (i32, usize) {
        let (pos, moves, ply) = (cx.pos, cx.moves, cx.ply);
        let n = moves.len();
        let mut best = (-INF, usize::MAX);
        let mut tried: SmallVec<[(Player, G::Move); 32]> = SmallVec::new();
        let mut deferred: SmallVec<[(usize, u64, bool); 16]> = SmallVec::new();
        let mut searched = 0;
        let mut picked = 0;
        loop {
            if cx.split
                && searched >= brothers_first(cx.pv_node, n, self.sh.config.threads)
                && picked < n
                && children.len() == n
                && !self.stopped
                && self.sh.idle() > 0
            {
                // Young brothers wait: the first move is done, the others are shared out.
                let order: SmallVec<[(usize, bool); 64]> =
                    (picked..n).map(|p| next_move(cx, keys, p + 1)).collect();
                return self.split_rest::<BRS>(cx, children, &order, picked, alpha, beta, best);
            }
            // The move, whether it is quiet (killers and history learn from quiet moves),
            // and whether it may be put off.
            let (i, quiet, may_defer, was_deferred) = if picked < n {
                picked += 1;
                let (i, quiet) = next_move(cx, keys, picked);
                (i, quiet, cx.defer && searched > 0, false)
            } else if !deferred.is_empty() {
                let (i, quiet) = self.take_deferred(cx, &mut deferred);
                (i, quiet, false, true)
            } else {
                break;
            };
            let mv = moves[i];
            let mut made;
            let child = match children.get(i) {
                Some(c) => c,
                None => {
                    made = pos.clone();
                    cx.node.play_child(pos, moves, i, &mut made);
                    &made
                }
            };
            if may_defer {
                let k = child.key();
                if self.sh.busy.is_busy(k, cx.depth - 1) {
                    deferred.push((i, k, quiet));
                    self.local.smp.deferred += 1;
                    continue;
                }
            }
            let count = picked - deferred.len();
            let first = searched == 0;
            let Some((d, r)) = self.depth_of_move(cx, i, quiet, first, count, alpha, best.0) else {
                continue;
            };
            self.trace_kind(if first {
                kind::FIRST
            } else if was_deferred {
                kind::DEFERRED
            } else {
                0
            });
            let score = self.pvs_child::<BRS>(cx, child, d, r, first, alpha, beta);
            searched += 1;
            if self.stopped {
                break;
            }
            if score > best.0 {
                best = (score, i);
                if score > alpha {
                    alpha = score;
                    self.record_line(cx, i, score);
                    if score >= beta {
                        if cx.ordering && quiet {
                            let mover = cx.node.at(pos, i).to_move();
                            self.local.heur.cutoff(ply, cx.depth, mover, mv, &tried);
                        }
                        break;
                    }
                }
            }
            if cx.ordering && quiet && tried.len() < tried.inline_size() {
                tried.push((cx.node.at(pos, i).to_move(), mv));
            }
        }
        best
    }

    /// A child put off because another thread was searching it, taken up: the first no
    /// longer busy, else the first; its index and whether it is quiet.
    fn take_deferred(
        &mut self,
        cx: &NodeCtx<'_, G>,
        deferred: &mut SmallVec<[(usize, u64, bool); 16]>,
    ) -> (usize, bool) {
        let d = cx.depth - 1;
        let free = deferred
            .iter()
            .position(|&(_, k, _)| !self.sh.busy.is_busy(k, d))
            .unwrap_or(0);
        let (i, k, quiet) = deferred.remove(free);
        // Whether the wait paid: the other thread's entry is there to be used.
        if let Some(t) = self.sh.table {
            if t.entries(k).any(|e| e.depth as i32 == d) {
                self.local.smp.deferred_found += 1;
            }
        }
        (i, quiet)
    }

    /// The depth a move is searched to and its reduction, or `None` where the selective
    /// search prunes it: late quiet moves are pruned (late-move and futility pruning, at a
    /// node that may prune) or searched shallower (late-move reductions); the singular move
    /// a ply deeper. `count`: the move's number in the order; `best`: the node's best so
    /// far. Sets the child's flags.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn depth_of_move(
        &mut self,
        cx: &NodeCtx<'_, G>,
        i: usize,
        quiet: bool,
        first: bool,
        count: usize,
        alpha: i32,
        best: i32,
    ) -> Option<(i32, i32)> {
        let d = cx.depth - 1;
        let Some(sel) = cx.sel else {
            return Some((d, 0));
        };
        let mv = cx.moves[i];
        let forcing = cx.node.at(cx.pos, i).is_forcing(mv);
        let late = quiet
            && !forcing
            && !first
            && i != cx.tt_move as usize
            && self.local.heur.killer_rank(cx.ply, &mv) == 0;
        if late && cx.prune && best > -MATE_BOUND && cx.depth <= PRUNE_DEPTH {
            if sel.on.late_move_pruning && count > Selective::late_move_limit(cx.depth) {
                return None;
            }
            if sel.on.futility
                && alpha.abs() < MATE_BOUND
                && cx.static_eval + sel.futility_margin(cx.depth) <= alpha
            {
                return None;
            }
        }
        let d = if i == cx.singular { d + 1 } else { d };
        let mut r = 0;
        if late && sel.on.reductions && cx.depth >= LMR_DEPTH {
            r = (sel.reduction(cx.depth, count) - cx.pv_node as i32).clamp(0, d - 1);
        }
        self.local.flags[cx.ply + 1] = if forcing { FORCED } else { 0 };
        Some((d, r))
    }

    /// One child searched by principal-variation search: the first with the full window;
    /// the others with a null window at `d − r`, again at `d` where a reduced one beats
    /// alpha, and with the full window where it lands inside it. The value from the node's
    /// side.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn pvs_child<const BRS: bool>(
        &mut self,
        cx: &NodeCtx<'_, G>,
        child: &G,
        d: i32,
        r: i32,
        first: bool,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (ply, side) = (cx.ply + 1, cx.side);
        let child_side = child.to_move() == self.sh.hero;
        if first {
            return self.child_value::<BRS>(child, d, ply, alpha, beta, side, child_side);
        }
        let mut s = self.child_value::<BRS>(child, d - r, ply, alpha, alpha + 1, side, child_side);
        if s > alpha && r > 0 && !self.stopped {
            // A reduced move that beats alpha: at full depth.
            self.trace_kind(kind::RESEARCH);
            s = self.child_value::<BRS>(child, d, ply, alpha, alpha + 1, side, child_side);
        }
        if s > alpha && s < beta && !self.stopped {
            self.trace_kind(kind::RESEARCH);
            self.child_value::<BRS>(child, d, ply, alpha, beta, side, child_side)
        } else {
            s
        }
    }

    /// A new best move `i` above alpha: at a principal-variation node its line (the move
    /// and the child's line); at the root also what the iteration has established so far,
    /// should the clock stop it before it completes.
    #[inline(always)]
    pub(crate) fn record_line(&mut self, cx: &NodeCtx<'_, G>, i: usize, score: i32) {
        if !cx.pv_node {
            return;
        }
        let ply = cx.ply;
        let (head, tail) = self.local.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(cx.moves[i]);
        line.extend_from_slice(&tail[0]);
        if ply == 0 {
            self.root_best = Some(Iteration {
                score,
                pv: line.clone(),
            });
        }
    }

    /// Quiescence search: stand pat or play a noisy move.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        pos: &G,
        ply: usize,
        q: usize,
        mut alpha: i32,
        beta: i32,
        side: bool,
        rep_key: u64,
    ) -> i32 {
        let sign = if side { 1 } else { -1 };
        let stand = sign * self.eval(pos);
        if stand >= beta || ply >= MAX_PLY || q >= MAX_QUIESCENCE_PLY {
            return stand;
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.noisy_moves(&mut moves);
        if moves.is_empty() {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        if self.sh.rule.is_some() {
            self.push_path(rep_key);
        }
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let child_side = child.to_move() == self.sh.hero;
            let score = if child_side == side {
                self.quiesce_node(&child, ply + 1, q + 1, alpha, beta, child_side)
            } else {
                -self.quiesce_node(&child, ply + 1, q + 1, -beta, -alpha, child_side)
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.sh.rule.is_some() {
            self.pop_path();
        }
        best
    }

    /// A node of the quiescence search: counted, checked for the end of the game.
    fn quiesce_node(
        &mut self,
        pos: &G,
        ply: usize,
        q: usize,
        alpha: i32,
        beta: i32,
        side: bool,
    ) -> i32 {
        self.count_node();
        self.trace_visit(|| pos.key(), -(q as i32), ply);
        if self.stopped {
            return 0;
        }
        let sign = if side { 1 } else { -1 };
        let (end, rep_key) = self.terminal(pos, ply, sign);
        match end {
            Some(v) => v,
            None => self.quiesce(pos, ply, q, alpha, beta, side, rep_key),
        }
    }

    /// Searches the root to `depth` with aspiration windows around `prev` (the last
    /// iteration's score), widening them until the value falls inside.
    pub(crate) fn aspiration(&mut self, root: &G, depth: u32, prev: Option<i32>) -> i32 {
        let prev = match prev {
            Some(p)
                if self.sh.config.aspiration
                    && depth >= ASPIRATION_DEPTH
                    && p.abs() <= MAX_EVAL =>
            {
                p
            }
            _ => return self.root_search(root, depth, -INF, INF),
        };
        let mut delta = self.sh.eval.aspiration_window().clamp(1, MAX_EVAL);
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        loop {
            let s = self.root_search(root, depth, alpha, beta);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                alpha = if s < -MAX_EVAL {
                    -INF
                } else {
                    (s - delta).max(-INF)
                };
            } else if s >= beta {
                beta = if s > MAX_EVAL {
                    INF
                } else {
                    (s + delta).min(INF)
                };
            } else {
                return s;
            }
            delta = delta.saturating_mul(2);
            if delta > 4 * MAX_EVAL {
                alpha = -INF;
                beta = INF;
            }
        }
    }
}

/// The next move of a node in its order (the `picked`-th): its index and whether it is quiet.
#[inline(always)]
fn next_move<G: Game>(cx: &NodeCtx<'_, G>, keys: &mut [i32], picked: usize) -> (usize, bool) {
    if cx.ordering {
        let (i, key) = pick(keys).expect("a move is left");
        (i, !is_noisy_key(key))
    } else {
        (picked - 1, true)
    }
}

/// Makes the children of `c` (the child a node searches first, which reads their table
/// buckets as soon as it starts) into `out`, in its legal-move order, and starts loading
/// their buckets.
#[inline(always)]
fn make_children_of<G: Game>(table: &Table, c: &G, out: &mut Vec<G>) {
    let mut grand: MoveList<G::Move> = MoveList::new();
    c.legal_moves(&mut grand);
    out.clear();
    out.reserve(grand.len());
    for &m in grand.iter() {
        out.push(c.clone());
        let g = out.last_mut().expect("just pushed");
        g.play_from(c, m);
        table.touch(g.key());
    }
}

/// Whether a table entry of this position may stand in for a search to `depth`.
///
/// Beside entries of exactly this depth: an entry whose score is a win or loss in `k` plies
/// with `k` at most both depths. Say the entry, of depth `d`, bounds the value by a win in
/// `k` (the loss case is symmetric). A forced win in `j` plies ends every line by a terminal
/// position within `j` plies, so it is seen by every search of depth at least `j`, whatever
/// lies beyond. If `v_d ≥ win in k`, a win in `j ≤ k ≤ depth` is forced, so `v_depth` is at
/// least that too. If `v_d ≤ win in k`, a faster forced win (`j < k ≤ d`) would have shown at
/// depth `d`; so `v_depth ≤ win in k` as well. Exact values are both bounds.
///
/// With `deeper` (the selective search, whose values are not minimax's at any fixed depth
/// anyway) an entry of a greater depth stands in too.
#[inline]
fn usable(e: &Data, depth: i32, deeper: bool) -> bool {
    let d = e.depth as i32;
    if d == depth || (deeper && d > depth) {
        return true;
    }
    let k = if e.score > MATE_BOUND {
        MATE - e.score
    } else if e.score < -MATE_BOUND {
        MATE + e.score
    } else {
        return false;
    };
    k <= depth.min(d)
}
