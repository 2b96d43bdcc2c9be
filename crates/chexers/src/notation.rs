//! The notation of positions (`BOARD TO_MOVE EXITS TURNS`, the crate's README) and of
//! players: [`Position`]'s `Display` and `FromStr` with [`ParsePositionError`], which names
//! the field at fault. Moves are written in the referee's text form (`action.rs`).

use std::fmt;
use std::str::FromStr;

use search::Player;

use crate::board::COORDS;
use crate::position::{Position, EXITS_TO_WIN, PLAYERS, TURN_LIMIT};

const LETTERS: [char; 3] = ['r', 'g', 'b'];

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

/// The board field: each player's pieces.
fn board(field: &str) -> Result<[u64; PLAYERS], ParsePositionError> {
    use ParsePositionError::*;
    let rows: Vec<&str> = field.split('/').collect();
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
    Ok(pieces)
}

/// The exits field: each player's exit count.
fn exits(field: &str) -> Result<[u8; PLAYERS], ParsePositionError> {
    use ParsePositionError::*;
    let parts: Vec<&str> = field.split(',').collect();
    if parts.len() != 3 {
        return Err(Exits(field.to_string()));
    }
    let mut exits = [0u8; PLAYERS];
    for (p, part) in parts.iter().enumerate() {
        let count: u32 = part.parse().map_err(|_| Exits(field.to_string()))?;
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
    Ok(exits)
}

/// The fields against each other: a position that a game can reach.
fn check_reachable(
    pieces: &[u64; PLAYERS],
    exits: &[u8; PLAYERS],
    to_move: u32,
    turns: u32,
) -> Result<(), ParsePositionError> {
    use ParsePositionError::*;
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
    Ok(())
}

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
        let pieces = board(fields[0])?;
        let to_move = match fields[1] {
            "r" => 0u32,
            "g" => 1,
            "b" => 2,
            other => return Err(ToMove(other.to_string())),
        };
        let exits = exits(fields[2])?;
        let turns: u32 = fields[3]
            .parse()
            .map_err(|_| Turns(fields[3].to_string()))?;
        if turns > TURN_LIMIT {
            return Err(TurnsBeyondLimit(turns));
        }
        check_reachable(&pieces, &exits, to_move, turns)?;
        Ok(Position::from_parts(pieces, exits, turns as u16))
    }
}
