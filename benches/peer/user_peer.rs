//! The benchmark games a user would write (Connect Four, Othello, Breakthrough), searched by
//! the `minimax` crate: its `Game` and `Evaluator` traits implemented once over the games'
//! own positions (the rules are written once, in `connect_four` and `example_games`), with
//! the same evaluation as the engine's. With `COUNT`, every
//! move applied is counted on the calling thread ([`applied`]): the peer's node count, for
//! an untimed run.
//!
//! Included with `#[path]` by the report and the tests (it is no part of the library:
//! `benches`' own code does not name the peer).

#![allow(dead_code)]

use std::cell::Cell;
use std::marker::PhantomData;

use example_games::{breakthrough, othello};
use minimax::{Evaluation, Winner};
use plyforge::search::{Game, MoveList, Outcome};

/// What the peer needs of a game beyond the rules.
pub trait PeerGame: Game + Copy + Send + Sync {
    /// The evaluation from the side to move's view (the engine's, as the engine uses it).
    fn peer_eval(&self) -> i32;
    /// A number per move below [`PeerGame::MAX_INDEX`] (the peer's move tables).
    fn index(mv: Self::Move) -> u16;
    /// The largest [`PeerGame::index`].
    const MAX_INDEX: u16;
    /// A move number that no legal move has, for the peer's null move (a pass, played by
    /// [`Game::skip_turn`]), where the game can pass.
    const NULL: Option<Self::Move> = None;
}

/// The rules of `G` for the `minimax` crate.
pub struct Rules<G, const COUNT: bool>(PhantomData<G>);

thread_local! {
    static APPLIED: Cell<u64> = const { Cell::new(0) };
}

/// Moves applied on this thread by a counting [`Rules`] since the last call (which resets it).
pub fn applied() -> u64 {
    APPLIED.with(|c| c.replace(0))
}

fn winner<G: Game>(s: &G) -> Option<Winner> {
    s.outcome().map(|o| match o {
        Outcome::Win(p) if p == s.to_move() => Winner::PlayerToMove,
        Outcome::Win(_) => Winner::PlayerJustMoved,
        _ => Winner::Draw,
    })
}

impl<G: PeerGame, const COUNT: bool> minimax::Game for Rules<G, COUNT> {
    type S = G;
    type M = G::Move;

    fn generate_moves(s: &G, moves: &mut Vec<G::Move>) -> Option<Winner> {
        if let Some(w) = winner(s) {
            return Some(w);
        }
        let mut list: MoveList<G::Move> = MoveList::new();
        s.legal_moves(&mut list);
        moves.extend_from_slice(&list);
        None
    }

    fn apply(s: &mut G, m: G::Move) -> Option<G> {
        if COUNT {
            APPLIED.with(|c| c.set(c.get() + 1));
        }
        let mut next = *s;
        if G::NULL == Some(m) {
            next.skip_turn();
        } else {
            next.play(m);
        }
        Some(next)
    }

    fn null_move(s: &G) -> Option<G::Move> {
        let mut passed = *s;
        G::NULL.filter(|_| passed.skip_turn())
    }

    fn get_winner(s: &G) -> Option<Winner> {
        winner(s)
    }

    fn zobrist_hash(s: &G) -> u64 {
        s.key()
    }

    fn notation(_: &G, m: G::Move) -> Option<String> {
        Some(format!("{m:?}"))
    }

    fn table_index(m: G::Move) -> u16 {
        if G::NULL == Some(m) {
            0
        } else {
            G::index(m)
        }
    }

    fn max_table_index() -> u16 {
        G::MAX_INDEX
    }
}

/// The game's evaluation for the `minimax` crate.
pub struct Eval<G, const COUNT: bool>(PhantomData<G>);

impl<G, const COUNT: bool> Default for Eval<G, COUNT> {
    fn default() -> Self {
        Eval(PhantomData)
    }
}

impl<G, const COUNT: bool> Clone for Eval<G, COUNT> {
    fn clone(&self) -> Self {
        Eval(PhantomData)
    }
}

impl<G: PeerGame, const COUNT: bool> minimax::Evaluator for Eval<G, COUNT> {
    type G = Rules<G, COUNT>;

    fn evaluate(&self, s: &G) -> Evaluation {
        s.peer_eval() as Evaluation
    }

    /// The game's noisy moves ([`Game::noisy_moves`]), for the peer's quiescence search.
    fn generate_noisy_moves(&self, s: &G, moves: &mut Vec<G::Move>) {
        let mut list: MoveList<G::Move> = MoveList::new();
        s.noisy_moves(&mut list);
        moves.extend_from_slice(&list);
    }
}

/// A `minimax` crate root value on the engine's scale: a win (of any length) is
/// `plyforge::search::MATE`, a loss `-MATE`; the rest the evaluation.
pub fn peer_to_engine(v: Evaluation) -> i32 {
    if v > minimax::BEST_EVAL - 1000 {
        plyforge::search::MATE
    } else if v < minimax::WORST_EVAL + 1000 {
        -plyforge::search::MATE
    } else {
        v as i32
    }
}

impl PeerGame for connect_four::Position {
    fn peer_eval(&self) -> i32 {
        connect_four::evaluate(self)
    }
    fn index(mv: connect_four::Move) -> u16 {
        mv.index() as u16
    }
    const MAX_INDEX: u16 = 6;
}

impl PeerGame for othello::Othello {
    fn peer_eval(&self) -> i32 {
        othello::evaluate(self)
    }
    fn index(mv: othello::Move) -> u16 {
        mv.index() as u16
    }
    const MAX_INDEX: u16 = othello::Move::INDICES as u16 - 1;
}

impl PeerGame for breakthrough::Breakthrough {
    fn peer_eval(&self) -> i32 {
        breakthrough::evaluate(self)
    }
    fn index(mv: breakthrough::Move) -> u16 {
        mv.index() as u16
    }
    const MAX_INDEX: u16 = breakthrough::Move::INDICES as u16 - 1;
    /// a1-a1: two squares, but no step.
    const NULL: Option<breakthrough::Move> = breakthrough::Move::new(0, 0);
}
