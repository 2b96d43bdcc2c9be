//! The self-play games of a training run (their file: [`crate::trainfile`]). A game is a
//! function of its index and the run's settings: its seeds are the index's.

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

/// Self-play game `index` of run `id`, with `players`' engines.
pub fn play<A: GameAdapter>(
    p: &SelfPlay,
    id: &str,
    index: u64,
    players: &mut Players<A>,
) -> Result<TrainGame, Error> {
    let seed = game_seed(p.seed, index);
    let mut rng = Rng::seeded(seed);
    let start = if A::RANDOM_START {
        A::random_start(seed).unwrap_or_else(A::start)
    } else {
        A::start()
    };
    let mut record = Record::new(start.clone());
    let mut agents = players.take(p, seed);
    let result = moves_of(p, &mut record, &mut agents, &mut rng);
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

/// The moves of a game (and their scores) to its end or the plies' limit.
#[allow(clippy::type_complexity)]
fn moves_of<A: GameAdapter>(
    p: &SelfPlay,
    record: &mut Record<A::Pos>,
    agents: &mut [Agent<A>],
    rng: &mut Rng,
) -> Result<(Vec<String>, Vec<Option<i32>>), Error> {
    let (mut moves, mut scores) = (Vec::new(), Vec::new());
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
