//! A node's moves and where each is played. Usually that is the player's own moves from the
//! node itself; at best-reply search's opponents' layer (Schadd & Winands 2011) it is every
//! opponent's moves, each from its position in the reply chain (the node with the turns
//! before it skipped), after which the remaining opponents skip their turns.

use smallvec::SmallVec;

use crate::game::{Game, MoveList, Player};

/// The positions from which the opponents of `root` may reply at `g`: `g` itself, then `g`
/// with turns skipped, until the root player would move or a turn cannot be skipped.
pub(crate) fn reply_chain<G: Game>(g: &G, root: Player) -> SmallVec<[G; 3]> {
    let mut out: SmallVec<[G; 3]> = smallvec::smallvec![g.clone()];
    while out.len() < g.players() {
        let mut next = out.last().expect("not empty").clone();
        if !next.skip_turn() || next.to_move() == root || next.outcome().is_some() {
            break;
        }
        out.push(next);
    }
    out
}

/// After an opponent's reply in best-reply search: skip the turns of the other opponents.
pub(crate) fn forward<G: Game>(g: &mut G, root: Player) {
    let mut guard = 0;
    while g.to_move() != root && g.outcome().is_none() && guard < G::players(g) {
        if !g.skip_turn() {
            break;
        }
        guard += 1;
    }
}

/// Where the moves of one node of the alpha-beta family are played from: the node itself,
/// or at best-reply search's opponents' layer the positions of the reply chain. A view over
/// the lists [`generate`] fills, which the node keeps on its own stack (the lists are big:
/// moved as one value they would be copied at every node).
pub(crate) struct NodeMoves<'a, G: Game> {
    /// At an opponents' layer, the reply chain; else empty.
    chain: &'a [G],
    /// At an opponents' layer, the chain position of each move.
    from: &'a [u8],
    /// Whether this is best-reply search's opponents' layer.
    opponents_layer: bool,
    /// The root player (whom the opponents reply to).
    root: Player,
}

/// The moves of `pos` into `moves`: its player's, or at an opponents' layer every
/// opponent's, each opponent's from its position of the reply chain (into `chain`, with
/// `from` the chain position of each move). Returns the view that tells where each move is
/// played.
#[inline(always)]
pub(crate) fn generate<'a, G: Game>(
    pos: &G,
    opponents_layer: bool,
    root: Player,
    chain: &'a mut SmallVec<[G; 3]>,
    from: &'a mut SmallVec<[u8; 128]>,
    moves: &mut MoveList<G::Move>,
) -> NodeMoves<'a, G> {
    if opponents_layer {
        *chain = reply_chain(pos, root);
        for (k, p) in chain.iter().enumerate() {
            p.legal_moves(moves);
            from.resize(moves.len(), k as u8);
        }
    } else {
        pos.legal_moves(moves);
    }
    NodeMoves {
        chain,
        from,
        opponents_layer,
        root,
    }
}

impl<'a, G: Game> NodeMoves<'a, G> {
    /// Whether this is best-reply search's opponents' layer.
    #[inline(always)]
    pub fn opponents_layer(&self) -> bool {
        self.opponents_layer
    }

    /// The position where move `i` is played (`pos`: the node).
    #[inline(always)]
    pub fn at<'p>(&'p self, pos: &'p G, i: usize) -> &'p G {
        if self.opponents_layer {
            &self.chain[self.from[i] as usize]
        } else {
            pos
        }
    }

    /// Makes `child` the position after move `i` (`moves`: the node's moves). A child is
    /// played where it is kept: copied as a whole right after `play` wrote its fields one by
    /// one, it would wait for those writes to complete (a store-to-load forwarding failure:
    /// 7% of negamax's samples at Jumpy3 depth 24).
    #[inline(always)]
    pub fn play_child(&self, pos: &G, moves: &[G::Move], i: usize, child: &mut G) {
        child.play_from(self.at(pos, i), moves[i]);
        if self.opponents_layer {
            forward(child, self.root);
        }
    }
}
