//! Monte Carlo tree search ([`crate::Algorithm::Mcts`]) for 2 and 3 players and non-zero-sum
//! games.
//!
//! - **Values.** Every node keeps, per player, the sum of the values backed up through it
//!   (max^n style: each player's own component; Sturtevant 2008). A value lies in `[0, 1]`:
//!   an evaluation `e` counts `0.05 + 0.9 / (1 + exp(−e / scale))`, a draw likewise the
//!   evaluation's [`crate::Evaluator::draw_scores`], an end of the game its utility in the
//!   same order as every search of this crate scores them (win 1, both win 0.975, both lose
//!   0.025, loss 0).
//! - **Selection.** UCT with progressive bias (Chaslot et al. 2008): at a node the player to
//!   move takes the move maximising `q + c·sqrt(ln(N+1)/(n+1)) + w·prior/(n+1)`, where `prior`
//!   is the evaluation of the position after the move, computed when the node is expanded.
//!   A move not yet taken counts its prior as `q`.
//! - **Leaves.** There are no random playouts to the end (Chexers games are hundreds of plies
//!   long): a new node's first visit backs up its prior; its second expands it (every move's
//!   prior) and backs up its evaluation, or, with `playout = k`, the evaluation after `k`
//!   plies of evaluation-guided playout (each ply the move whose position the mover likes
//!   best, a random one with probability `epsilon`).
//! - **Solver** (MCTS-Solver, Winands et al. 2008, for any number of players): ends of the
//!   game and repetitions (on the path from the root or in the game's history, scored by
//!   the repetition rule as every search of this crate scores them) are proven nodes; a
//!   node is proven when a child is proven a win for its mover, or when every child is
//!   proven (then the first best for its mover, as max^n chooses). A proven child counts
//!   its exact value in the selection. A proven root ends the search.
//! - **Depth limit.** With [`crate::Limits::depth`] `d`, nodes `d` plies from the root are
//!   not expanded: their evaluation is their exact value, and the selection passes over
//!   proven children (which it would otherwise take again for their exact value), so the
//!   search ends when the root is proven within that horizon.
//! - **Tree reuse.** The tree is kept after a search; the next search from a position that
//!   the kept tree holds (within 8 plies, with the same history of repetition keys) starts
//!   from that subtree, its statistics and proofs included.
//! - **Threads** on rayon: tree parallelism with virtual loss (every thread grows one tree;
//!   a visit in progress counts as a loss), or root parallelism (a tree per thread, each
//!   with selection noise; the root's statistics are summed at the end). The threads of one
//!   tree write as few shared words as they can: a node's visits and virtual losses are one
//!   word (a backup counts the visit and ends its virtual loss in one atomic add), a
//!   two-player zero-sum game's nodes keep the first player's sum of values alone, and each
//!   thread counts its iterations and its nodes' bytes on its own, adding them to the run's
//!   counts in batches (and claiming a node limit's iterations in batches: the limit is
//!   still exact).
//! - **Limits.** `nodes` counts iterations; time limits stop after any iteration (a move
//!   time less its margin, or the clock's target share), and earlier when the most visited
//!   move can no longer be overtaken.
//! - **Determinism.** One thread with a given seed gives the same tree, move and visit
//!   counts every time under a depth or iteration limit.

mod node;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use fxhash::FxHashSet;

use crate::game::{Evaluator, Game, Player, Scores, MAX_EVAL};
use crate::report::{nps, unsearched};
use crate::score::{masked, MAX_PLY};
use crate::time::TimeManager;
use crate::types::{Config, Limits, MctsParallel, Report, MATE_BOUND};
use node::{exact_value, logit, Node, ONE};
use worker::{Run, TreeWorker, BATCH};

/// Plies below the last search's root searched for the new root when reusing the tree.
const REUSE_PLIES: usize = 8;

/// Iterations between two looks at the clock.
const POLL: u64 = 16;

/// What the last Monte Carlo tree search did with its tree (see
/// [`Search::mcts_stats`](crate::Search::mcts_stats)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MctsStats {
    /// Visits of the root that the search found in the kept tree (0: a new tree).
    pub reused_visits: u64,
    /// Iterations of the search, all threads.
    pub iterations: u64,
    /// Bytes the tree (all trees) took at the end.
    pub tree_bytes: usize,
    /// Whether the root was proven (its value is exact).
    pub proven: bool,
}

/// A tree kept between searches.
pub(crate) struct Tree<G: Game> {
    root: Node<G::Move>,
    pos: G,
    /// The repetition keys the nodes were made with: the history's and the root's.
    seen: FxHashSet<u64>,
}

/// The trees a [`crate::Search`] keeps between searches, and what they were made with.
pub(crate) struct Forest<G: Game> {
    trees: Vec<Tree<G>>,
    config: Config,
    /// Whether the trees may be reused (made without a depth limit, with reuse on).
    reusable: bool,
    pub stats: MctsStats,
}

impl<G: Game> Forest<G> {
    /// An empty forest (nothing kept yet).
    pub fn new(config: &Config) -> Self {
        Forest {
            trees: Vec::new(),
            config: config.clone(),
            reusable: false,
            stats: MctsStats::default(),
        }
    }

    /// The root's moves in the last search's trees: visits and mean value per player.
    pub fn root(&self) -> Vec<(G::Move, u64, [f64; 3])> {
        let roots: Vec<&Node<G::Move>> = self.trees.iter().map(|t| &t.root).collect();
        let (players, kept) = self
            .trees
            .first()
            .map_or((0, 0), |t| (t.pos.players(), kept_sums(&t.pos)));
        root_moves(&roots, players, kept)
            .into_iter()
            .map(|m| {
                let mut mean = [0.0; 3];
                for (v, s) in mean.iter_mut().zip(m.sum).take(players) {
                    if m.visits > 0 {
                        *v = s as f64 / ONE as f64 / m.visits as f64;
                    }
                }
                (m.mv, m.visits, mean)
            })
            .collect()
    }
}

/// The root's statistics of one move, summed over the trees.
#[derive(Clone, Copy)]
struct RootMove<M> {
    mv: M,
    visits: u64,
    sum: [u64; 3],
    proven: Option<Scores>,
}

/// The path (edge indices) from `tree`'s root to the node of `game` with the same repetition
/// keys behind it (`seen`), if the tree holds it within [`REUSE_PLIES`].
fn find<G: Game>(tree: &Tree<G>, game: &G, seen: &FxHashSet<u64>) -> Option<Vec<usize>> {
    fn walk<G: Game>(
        node: &Node<G::Move>,
        pos: &G,
        keys: &mut Vec<u64>,
        path: &mut Vec<usize>,
        tree: &Tree<G>,
        game: &G,
        seen: &FxHashSet<u64>,
    ) -> bool {
        if pos.key() == game.key()
            && pos.repetition_key() == game.repetition_key()
            && pos.to_move() == game.to_move()
        {
            let mut had: FxHashSet<u64> = tree.seen.clone();
            had.extend(keys.iter().copied());
            had.insert(pos.repetition_key());
            if &had == seen {
                return true;
            }
        }
        if path.len() >= REUSE_PLIES {
            return false;
        }
        let Some(edges) = node.edges.get() else {
            return false;
        };
        for (i, e) in edges.iter().enumerate() {
            let Some(child) = e.child.get() else {
                continue;
            };
            if child.proven.get().is_some() && child.edges.get().is_none() {
                continue;
            }
            let mut next = pos.clone();
            next.play(e.mv);
            keys.push(pos.repetition_key());
            path.push(i);
            if walk(child, &next, keys, path, tree, game, seen) {
                return true;
            }
            path.pop();
            keys.pop();
        }
        false
    }
    let mut path = Vec::new();
    walk(
        &tree.root,
        &tree.pos,
        &mut Vec::new(),
        &mut path,
        tree,
        game,
        seen,
    )
    .then_some(path)
}

/// Takes the node at `path` out of `root` (the rest is dropped).
fn take<M>(mut node: Node<M>, path: &[usize]) -> Option<Node<M>> {
    for &i in path {
        let edges = node.edges.get_mut()?;
        let child = edges.get_mut(i)?.child.take()?;
        node = *child;
    }
    Some(node)
}

/// Bytes a tree takes.
fn tree_bytes<M>(root: &Node<M>) -> usize {
    let mut bytes = 0;
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        bytes += Node::<M>::BYTES;
        if let Some(edges) = n.edges.get() {
            bytes += edges.len() * node::Edge::<M>::BYTES;
            stack.extend(edges.iter().filter_map(|e| e.child.get().map(|c| &**c)));
        }
    }
    bytes
}

/// The root's moves with their statistics summed over `roots` (none if no root is expanded).
/// Nodes keep `kept` sums ([`Node::add`]).
fn root_moves<M: Copy>(roots: &[&Node<M>], players: usize, kept: usize) -> Vec<RootMove<M>> {
    let Some(edges) = roots.iter().find_map(|r| r.edges.get()) else {
        return Vec::new();
    };
    let mut out: Vec<RootMove<M>> = edges
        .iter()
        .map(|e| RootMove {
            mv: e.mv,
            visits: 0,
            sum: [0; 3],
            proven: None,
        })
        .collect();
    for r in roots {
        let Some(edges) = r.edges.get() else {
            continue;
        };
        for (m, e) in out.iter_mut().zip(edges.iter()) {
            if let Some(c) = e.child.get() {
                m.visits += u64::from(c.visits());
                for p in 0..players {
                    m.sum[p] += c.stats(p, kept).0;
                }
                if m.proven.is_none() {
                    m.proven = c.proven_from_parent();
                }
            }
        }
    }
    out
}

/// The move to play among the root's moves for `p`: a proven win (the fastest), else the
/// most visited of the moves not proven lost (ties: the higher mean, then the first), unless
/// a proven move's exact value beats that move's mean.
fn choose<M>(moves: &[RootMove<M>], p: Player, scale: f64) -> Option<usize> {
    let mut win: Option<usize> = None;
    for (i, m) in moves.iter().enumerate() {
        if let Some(v) = m.proven.filter(|v| v[p] > MATE_BOUND) {
            if win.map_or(true, |w| v[p] > moves[w].proven.map_or(0, |x| x[p])) {
                win = Some(i);
            }
        }
    }
    if win.is_some() {
        return win;
    }
    let lost = |m: &RootMove<M>| m.proven.is_some_and(|v| v[p] < -MATE_BOUND);
    let all_lost = moves.iter().all(lost);
    let mean = |m: &RootMove<M>| {
        if m.visits == 0 {
            0.0
        } else {
            m.sum[p] as f64 / ONE as f64 / m.visits as f64
        }
    };
    let mut best: Option<usize> = None;
    for (i, m) in moves.iter().enumerate() {
        if lost(m) && !all_lost {
            continue;
        }
        let better = match best {
            None => true,
            Some(b) => {
                let o = &moves[b];
                if all_lost {
                    m.proven.map_or(i32::MIN, |v| v[p]) > o.proven.map_or(i32::MIN, |v| v[p])
                } else {
                    m.visits > o.visits || (m.visits == o.visits && mean(m) > mean(o))
                }
            }
        };
        if better {
            best = Some(i);
        }
    }
    let b = best?;
    let q = mean(&moves[b]);
    let mut pick = b;
    let mut pick_value = if moves[b].proven.is_some() {
        moves[b].proven.map_or(q, |v| exact_value(v[p], scale))
    } else {
        q
    };
    for (i, m) in moves.iter().enumerate() {
        if let Some(v) = m.proven {
            let x = exact_value(v[p], scale);
            if x > pick_value && m.visits > 0 {
                pick = i;
                pick_value = x;
            }
        }
    }
    Some(pick)
}

/// The principal variation below `node`: the most visited child each time (a proven win for
/// the mover first).
fn line<M: Copy>(node: &Node<M>, out: &mut Vec<M>) {
    let mut node = node;
    while out.len() < MAX_PLY {
        let Some(edges) = node.edges.get() else {
            return;
        };
        let p = node.mover as usize;
        let mut best: Option<(usize, &Node<M>)> = None;
        for (i, e) in edges.iter().enumerate() {
            let Some(c) = e.child.get() else {
                continue;
            };
            if c.proven_from_parent().is_some_and(|v| v[p] > MATE_BOUND) {
                best = Some((i, c));
                break;
            }
            if best.map_or(true, |(_, b)| c.visits() > b.visits()) {
                best = Some((i, c));
            }
        }
        let Some((i, c)) = best.filter(|(_, c)| c.visits() > 0 || c.proven.get().is_some()) else {
            return;
        };
        out.push(edges[i].mv);
        node = c;
    }
}

/// The report of the trees' current state.
fn report<G: Game, E: Evaluator<G>>(
    run: &Run<'_, G, E>,
    roots: &[&Node<G::Move>],
    game: &G,
    start: Instant,
) -> Option<Report<G::Move>> {
    let players = run.players;
    let p = game.to_move();
    let scale = run.cfg.scale;
    let moves = root_moves(roots, players, run.kept);
    let i = choose(&moves, p, scale)?;
    let m = &moves[i];
    let root_proven = roots.iter().find_map(|r| r.proven.get().copied());
    let mut scores = [0; 3];
    match root_proven.or(m.proven) {
        Some(v) => scores = masked(v, players),
        None => {
            for (q, s) in scores.iter_mut().enumerate().take(players) {
                let mean = if m.visits == 0 {
                    0.5
                } else {
                    m.sum[q] as f64 / ONE as f64 / m.visits as f64
                };
                *s = logit(mean, scale).clamp(-MAX_EVAL, MAX_EVAL);
            }
        }
    }
    // The line: from the tree with the most visits of the chosen move.
    let mut pv = vec![m.mv];
    let richest = roots
        .iter()
        .filter_map(|r| {
            r.edges
                .get()
                .and_then(|e| e.get(i))
                .and_then(|e| e.child.get())
        })
        .max_by_key(|c| c.visits());
    if let Some(c) = richest {
        line(c, &mut pv);
    }
    let elapsed = start.elapsed();
    let nodes = run.iterations.load(Relaxed);
    Some(Report {
        best: Some(m.mv),
        score: scores[p],
        scores,
        depth: pv.len() as u32,
        nodes,
        nps: nps(nodes, elapsed),
        elapsed,
        pv,
        tt_hit_rate: 0.0,
    })
}

/// Whether the most visited root move can no longer be overtaken in the time left.
fn decided<M: Copy>(
    root: &Node<M>,
    run_iterations: u64,
    elapsed: Duration,
    target: Duration,
) -> bool {
    if elapsed < target / 4 || elapsed.is_zero() {
        return false;
    }
    let Some(edges) = root.edges.get() else {
        return false;
    };
    let (mut first, mut second) = (0u64, 0u64);
    for e in edges.iter() {
        let v = e.child.get().map_or(0, |c| u64::from(c.visits()));
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    let rate = run_iterations as f64 / elapsed.as_secs_f64();
    let left = rate * target.saturating_sub(elapsed).as_secs_f64();
    (first - second) as f64 > left
}

/// The roots of this search's trees: each kept tree that holds `game` (its subtree at
/// `game`), new roots for the rest; and the forest they came from.
fn kept_roots<G: Game>(
    kept: &mut Option<Forest<G>>,
    config: &Config,
    game: &G,
    seen: &FxHashSet<u64>,
    n_trees: usize,
    limits: &Limits,
) -> (Forest<G>, Vec<Node<G::Move>>) {
    let mut forest = match kept.take() {
        Some(f)
            if f.reusable && f.config == *config && config.mcts.reuse && limits.depth.is_none() =>
        {
            f
        }
        _ => Forest::new(config),
    };
    let mut roots: Vec<Node<G::Move>> = Vec::with_capacity(n_trees);
    for t in std::mem::take(&mut forest.trees) {
        if roots.len() == n_trees {
            break;
        }
        if let Some(path) = find(&t, game, seen) {
            if let Some(n) = take(t.root, &path) {
                roots.push(n);
            }
        }
    }
    while roots.len() < n_trees {
        roots.push(Node::new(game.to_move()));
    }
    (forest, roots)
}

/// The final report of a run (the last one made, if the root's statistics give none);
/// stopped before the root was expanded, the first move with the static evaluation.
fn final_report<G: Game, E: Evaluator<G>>(
    run: &Run<'_, G, E>,
    roots: &[Node<G::Move>],
    game: &G,
    start: Instant,
    last: Option<Report<G::Move>>,
    on_iteration: &mut impl FnMut(&Report<G::Move>),
) -> Report<G::Move> {
    let roots_ref: Vec<&Node<G::Move>> = roots.iter().collect();
    let iterations = run.iterations.load(Relaxed);
    match report(run, &roots_ref, game, start).or(last) {
        Some(mut r) => {
            r.nodes = iterations;
            r.elapsed = start.elapsed();
            r.nps = nps(iterations, r.elapsed);
            on_iteration(&r);
            r
        }
        None => {
            let moves = game.moves();
            unsearched(
                game,
                run.eval,
                moves.first().copied(),
                iterations,
                start.elapsed(),
            )
        }
    }
}

/// The trees kept for the next search, with the run's statistics.
fn keep_forest<G: Game, E: Evaluator<G>>(
    mut forest: Forest<G>,
    run: &Run<'_, G, E>,
    roots: Vec<Node<G::Move>>,
    (game, seen): (&G, &FxHashSet<u64>),
    (config, limits, reused_visits): (&Config, &Limits, u64),
) -> Forest<G> {
    forest.stats = MctsStats {
        reused_visits,
        iterations: run.iterations.load(Relaxed),
        tree_bytes: run.memory.load(Relaxed),
        proven: roots.iter().any(|r| r.proven.get().is_some()),
    };
    forest.reusable = config.mcts.reuse && limits.depth.is_none();
    forest.config = config.clone();
    forest.trees = roots
        .into_iter()
        .map(|root| Tree {
            root,
            pos: game.clone(),
            seen: seen.clone(),
        })
        .collect();
    forest
}

/// The sums of values a node keeps in `game`: one in a two-player zero-sum game
/// ([`Game::zero_sum`]: its values add up to 1, a win 1 and a loss 0, and an evaluation
/// `[v, −v]` gives `logistic(v)` and `1 − logistic(v)`), else one per player.
fn kept_sums<G: Game>(game: &G) -> usize {
    if game.zero_sum() && game.players() == 2 {
        1
    } else {
        game.players()
    }
}

/// The shared state of one run: the settings, the limits, the counters.
fn new_run<'a, G: Game, E: Evaluator<G>>(
    eval: &'a E,
    config: &Config,
    game: &G,
    (history_set, memory): (FxHashSet<u64>, usize),
    limits: &Limits,
    start: Instant,
    user_stop: &'a AtomicBool,
) -> Run<'a, G, E> {
    let cfg = config.mcts;
    let threads = config.threads.max(1);
    let root_parallel = threads > 1 && cfg.parallel == MctsParallel::Root;
    Run {
        eval,
        cfg,
        players: game.players(),
        kept: kept_sums(game),
        rule: game.repetition_rule().map(|(_, o)| o),
        history: history_set,
        cap: limits
            .depth
            .map_or(MAX_PLY, |d| (d as usize).clamp(1, MAX_PLY)),
        exhaustive: limits.depth.is_some(),
        time: TimeManager::new(limits, start),
        node_limit: limits.nodes,
        iterations: AtomicU64::new(0),
        claimed: AtomicU64::new(0),
        user_stop,
        abort: AtomicBool::new(false),
        memory: AtomicUsize::new(memory),
        budget: cfg.tree_mib.max(1) << 20,
        virtual_loss: if threads > 1 && !root_parallel {
            cfg.virtual_loss
        } else {
            0
        },
        _game: std::marker::PhantomData,
    }
}

/// One thread's iterations on `root` until the run stops, the root is proven or a limit is
/// reached; the main thread (`id` 0) polls `main` now and then, which ends the run when it
/// says so. The thread's iteration count, and whether the thread ended because the node
/// limit's iterations were all claimed (then the other threads finish the ones they hold).
///
/// The thread adds its iterations to the run's count [`BATCH`] at a time and claims as
/// many at once under a node limit (never more than the limit leaves): the run's counters
/// are not written at every iteration by every thread.
fn work<G: Game, E: Evaluator<G>>(
    run: &Run<'_, G, E>,
    game: &G,
    (id, root_parallel): (usize, bool),
    root: &Node<G::Move>,
    main: &mut dyn FnMut(&Run<'_, G, E>) -> bool,
) -> (u64, bool) {
    let mut w = TreeWorker::new(run, game, id, root_parallel && id > 0);
    // Iterations claimed under the node limit and not yet made; made and not yet counted.
    let (mut held, mut uncounted) = (0u64, 0u64);
    let mut exhausted = false;
    loop {
        if run.stopped() {
            break;
        }
        if root.proven.get().is_some() && !root_parallel {
            run.abort.store(true, Relaxed);
            break;
        }
        if root.proven.get().is_some() {
            break;
        }
        if let Some(limit) = run.node_limit {
            if held == 0 {
                let before = run.claimed.fetch_add(BATCH, Relaxed);
                if before >= limit {
                    exhausted = true;
                    break;
                }
                held = BATCH.min(limit - before);
            }
            held -= 1;
        }
        w.iterate(root, game);
        uncounted += 1;
        if uncounted == BATCH {
            run.iterations.fetch_add(uncounted, Relaxed);
            uncounted = 0;
        }
        if id == 0 && (w.iterations % POLL == 0 || w.iterations.is_power_of_two()) && main(run) {
            run.abort.store(true, Relaxed);
            break;
        }
    }
    run.iterations.fetch_add(uncounted, Relaxed);
    w.flush_memory();
    (w.iterations, exhausted)
}

/// One Monte Carlo tree search from `game` (see the module documentation): the kept trees
/// found or new roots, the shared `Run`, the threads' loop of iterations with the main
/// thread's polling and reports, the final report and the trees kept for the next search.
/// An iteration itself lives in `worker`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<G: Game, E: Evaluator<G>>(
    config: &Config,
    eval: &E,
    pool: Option<&rayon::ThreadPool>,
    user_stop: &AtomicBool,
    kept: &mut Option<Forest<G>>,
    game: &G,
    history: &[u64],
    limits: Limits,
    start: Instant,
    mut on_iteration: impl FnMut(&Report<G::Move>),
) -> Report<G::Move> {
    let cfg = config.mcts;
    let threads = config.threads.max(1);
    let root_parallel = threads > 1 && cfg.parallel == MctsParallel::Root;
    let n_trees = if root_parallel { threads } else { 1 };
    let history_set: FxHashSet<u64> = history.iter().copied().collect();
    let mut seen = history_set.clone();
    seen.insert(game.repetition_key());
    let (forest, roots) = kept_roots(kept, config, game, &seen, n_trees, &limits);
    let reused_visits = u64::from(roots[0].visits());
    let memory: usize = roots.iter().map(tree_bytes).sum();
    let run = new_run(
        eval,
        config,
        game,
        (history_set, memory),
        &limits,
        start,
        user_stop,
    );
    let target = run.time.target();
    let mut next_report = 64u64;
    let mut last: Option<Report<G::Move>> = None;

    let work = |id: usize, root: &Node<G::Move>, main: &mut dyn FnMut(&Run<'_, G, E>) -> bool| {
        work(&run, game, (id, root_parallel), root, main)
    };

    let roots_ref: Vec<&Node<G::Move>> = roots.iter().collect();
    let mut main_poll = |run: &Run<'_, G, E>| -> bool {
        let total = run.iterations.load(Relaxed);
        if total >= next_report {
            while next_report <= total {
                next_report *= 2;
            }
            if let Some(r) = report(run, &roots_ref, game, start) {
                on_iteration(&r);
                last = Some(r);
            }
        }
        if run.time.out_of_time() {
            return true;
        }
        if let Some(t) = target {
            let elapsed = run.time.elapsed();
            if elapsed >= t {
                return true;
            }
            if decided(roots_ref[0], total, elapsed, t) {
                return true;
            }
        }
        false
    };

    match pool.filter(|_| threads > 1) {
        Some(pool) => {
            pool.in_place_scope(|s| {
                for id in 1..threads {
                    let root = if root_parallel { &roots[id] } else { &roots[0] };
                    let work = &work;
                    s.spawn(move |_| {
                        work(id, root, &mut |_| false);
                    });
                }
                let (_, exhausted) = work(0, &roots[0], &mut main_poll);
                // The main thread is done: the helpers end too (at once, unless they hold
                // the last iterations of the node limit).
                if !exhausted {
                    run.abort.store(true, Relaxed);
                }
            });
        }
        None => {
            work(0, &roots[0], &mut main_poll);
        }
    }

    let report = final_report(&run, &roots, game, start, last, &mut on_iteration);
    let limits_kept = (config, &limits, reused_visits);
    *kept = Some(keep_forest(forest, &run, roots, (game, &seen), limits_kept));
    report
}
