//! The sparse network ([`learn::sparse`], NNUE's shape) as an evaluation: it reads the
//! game's active features ([`Encoding::features`](crate::encoding::Encoding::features))
//! from one view (the player to move's) or one per player (the mover's first, then the
//! others in turn order), through the integer network ([`QuantNet`]) shared by every
//! thread, each search thread keeping its own accumulators.
//!
//! **Per thread** (thread-local, so that nothing is shared between the threads of a
//! search and nothing is allocated at a leaf once the first leaves have grown the buffers):
//! for each player to move, an accumulator ([`SparseAccumulator`]) and the position it was
//! last brought to. A leaf whose player to move is `m` goes on from `m`'s last position:
//! when the game says what changed between the two
//! ([`Encoding::feature_changes`](crate::encoding::Encoding::feature_changes): the xor of
//! bitboards), the accumulator moves by those rows alone
//! ([`QuantNet::evaluate_after`]); otherwise the views' lists are written into reused
//! buffers and the accumulator finds the change itself ([`QuantNet::evaluate`]). One
//! accumulator per player to move keeps the views of consecutive leaves near each other
//! (a search's leaves alternate between the players where quiescence or passes change
//! their depth). The sums are the same bits whatever path made them, so **an evaluation is
//! a function of its position alone**.

use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;

use learn::sparse::{Delta, QuantNet, SparseAccumulator, SparseNet};
use search::{DrawKind, Evaluator, Game, Player, Scores, MAX_PLAYERS};

use super::base::{
    draw_score, draw_scores_of, encoding, in_player_order, round, scores_of, NetError,
    ASPIRATION_WINDOW, MARGIN, SCALE,
};
use crate::adapter::{Encoded, FeatureChanges, GameAdapter};

/// The most rows a view's changes may move its sums by before the lists are read instead
/// (a refresh costs a row per active feature: a few dozen).
const MOST_ROWS: usize = 24;

/// The most networks whose per-thread state a thread keeps at once.
const KEPT: usize = 8;

/// A sparse network as an evaluation of game `A` (how it keeps its sums per search thread: [`crate::learned`]).
pub struct SparseEval<A: GameAdapter> {
    net: Arc<SparseNet>,
    quant: Arc<QuantNet>,
    encoded: Encoded<A>,
    /// 1 (the mover's view) or the number of players.
    perspectives: usize,
    /// The game's default evaluation, for move-ordering hints.
    hints: A::Eval,
    /// What a draw scores for every player (three or more players).
    draw: i32,
}

impl<A: GameAdapter> Clone for SparseEval<A> {
    fn clone(&self) -> Self {
        SparseEval {
            net: Arc::clone(&self.net),
            quant: Arc::clone(&self.quant),
            encoded: self.encoded,
            perspectives: self.perspectives,
            hints: self.hints.clone(),
            draw: self.draw,
        }
    }
}

/// Checks that `net` is a sparse network of `A`: its name, `A`'s number of features, one
/// view or one per player, one output per player, its draw note.
pub fn check_sparse<A: GameAdapter>(net: &SparseNet) -> Result<(), NetError> {
    let e = encoding::<A>()?;
    let p = net.shape().perspectives;
    let perspectives = if p == 1 { 1 } else { A::PLAYERS };
    net.check_for(A::NAME, e.features, perspectives, A::PLAYERS)?;
    draw_score::<A>(net.notes())?;
    Ok(())
}

impl<A: GameAdapter> SparseEval<A> {
    /// The evaluation of `net`, which must be `A`'s ([`check_sparse`]); its integer twin
    /// is made here ([`SparseNet::quantize`]).
    pub fn new(net: SparseNet) -> Result<Self, NetError> {
        let quant = Arc::new(net.quantize().0);
        SparseEval::shared(Arc::new(net), quant)
    }

    /// The evaluation of a shared network and its integer twin, checked as
    /// [`SparseEval::new`] checks.
    pub fn shared(net: Arc<SparseNet>, quant: Arc<QuantNet>) -> Result<Self, NetError> {
        check_sparse::<A>(&net)?;
        Ok(SparseEval {
            encoded: encoding::<A>()?,
            perspectives: net.shape().perspectives,
            draw: draw_score::<A>(net.notes())?,
            net,
            quant,
            hints: A::default_eval(),
        })
    }

    /// The float network (as in its file).
    pub fn net(&self) -> &SparseNet {
        &self.net
    }

    /// The integer network the searches use.
    pub fn quant(&self) -> &QuantNet {
        &self.quant
    }

    /// Its views: 1 (the player to move's) or one per player.
    pub fn perspectives(&self) -> usize {
        self.perspectives
    }

    /// Writes the views' features of `pos` into `views` (one list a view, each cleared
    /// first): the player to move's, then, with one view per player, the others' in turn
    /// order. What the network reads, and what its training stores of a position.
    pub fn write_views(&self, pos: &A::Pos, views: &mut [Vec<u32>]) {
        let me = pos.to_move();
        for (k, view) in views.iter_mut().enumerate().take(self.perspectives) {
            self.encoded
                .write_features(pos, (me + k) % A::PLAYERS, view);
        }
    }

    /// The network's values of `pos` (−1 … 1, the integer network's), one per player in
    /// the players' own order (entries past the game's players are 0).
    pub fn values(&self, pos: &A::Pos) -> [f32; MAX_PLAYERS] {
        let me = pos.to_move();
        let out = with_leaves::<A, _>(&self.quant, |leaves| self.leaf(pos, me, leaves));
        in_player_order::<A>(&out[..A::PLAYERS], me)
    }

    /// The outputs of `pos` (counted from `me`, the player to move), with this thread's
    /// state.
    #[inline]
    fn leaf(&self, pos: &A::Pos, me: Player, leaves: &mut Leaves<A::Pos>) -> [f32; MAX_PLAYERS] {
        let mut out = [0.0f32; MAX_PLAYERS];
        let outputs = &mut out[..A::PLAYERS];
        let pp = self.perspectives;
        let Leaves {
            movers,
            lists,
            changes,
            ..
        } = leaves;
        let mover = &mut movers[me];
        if let Some(last) = &mover.last {
            if pp == 1 {
                // The mover's view alone: the path of most searches, kept short.
                let c = &mut changes[0];
                if self.encoded.feature_changes(last, pos, me, c) && c.len() <= MOST_ROWS {
                    let delta = [Delta {
                        added: c.added(),
                        removed: c.removed(),
                    }];
                    self.quant.evaluate_after(&delta, &mut mover.acc, outputs);
                    mover.remember(pos);
                    return out;
                }
            } else {
                let known = (0..pp).all(|k| {
                    let player = (me + k) % A::PLAYERS;
                    self.encoded
                        .feature_changes(last, pos, player, &mut changes[k])
                        && changes[k].len() <= MOST_ROWS
                });
                if known {
                    let deltas: [Delta<'_>; MAX_PLAYERS] =
                        std::array::from_fn(|k| match changes.get(k) {
                            Some(c) if k < pp => Delta {
                                added: c.added(),
                                removed: c.removed(),
                            },
                            _ => Delta::default(),
                        });
                    self.quant
                        .evaluate_after(&deltas[..pp], &mut mover.acc, outputs);
                    mover.remember(pos);
                    return out;
                }
            }
        }
        for (k, list) in lists.iter_mut().enumerate().take(pp) {
            self.encoded
                .write_features(pos, (me + k) % A::PLAYERS, list);
        }
        self.quant.evaluate(&lists[..pp], &mut mover.acc, outputs);
        mover.remember(pos);
        out
    }
}

/// One player to move's accumulator and the position it holds.
struct Mover<P> {
    acc: SparseAccumulator,
    last: Option<P>,
}

impl<P: Clone> Mover<P> {
    #[inline]
    fn remember(&mut self, pos: &P) {
        match &mut self.last {
            Some(last) => last.clone_from(pos),
            None => self.last = Some(pos.clone()),
        }
    }
}

/// A thread's state for one network: an accumulator per player to move, and the buffers
/// of the views' lists and changes.
struct Leaves<P> {
    /// The network's identity ([`QuantNet::id`]).
    net: u64,
    movers: Vec<Mover<P>>,
    lists: Vec<Vec<u32>>,
    changes: Vec<FeatureChanges>,
}

impl<P> Leaves<P> {
    fn new(net: &QuantNet, players: usize) -> Leaves<P> {
        let views = net.shape().perspectives;
        Leaves {
            net: net.id(),
            movers: (0..players)
                .map(|_| Mover {
                    acc: SparseAccumulator::new(),
                    last: None,
                })
                .collect(),
            lists: (0..views).map(|_| Vec::with_capacity(64)).collect(),
            changes: vec![FeatureChanges::new(); views],
        }
    }
}

thread_local! {
    /// Each thread's [`Leaves`] of the networks it evaluated last (most recent first), of
    /// any game's position type.
    static LEAVES: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's state for `net` (made, or moved to the front, as needed).
#[inline]
fn with_leaves<A: GameAdapter, R>(net: &QuantNet, f: impl FnOnce(&mut Leaves<A::Pos>) -> R) -> R {
    LEAVES.with(|cell| {
        let mut all = cell.borrow_mut();
        let id = net.id();
        // The front entry is this network's nearly always: one look at its type.
        if let Some(leaves) = all
            .first_mut()
            .and_then(|b| b.downcast_mut::<Leaves<A::Pos>>())
            .filter(|l| l.net == id)
        {
            return f(leaves);
        }
        let mine = |b: &Box<dyn Any>| {
            b.downcast_ref::<Leaves<A::Pos>>()
                .is_some_and(|l| l.net == id)
        };
        match all.iter().position(mine) {
            Some(i) => {
                let found = all.remove(i);
                all.insert(0, found);
            }
            None => {
                all.truncate(KEPT - 1);
                all.insert(0, Box::new(Leaves::<A::Pos>::new(net, A::PLAYERS)));
            }
        }
        let leaves = all[0]
            .downcast_mut::<Leaves<A::Pos>>()
            .expect("the front entry is this network's");
        f(leaves)
    })
}

impl<A: GameAdapter> Evaluator<A::Pos> for SparseEval<A> {
    #[inline]
    fn evaluate(&self, pos: &A::Pos) -> Scores {
        let me = pos.to_move();
        let out = with_leaves::<A, _>(&self.quant, |leaves| self.leaf(pos, me, leaves));
        if A::PLAYERS == 2 {
            // The mover's (v₀ − v₁) / 2, without turning the outputs round first.
            let s = round((out[0] - out[1]) * (SCALE / 2.0));
            let mut scores = [0; MAX_PLAYERS];
            scores[me] = s;
            scores[1 - me] = -s;
            return scores;
        }
        scores_of::<A>(in_player_order::<A>(&out[..A::PLAYERS], me))
    }

    fn aspiration_window(&self) -> i32 {
        ASPIRATION_WINDOW
    }

    fn margin(&self) -> i32 {
        MARGIN
    }

    fn move_hint(&self, pos: &A::Pos, mv: A::Move) -> i32 {
        self.hints.move_hint(pos, mv)
    }

    fn draw_scores(&self, _pos: &A::Pos, _kind: DrawKind) -> Scores {
        draw_scores_of::<A>(self.draw)
    }
}
