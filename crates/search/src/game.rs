//! The game contract every game implements, and the evaluator contract.

use std::fmt::Debug;
use std::hash::Hash;

use smallvec::SmallVec;

/// Index of a player: `0..players()`. What each index means is the game's business
/// (each game crate documents its order and letters).
pub type Player = usize;

/// The most players any game may have.
pub const MAX_PLAYERS: usize = 3;

/// A list of moves, on the stack for every game of this workspace.
pub type MoveList<M> = SmallVec<[M; 128]>;

/// One heuristic value per player, indexed by [`Player`]; entries past `players()` are ignored.
pub type Scores = [i32; MAX_PLAYERS];

/// Largest magnitude an [`Evaluator`] may return; terminal scores lie beyond it.
pub const MAX_EVAL: i32 = 100_000;

/// Why a move is not legal in a position: the reason, in words for a person
/// ("square 5 is empty", "the queen must be released first").
///
/// ```
/// use plyforge_search::IllegalMove;
/// let e = IllegalMove::new("square 5 is empty");
/// assert_eq!(e.to_string(), "square 5 is empty");
/// assert_eq!(e.reason(), "square 5 is empty");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IllegalMove {
    reason: String,
}

impl IllegalMove {
    /// An illegal move with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        IllegalMove {
            reason: reason.into(),
        }
    }

    /// The reason, in words for a person.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// Why a drawn game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DrawKind {
    /// A position occurred as often as the game's repetition rule allows.
    Repetition,
    /// A turn or move limit was reached with no winner.
    TurnLimit,
    /// A score comparison at the end found equal scores.
    Score,
}

/// How a finished game ended.
///
/// Each player's payoff follows from this by [`Outcome::utility`], so zero-sum two-player
/// games, three-player games and non-zero-sum games (both win, both lose) share one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// This player won; everybody else lost.
    Win(Player),
    /// Nobody won.
    Draw(DrawKind),
    /// Every player won (Chaos Clock).
    BothWin,
    /// Every player lost (Chaos Clock).
    BothLose,
}

impl Outcome {
    /// The result in the project's result notation (what `arena apply` prints after
    /// `result: `): `winner X` with X the winner's letter as `letter` gives it,
    /// `draw repetition`, `draw turns`, `draw score`, `both win` or `both lose`.
    ///
    /// ```
    /// use plyforge_search::{DrawKind, Outcome};
    /// let letter = |p: usize| ["w", "b"][p];
    /// assert_eq!(Outcome::Win(1).notation(letter), "winner b");
    /// assert_eq!(Outcome::Draw(DrawKind::Repetition).notation(letter), "draw repetition");
    /// assert_eq!(Outcome::BothWin.notation(letter), "both win");
    /// ```
    pub fn notation<'a>(self, letter: impl Fn(Player) -> &'a str) -> String {
        match self {
            Outcome::Win(p) => format!("winner {}", letter(p)),
            Outcome::Draw(DrawKind::Repetition) => "draw repetition".to_string(),
            Outcome::Draw(DrawKind::TurnLimit) => "draw turns".to_string(),
            Outcome::Draw(DrawKind::Score) => "draw score".to_string(),
            Outcome::BothWin => "both win".to_string(),
            Outcome::BothLose => "both lose".to_string(),
        }
    }

    /// Utility of the outcome for `player`, ordered as every player prefers:
    /// own win (2) > both win (1) > draw (0) > both lose (−1) > own loss (−2).
    pub fn utility(self, player: Player) -> i32 {
        match self {
            Outcome::Win(w) if w == player => 2,
            Outcome::Win(_) => -2,
            Outcome::Draw(_) => 0,
            Outcome::BothWin => 1,
            Outcome::BothLose => -1,
        }
    }
}

/// The rules of a game, as the search engine sees them.
///
/// Modelled on OpenSpiel's game contracts:
/// - [`legal_moves`](Game::legal_moves) lists every legal move in a fixed, deterministic order, and
///   a position whose [`outcome`](Game::outcome) is `None` has at least one (a forced pass is a move);
/// - [`play`](Game::play) is copy-make friendly: positions are small `Clone` values;
/// - turns need not alternate: [`to_move`](Game::to_move) may name the same player twice in a row;
/// - [`key`](Game::key) is a 64-bit Zobrist key, updated incrementally by `play`, equal to
///   [`recompute_key`](Game::recompute_key) at all times.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move. Small and `Copy`; its notation lives in the game crate.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Number of players: 2 or 3.
    fn players(&self) -> usize;

    /// The player to move.
    fn to_move(&self) -> Player;

    /// Appends every legal move to `out`, in a fixed order; nothing when the game is over.
    fn legal_moves(&self, out: &mut MoveList<Self::Move>);

    /// Plays a legal move. Behaviour for an illegal move is unspecified (it must not be
    /// unsafe); check with [`why_illegal`](Game::why_illegal) first when the move comes from outside.
    fn play(&mut self, mv: Self::Move);

    /// Makes `self` the position after the legal move `mv` from `parent` (whatever `self`
    /// held before): by default a clone of `parent` with `mv` played. The search makes its
    /// children this way; a game may override it to build the child from `parent` directly,
    /// which spares the processor reading back a copy that it has just written (a copy written
    /// whole and read back field by field waits until the write completes). It must give
    /// exactly the position that clone-and-play gives.
    #[inline]
    fn play_from(&mut self, parent: &Self, mv: Self::Move) {
        self.clone_from(parent);
        self.play(mv);
    }

    /// `None` while the game goes on, else how it ended by the position alone
    /// (history rules such as repetition are applied by [`crate::Record`] and the search).
    fn outcome(&self) -> Option<Outcome>;

    /// Zobrist key of everything that decides this position's value (including counters
    /// such as a move limit where they matter), maintained incrementally.
    fn key(&self) -> u64;

    /// The key computed from scratch; tests check it equals [`key`](Game::key).
    fn recompute_key(&self) -> u64;

    /// Key of the position as the game's repetition rule sees it (for example without move
    /// counters). Defaults to [`key`](Game::key).
    fn repetition_key(&self) -> u64 {
        self.key()
    }

    /// The repetition rule: the number of occurrences of one [`repetition_key`](Game::repetition_key)
    /// that ends the game, and the outcome then. `None`: no such rule.
    fn repetition_rule(&self) -> Option<(u32, Outcome)> {
        None
    }

    /// Whether positions with equal [`repetition_key`](Game::repetition_key)s always have the
    /// same future (the same legal moves, outcomes and successors): true when the
    /// repetition key covers everything that decides the rest of the game. Proof search
    /// ([`crate::prove`]) then keeps what its bounded searches find across paths. Default:
    /// `false`, which is always safe.
    fn repetition_key_decides_future(&self) -> bool {
        false
    }

    /// `None` if `mv` is legal here, else why it is not ([`IllegalMove`], whose text is
    /// for a person). The default says only "not a legal move in this position"; the games
    /// of this project override it with the specific reason.
    fn why_illegal(&self, mv: Self::Move) -> Option<IllegalMove> {
        if self.outcome().is_some() {
            return Some(IllegalMove::new("the game is over"));
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            None
        } else {
            Some(IllegalMove::new("not a legal move in this position"))
        }
    }

    /// Every legal move, in the order of [`legal_moves`](Game::legal_moves), as a new list:
    /// a convenience for code that is not in a hurry.
    fn moves(&self) -> MoveList<Self::Move> {
        let mut out = MoveList::new();
        self.legal_moves(&mut out);
        out
    }

    /// Passes the turn to the next player without a move (a *null move*), as best-reply
    /// search needs for the opponents that do not reply and the selective search's null-move
    /// pruning ([`Selectivity::null_move`](crate::Selectivity::null_move)) for the pass it
    /// tries. The key must change as `play` would change it (the side to move). Returns
    /// `false`, changing nothing, where the game cannot (the default); best-reply search then
    /// treats every opponent layer as in paranoid search, and no null move is tried.
    fn skip_turn(&mut self) -> bool {
        false
    }

    /// Whether `mv` is *forcing* here: a move the opponents must answer at once (a check, a
    /// threat to win on the next move). The selective search
    /// ([`Config::selective`](crate::Config::selective)) never reduces or prunes a forcing
    /// move, and prunes nothing in the position it leads to (its player has to answer the
    /// threat, which a static evaluation does not see). Called for each move searched at
    /// the selective search's inner nodes, so it should be cheap. The default, `false` for
    /// every move, leaves such threats to the search's depth. It never matters to the exact
    /// search.
    fn is_forcing(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether *zugzwang* is possible here: a position where the player to move would be
    /// better off passing, so that a null move ([`Game::skip_turn`]) overestimates it. With
    /// `true` (the default, which is always safe) the selective search verifies each deep
    /// null-move cutoff by a reduced search without null move; a game where passing never
    /// helps (most games of captures and races while pieces can move) returns `false` and
    /// saves that search.
    fn zugzwang(&self) -> bool {
        true
    }

    /// A best move that the game knows without a search, from an exact table of its own (an
    /// endgame database, a solved race), or `None` (the default). With
    /// [`Config::table_moves`](crate::Config::table_moves) on, the search plays it at the
    /// root without searching. It must be legal, and as good as any other move.
    fn table_move(&self) -> Option<Self::Move> {
        None
    }

    /// Whether the opponents can soon touch `player`'s prospects directly: in a game of
    /// pieces, whether an opponent's piece is within reach of one of `player`'s (or one of
    /// its within reach of theirs). Where it is `false` the players are racing apart, and
    /// [`Config::apart`](crate::Config::apart) can model the opponents otherwise (each
    /// pursuing its own score rather than attacking). The default, `true`, never changes
    /// the model.
    fn in_contact(&self, _player: Player) -> bool {
        true
    }

    /// Moves that quiescence search should still try at the horizon (captures and the like).
    /// The default, none, makes the horizon's value the static evaluation, and then
    /// quiescence search costs nothing: the last ply before the horizon is searched by the
    /// same short path as without it.
    fn noisy_moves(&self, _out: &mut MoveList<Self::Move>) {}

    /// Whether the game is a two-player zero-sum game: every finished game is a win for one
    /// side or a draw, and what one side gains the other loses. Checks read it
    /// ([`crate::conformance::check_evaluator`] then requires every evaluation to be
    /// `[v, -v, ..]`), and so does Monte Carlo tree search, whose nodes then keep the first
    /// player's sum of values alone (the second's is the rest); the alpha-beta searches do
    /// not. Default: `false` (nothing declared).
    fn zero_sum(&self) -> bool {
        false
    }
}

/// A static evaluation, separate from the rules so that users can plug in their own.
pub trait Evaluator<G: Game>: Send + Sync {
    /// A heuristic value for each player, each from that player's own point of view, with
    /// magnitudes at most [`MAX_EVAL`]. For a two-player zero-sum game return `[v, -v, 0]`.
    fn evaluate(&self, game: &G) -> Scores;

    /// The scores that a search for `root` (the player to move at its root) sees where each
    /// player maximises its own entry ([`Algorithm::MaxN`](crate::Algorithm::MaxN)): an
    /// evaluation with a model of the opponents gives `root`'s entry by its own judgement
    /// and the others' by the model (how they judge, learned from their games), so that the
    /// search predicts their moves. The default is [`evaluate`](Evaluator::evaluate).
    fn evaluate_for(&self, game: &G, root: Player) -> Scores {
        let _ = root;
        self.evaluate(game)
    }

    /// The first half-width of an aspiration window around the last iteration's value: about
    /// how far the root value moves from one depth to the next on this evaluation's scale.
    /// It changes only the speed of the search, never its values. Default: 40.
    fn aspiration_window(&self) -> i32 {
        40
    }

    /// About how much one quiet move can change this evaluation: the value of the smallest
    /// unit of material (a pawn), on this evaluation's scale. The selective search's
    /// futility margins are multiples of it
    /// ([`Selectivity`](crate::Selectivity)); it never matters to the exact search.
    /// Default: three times the [`aspiration_window`](Evaluator::aspiration_window).
    fn margin(&self) -> i32 {
        3 * self.aspiration_window()
    }

    /// A static ordering hint for `mv` in `game`, from [`-MAX_HINT`](MAX_HINT) to
    /// [`MAX_HINT`] (values beyond are clamped): after the table's move, a larger hint is
    /// tried earlier, and among moves of equal hint the noisy moves
    /// ([`Config::noisy_first`](crate::Config::noisy_first)), the killer moves and the
    /// history heuristic decide. Domain knowledge such as "the king first" belongs here. It changes only the speed of the search, never its values; called
    /// once per move at every node above the horizon's ply, so it should be cheap.
    /// Default: 0 for every move (the history heuristic alone).
    fn move_hint(&self, _game: &G, _mv: G::Move) -> i32 {
        0
    }

    /// The value to each player of a draw in `game`, on this evaluation's scale (entries are
    /// clamped to ±[`MAX_EVAL`], so a draw never looks like a forced result): what every
    /// search of this crate, and every definition in [`crate::reference`], scores where the
    /// game is drawn — a drawn end by the position's rules (a turn limit, equal scores), or a
    /// position that repeats one on the search path or in the history when the game's
    /// repetition rule draws. `game` is the drawn position; `kind` says why it is drawn.
    ///
    /// The default, 0 for everybody, scores a draw as a level game. An evaluation that knows
    /// who stands better can do better: with three players a draw is bad for the leader and
    /// good for one far behind, so it may score a draw from each player's standing (Chexers
    /// does: see its crate documentation). For a two-player zero-sum game return `[d, -d, 0]`.
    fn draw_scores(&self, _game: &G, _kind: DrawKind) -> Scores {
        [0; MAX_PLAYERS]
    }
}

/// An evaluation that knows nothing but the end of the game: every position scores 0 for
/// every player, so that a search with it finds only forced results — a *mate search*,
/// whose first score beyond [`crate::MATE_BOUND`] at depth `d` of iterative deepening
/// proves a win (or loss) in exactly that many plies. Move hints come from the wrapped
/// evaluation, so moves are still ordered well, and with all other values equal the table
/// cuts off far more: Jumpy3's start is proven a win in 25 plies at depth 25 after 5.6
/// million nodes, against 39.5 million with the default evaluation.
///
/// ```
/// use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
/// use plyforge_search::{mate_distance, Config, Limits, MateOnly, Search};
///
/// let game = Synthetic::new(Spec { seed: 9, terminal_per_mille: 300, ..Spec::default() });
/// let mut mate = Search::new(Config::default(), MateOnly(SyntheticEval));
/// let r = mate.run(&game, &[], Limits::depth(6), |_| {});
/// // Either a forced result within 6 plies, or 0: nothing is proven.
/// assert!(mate_distance(r.score).is_some() || r.score == 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateOnly<E>(pub E);

impl<G: Game, E: Evaluator<G>> Evaluator<G> for MateOnly<E> {
    #[inline]
    fn evaluate(&self, _game: &G) -> Scores {
        [0; MAX_PLAYERS]
    }

    /// Values move only between 0 and forced results: the narrowest window.
    fn aspiration_window(&self) -> i32 {
        1
    }

    #[inline]
    fn move_hint(&self, game: &G, mv: G::Move) -> i32 {
        self.0.move_hint(game, mv)
    }
}

/// The largest magnitude of [`Evaluator::move_hint`].
pub const MAX_HINT: i32 = 7;

/// The evaluation of a two-player zero-sum game in its simplest form: **one number, from
/// the view of the player to move** (positive: good for the player to move), as a
/// hand-written negamax wants it. Wrap it in [`SideToMove`] to search with it: the wrapper
/// gives the engine both players' scores, so that no sign can be wrong.
///
/// ```
/// use plyforge_search::{Config, Game, Limits, MoveList, Outcome, Player, Search};
/// use plyforge_search::{SideToMove, SideToMoveEval};
///
/// /// Nim with one heap: take 1 to 3 stones; whoever takes the last stone wins.
/// #[derive(Clone, Debug)]
/// struct Nim { stones: u32, to_move: Player }
/// impl Game for Nim {
///     type Move = u32;
///     fn players(&self) -> usize { 2 }
///     fn to_move(&self) -> Player { self.to_move }
///     fn legal_moves(&self, out: &mut MoveList<u32>) { out.extend(1..=self.stones.min(3)) }
///     fn play(&mut self, take: u32) { self.stones -= take; self.to_move = 1 - self.to_move }
///     fn outcome(&self) -> Option<Outcome> {
///         (self.stones == 0).then(|| Outcome::Win(1 - self.to_move))
///     }
///     fn key(&self) -> u64 { (self.stones as u64) << 1 | self.to_move as u64 }
///     fn recompute_key(&self) -> u64 { self.key() }
/// }
///
/// /// A heap that is not a multiple of 4 is good for the player to move.
/// struct Hunch;
/// impl SideToMoveEval<Nim> for Hunch {
///     fn evaluate(&self, nim: &Nim) -> i32 {
///         if nim.stones % 4 == 0 { -10 } else { 10 }
///     }
/// }
///
/// let nim = Nim { stones: 10, to_move: 1 };
/// let mut engine = Search::new(Config::default(), SideToMove(Hunch));
/// let report = engine.analyse(&nim, Limits::depth(3));
/// assert_eq!(report.best, Some(2));
/// // Player 1 is to move: the scores are its 10 and the other's -10.
/// use plyforge_search::Evaluator;
/// assert_eq!(SideToMove(Hunch).evaluate(&nim)[..2], [-10, 10]);
/// ```
pub trait SideToMoveEval<G: Game>: Send + Sync {
    /// A heuristic value of `game` for the player to move, at most [`MAX_EVAL`] in
    /// magnitude (the game is not over: the engine scores finished games itself).
    fn evaluate(&self, game: &G) -> i32;

    /// As [`Evaluator::aspiration_window`]. Default: 40.
    fn aspiration_window(&self) -> i32 {
        40
    }

    /// As [`Evaluator::margin`]. Default: three times the aspiration window.
    fn margin(&self) -> i32 {
        3 * self.aspiration_window()
    }

    /// As [`Evaluator::move_hint`]. Default: 0 for every move (the game's own order).
    fn move_hint(&self, _game: &G, _mv: G::Move) -> i32 {
        0
    }

    /// The value of a draw in `game` for the player to move (clamped to ±[`MAX_EVAL`]).
    /// Default: 0.
    fn draw_score(&self, _game: &G, _kind: DrawKind) -> i32 {
        0
    }
}

/// A [`SideToMoveEval`] as an [`Evaluator`]: the player to move gets the value, the other
/// player its negation. For two-player games only (the conformance check
/// [`crate::conformance::check_evaluator`] says so where a game has more players).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideToMove<E>(pub E);

/// Both players' scores from a value `v` for the player to move `p`.
#[inline(always)]
fn two_sided(p: Player, v: i32) -> Scores {
    // Without a branch on the player: [v, -v] or [-v, v].
    let sign = 1 - 2 * (p as i32 & 1);
    [sign * v, -sign * v, 0]
}

impl<G: Game, E: SideToMoveEval<G>> Evaluator<G> for SideToMove<E> {
    #[inline]
    fn evaluate(&self, game: &G) -> Scores {
        two_sided(game.to_move(), self.0.evaluate(game))
    }

    fn aspiration_window(&self) -> i32 {
        self.0.aspiration_window()
    }

    fn margin(&self) -> i32 {
        self.0.margin()
    }

    #[inline]
    fn move_hint(&self, game: &G, mv: G::Move) -> i32 {
        self.0.move_hint(game, mv)
    }

    fn draw_scores(&self, game: &G, kind: DrawKind) -> Scores {
        two_sided(game.to_move(), self.0.draw_score(game, kind))
    }
}

impl<G: Game, E: SideToMoveEval<G> + ?Sized> SideToMoveEval<G> for &E {
    fn evaluate(&self, game: &G) -> i32 {
        (**self).evaluate(game)
    }

    fn aspiration_window(&self) -> i32 {
        (**self).aspiration_window()
    }

    fn margin(&self) -> i32 {
        (**self).margin()
    }

    fn move_hint(&self, game: &G, mv: G::Move) -> i32 {
        (**self).move_hint(game, mv)
    }

    fn draw_score(&self, game: &G, kind: DrawKind) -> i32 {
        (**self).draw_score(game, kind)
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &E {
    fn evaluate(&self, game: &G) -> Scores {
        (**self).evaluate(game)
    }

    fn aspiration_window(&self) -> i32 {
        (**self).aspiration_window()
    }

    fn margin(&self) -> i32 {
        (**self).margin()
    }

    fn move_hint(&self, game: &G, mv: G::Move) -> i32 {
        (**self).move_hint(game, mv)
    }

    fn draw_scores(&self, game: &G, kind: DrawKind) -> Scores {
        (**self).draw_scores(game, kind)
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for std::sync::Arc<E> {
    fn evaluate(&self, game: &G) -> Scores {
        (**self).evaluate(game)
    }

    fn aspiration_window(&self) -> i32 {
        (**self).aspiration_window()
    }

    fn margin(&self) -> i32 {
        (**self).margin()
    }

    fn move_hint(&self, game: &G, mv: G::Move) -> i32 {
        (**self).move_hint(game, mv)
    }

    fn draw_scores(&self, game: &G, kind: DrawKind) -> Scores {
        (**self).draw_scores(game, kind)
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Box<E> {
    fn evaluate(&self, game: &G) -> Scores {
        (**self).evaluate(game)
    }

    fn aspiration_window(&self) -> i32 {
        (**self).aspiration_window()
    }

    fn margin(&self) -> i32 {
        (**self).margin()
    }

    fn move_hint(&self, game: &G, mv: G::Move) -> i32 {
        (**self).move_hint(game, mv)
    }

    fn draw_scores(&self, game: &G, kind: DrawKind) -> Scores {
        (**self).draw_scores(game, kind)
    }
}
