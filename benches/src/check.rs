//! An independent check of root values: plain alpha-beta, written here without table,
//! aspiration or anything else of the engine, on the scale of the Jumpy3 sheet
//! (a won game is worth [`WIN`], a lost one `-WIN`, anything else the evaluation).
//!
//! Alpha-beta with a full window at the root returns exactly the minimax value, so for depths
//! where plain minimax ([`search::reference::minimax`]) is far too slow this is the
//! reference. Engines score wins by distance (the engine `MATE - plies`, the `minimax`
//! crate `BEST_EVAL - plies`); mapping every win to `WIN` and every loss to `-WIN` is
//! order-preserving, and minimax commutes with order-preserving maps, so the mapped engine
//! value must equal this one exactly ([`engine_to_check`]).

use plyforge::search;
use smallvec::SmallVec;

use search::{Evaluator, Game, MoveList, Outcome, Player, MATE_BOUND};

/// The value of a won game on the check's scale; evaluations must stay within `±WIN / 2`.
pub const WIN: i32 = 100;

/// What a position that repeats one on the search path is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// Nothing: the search looks only at positions (as the `minimax` crate does).
    Ignore,
    /// Its first recurrence on the path from the root ends the game with the outcome of the
    /// game's [`Game::repetition_rule`] (the engine's and [`search::reference`]'s convention).
    FirstRecurrence,
}

/// An engine score (root player's view, wins as `MATE - plies`) on the check's scale.
///
/// ```
/// use benches::check::{engine_to_check, WIN};
/// use plyforge::search::MATE;
/// assert_eq!(engine_to_check(MATE - 7), WIN);
/// assert_eq!(engine_to_check(-(MATE - 7)), -WIN);
/// assert_eq!(engine_to_check(-3), -3);
/// ```
pub fn engine_to_check(score: i32) -> i32 {
    if score > MATE_BOUND {
        WIN
    } else if score < -MATE_BOUND {
        -WIN
    } else if score > search::MAX_EVAL {
        // "Both win" scores (HALF_MATE - plies); none in a zero-sum game.
        WIN / 2
    } else if score < -search::MAX_EVAL {
        -WIN / 2
    } else {
        score
    }
}

fn outcome_value(o: Outcome, root: Player) -> i32 {
    o.utility(root) * WIN / 2
}

struct Ctx<'a, G: Game, E> {
    eval: &'a E,
    root: Player,
    rule: Option<Outcome>,
    repetition: Repetition,
    path: Vec<u64>,
    nodes: u64,
    /// Best move found at a position in an earlier iteration (ordering only).
    order: Vec<(u64, Option<G::Move>)>,
}

const ORDER_BITS: u32 = 20;

impl<G: Game, E> Ctx<'_, G, E> {
    fn slot(key: u64) -> usize {
        (key >> (64 - ORDER_BITS)) as usize
    }
    fn best_move(&self, key: u64) -> Option<G::Move> {
        let (k, m) = self.order[Self::slot(key)];
        if k == key {
            m
        } else {
            None
        }
    }
    fn remember(&mut self, key: u64, m: G::Move) {
        self.order[Self::slot(key)] = (key, Some(m));
    }
}

/// The fixed-depth minimax value of `game` for the player to move (two players, zero-sum,
/// no quiescence), by alpha-beta with a full window, on the check's scale.
///
/// For speed only, it deepens iteratively and orders moves: first the best move of the
/// previous iteration at the same position (kept in a table that holds moves, never values),
/// then by the static value of the position a move leads to. Neither can change the value.
/// Returns the value and the nodes visited (all iterations).
///
/// ```
/// use benches::check::{alphabeta, Repetition};
/// use plyforge::search::synthetic::{Spec, Synthetic};
/// use plyforge::search::{reference, Evaluator, Game, Scores};
///
/// /// A small evaluation (the synthetic game's own is larger than the check's scale).
/// struct Small;
/// impl Evaluator<Synthetic> for Small {
///     fn evaluate(&self, g: &Synthetic) -> Scores {
///         let v = (g.key() % 41) as i32 - 20;
///         [v, -v, 0]
///     }
/// }
/// let g = Synthetic::new(Spec { seed: 3, terminal_per_mille: 0, noisy_per_mille: 0, ..Spec::default() });
/// let (v, _) = alphabeta(&g, &Small, 6, Repetition::FirstRecurrence);
/// assert_eq!(v, reference::minimax(&g, &Small, 6, &[], false));
/// ```
pub fn alphabeta<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    repetition: Repetition,
) -> (i32, u64) {
    assert_eq!(game.players(), 2, "the check is for two-player games");
    let mut ctx = Ctx {
        eval,
        root: game.to_move(),
        rule: game.repetition_rule().map(|(_, o)| o),
        repetition,
        path: Vec::new(),
        nodes: 0,
        order: vec![(0, None); 1 << ORDER_BITS],
    };
    let mut v = ab(&mut ctx, game, 0, 0, -WIN - 1, WIN + 1);
    for d in 1..=depth {
        v = ab(&mut ctx, game, d, 0, -WIN - 1, WIN + 1);
    }
    (v, ctx.nodes)
}

/// Minimax from the root player's view with alpha-beta bounds (fail-soft).
fn ab<G: Game, E: Evaluator<G>>(
    ctx: &mut Ctx<'_, G, E>,
    g: &G,
    depth: u32,
    ply: usize,
    mut alpha: i32,
    mut beta: i32,
) -> i32 {
    ctx.nodes += 1;
    if ctx.repetition == Repetition::FirstRecurrence && ply > 0 {
        if let Some(rule) = ctx.rule {
            if ctx.path.contains(&g.repetition_key()) {
                return outcome_value(rule, ctx.root);
            }
        }
    }
    if let Some(o) = g.outcome() {
        return outcome_value(o, ctx.root);
    }
    if depth == 0 {
        return ctx.eval.evaluate(g)[ctx.root];
    }
    let maximise = g.to_move() == ctx.root;
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    let hint = ctx.best_move(g.key());
    // Children with their ordering keys, best first for the player to move.
    let mut children: SmallVec<[(i32, G::Move, G); 8]> = moves
        .iter()
        .map(|&m| {
            let mut c = g.clone();
            c.play(m);
            let v = match c.outcome() {
                Some(o) => outcome_value(o, ctx.root),
                None => ctx.eval.evaluate(&c)[ctx.root],
            };
            let key = if Some(m) == hint {
                i32::MIN
            } else if maximise {
                -v
            } else {
                v
            };
            (key, m, c)
        })
        .collect();
    children.sort_unstable_by_key(|c| c.0);
    ctx.path.push(g.repetition_key());
    let mut best = if maximise { i32::MIN } else { i32::MAX };
    let mut best_move = children[0].1;
    for (_, m, c) in &children {
        let v = ab(ctx, c, depth - 1, ply + 1, alpha, beta);
        if (maximise && v > best) || (!maximise && v < best) {
            best = v;
            best_move = *m;
        }
        if maximise {
            alpha = alpha.max(v);
        } else {
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    ctx.path.pop();
    ctx.remember(g.key(), best_move);
    best
}
