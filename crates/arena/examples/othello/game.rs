//! 6×6 Othello registered through the public API as a user's game is: the rules, notation
//! and evaluation are the example game of `examples/games` (`example_games::othello`, on
//! `plyforge-search` alone); here are its registration ([`GameAdapter`]), its action
//! numbers, observation and sparse features ([`Encoding`]: what `arena train` and the
//! Python package read) and its picture ([`BoardView`], a board of squares).

use example_games::othello::{Move, Othello as Position, OthelloEval, O, X};
use plyforge::encoding::{push_bits, Encoded, Encoding, FeatureChanges};
use plyforge::search::{Game, Player, SideToMove};
use plyforge::view::{BoardView, Fact, FromTo, Layout, Piece, Spot, Symbol, Viewed};
use plyforge::GameAdapter;

/// The game as the registry and every front end see it.
pub struct Othello;

/// The name of cell `cell` (`row * 6 + column`): its column `a`–`f` and row `1`–`6`, row 1
/// at the top, as the notation writes it.
fn cell_name(cell: u8) -> String {
    format!("{}{}", char::from(b'a' + cell % 6), cell / 6 + 1)
}

impl GameAdapter for Othello {
    type Pos = Position;
    type Move = Move;
    type Eval = SideToMove<OthelloEval>;
    const NAME: &'static str = "othello";
    const TITLE: &'static str = "Othello";
    const ABOUT: &'static str = "6×6 Othello: discs that flip, the most discs wins";
    const PLAYERS: usize = 2;
    /// Fixed positions at fixed depths (`bench.txt`): `arena bench`'s node count and nodes
    /// a second, and `--scaling`'s threads against one thread.
    const BENCH: &'static str = include_str!("bench.txt");
    fn start() -> Position {
        Position::start()
    }
    fn player_letter(p: Player) -> &'static str {
        ["x", "o"][p]
    }
    fn player_name(p: Player) -> &'static str {
        ["Black", "White"][p]
    }
    fn default_eval() -> Self::Eval {
        SideToMove(OthelloEval)
    }
    fn view() -> Option<Viewed<Self>> {
        Some(Viewed::new())
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
    /// The network its engines evaluate with (`eval=default`: the hand-made evaluation).
    /// Made by (`docs/training.md`, "Shipped networks"):
    /// `train othello --out network.safetensors --net sparse --width 64
    /// --engine engine,depth=6,eval=default --games 40000 --explore 0.05 --target score
    /// --lambda 0.5 --score-scale 60 --epochs 20 --concurrency 2 --seed 1`.
    fn network() -> Option<&'static [u8]> {
        Some(include_bytes!("network.safetensors"))
    }
}

/// **Actions (37):** a disc on cell `row * 6 + column` (a1, top left, 0 to f6, 35); the pass
/// 36. **Observation `[3, 6, 6]`** (planes, rows from row 1 at the top, columns from a):
/// the observer's discs, the other player's, and a plane of ones when the observer is to
/// move. **Features (72),** the game's own: the observer's disc on cell `c` is feature `c`,
/// the other player's `36 + c` (the observation's first two planes; the board is the same
/// seen from either side, so it is not turned); changes between two positions come from
/// the xor of the discs' bitboards (a move adds its disc and turns the flipped ones over).
impl Encoding for Othello {
    const ACTIONS: usize = Move::INDICES;
    const SHAPE: &'static [usize] = &[3, 6, 6];
    const FEATURES: usize = 72;
    const OBSERVED_FEATURES: bool = false;

    fn action(mv: Move) -> Option<usize> {
        Some(mv.index())
    }
    fn decode(action: usize) -> Option<Move> {
        match action {
            36 => Some(Move::PASS),
            _ => u8::try_from(action).ok().and_then(Move::new),
        }
    }
    fn observe(pos: &Position, player: Player, out: &mut [f32]) {
        for cell in 0..36u8 {
            if let Some(p) = pos.at(cell) {
                out[usize::from(p != player) * 36 + usize::from(cell)] = 1.0;
            }
        }
        if pos.to_move() == player {
            out[72..108].fill(1.0);
        }
    }
    fn features(pos: &Position, player: Player, out: &mut Vec<u32>) {
        push_bits(out, pos.discs(player).into(), 0);
        push_bits(out, pos.discs(1 - player).into(), 36);
    }
    fn feature_changes(
        before: &Position,
        after: &Position,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool {
        for (side, base) in [(player, 0), (1 - player, 36)] {
            let (a, b) = (before.discs(side), after.discs(side));
            changes.bits(a.into(), b.into(), base);
        }
        true
    }
}

impl BoardView for Othello {
    fn layout() -> Layout {
        Layout::Squares {
            files: &["a", "b", "c", "d", "e", "f"],
            ranks: &["1", "2", "3", "4", "5", "6"],
        }
    }
    fn spots() -> Vec<Spot> {
        (0..36u8)
            .map(|cell| Spot::square(cell_name(cell), cell % 6, cell / 6))
            .collect()
    }
    fn colours() -> &'static [&'static str] {
        &["#24262b", "#f4f1e8"]
    }
    fn pieces(pos: &Position) -> Vec<Piece> {
        (0..36)
            .filter_map(|cell| {
                let p = pos.at(cell)?;
                Some(Piece::new(cell_name(cell), p, "disc", Symbol::Plain))
            })
            .collect()
    }
    fn move_spots(_pos: &Position, mv: Move) -> FromTo {
        (None, mv.cell().map(cell_name))
    }
    fn facts(pos: &Position) -> Vec<Fact> {
        [X, O]
            .into_iter()
            .map(|p| {
                let n = pos.discs(p).count_ones();
                Fact::new(Othello::player_name(p), format!("{n} discs"))
            })
            .collect()
    }
}
