//! The position: board, player to move, exit counts, turn count; the rules; the notation.

use std::fmt;
use std::str::FromStr;

use search::{DrawKind, Game, MoveList, Outcome, Player};

use crate::action::Move;
use crate::board::{
    hex_distance, Bits, Hex, ALL, CELLS, COORDS, EXIT_HEXES, LANDING, NEIGHBOUR, NONE, START,
};

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
const LETTERS: [char; 3] = ['r', 'g', 'b'];

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
    pieces: [u64; PLAYERS],
    exits: [u8; PLAYERS],
    to_move: u8,
    turns: u16,
    /// Zobrist key of the pieces and the player to move, updated incrementally.
    board_key: u64,
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
fn z_piece(player: usize, cell: usize) -> u64 {
    ZOBRIST[player * CELLS + cell]
}
#[inline]
fn z_to_move(player: usize) -> u64 {
    ZOBRIST[PLAYERS * CELLS + player]
}
#[inline]
fn z_exits(player: usize, count: u8) -> u64 {
    // Count 0 contributes nothing, so the start's key is the board key.
    if count == 0 {
        0
    } else {
        ZOBRIST[PLAYERS * CELLS + PLAYERS + player * 5 + count.min(4) as usize]
    }
}
#[inline]
fn z_turns(turns: u32) -> u64 {
    if turns + TURN_KEY_WINDOW >= TURN_LIMIT {
        let i = (turns + TURN_KEY_WINDOW - TURN_LIMIT).min(TURN_KEY_WINDOW) as usize;
        ZOBRIST[PLAYERS * CELLS + PLAYERS + PLAYERS * 5 + i]
    } else {
        0
    }
}

/// Letter of a player in the notation and in result lines: 0 = `r`, 1 = `g`, 2 = `b`.
pub fn player_letter(p: Player) -> &'static str {
    ["r", "g", "b"].get(p).copied().unwrap_or("?")
}

/// The name of a player for people: `Red`, `Green`, `Blue`.
///
/// ```
/// assert_eq!(plyforge_chexers::player_name(2), "Blue");
/// ```
pub fn player_name(p: Player) -> &'static str {
    ["Red", "Green", "Blue"].get(p).copied().unwrap_or("?")
}

/// The name of a player as the course referee spells it in its messages: `red`, `green`,
/// `blue`.
pub(crate) fn referee_name(p: Player) -> &'static str {
    ["red", "green", "blue"].get(p).copied().unwrap_or("?")
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

    fn from_parts(pieces: [u64; PLAYERS], exits: [u8; PLAYERS], turns: u16) -> Position {
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

    fn compute_board_key(&self) -> u64 {
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
    fn generate(&self, out: &mut MoveList<Move>, noisy_only: bool) {
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
    fn toggle(&mut self, player: usize, cell: usize) {
        self.pieces[player] ^= 1u64 << cell;
        self.board_key ^= z_piece(player, cell);
    }

    fn end_turn(&mut self) {
        let me = self.to_move as usize;
        let next = Position::next_player(me);
        self.board_key ^= z_to_move(me) ^ z_to_move(next);
        self.to_move = next as u8;
        self.turns += 1;
    }

    fn occupant(&self, cell: usize) -> Option<usize> {
        (0..PLAYERS).find(|&p| self.pieces[p] & (1u64 << cell) != 0)
    }

    fn hex_text(h: Hex) -> String {
        format!("({}, {})", h.q(), h.r())
    }
}

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
    /// ([`DefaultEval::race_move`](crate::DefaultEval::race_move)): the race played
    /// exactly.
    fn table_move(&self) -> Option<Move> {
        crate::eval::DefaultEval::race_move(self)
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

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut row = COORDS[0].1;
        let mut s = String::with_capacity(64);
        for (c, &(_, r)) in COORDS.iter().enumerate() {
            if r != row {
                s.push('/');
                row = r;
            }
            s.push(match self.occupant(c) {
                Some(p) => LETTERS[p],
                None => '.',
            });
        }
        write!(
            f,
            "{} {} {},{},{} {}",
            s,
            LETTERS[self.to_move as usize],
            self.exits[0],
            self.exits[1],
            self.exits[2],
            self.turns
        )
    }
}

/// Why a text is not a position. Each variant names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// Not 4 space-separated fields (board, player to move, exits, turns).
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// Board field: not 7 rows separated by `/`.
    RowCount {
        /// Rows found.
        found: usize,
    },
    /// Board field: a row has the wrong number of hexes.
    RowLength {
        /// The row's r coordinate.
        r: i8,
        /// Hexes the row has.
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// Board field: a hex holds something other than `r`, `g`, `b`, `.`.
    BadHex {
        /// The hex's q.
        q: i8,
        /// The hex's r.
        r: i8,
        /// The character found.
        found: char,
    },
    /// Player-to-move field: not `r`, `g` or `b`.
    ToMove(String),
    /// Exits field: not three counts `R,G,B`.
    Exits(String),
    /// Exits field: a count above 4.
    ExitCount {
        /// Whose count.
        player: &'static str,
        /// The count.
        count: u32,
    },
    /// Exits field: more than one player has 4 exits (the game ends at the first).
    TwoWinners,
    /// Turns field: not a whole number.
    Turns(String),
    /// Turns field: beyond the 768-turn limit.
    TurnsBeyondLimit(u32),
    /// Turns field against player field: the player to move must be `turns % 3` (r, g, b).
    TurnMismatch {
        /// The player-to-move letter given.
        to_move: &'static str,
        /// The turn count given.
        turns: u32,
    },
    /// Board and exits fields: more than the 12 pieces of the game.
    TooManyPieces {
        /// Pieces on the board plus exits made.
        count: u32,
    },
    /// Board field: no piece at all. Pieces leave the board only by exiting and the game
    /// ends at a fourth exit, so at least two remain in every game; with none, nobody could
    /// ever do anything but pass.
    EmptyBoard,
    /// Exits field against turns field: a player has more exits than turns it has taken
    /// (every exit is one of its own actions).
    ExitsBeyondTurns {
        /// Whose exits.
        player: &'static str,
        /// Its exits.
        exits: u32,
        /// The turns it has taken in `turns` turns.
        taken: u32,
    },
    /// Exits field against player field: a player with 4 exits won on its own action, so
    /// the player after it must be to move.
    WinnerNotLast {
        /// The player with 4 exits.
        winner: &'static str,
        /// The player to move given.
        to_move: &'static str,
    },
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePositionError::*;
        match self {
            FieldCount { found } => write!(
                f,
                "position: expected 4 fields (board, player to move, exits, turns), found {found}"
            ),
            RowCount { found } => {
                write!(f, "board: expected 7 rows separated by '/', found {found}")
            }
            RowLength { r, expected, found } => write!(
                f,
                "board: row r={r} should have {expected} hexes, found {found}"
            ),
            BadHex { q, r, found } => write!(
                f,
                "board: hex ({q}, {r}) holds {found:?}, expected 'r', 'g', 'b' or '.'"
            ),
            ToMove(s) => write!(f, "player to move: expected r, g or b, found {s:?}"),
            Exits(s) => write!(
                f,
                "exits: expected three counts R,G,B such as 0,1,0, found {s:?}"
            ),
            ExitCount { player, count } => {
                write!(
                    f,
                    "exits: {player} has {count} exits, at most 4 are possible"
                )
            }
            TwoWinners => write!(f, "exits: more than one player has 4 exits"),
            Turns(s) => write!(f, "turns: expected a whole number, found {s:?}"),
            TurnsBeyondLimit(t) => write!(f, "turns: {t} is beyond the limit of {TURN_LIMIT}"),
            TurnMismatch { to_move, turns } => write!(
                f,
                "player to move: {to_move} cannot move after {turns} turns (turn {turns} is {}'s)",
                player_letter(*turns as usize % 3)
            ),
            TooManyPieces { count } => write!(
                f,
                "board: {count} pieces on the board and exited, the game has only 12"
            ),
            EmptyBoard => write!(
                f,
                "board: no piece on the board (pieces leave only by exiting, and the game ends at the fourth exit)"
            ),
            ExitsBeyondTurns {
                player,
                exits,
                taken,
            } => write!(
                f,
                "exits: {player} has {exits} exits but has taken only {taken} turns (each exit is one of its turns)"
            ),
            WinnerNotLast { winner, to_move } => write!(
                f,
                "player to move: {winner} has 4 exits, so the game ended on its turn and the player after it is to move, not {to_move}"
            ),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        use ParsePositionError::*;
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() != 4 {
            return Err(FieldCount {
                found: fields.len(),
            });
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 7 {
            return Err(RowCount { found: rows.len() });
        }
        let mut pieces = [0u64; PLAYERS];
        let mut cell = 0usize;
        for (i, row) in rows.iter().enumerate() {
            let r = i as i8 - 3;
            let expected = crate::board::row_len(r);
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != expected {
                return Err(RowLength {
                    r,
                    expected,
                    found: chars.len(),
                });
            }
            for &ch in &chars {
                let (q, r) = COORDS[cell];
                match ch {
                    'r' => pieces[0] |= 1 << cell,
                    'g' => pieces[1] |= 1 << cell,
                    'b' => pieces[2] |= 1 << cell,
                    '.' => {}
                    _ => return Err(BadHex { q, r, found: ch }),
                }
                cell += 1;
            }
        }
        let to_move = match fields[1] {
            "r" => 0u32,
            "g" => 1,
            "b" => 2,
            other => return Err(ToMove(other.to_string())),
        };
        let parts: Vec<&str> = fields[2].split(',').collect();
        if parts.len() != 3 {
            return Err(Exits(fields[2].to_string()));
        }
        let mut exits = [0u8; PLAYERS];
        for (p, part) in parts.iter().enumerate() {
            let count: u32 = part.parse().map_err(|_| Exits(fields[2].to_string()))?;
            if count > EXITS_TO_WIN as u32 {
                return Err(ExitCount {
                    player: player_letter(p),
                    count,
                });
            }
            exits[p] = count as u8;
        }
        if exits.iter().filter(|&&e| e >= EXITS_TO_WIN).count() > 1 {
            return Err(TwoWinners);
        }
        let turns: u32 = fields[3]
            .parse()
            .map_err(|_| Turns(fields[3].to_string()))?;
        if turns > TURN_LIMIT {
            return Err(TurnsBeyondLimit(turns));
        }
        if turns % 3 != to_move {
            return Err(TurnMismatch {
                to_move: player_letter(to_move as usize),
                turns,
            });
        }
        let count = pieces.iter().map(|b| b.count_ones()).sum::<u32>()
            + exits.iter().map(|&e| e as u32).sum::<u32>();
        if count > 12 {
            return Err(TooManyPieces { count });
        }
        if pieces.iter().all(|&b| b == 0) {
            return Err(EmptyBoard);
        }
        for (p, &e) in exits.iter().enumerate() {
            // Turns 0, 1, 2, ... are Red's, Green's, Blue's, ...
            let taken = turns / 3 + u32::from((p as u32) < turns % 3);
            if u32::from(e) > taken {
                return Err(ExitsBeyondTurns {
                    player: player_letter(p),
                    exits: u32::from(e),
                    taken,
                });
            }
            if e >= EXITS_TO_WIN && (p + 1) % PLAYERS != to_move as usize {
                return Err(WinnerNotLast {
                    winner: player_letter(p),
                    to_move: player_letter(to_move as usize),
                });
            }
        }
        Ok(Position::from_parts(pieces, exits, turns as u16))
    }
}

impl Position {
    /// Why `mv` is not legal here, in words; `None` if it is.
    fn illegal_reason(&self, mv: Move) -> Option<String> {
        if let Some(o) = self.outcome() {
            return Some(format!("the game is over ({o:?})"));
        }
        let me = self.to_move as usize;
        let who = crate::position::referee_name(me);
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
