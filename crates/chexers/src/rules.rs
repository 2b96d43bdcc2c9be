//! The rules of Chexers as the course referee plays them: [`Position`]'s [`Game`] contract
//! (legal moves, playing a move, the end, the keys, the repetition rule) and why a move is
//! illegal. The race leader's move comes from the race table (`race.rs`).

use search::{DrawKind, Game, MoveList, Outcome, Player};

use crate::action::Move;
use crate::board::{hex_distance, Bits, Hex, NEIGHBOUR};
use crate::notation::referee_name;
use crate::position::{
    z_exits, z_turns, Position, CONTACT_DISTANCE, EXITS_TO_WIN, PLAYERS, REPETITION_LIMIT,
    TURN_LIMIT,
};

impl Game for Position {
    type Move = Move;

    fn players(&self) -> usize {
        PLAYERS
    }

    fn to_move(&self) -> Player {
        self.to_move as Player
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        if self.outcome().is_none() {
            self.generate(out, false);
        }
    }

    fn play(&mut self, mv: Move) {
        let me = self.to_move as usize;
        match mv {
            Move::Move(a, b) => {
                self.toggle(me, a.index());
                self.toggle(me, b.index());
            }
            Move::Jump(a, b) => {
                self.toggle(me, a.index());
                self.toggle(me, b.index());
                if let Some(d) = a.direction_to(b, 2) {
                    let mid = NEIGHBOUR[a.index()][d] as usize;
                    if let Some(owner) = self.occupant(mid) {
                        if owner != me {
                            self.toggle(owner, mid);
                            self.toggle(me, mid);
                        }
                    }
                }
            }
            Move::Exit(a) => {
                self.toggle(me, a.index());
                self.exits[me] = self.exits[me].saturating_add(1);
            }
            Move::Pass => {}
        }
        self.end_turn();
    }

    /// The turn-limit draw first, then a 4th exit: the referee declares a draw found on the
    /// same action as a 4th exit (its `end()` reports the draw whenever one was detected).
    fn outcome(&self) -> Option<Outcome> {
        if self.turns as u32 >= TURN_LIMIT {
            return Some(Outcome::Draw(DrawKind::TurnLimit));
        }
        (0..PLAYERS)
            .find(|&p| self.exits[p] >= EXITS_TO_WIN)
            .map(Outcome::Win)
    }

    fn key(&self) -> u64 {
        self.board_key
            ^ z_exits(0, self.exits[0])
            ^ z_exits(1, self.exits[1])
            ^ z_exits(2, self.exits[2])
            ^ z_turns(self.turns as u32)
    }

    fn recompute_key(&self) -> u64 {
        self.compute_board_key()
            ^ z_exits(0, self.exits[0])
            ^ z_exits(1, self.exits[1])
            ^ z_exits(2, self.exits[2])
            ^ z_turns(self.turns as u32)
    }

    fn repetition_key(&self) -> u64 {
        self.board_key
    }

    fn repetition_rule(&self) -> Option<(u32, Outcome)> {
        Some((REPETITION_LIMIT, Outcome::Draw(DrawKind::Repetition)))
    }

    fn why_illegal(&self, mv: Move) -> Option<search::IllegalMove> {
        self.illegal_reason(mv).map(search::IllegalMove::new)
    }

    /// Passes the turn on (the turn count advances too, keeping `to_move == turns % 3`).
    fn skip_turn(&mut self) -> bool {
        self.end_turn();
        true
    }

    /// The race table's move when the player to move leads a race nobody can stop
    /// ([`race_move`](crate::race_move)): the race played exactly.
    fn table_move(&self) -> Option<Move> {
        crate::race::race_move(self)
    }

    /// Whether an opponent's piece is within [`CONTACT_DISTANCE`] steps of one of
    /// `player`'s pieces: one action to stand beside it, one to jump (either way).
    fn in_contact(&self, player: Player) -> bool {
        let own = self.pieces(player);
        let others = self.occupied() & !own;
        Bits(own).any(|c| Bits(others).any(|o| hex_distance(c, o) <= CONTACT_DISTANCE))
    }

    /// Jumps that convert an opponent's piece.
    fn noisy_moves(&self, out: &mut MoveList<Move>) {
        if self.outcome().is_none() {
            self.generate(out, true);
        }
    }
}

impl Position {
    /// Why `mv` is not legal here, in words; `None` if it is.
    fn illegal_reason(&self, mv: Move) -> Option<String> {
        if let Some(o) = self.outcome() {
            return Some(format!("the game is over ({o:?})"));
        }
        let me = self.to_move as usize;
        let who = referee_name(me);
        let own = |h: Hex| self.pieces[me] & h.bit() != 0;
        let occupied = |h: Hex| self.occupied() & h.bit() != 0;
        match mv {
            Move::Pass => {
                let mut moves = MoveList::new();
                self.generate(&mut moves, false);
                if moves[0] != Move::Pass {
                    return Some(format!(
                        "PASS is only allowed when {who} has no other action ({who} has {} legal actions)",
                        moves.len()
                    ));
                }
                None
            }
            Move::Exit(a) => {
                if !own(a) {
                    Some(format!(
                        "hex {} holds no piece of {who} (the side to move)",
                        Self::hex_text(a)
                    ))
                } else if !a.is_exit_for(me) {
                    Some(format!(
                        "hex {} is not an exit hex of {who}",
                        Self::hex_text(a)
                    ))
                } else {
                    None
                }
            }
            Move::Move(a, b) | Move::Jump(a, b) => {
                let jump = matches!(mv, Move::Jump(..));
                if !own(a) {
                    return Some(format!(
                        "hex {} holds no piece of {who} (the side to move)",
                        Self::hex_text(a)
                    ));
                }
                let dist = if jump { 2 } else { 1 };
                let Some(d) = a.direction_to(b, dist) else {
                    return Some(if jump {
                        format!(
                            "a jump goes two hexes along a line; {} is not two hexes from {} in a straight line",
                            Self::hex_text(b),
                            Self::hex_text(a)
                        )
                    } else {
                        format!(
                            "hex {} is not adjacent to {}",
                            Self::hex_text(b),
                            Self::hex_text(a)
                        )
                    });
                };
                if occupied(b) {
                    return Some(format!("hex {} is occupied", Self::hex_text(b)));
                }
                if jump {
                    let mid = Hex::raw(NEIGHBOUR[a.index()][d]);
                    if !occupied(mid) {
                        return Some(format!(
                            "there is no piece on {} to jump over (a MOVE goes to an adjacent hex)",
                            Self::hex_text(mid)
                        ));
                    }
                }
                None
            }
        }
    }
}
