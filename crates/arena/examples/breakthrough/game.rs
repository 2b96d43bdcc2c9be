//! 6×6 Breakthrough registered through the public API as a user's game is: the rules,
//! notation and evaluation are the example game of `examples/games` (`example_games::breakthrough`,
//! on `plyforge-search` alone); here are its registration ([`GameAdapter`]) and its picture
//! ([`BoardView`]), a board of squares for the page's chequered look ([`Layout::Squares`]).

use example_games::breakthrough::{
    square_name, Breakthrough as Position, BreakthroughEval, Move, BLACK, WHITE,
};
use plyforge::encoding::{push_bits, Encoded, Encoding, FeatureChanges};
use plyforge::search::{Game, Player, SideToMove};
use plyforge::view::{BoardView, Fact, FromTo, Layout, Piece, Spot, Symbol, Viewed};
use plyforge::GameAdapter;

/// The game as the registry and every front end see it.
pub struct Breakthrough;

impl GameAdapter for Breakthrough {
    type Pos = Position;
    type Move = Move;
    type Eval = SideToMove<BreakthroughEval>;
    const NAME: &'static str = "breakthrough";
    const TITLE: &'static str = "Breakthrough";
    const ABOUT: &'static str = "6×6 Breakthrough: pawns race to the far rank";
    const PLAYERS: usize = 2;
    /// Fixed positions at fixed depths (`bench.txt`): `arena bench`'s node count and nodes
    /// a second, and `--scaling`'s threads against one thread.
    const BENCH: &'static str = include_str!("bench.txt");
    fn start() -> Position {
        Position::start()
    }
    fn player_letter(p: Player) -> &'static str {
        ["w", "b"][p]
    }
    fn player_name(p: Player) -> &'static str {
        ["White", "Black"][p]
    }
    fn default_eval() -> Self::Eval {
        SideToMove(BreakthroughEval)
    }
    fn view() -> Option<Viewed<Self>> {
        Some(Viewed::new())
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
    /// The network its engines evaluate with (`eval=default`: the hand-made evaluation
    /// above). Made by (`docs/training.md`, "Shipped networks"):
    /// `train breakthrough --out network.safetensors --net sparse --width 64
    /// --engine engine,depth=4,eval=default --games 20000 --explore 0.05 --target score --lambda 0.5
    /// --epochs 20 --concurrency 2 --seed 1`.
    fn network() -> Option<&'static [u8]> {
        Some(include_bytes!("network.safetensors"))
    }
}

/// Appends to `out` the squares of `bits` as `player` sees them, each plus `base`, in
/// order: White's as they are, Black's turned half round (square `s` at `35 − s`, so that
/// the observer advances up the rows; the game is the same mirrored left to right), from
/// the highest bit down.
#[inline]
fn push_seen(out: &mut Vec<u32>, bits: u64, player: Player, base: u32) {
    if player == WHITE {
        return push_bits(out, bits.into(), base);
    }
    let mut b = bits;
    while b != 0 {
        let square = 63 - b.leading_zeros();
        out.push(base + 35 - square);
        b &= !(1 << square);
    }
}

/// The squares of `before` and `after` as `player` sees them (as [`push_seen`]), each plus
/// `base`, into `changes`: those in `after` only added, those in `before` only removed.
#[inline]
fn seen_changes(changes: &mut FeatureChanges, before: u64, after: u64, player: Player, base: u32) {
    let seen = |square: u32| if player == WHITE { square } else { 35 - square };
    let mut b = after & !before;
    while b != 0 {
        changes.add(base + seen(b.trailing_zeros()));
        b &= b - 1;
    }
    let mut b = before & !after;
    while b != 0 {
        changes.remove(base + seen(b.trailing_zeros()));
        b &= b - 1;
    }
}

/// **Actions (216):** a White step `from * 3 + d` and a Black step `108 + from * 3 + d`,
/// with `d` 0 towards file a, 1 straight, 2 towards file f (squares are `rank * 6 + file`
/// from a1). **Observation `[3, 6, 6]`**, from the observer's side of the board (Black's
/// seen turned, so that the observer always advances up the rows): the observer's pawns,
/// the other side's, and a plane of ones when the observer is to move. **Features (72),**
/// the game's own: the observer's pawn on square `s` (`rank * 6 + file`, Black's turned
/// half round: `35 − s`, so that the observer advances up the rows) is feature `s`, the
/// other side's `36 + s`; no feature of the side to move, which a network knows from the
/// view it reads. Changes between two positions come from the xor of the pawns' bitboards.
impl Encoding for Breakthrough {
    const ACTIONS: usize = 2 * Move::INDICES;
    const SHAPE: &'static [usize] = &[3, 6, 6];

    fn action(mv: Move) -> Option<usize> {
        let black = mv.to() < mv.from();
        Some(mv.index() + if black { Move::INDICES } else { 0 })
    }
    fn decode(action: usize) -> Option<Move> {
        let (black, index) = (action >= Move::INDICES, action % Move::INDICES);
        let (from, d) = ((index / 3) as i32, (index % 3) as i32 - 1);
        let (file, rank) = (from % 6 + d, from / 6 + if black { -1 } else { 1 });
        if !(0..6).contains(&file) || !(0..6).contains(&rank) || action >= Self::ACTIONS {
            return None;
        }
        Move::new(from as u8, (rank * 6 + file) as u8)
    }
    const FEATURES: usize = 72;
    const OBSERVED_FEATURES: bool = false;

    fn features(pos: &Position, player: Player, out: &mut Vec<u32>) {
        push_seen(out, pos.pawns(player), player, 0);
        push_seen(out, pos.pawns(1 - player), player, 36);
    }
    fn feature_changes(
        before: &Position,
        after: &Position,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool {
        for (side, base) in [(player, 0), (1 - player, 36)] {
            seen_changes(changes, before.pawns(side), after.pawns(side), player, base);
        }
        true
    }
    fn observe(pos: &Position, player: Player, out: &mut [f32]) {
        for square in 0..36u8 {
            let Some(p) = pos.at(square) else { continue };
            let (rank, file) = (usize::from(square / 6), usize::from(square % 6));
            let row = if player == WHITE { rank } else { 5 - rank };
            let plane = usize::from(p != player);
            out[plane * 36 + row * 6 + file] = 1.0;
        }
        if pos.to_move() == player {
            out[72..108].fill(1.0);
        }
    }
}

impl BoardView for Breakthrough {
    fn layout() -> Layout {
        Layout::Squares {
            files: &["a", "b", "c", "d", "e", "f"],
            ranks: &["6", "5", "4", "3", "2", "1"],
        }
    }
    fn spots() -> Vec<Spot> {
        let mut out = Vec::new();
        for row in 0..6 {
            for column in 0..6 {
                let square = (5 - row) * 6 + column;
                out.push(Spot::square(square_name(square), column, row));
            }
        }
        out
    }
    fn colours() -> &'static [&'static str] {
        &["#f4f1e8", "#24262b"]
    }
    fn pieces(pos: &Position) -> Vec<Piece> {
        (0..36)
            .filter_map(|square| {
                let p = pos.at(square)?;
                Some(Piece::new(square_name(square), p, "pawn", Symbol::Plain))
            })
            .collect()
    }
    fn move_spots(_pos: &Position, mv: Move) -> FromTo {
        (Some(square_name(mv.from())), Some(square_name(mv.to())))
    }
    fn facts(pos: &Position) -> Vec<Fact> {
        [WHITE, BLACK]
            .into_iter()
            .map(|p| {
                let n = pos.pawns(p).count_ones();
                Fact::new(Breakthrough::player_name(p), format!("{n} pawns"))
            })
            .collect()
    }
}
