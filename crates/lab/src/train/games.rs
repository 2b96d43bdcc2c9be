//! The self-play games of a training run (their file: [`crate::trainfile`]). A game is a
//! function of its index and the run's settings: its seeds are the index's, and its
//! opening is the run's opening of that index ([`openings`]).

use crate::book::{Openings, Starts};
use crate::error::Error;
pub use crate::trainfile::{Games, Header, TrainGame, FORMAT};
use plyforge::agent::{Agent, Kind, SearchEngine, Spec};
use plyforge::search::rng::XorShift64Star as Rng;
use plyforge::search::{Game, Limits, Record};
use plyforge::{legal_moves, result_text, GameAdapter};

/// How the self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// The engine of every seat.
    pub spec: Spec,
    /// Random plies at the start of every game.
    pub random_plies: usize,
    /// The chance that a move after the opening is a random one instead of the engine's.
    pub explore: f64,
    /// Plies after which a game ends by the game's limit result.
    pub max_plies: usize,
    /// The run's seed.
    pub seed: u64,
}

/// A game's seed: the run's seed and the index, mixed.
fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x7261_696E;
    z = (z ^ (z >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 29)
}

/// What the run's seed is mixed with to seed its openings: a match with the same seed
/// draws other openings than the training run (its games are not the positions trained on).
const OPENINGS_SALT: u64 = 0x5E1F_9A7E_0BE1_1165;

/// The distinct openings of a run's self-play games ([`Openings`]: `random_plies` random plies
/// from the game's start, no two alike), or none where each game draws its own: with
/// `independent` asked for, without random plies, or for a game dealt at random.
pub fn openings<A: GameAdapter>(p: &SelfPlay, independent: bool) -> Option<Openings<A>> {
    let seed = game_seed(p.seed ^ OPENINGS_SALT, u64::MAX);
    let openings = Openings::new(Starts::Default(seed), p.random_plies, seed);
    (!independent && openings.distinct()).then_some(openings)
}

/// A number in 0 … 1.
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// The players of one worker's games: search engines kept from game to game (reset, so
/// that a game does not depend on which worker played it or what it played before; a new
/// engine per game would allocate its table every game).
pub struct Players<A: GameAdapter> {
    #[allow(clippy::vec_box)]
    idle: Vec<Box<SearchEngine<A>>>,
}

impl<A: GameAdapter> Default for Players<A> {
    fn default() -> Self {
        Players { idle: Vec::new() }
    }
}

impl<A: GameAdapter> Players<A> {
    /// The players of a game: one per seat.
    fn take(&mut self, p: &SelfPlay, seed: u64) -> Vec<Agent<A>> {
        (0..A::PLAYERS)
            .map(|seat| {
                if !matches!(p.spec.kind, Kind::Search(_)) {
                    return Agent::new(&p.spec, Limits::depth(1), Some(1), seed + seat as u64);
                }
                let engine = match self.idle.pop() {
                    Some(mut e) => {
                        e.reset();
                        e
                    }
                    None => {
                        let mut config = p.spec.config::<A>(Some(1));
                        config.mcts.seed = p.seed;
                        Box::new(SearchEngine::new(config, p.spec.evaluator::<A>()))
                    }
                };
                Agent::Search {
                    engine,
                    limits: p.spec.limits(Limits::depth(1)),
                }
            })
            .collect()
    }

    /// Keeps the engines of a finished game.
    fn keep(&mut self, agents: Vec<Agent<A>>) {
        for a in agents {
            if let Agent::Search { engine, .. } = a {
                self.idle.push(engine);
            }
        }
    }
}

/// Self-play game `index` of run `id`, with `players`' engines, from the run's opening of
/// that index (`openings`; none: the game's random plies drawn with its own seed).
pub fn play<A: GameAdapter>(
    p: &SelfPlay,
    openings: Option<&Openings<A>>,
    id: &str,
    index: u64,
    players: &mut Players<A>,
) -> Result<TrainGame, Error> {
    let seed = game_seed(p.seed, index);
    let mut rng = Rng::seeded(seed);
    let mut record = match openings {
        Some(o) => o.get(index)?,
        None if A::RANDOM_START => Record::new(A::random_start(seed).unwrap_or_else(A::start)),
        None => Record::new(A::start()),
    };
    let start = record.start().clone();
    let opening = record.moves().iter().map(|m| m.to_string()).collect();
    let mut agents = players.take(p, seed);
    let result = moves_of(p, opening, &mut record, &mut agents, &mut rng);
    players.keep(agents);
    let (moves, scores) = result?;
    let outcome = record
        .result()
        .unwrap_or_else(|| A::limit_outcome(record.position()));
    Ok(TrainGame {
        id: id.to_string(),
        index,
        start: start.to_string(),
        moves,
        scores,
        result: result_text::<A>(outcome),
    })
}

/// The moves of a game after its `opening` (already in `record`), and their scores (none
/// for a random move), to its end or the plies' limit.
#[allow(clippy::type_complexity)]
fn moves_of<A: GameAdapter>(
    p: &SelfPlay,
    opening: Vec<String>,
    record: &mut Record<A::Pos>,
    agents: &mut [Agent<A>],
    rng: &mut Rng,
) -> Result<(Vec<String>, Vec<Option<i32>>), Error> {
    let mut scores = vec![None; opening.len()];
    let mut moves = opening;
    while record.result().is_none() && moves.len() < p.max_plies {
        let mover = record.position().to_move();
        let ply = moves.len();
        let random = ply < p.random_plies || (p.explore > 0.0 && unit(rng) < p.explore);
        let (mv, score) = if random {
            let legal = legal_moves(record.position());
            (legal[rng.below(legal.len())], None)
        } else {
            let (mv, report) = agents[mover].choose(record, |_| {});
            let mv = mv.ok_or_else(|| {
                Error::Game(format!("{}: no move in {}", p.spec.text, record.position()))
            })?;
            (mv, report.map(|r| r.score))
        };
        moves.push(mv.to_string());
        scores.push(score);
        record
            .play(mv)
            .map_err(|e| Error::Game(format!("{}: {mv}: {e}", p.spec.text)))?;
    }
    Ok((moves, scores))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    use plyforge::games::{ChaosClock, Jumpy3};

    /// Self-play of `engine,depth=1` with no exploration: a game's moves follow from its
    /// opening alone.
    fn self_play(plies: usize) -> SelfPlay {
        SelfPlay {
            spec: Spec::parse::<Jumpy3>("engine,depth=1,tt=1").unwrap(),
            random_plies: plies,
            explore: 0.0,
            max_plies: 40,
            seed: 9,
        }
    }

    /// The move lists of games `0..n`.
    fn games(p: &SelfPlay, openings: Option<&Openings<Jumpy3>>, n: u64) -> Vec<Vec<String>> {
        let mut players = Players::<Jumpy3>::default();
        (0..n)
            .map(|i| play(p, openings, "t", i, &mut players).unwrap().moves)
            .collect()
    }

    #[test]
    fn self_play_games_open_distinct_unless_asked_to_draw_on_their_own() {
        let p = self_play(2);
        let distinct = openings::<Jumpy3>(&p, false).expect("Jumpy3 starts from one position");
        let made = games(&p, Some(&distinct), 60);
        let made_distinct = made.iter().collect::<HashSet<_>>().len();

        // Each game's opening is its Openings' (random moves, no score), then the engine's.
        let mut players = Players::<Jumpy3>::default();
        let g = play(&p, Some(&distinct), "t", 7, &mut players).unwrap();
        let opening = distinct.get(7).unwrap();
        let n = opening.moves().len();
        assert!(n >= 2);
        let first: Vec<String> = opening.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(g.moves[..n], first[..]);
        assert!(g.scores[..n].iter().all(Option::is_none));
        assert!(g.scores[n..].iter().all(Option::is_some));
        // Drawn on their own, the same settings repeat many more games (16 distinct of 60
        // where distinct openings give 47: a longer opening whose last random ply is the
        // engine's own move meets an earlier game).
        assert!(openings::<Jumpy3>(&p, true).is_none());
        let own = games(&p, None, 60);
        let own_distinct = own.iter().collect::<HashSet<_>>().len();
        assert!(
            made_distinct > 2 * own_distinct,
            "{made_distinct} distinct games from distinct openings, {own_distinct} without"
        );
        // No random plies, or a start dealt to each game: nothing to draw distinct.
        assert!(openings::<Jumpy3>(&self_play(0), false).is_none());
        let dealt = SelfPlay {
            spec: Spec::parse::<ChaosClock>("engine,depth=1").unwrap(),
            ..self_play(2)
        };
        assert!(openings::<ChaosClock>(&dealt, false).is_none());
    }
}
