//! One thread of a Monte Carlo tree search: iterations (descent by the selection rule,
//! expansion, the leaf's value, backup, the solver's proofs) and what every thread of a run
//! shares ([`Run`]).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;

use fxhash::FxHashSet;
use smallvec::SmallVec;

use super::node::{exact_values, fixed, logistic, Edge, Node, ONE};
use crate::game::{Evaluator, Game, MoveList, Outcome, Scores};
use crate::rng::XorShift64Star;
use crate::score::{end_scores, masked};
use crate::time::TimeManager;
use crate::types::MctsConfig;

/// What every thread of one run shares.
pub(crate) struct Run<'a, G: Game, E> {
    pub eval: &'a E,
    pub cfg: MctsConfig,
    pub players: usize,
    /// The sums of values a node keeps: 1 in a two-player zero-sum game (the second
    /// player's values are the rest of 1), else one per player.
    pub kept: usize,
    /// The repetition rule's outcome, if the game has one.
    pub rule: Option<Outcome>,
    /// Repetition keys of the game's earlier positions.
    pub history: FxHashSet<u64>,
    /// Nodes this many plies from the root are not expanded: their evaluation is their
    /// exact value (a depth limit).
    pub cap: usize,
    /// Whether the search aims to prove the root within the cap (a depth limit): the
    /// selection then passes over proven children, which teach it nothing new.
    pub exhaustive: bool,
    pub time: TimeManager,
    /// Most iterations, all threads together.
    pub node_limit: Option<u64>,
    /// Iterations so far, all threads together (each thread adds its own in batches of
    /// [`BATCH`], and the rest when it ends).
    pub iterations: AtomicU64,
    /// Iterations the threads have claimed under [`Run::node_limit`] (in batches).
    pub claimed: AtomicU64,
    pub user_stop: &'a AtomicBool,
    /// Set when the run must end (a limit reached, the root proven).
    pub abort: AtomicBool,
    /// Bytes the trees take (each thread adds its own in batches of [`MEMORY_BATCH`], and the
    /// rest when it ends).
    pub memory: AtomicUsize,
    /// The most bytes the trees may take.
    pub budget: usize,
    /// Virtual losses per visit in progress (0: none).
    pub virtual_loss: u32,
    pub _game: std::marker::PhantomData<fn(&G)>,
}

impl<G: Game, E: Evaluator<G>> Run<'_, G, E> {
    /// Whether the run must end.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.abort.load(Relaxed) || self.user_stop.load(Relaxed)
    }

    /// The evaluation of `pos` as values.
    fn static_value(&self, pos: &G) -> [u16; 3] {
        let e = self.eval.evaluate(pos);
        let mut v = [0; 3];
        for p in 0..self.players {
            v[p] = fixed(logistic(e[p], self.cfg.scale));
        }
        v
    }
}

/// Iterations a thread counts on its own before adding them to the run's count, and claims
/// at once under a node limit: the threads of one tree then share a counter's cache line
/// once every so many iterations rather than at every one.
pub(crate) const BATCH: u64 = 16;

/// Bytes of new nodes a thread counts on its own before adding them to the run's count.
const MEMORY_BATCH: usize = 64 << 10;

/// One thread.
pub(crate) struct TreeWorker<'r, 'a, G: Game, E> {
    run: &'r Run<'a, G, E>,
    /// Repetition keys from the root to the node being visited.
    path_keys: Vec<u64>,
    rng: XorShift64Star,
    /// Selection noise (root-parallel helpers: their trees must differ).
    noise: f64,
    /// Iterations of this thread.
    pub iterations: u64,
    /// Bytes of this thread's new nodes not yet in the run's count.
    memory: Cell<usize>,
}

/// How a child position ends the game, if it does: its exact scores (relative to itself).
fn ending<G: Game, E: Evaluator<G>>(
    run: &Run<'_, G, E>,
    path_keys: &[u64],
    pos: &G,
) -> Option<Scores> {
    if let Some(rule) = run.rule {
        let k = pos.repetition_key();
        if path_keys.contains(&k) || run.history.contains(&k) {
            return Some(end_scores(run.eval, pos, rule, run.players, 0));
        }
    }
    pos.outcome()
        .map(|o| end_scores(run.eval, pos, o, run.players, 0))
}

impl<'r, 'a, G: Game, E: Evaluator<G>> TreeWorker<'r, 'a, G, E> {
    pub fn new(run: &'r Run<'a, G, E>, root: &G, id: usize, noise: bool) -> Self {
        let seed = run.cfg.seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        TreeWorker {
            run,
            path_keys: vec![root.repetition_key()],
            rng: XorShift64Star::seeded(seed),
            noise: if noise { 0.02 } else { 0.0 },
            iterations: 0,
            memory: Cell::new(0),
        }
    }

    /// Counts `bytes` of new nodes, adding them to the run's count a batch at a time.
    fn grow(&self, bytes: usize) {
        let m = self.memory.get() + bytes;
        if m >= MEMORY_BATCH {
            self.run.memory.fetch_add(m, Relaxed);
            self.memory.set(0);
        } else {
            self.memory.set(m);
        }
    }

    /// Whether the trees take their budget (this thread's uncounted bytes included).
    fn full(&self) -> bool {
        self.run.memory.load(Relaxed) + self.memory.get() >= self.run.budget
    }

    /// Adds this thread's uncounted bytes to the run's count (when the thread ends).
    pub fn flush_memory(&self) {
        self.run.memory.fetch_add(self.memory.replace(0), Relaxed);
    }

    /// A node for `pos`, `ply` plies from the root (its parent's key is the last on the path).
    fn new_node(&self, pos: &G, ply: usize) -> Node<G::Move> {
        self.grow(Node::<G::Move>::BYTES);
        let mover = pos.to_move();
        if let Some(s) = ending(self.run, &self.path_keys, pos) {
            return Node::proven(mover, s);
        }
        if ply >= self.run.cap {
            return Node::proven(mover, masked(self.run.eval.evaluate(pos), self.run.players));
        }
        Node::new(mover)
    }

    /// Every move of `pos` (the last position on the path) with its prior; the children that
    /// end the game are made at once (proven), so that the solver sees them.
    fn expand(&self, pos: &G, ply: usize) -> Box<[Edge<G::Move>]> {
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        self.grow(moves.len() * Edge::<G::Move>::BYTES);
        let mut child = pos.clone();
        moves
            .iter()
            .map(|&mv| {
                child.play_from(pos, mv);
                let end = ending(self.run, &self.path_keys, &child);
                let (prior, node) = match end {
                    Some(s) => {
                        self.grow(Node::<G::Move>::BYTES);
                        let node = Node::proven(child.to_move(), s);
                        let v = node.proven_from_parent().unwrap_or(s);
                        (
                            exact_values(&v, self.run.players, self.run.cfg.scale),
                            OnceLock::from(Box::new(node)),
                        )
                    }
                    None if ply + 1 >= self.run.cap => {
                        let node = self.new_node(&child, ply + 1);
                        let v = node.proven_from_parent().unwrap_or([0; 3]);
                        (
                            exact_values(&v, self.run.players, self.run.cfg.scale),
                            OnceLock::from(Box::new(node)),
                        )
                    }
                    None => (self.run.static_value(&child), OnceLock::new()),
                };
                Edge {
                    mv,
                    prior,
                    child: node,
                }
            })
            .collect()
    }

    /// The edge to take at `node`: the highest `q + c·sqrt(ln(N+1)/(n+1)) + w·prior/(n+1)`
    /// for the player to move, a proven child counting its exact value (or, when proving
    /// within a depth limit, not taken again); the first on ties.
    fn select(&mut self, node: &Node<G::Move>, edges: &[Edge<G::Move>]) -> usize {
        let p = node.mover as usize;
        let cfg = &self.run.cfg;
        let (_, n_parent) = node.mean(p, self.run.kept);
        let ln = ((n_parent + 1) as f64).ln();
        let mut best = f64::NEG_INFINITY;
        let mut best_i = 0;
        for (i, e) in edges.iter().enumerate() {
            let prior = e.prior[p] as f64 / ONE as f64;
            let mut score = match e.child.get() {
                None => prior + cfg.exploration * ln.sqrt() + cfg.bias * prior,
                Some(c) => match c.proven_from_parent() {
                    Some(_) if self.run.exhaustive => continue,
                    Some(v) => super::node::exact_value(v[p], cfg.scale),
                    None => {
                        let (q, n) = c.mean(p, self.run.kept);
                        let q = if n == 0 { prior } else { q };
                        let k = (n + 1) as f64;
                        q + cfg.exploration * (ln / k).sqrt() + cfg.bias * prior / k
                    }
                },
            };
            if self.noise > 0.0 {
                score += self.noise * (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            }
            if score > best {
                best = score;
                best_i = i;
            }
        }
        best_i
    }

    /// The move a playout plays among `edges`' priors: the best for the mover, a random
    /// one with probability epsilon.
    fn playout_pick(&mut self, priors: &[[u16; 3]], p: usize) -> usize {
        let eps = self.run.cfg.epsilon;
        if eps > 0.0 && (self.rng.next_u64() >> 11) as f64 / ((1u64 << 53) as f64) < eps {
            return self.rng.below(priors.len());
        }
        let mut best = 0;
        for (i, v) in priors.iter().enumerate() {
            if v[p] > priors[best][p] {
                best = i;
            }
        }
        best
    }

    /// The value of a node just expanded: its evaluation (`came`, its prior, when it has
    /// one), or after a playout of `cfg.playout` plies whose first ply reads the new
    /// edges' priors.
    fn leaf_value(&mut self, pos: &G, edges: &[Edge<G::Move>], came: Option<[u16; 3]>) -> [u16; 3] {
        let plies = self.run.cfg.playout;
        if plies == 0 || edges.is_empty() {
            return came.unwrap_or_else(|| self.run.static_value(pos));
        }
        let priors: SmallVec<[[u16; 3]; 64]> = edges.iter().map(|e| e.prior).collect();
        let i = self.playout_pick(&priors, pos.to_move());
        let mut value = priors[i];
        if plies == 1
            || edges[i]
                .child
                .get()
                .is_some_and(|c| c.proven.get().is_some())
        {
            return value;
        }
        let depth = self.path_keys.len();
        let mut cur = pos.clone();
        cur.play(edges[i].mv);
        let mut moves: MoveList<G::Move> = MoveList::new();
        let mut next = cur.clone();
        for _ in 1..plies {
            self.path_keys.push(cur.repetition_key());
            moves.clear();
            cur.legal_moves(&mut moves);
            let mut priors: SmallVec<[[u16; 3]; 64]> = SmallVec::new();
            let mut ends: SmallVec<[bool; 64]> = SmallVec::new();
            for &mv in moves.iter() {
                next.play_from(&cur, mv);
                match ending(self.run, &self.path_keys, &next) {
                    Some(s) => {
                        priors.push(exact_values(&s, self.run.players, self.run.cfg.scale));
                        ends.push(true);
                    }
                    None => {
                        priors.push(self.run.static_value(&next));
                        ends.push(false);
                    }
                }
            }
            if priors.is_empty() {
                break;
            }
            let i = self.playout_pick(&priors, cur.to_move());
            value = priors[i];
            if ends[i] {
                break;
            }
            next.play_from(&cur, moves[i]);
            std::mem::swap(&mut cur, &mut next);
        }
        self.path_keys.truncate(depth);
        value
    }

    /// One iteration from `root` (the node of `root_pos`).
    pub fn iterate(&mut self, root: &Node<G::Move>, root_pos: &G) {
        let run = self.run;
        let vl = run.virtual_loss;
        let mut path: SmallVec<[&Node<G::Move>; 64]> = SmallVec::new();
        path.push(root);
        self.path_keys.truncate(1);
        let mut pos = root_pos.clone();
        let mut came: Option<[u16; 3]> = None;
        let value = loop {
            let node = *path.last().expect("the root is on the path");
            if let Some(s) = node.proven.get() {
                break exact_values(s, run.players, run.cfg.scale);
            }
            let edges = match node.edges.get() {
                Some(e) => e,
                None => {
                    // A node's first visit counts its prior; the second expands it.
                    if let Some(v) =
                        came.filter(|_| node.visits() == 0 && run.cfg.playout == 0 || self.full())
                    {
                        break v;
                    }
                    if self.full() {
                        break run.static_value(&pos);
                    }
                    let ply = path.len() - 1;
                    let edges = node.edges.get_or_init(|| self.expand(&pos, ply));
                    if node.try_prove() {
                        let s = node.proven.get().expect("just proven");
                        break exact_values(s, run.players, run.cfg.scale);
                    }
                    break self.leaf_value(&pos, edges, came);
                }
            };
            let i = self.select(node, edges);
            let edge = &edges[i];
            let mut child_pos = pos.clone();
            child_pos.play_from(&pos, edge.mv);
            let child = match edge.child.get() {
                Some(c) => c,
                None if self.full() => break edge.prior,
                None => edge
                    .child
                    .get_or_init(|| Box::new(self.new_node(&child_pos, path.len()))),
            };
            if vl > 0 {
                child.enter(vl);
            }
            path.push(child);
            if run.rule.is_some() {
                self.path_keys.push(child_pos.repetition_key());
            }
            came = Some(edge.prior);
            pos = child_pos;
        };
        for (k, n) in path.iter().enumerate() {
            // The root took no virtual loss.
            n.add(&value, run.kept, if k > 0 { vl } else { 0 });
        }
        // The solver: a proof at the leaf may prove its ancestors.
        if path.last().is_some_and(|n| n.proven.get().is_some()) {
            for n in path.iter().rev().skip(1) {
                if !n.try_prove() {
                    break;
                }
            }
        }
        self.iterations += 1;
    }
}
