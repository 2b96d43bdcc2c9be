//! The conformance check every game runs in its tests: random games to the end, checking the
//! [`Game`] contract at every position. Use it for your own game too.
//!
//! At every position of every game, [`random_play`] checks that
//! - [`Game::key`] equals [`Game::recompute_key`];
//! - the notation round-trips: `display(parse(display(p))) == display(p)`, and the parsed
//!   position, if it has the same key, has the same legal moves;
//! - the game goes on exactly while there are legal moves (a position whose
//!   [`Game::outcome`] is `None` has at least one move; a finished game has none);
//! - every legal move's notation round-trips, [`Game::why_illegal`] accepts it, and
//!   [`Game::play_from`] into a slot holding another position gives exactly what
//!   clone-and-[`Game::play`] gives;
//! - [`Record::undo`] restores the previous position;
//! - the game ends within [`RandomPlay::max_plies`].
//!
//! A game without notation runs [`random_play_rules`] (every check but the notation's), and
//! an evaluation is checked with [`check_evaluator`] (its range, and the zero-sum shape
//! where the game says it is zero-sum).
//!
//! ```
//! use plyforge_search::conformance::{random_play, RandomPlay};
//! use plyforge_search::synthetic::{Spec, Synthetic};
//!
//! // The synthetic game has no notation of its own; a game crate passes its `Position`.
//! # #[derive(Clone, Debug, PartialEq)]
//! # struct Nim(u32, usize);
//! # impl plyforge_search::Game for Nim {
//! #     type Move = u32;
//! #     fn players(&self) -> usize { 2 }
//! #     fn to_move(&self) -> usize { self.1 }
//! #     fn legal_moves(&self, out: &mut plyforge_search::MoveList<u32>) { out.extend(1..=self.0.min(3)) }
//! #     fn play(&mut self, m: u32) { self.0 -= m; self.1 = 1 - self.1 }
//! #     fn outcome(&self) -> Option<plyforge_search::Outcome> {
//! #         (self.0 == 0).then(|| plyforge_search::Outcome::Win(1 - self.1))
//! #     }
//! #     fn key(&self) -> u64 { u64::from(self.0) << 1 | self.1 as u64 }
//! #     fn recompute_key(&self) -> u64 { self.key() }
//! # }
//! # impl std::fmt::Display for Nim {
//! #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "{} {}", self.0, self.1) }
//! # }
//! # impl std::str::FromStr for Nim {
//! #     type Err = String;
//! #     fn from_str(s: &str) -> Result<Nim, String> {
//! #         let (a, b) = s.split_once(' ').ok_or("two fields")?;
//! #         Ok(Nim(a.parse().map_err(|_| "heap")?, b.parse().map_err(|_| "player")?))
//! #     }
//! # }
//! let stats = random_play(|_| Nim(21, 0), &RandomPlay::new(50, 7), |_, _| {});
//! assert_eq!(stats.games, 50);
//! assert_eq!(stats.ended.iter().map(|(_, n)| n).sum::<usize>(), 50);
//! # let _ = Synthetic::new(Spec::default());
//! ```

use std::fmt::{Debug, Display};
use std::str::FromStr;

use crate::game::{DrawKind, Evaluator, Game, MoveList, Outcome, Scores, MAX_EVAL};
use crate::record::Record;
use crate::rng::XorShift64Star;

/// How many random games [`random_play`] plays, from which seed, and how long a game may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RandomPlay {
    /// Games to play.
    pub games: usize,
    /// Seed of the random moves.
    pub seed: u64,
    /// A game longer than this fails the check (the rules must end every game).
    pub max_plies: usize,
}

impl RandomPlay {
    /// `games` games from `seed`, at most 100,000 plies each.
    pub fn new(games: usize, seed: u64) -> Self {
        RandomPlay {
            games,
            seed,
            max_plies: 100_000,
        }
    }

    /// The same with another ply limit.
    pub fn with_max_plies(mut self, max_plies: usize) -> Self {
        self.max_plies = max_plies;
        self
    }
}

/// What the random games did: how many, how long, how they ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RandomPlayStats {
    /// Games played.
    pub games: usize,
    /// Plies played in all.
    pub plies: usize,
    /// Each distinct result with the number of games that ended so.
    pub ended: Vec<(Outcome, usize)>,
}

impl RandomPlayStats {
    /// The number of games that ended with `outcome`.
    pub fn count(&self, outcome: Outcome) -> usize {
        self.ended
            .iter()
            .find(|(o, _)| *o == outcome)
            .map_or(0, |&(_, n)| n)
    }
}

/// Plays [`RandomPlay::games`] random games through a [`Record`], each from `start(i)` (`i`
/// the game's number), checks the [`Game`] contract at every position (see the module
/// documentation) and calls `each(record, moves)` at every position, with its legal moves,
/// for the game's own checks. Every move is drawn uniformly from the legal moves.
///
/// # Panics
/// This is a test helper: a broken contract panics with the position and the move in the
/// message.
pub fn random_play<G>(
    start: impl FnMut(usize) -> G,
    options: &RandomPlay,
    each: impl FnMut(&Record<G>, &[G::Move]),
) -> RandomPlayStats
where
    G: Game + Display + FromStr + PartialEq + Debug,
    <G as FromStr>::Err: Debug,
    G::Move: Display + FromStr,
    <G::Move as FromStr>::Err: Debug,
{
    play_checked(
        start,
        options,
        |_, moves, rng| moves[rng.below(moves.len())],
        each,
    )
}

/// [`random_play`] with the moves chosen by `choose(record, legal_moves, rng)` (which must
/// return one of the legal moves): for players that reach parts of the game uniform random
/// moves rarely reach, such as a greedy player or one that seldom passes.
///
/// # Panics
/// As [`random_play`]; also when `choose` returns an illegal move.
pub fn play_checked<G>(
    start: impl FnMut(usize) -> G,
    options: &RandomPlay,
    choose: impl FnMut(&Record<G>, &[G::Move], &mut XorShift64Star) -> G::Move,
    mut each: impl FnMut(&Record<G>, &[G::Move]),
) -> RandomPlayStats
where
    G: Game + Display + FromStr + PartialEq + Debug,
    <G as FromStr>::Err: Debug,
    G::Move: Display + FromStr,
    <G::Move as FromStr>::Err: Debug,
{
    drive(start, options, choose, |record, moves| {
        check_notation(record, moves);
        each(record, moves);
    })
}

/// [`random_play`] for a game without notation: every check of the [`Game`] contract
/// except the notation round trips (positions and moves are shown with `Debug` in the
/// messages). A game that has a notation runs [`random_play`], which checks it too.
///
/// ```
/// use plyforge_search::conformance::{random_play_rules, RandomPlay};
/// use plyforge_search::synthetic::{Spec, Synthetic};
///
/// let stats = random_play_rules(
///     |i| Synthetic::new(Spec { seed: i as u64, length: 30, ..Spec::default() }),
///     &RandomPlay::new(20, 1),
///     |_, _| {},
/// );
/// assert_eq!(stats.games, 20);
/// ```
///
/// # Panics
/// As [`random_play`].
pub fn random_play_rules<G>(
    start: impl FnMut(usize) -> G,
    options: &RandomPlay,
    each: impl FnMut(&Record<G>, &[G::Move]),
) -> RandomPlayStats
where
    G: Game + PartialEq + Debug,
{
    drive(
        start,
        options,
        |_, moves, rng| moves[rng.below(moves.len())],
        each,
    )
}

/// What [`check_evaluator`] checks beyond the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shape {
    /// Only the range: every score of the first `players()` entries within ±[`MAX_EVAL`].
    Any,
    /// Also two-player zero-sum: every evaluation and draw score is `[v, -v, ..]`.
    ZeroSum,
}

/// Random games (as [`random_play_rules`], which it runs) with the evaluation checked at
/// every position that is not over:
/// - [`Evaluator::evaluate`] and [`Evaluator::draw_scores`] stay within ±[`MAX_EVAL`] for
///   every player of the game (beyond that range scores mean forced results);
/// - where the game declares itself zero-sum ([`Game::zero_sum`]), it has two players and
///   every evaluation and draw score is `[v, -v, ..]`;
/// - [`Evaluator::aspiration_window`] is positive.
///
/// Returns the shape it checked with the statistics of the games. Catches an evaluation on
/// the wrong scale, or one that gives both players the same sign; an evaluation written
/// from the side to move's view cannot put a sign wrong when written as a
/// [`SideToMoveEval`](crate::SideToMoveEval) and searched through
/// [`SideToMove`](crate::SideToMove).
///
/// ```
/// use plyforge_search::conformance::{check_evaluator, RandomPlay, Shape};
/// use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
///
/// let (shape, stats) = check_evaluator(
///     |i| Synthetic::new(Spec { seed: i as u64, length: 30, ..Spec::default() }),
///     &SyntheticEval,
///     &RandomPlay::new(20, 1),
/// );
/// assert_eq!((shape, stats.games), (Shape::ZeroSum, 20));
/// ```
///
/// # Panics
/// This is a test helper: a broken contract panics with the position and the scores.
pub fn check_evaluator<G, E>(
    start: impl FnMut(usize) -> G,
    eval: &E,
    options: &RandomPlay,
) -> (Shape, RandomPlayStats)
where
    G: Game + PartialEq + Debug,
    E: Evaluator<G>,
{
    assert!(
        eval.aspiration_window() > 0,
        "the aspiration window must be positive"
    );
    let mut shape = None;
    let stats = random_play_rules(start, options, |record, _| {
        let p = record.position();
        let players = p.players();
        let zero_sum = p.zero_sum();
        let s = *shape.get_or_insert(if zero_sum { Shape::ZeroSum } else { Shape::Any });
        assert_eq!(
            s == Shape::ZeroSum,
            zero_sum,
            "zero_sum() changed during a game at {p:?}"
        );
        if zero_sum {
            assert_eq!(players, 2, "a zero-sum game has two players: {p:?}");
        }
        if p.outcome().is_some() {
            return;
        }
        let check = |what: &str, v: Scores| {
            for (player, x) in v.iter().enumerate().take(players) {
                assert!(
                    (-MAX_EVAL..=MAX_EVAL).contains(x),
                    "{what} of player {player} is {x}, beyond ±MAX_EVAL ({MAX_EVAL}), at {p:?}"
                );
            }
            if zero_sum {
                assert_eq!(
                    v[0], -v[1],
                    "{what} {v:?} is not zero-sum ([v, -v]) at {p:?}"
                );
            }
        };
        check("the evaluation", eval.evaluate(p));
        for kind in [DrawKind::Repetition, DrawKind::TurnLimit, DrawKind::Score] {
            check("the draw score", eval.draw_scores(p, kind));
        }
    });
    (shape.unwrap_or(Shape::Any), stats)
}

/// The random games behind every check of this module: `check` runs at every position.
fn drive<G>(
    mut start: impl FnMut(usize) -> G,
    options: &RandomPlay,
    mut choose: impl FnMut(&Record<G>, &[G::Move], &mut XorShift64Star) -> G::Move,
    mut each: impl FnMut(&Record<G>, &[G::Move]),
) -> RandomPlayStats
where
    G: Game + PartialEq + Debug,
{
    let mut rng = XorShift64Star::seeded(options.seed);
    let mut stats = RandomPlayStats::default();
    for i in 0..options.games {
        let mut record = Record::new(start(i));
        loop {
            let moves = check_rules(&record);
            each(&record, &moves);
            if let Some(outcome) = record.result() {
                match stats.ended.iter_mut().find(|(o, _)| *o == outcome) {
                    Some((_, n)) => *n += 1,
                    None => stats.ended.push((outcome, 1)),
                }
                break;
            }
            assert!(
                record.len() < options.max_plies,
                "game {i} goes on past {} plies: {:?}",
                options.max_plies,
                record.position()
            );
            let mv = choose(&record, &moves, &mut rng);
            assert!(moves.contains(&mv), "the chooser's {mv:?} is not legal");
            let before = record.position().clone();
            record
                .play(mv)
                .unwrap_or_else(|e| panic!("{mv:?} from {before:?}: {e}"));
            stats.plies += 1;
            if rng.below(16) == 0 {
                let mut undone = record.clone();
                assert_eq!(undone.undo(), Some(mv));
                assert_eq!(undone.position(), &before, "undo of {mv:?}");
                assert_eq!(undone.result(), None);
            }
        }
        stats.games += 1;
    }
    stats
}

/// The contract checks of one position (no notation); returns its legal moves (none once
/// the game is over).
fn check_rules<G>(record: &Record<G>) -> MoveList<G::Move>
where
    G: Game + PartialEq + Debug,
{
    let p = record.position();
    assert_eq!(p.key(), p.recompute_key(), "key of {p:?}");
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    match (p.outcome(), record.result()) {
        (None, None) => assert!(!moves.is_empty(), "no legal move in {p:?}"),
        (Some(_), _) => assert!(moves.is_empty(), "moves in the finished {p:?}"),
        (None, Some(_)) => {} // ended by a history rule: the position itself has moves
    }
    let mut slot = p.clone();
    if let Some(&first) = moves.first() {
        slot.play(first);
    }
    for &m in &moves {
        if let Some(why) = p.why_illegal(m) {
            panic!("{m:?} is listed in {p:?} but refused: {why}");
        }
        let mut child = p.clone();
        child.play(m);
        slot.play_from(p, m);
        assert_eq!(slot, child, "play_from of {m:?} in {p:?}");
    }
    if record.result().is_some() {
        MoveList::new()
    } else {
        moves
    }
}

/// The notation checks of one position with its legal moves `moves` as [`check_rules`]
/// gave them.
fn check_notation<G>(record: &Record<G>, moves: &[G::Move])
where
    G: Game + Display + FromStr + PartialEq + Debug,
    <G as FromStr>::Err: Debug,
    G::Move: Display + FromStr,
    <G::Move as FromStr>::Err: Debug,
{
    let p = record.position();
    let text = p.to_string();
    let parsed: G = text
        .parse()
        .unwrap_or_else(|e| panic!("{text} does not parse back: {e:?}"));
    assert_eq!(parsed.to_string(), text, "notation round trip");
    if parsed.key() == p.key() {
        // The notation kept everything the key covers, so the moves must be the same. (A
        // game whose notation omits part of the state, such as Chaos Clock's pass flag,
        // gives another key there; the game's own test checks what the notation keeps.)
        let mut want = MoveList::new();
        p.legal_moves(&mut want);
        let mut again = MoveList::new();
        parsed.legal_moves(&mut again);
        assert_eq!(again, want, "legal moves after the round trip of {text}");
    }
    for &m in moves {
        let shown = m.to_string();
        let back: G::Move = shown
            .parse()
            .unwrap_or_else(|e| panic!("move {shown} in {text} does not parse back: {e:?}"));
        assert!(
            back == m,
            "move {shown} in {text}: round trip gives another move"
        );
    }
}
