//! Brute-force reference searches: the definitions that the fast searches must match.
//!
//! Every function here visits the whole tree to the given depth, without pruning, tables or
//! move ordering, and scores positions exactly as the engine does:
//! - a terminal position, `ply` plies from the root, scores [`outcome_score`](crate::outcome_score), except that
//!   a drawn one scores the evaluation's [`Evaluator::draw_scores`] for it (clamped to
//!   ±[`crate::MAX_EVAL`]);
//! - a position whose [`Game::repetition_key`] already occurred on the path from the root
//!   (the root included) or in `history` scores the outcome of the game's
//!   [`Game::repetition_rule`] (its first recurrence ends the game; a drawing rule scores
//!   the repeated position's [`Evaluator::draw_scores`]), checked before the position's own
//!   outcome, as [`crate::Record`] does;
//! - at depth 0 a position is evaluated with the [`Evaluator`], or, with `quiescence`, by
//!   quiescence search: the player to move may "stand pat" on the static value or play one of
//!   the [`Game::noisy_moves`], for at most [`MAX_QUIESCENCE_PLY`] plies;
//! - positions [`MAX_PLY`] plies from the root are evaluated statically.
//!
//! They are exponential and meant for tests: use them to check the engine on your own game
//! at small depths.

use crate::brs::{forward, reply_chain};
use crate::game::{Evaluator, Game, MoveList, Outcome, Player, Scores};
use crate::score::{end_score, end_scores, masked, MAX_PLY, MAX_QUIESCENCE_PLY};

struct Ctx<'a, E> {
    eval: &'a E,
    root: Player,
    rule: Option<Outcome>,
    history: &'a [u64],
    path: Vec<u64>,
    quiescence: bool,
}

impl<E> Ctx<'_, E> {
    fn new<'a, G: Game>(game: &G, eval: &'a E, history: &'a [u64], q: bool) -> Ctx<'a, E> {
        Ctx {
            eval,
            root: game.to_move(),
            rule: game.repetition_rule().map(|(_, o)| o),
            history,
            path: Vec::new(),
            quiescence: q,
        }
    }

    /// The repetition outcome if `g` repeats an earlier position.
    fn repeated<G: Game>(&self, g: &G, ply: usize) -> Option<Outcome> {
        let rule = self.rule?;
        let k = g.repetition_key();
        (ply > 0 && (self.path.contains(&k) || self.history.contains(&k))).then_some(rule)
    }
}

/// The end of the game at `g`, by repetition first, then by the position.
fn ended<G: Game, E>(ctx: &Ctx<'_, E>, g: &G, ply: usize) -> Option<Outcome> {
    ctx.repeated(g, ply).or_else(|| g.outcome())
}

fn moves<G: Game>(g: &G) -> MoveList<G::Move> {
    let mut m = MoveList::new();
    g.legal_moves(&mut m);
    m
}

fn noisy<G: Game>(g: &G) -> MoveList<G::Move> {
    let mut m = MoveList::new();
    g.noisy_moves(&mut m);
    m
}

/// Fixed-depth minimax value of `game` from the view of the player to move, for two-player
/// zero-sum games; with three players it is [`paranoid`].
pub fn minimax<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    history: &[u64],
    quiescence: bool,
) -> i32 {
    paranoid(game, eval, depth, history, quiescence)
}

/// Fixed-depth paranoid value: the player to move at the root maximises its own score
/// (evaluation component and [`outcome_score`](crate::outcome_score)), every other player minimises it.
pub fn paranoid<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    history: &[u64],
    quiescence: bool,
) -> i32 {
    let mut ctx = Ctx::new(game, eval, history, quiescence);
    minmax(&mut ctx, game, depth, 0, false)
}

/// Fixed-depth value of the directed offensive against `target` ([`crate::Config::offensive`]):
/// `target` maximises its own score (evaluation component and
/// [`outcome_score`](crate::outcome_score)), every other player minimises it, as in
/// [`paranoid`] with `target` in the root player's place. The value is from the view of the
/// player to move at the root: the target's score negated, or the target's own score when
/// the target is to move (then it is [`paranoid`]).
pub fn offensive<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    history: &[u64],
    quiescence: bool,
    target: Player,
) -> i32 {
    let mut ctx = Ctx::new(game, eval, history, quiescence);
    ctx.root = target;
    let v = minmax(&mut ctx, game, depth, 0, false);
    if game.to_move() == target {
        v
    } else {
        -v
    }
}

/// Fixed-depth best-reply value (Schadd & Winands 2011): the root player maximises; at the
/// other players' turns the opponents, taken together, make one move: every move of every
/// opponent (reached by [`Game::skip_turn`] from the player to move until the root player's
/// turn) is tried, the one worst for the root player counts, and after it the remaining
/// opponents skip their turns. Where a turn cannot be skipped the search proceeds as in
/// [`paranoid`]. One such merged opponent layer counts as one ply.
pub fn best_reply<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    history: &[u64],
    quiescence: bool,
) -> i32 {
    let mut ctx = Ctx::new(game, eval, history, quiescence);
    minmax(&mut ctx, game, depth, 0, true)
}

fn minmax<G: Game, E: Evaluator<G>>(
    ctx: &mut Ctx<'_, E>,
    g: &G,
    depth: u32,
    ply: usize,
    brs: bool,
) -> i32 {
    if let Some(o) = ended(ctx, g, ply) {
        return end_score(ctx.eval, g, o, ctx.root, ply as u32);
    }
    if ply >= MAX_PLY {
        return ctx.eval.evaluate(g)[ctx.root];
    }
    if depth == 0 {
        return if ctx.quiescence {
            quiesce(ctx, g, ply, 0)
        } else {
            ctx.eval.evaluate(g)[ctx.root]
        };
    }
    let maximise = g.to_move() == ctx.root;
    let mut best = if maximise { i32::MIN } else { i32::MAX };
    ctx.path.push(g.repetition_key());
    let chain = if brs && !maximise {
        reply_chain(g, ctx.root)
    } else {
        smallvec::smallvec![g.clone()]
    };
    for p in &chain {
        for m in moves(p) {
            let mut c = p.clone();
            c.play(m);
            if brs && !maximise {
                forward(&mut c, ctx.root);
            }
            let v = minmax(ctx, &c, depth - 1, ply + 1, brs);
            best = if maximise { best.max(v) } else { best.min(v) };
        }
    }
    ctx.path.pop();
    best
}

fn quiesce<G: Game, E: Evaluator<G>>(ctx: &mut Ctx<'_, E>, g: &G, ply: usize, q: usize) -> i32 {
    if let Some(o) = ended(ctx, g, ply) {
        return end_score(ctx.eval, g, o, ctx.root, ply as u32);
    }
    let stand = ctx.eval.evaluate(g)[ctx.root];
    if ply >= MAX_PLY || q >= MAX_QUIESCENCE_PLY {
        return stand;
    }
    let maximise = g.to_move() == ctx.root;
    let mut best = stand;
    ctx.path.push(g.repetition_key());
    for m in noisy(g) {
        let mut c = g.clone();
        c.play(m);
        let v = quiesce(ctx, &c, ply + 1, q + 1);
        best = if maximise { best.max(v) } else { best.min(v) };
    }
    ctx.path.pop();
    best
}

/// Fixed-depth max^n value: one score per player; at every position the player to move picks
/// the child whose score for itself is highest, the first such child in legal-move order on
/// ties (in quiescence, standing pat comes first). Entries past `players()` are zero. The
/// horizon's scores are [`Evaluator::evaluate_for`] the player to move at the root.
pub fn maxn<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    history: &[u64],
    quiescence: bool,
) -> Scores {
    let mut ctx = Ctx::new(game, eval, history, quiescence);
    maxn_rec(&mut ctx, game, depth, 0)
}

fn maxn_rec<G: Game, E: Evaluator<G>>(
    ctx: &mut Ctx<'_, E>,
    g: &G,
    depth: u32,
    ply: usize,
) -> Scores {
    let n = g.players();
    if let Some(o) = ended(ctx, g, ply) {
        return end_scores(ctx.eval, g, o, n, ply);
    }
    if ply >= MAX_PLY || (depth == 0 && !ctx.quiescence) {
        return masked(ctx.eval.evaluate_for(g, ctx.root), n);
    }
    if depth == 0 {
        return maxn_quiesce(ctx, g, ply, 0);
    }
    let p = g.to_move();
    let mut best: Option<Scores> = None;
    ctx.path.push(g.repetition_key());
    for m in moves(g) {
        let mut c = g.clone();
        c.play(m);
        let v = maxn_rec(ctx, &c, depth - 1, ply + 1);
        if best.map_or(true, |b| v[p] > b[p]) {
            best = Some(v);
        }
    }
    ctx.path.pop();
    best.expect("a position that goes on has a move")
}

fn maxn_quiesce<G: Game, E: Evaluator<G>>(
    ctx: &mut Ctx<'_, E>,
    g: &G,
    ply: usize,
    q: usize,
) -> Scores {
    let n = g.players();
    if let Some(o) = ended(ctx, g, ply) {
        return end_scores(ctx.eval, g, o, n, ply);
    }
    let mut best = masked(ctx.eval.evaluate_for(g, ctx.root), n);
    if ply >= MAX_PLY || q >= MAX_QUIESCENCE_PLY {
        return best;
    }
    let p = g.to_move();
    ctx.path.push(g.repetition_key());
    for m in noisy(g) {
        let mut c = g.clone();
        c.play(m);
        let v = maxn_quiesce(ctx, &c, ply + 1, q + 1);
        if v[p] > best[p] {
            best = v;
        }
    }
    ctx.path.pop();
    best
}
