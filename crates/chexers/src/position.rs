//! The position: board, player to move, exit counts, turn count, its Zobrist keys and its
//! move generation. The rules (the [`Game`] contract) are in `rules.rs`, the notation in
//! `notation.rs`.

#[cfg(doc)]
use search::Game;
use search::{MoveList, Player};

use crate::action::Move;
use crate::board::{Bits, Hex, ALL, CELLS, EXIT_HEXES, LANDING, NEIGHBOUR, NONE, START};

/// Number of players.
pub const PLAYERS: usize = 3;

/// Exits a player needs to win.
pub const EXITS_TO_WIN: u8 = 4;

/// Turns (all players, passes included) after which the game is drawn: each player's 256th.
pub const TURN_LIMIT: u32 = 768;

/// The repetition rule: the 4th occurrence of a position draws.
pub const REPETITION_LIMIT: u32 = 4;

/// [`Position::key`](Game::key) includes the exact turn count only from this many turns
/// before [`TURN_LIMIT`] on (see [`Position`]).
pub const TURN_KEY_WINDOW: u32 = 60;

/// The distance in steps within which two pieces are in contact ([`Game::in_contact`]): a
/// piece three steps away can stand beside another in one action (a jump covers two steps)
/// and jump it with the next.
pub const CONTACT_DISTANCE: u32 = 3;

/// A Chexers position: which hexes hold which colour, the player to move, each player's exit
/// count and the number of turns played so far.
///
/// Invariant: the player to move is `turns % 3` (Red moves on turns 0, 3, 6, …), as in the
/// course referee, which derives the player from its turn counter.
///
/// # Keys
/// - [`repetition_key`](Game::repetition_key): the board and the player to move only, as the
///   referee's repetition rule sees it (pieces of one colour are interchangeable; exit counts and
///   the turn count are not part of it).
/// - [`key`](Game::key): everything that decides the value: the repetition key, the exit counts,
///   and the exact turn count once the game is within [`TURN_KEY_WINDOW`] (60) turns of the
///   768-turn draw. Earlier the turn count is left out on purpose, so that the transposition
///   table can share positions reached at different turn counts; the only difference between
///   them is how far away the turn-limit draw lies, which no search of a few dozen plies can see.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pieces: [u64; PLAYERS],
    pub(crate) exits: [u8; PLAYERS],
    pub(crate) to_move: u8,
    pub(crate) turns: u16,
    /// Zobrist key of the pieces and the player to move, updated incrementally.
    pub(crate) board_key: u64,
}

/// Zobrist keys: 3 × 37 pieces, 3 players to move, 3 × 5 exit counts, 61 turn counts.
const ZOBRIST_LEN: usize = PLAYERS * CELLS + PLAYERS + PLAYERS * 5 + TURN_KEY_WINDOW as usize + 1;

const fn build_zobrist() -> [u64; ZOBRIST_LEN] {
    let mut out = [0u64; ZOBRIST_LEN];
    let mut state = 0x00C4_E8E5_2019_0001u64;
    let mut i = 0;
    while i < ZOBRIST_LEN {
        out[i] = search::rng::splitmix64(state);
        state = state.wrapping_add(search::rng::GOLDEN_GAMMA);
        i += 1;
    }
    out
}

const ZOBRIST: [u64; ZOBRIST_LEN] = build_zobrist();

#[inline]
pub(crate) fn z_piece(player: usize, cell: usize) -> u64 {
    ZOBRIST[player * CELLS + cell]
}
#[inline]
pub(crate) fn z_to_move(player: usize) -> u64 {
    ZOBRIST[PLAYERS * CELLS + player]
}
#[inline]
pub(crate) fn z_exits(player: usize, count: u8) -> u64 {
    // Count 0 contributes nothing, so the start's key is the board key.
    if count == 0 {
        0
    } else {
        ZOBRIST[PLAYERS * CELLS + PLAYERS + player * 5 + count.min(4) as usize]
    }
}
#[inline]
pub(crate) fn z_turns(turns: u32) -> u64 {
    if turns + TURN_KEY_WINDOW >= TURN_LIMIT {
        let i = (turns + TURN_KEY_WINDOW - TURN_LIMIT).min(TURN_KEY_WINDOW) as usize;
        ZOBRIST[PLAYERS * CELLS + PLAYERS + PLAYERS * 5 + i]
    } else {
        0
    }
}

impl Position {
    /// The start position: `gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 0`.
    pub fn start() -> Position {
        let mut pieces = [0u64; PLAYERS];
        for (p, hexes) in START.iter().enumerate() {
            for &(q, r) in hexes {
                if let Some(h) = Hex::new(q, r) {
                    pieces[p] |= h.bit();
                }
            }
        }
        Position::from_parts(pieces, [0; PLAYERS], 0)
    }

    pub(crate) fn from_parts(pieces: [u64; PLAYERS], exits: [u8; PLAYERS], turns: u16) -> Position {
        let mut pos = Position {
            pieces,
            exits,
            to_move: (turns % 3) as u8,
            turns,
            board_key: 0,
        };
        pos.board_key = pos.compute_board_key();
        pos
    }

    pub(crate) fn compute_board_key(&self) -> u64 {
        let mut k = z_to_move(self.to_move as usize);
        for p in 0..PLAYERS {
            for c in Bits(self.pieces[p]) {
                k ^= z_piece(p, c);
            }
        }
        k
    }

    /// The player whose piece stands on `hex`, if any.
    pub fn piece_at(&self, hex: Hex) -> Option<Player> {
        (0..PLAYERS).find(|&p| self.pieces[p] & hex.bit() != 0)
    }

    /// Bitboard of `player`'s pieces (bit i: hex with index i, see [`Hex::index`]).
    pub fn pieces(&self, player: Player) -> u64 {
        self.pieces[player]
    }

    /// Bitboard of all occupied hexes.
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1] | self.pieces[2]
    }

    /// Exits `player` has made.
    pub fn exits(&self, player: Player) -> u32 {
        self.exits[player] as u32
    }

    /// Turns played so far (passes included).
    pub fn turns(&self) -> u32 {
        self.turns as u32
    }

    /// The player who moves after `player`.
    pub fn next_player(player: Player) -> Player {
        (player + 1) % PLAYERS
    }

    /// Pushes every legal action of the side to move (the position is assumed not over).
    pub(crate) fn generate(&self, out: &mut MoveList<Move>, noisy_only: bool) {
        let me = self.to_move as usize;
        let own = self.pieces[me];
        let occ = self.occupied();
        let empty = ALL & !occ;
        let start = out.len();
        if !noisy_only {
            for c in Bits(own & EXIT_HEXES[me]) {
                out.push(Move::Exit(Hex::raw(c as u8)));
            }
        }
        // Jumps first, then moves: a useful order for the search.
        for c in Bits(own) {
            for d in 0..6 {
                let n = NEIGHBOUR[c][d];
                if n == NONE || occ & (1u64 << n) == 0 {
                    continue;
                }
                let l = LANDING[c][d];
                if l != NONE && empty & (1u64 << l) != 0 && (!noisy_only || own & (1u64 << n) == 0)
                {
                    out.push(Move::Jump(Hex::raw(c as u8), Hex::raw(l)));
                }
            }
        }
        if noisy_only {
            return;
        }
        for c in Bits(own) {
            for &n in &NEIGHBOUR[c] {
                if n != NONE && empty & (1u64 << n) != 0 {
                    out.push(Move::Move(Hex::raw(c as u8), Hex::raw(n)));
                }
            }
        }
        if out.len() == start {
            out.push(Move::Pass);
        }
    }

    /// Number of legal actions of `player` if it were to move (a forced pass counts 0).
    pub fn mobility(&self, player: Player) -> u32 {
        let own = self.pieces[player];
        let occ = self.occupied();
        let empty = ALL & !occ;
        let mut n = (own & EXIT_HEXES[player]).count_ones();
        for c in Bits(own) {
            for d in 0..6 {
                let a = NEIGHBOUR[c][d];
                if a == NONE {
                    continue;
                }
                if empty & (1u64 << a) != 0 {
                    n += 1;
                } else {
                    let l = LANDING[c][d];
                    if l != NONE && empty & (1u64 << l) != 0 {
                        n += 1;
                    }
                }
            }
        }
        n
    }

    #[inline]
    pub(crate) fn toggle(&mut self, player: usize, cell: usize) {
        self.pieces[player] ^= 1u64 << cell;
        self.board_key ^= z_piece(player, cell);
    }

    pub(crate) fn end_turn(&mut self) {
        let me = self.to_move as usize;
        let next = Position::next_player(me);
        self.board_key ^= z_to_move(me) ^ z_to_move(next);
        self.to_move = next as u8;
        self.turns += 1;
    }

    pub(crate) fn occupant(&self, cell: usize) -> Option<usize> {
        (0..PLAYERS).find(|&p| self.pieces[p] & (1u64 << cell) != 0)
    }

    pub(crate) fn hex_text(h: Hex) -> String {
        format!("({}, {})", h.q(), h.r())
    }
}
