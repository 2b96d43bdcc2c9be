//! Engine specifications (`arena match --engine SPEC`, the web page's seats, Python's
//! `Engine(spec=...)`) and the players they make: the search engine under limits, a greedy
//! one-ply player and a random player.
//!
//! SPEC syntax: `KIND[,KEY=VALUE]...`
//! - KIND: `engine` (the game's recommended settings), `alphabeta` (`ab`), `paranoid`,
//!   `brs` (`bestreply`), `maxn`, `mcts` (Monte Carlo tree search): the search engine with
//!   that algorithm and the game's other recommended settings; `greedy`: the game crate's
//!   greedy player where it has one (Chexers, Throne), else (or with `eval=`) the move whose
//!   resulting position the evaluation likes best, ties broken at random; `random`: a
//!   uniformly random legal move.
//! - KEYs: [`SPEC_KEYS`], the one list of them, each with the value it takes and what it
//!   does: the search's limits and settings (`depth=N`, `time=DUR`, `nodes=N`, `threads=N`,
//!   `eval=NAME` or `eval=net:FILE` ([`crate::learned`]), `tt=MIB`, `mode=exact|selective`,
//!   …, which set [`Config`]'s fields), the selective search's techniques and constants
//!   ([`search::Selectivity`]) and Monte Carlo tree search's ([`search::MctsConfig`]; a
//!   depth limit makes MCTS prove the root within that many plies).
//! - The evaluation's parameters ([`GameAdapter::params`], [`crate::params`]): `NAME=NUMBER`
//!   for each the game declares (Chexers' `material=320`), checked against its range; they
//!   apply to the evaluation named by `eval=` (or the default).

mod spec;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use search::rng::XorShift64Star as Rng;
use search::{Algorithm, Config, Evaluator, Game, Limits, Player, Record, Report, MAX_EVAL};

pub use self::spec::{check_params, KeyGroup, Kind, Spec, SpecKey, SPEC_KEYS};
use crate::adapter::{legal_moves, CratePlayer, GameAdapter};
use crate::error::Error;
use crate::learned::Evaluation;

/// The search engine of one game, with its evaluation, kept between moves (its table too).
pub struct SearchEngine<A: GameAdapter> {
    search: search::Search<A::Pos, Evaluation<A>>,
}

impl<A: GameAdapter> SearchEngine<A> {
    /// An engine with this configuration and evaluation.
    pub fn new(config: Config, eval: Evaluation<A>) -> Self {
        let mut search = search::Search::new(config, eval);
        search.set_maxn_bounds(A::maxn_bounds());
        SearchEngine { search }
    }

    /// Forgets what earlier searches left behind (the table's entries, the move-ordering
    /// tables), so that the next search is exactly a new engine's, without allocating the
    /// table again (a match reuses its engines from game to game this way).
    pub fn reset(&mut self) {
        self.search.reset();
    }

    /// An engine whose table is allocated now: an [`Error::Resources`] when the table is
    /// more than the memory available, or cannot be allocated, instead of an abort (or the
    /// kernel's out-of-memory killer) later. [`SearchEngine::new`] allocates on the first search
    /// and searches without a table if the memory is not there.
    ///
    /// ```
    /// use plyforge::agent::SearchEngine;
    /// use plyforge::games::Jumpy3;
    /// use plyforge::GameAdapter;
    /// let huge = Jumpy3::engine_config().with_tt_mib(1 << 40);
    /// let own = plyforge::learned::Evaluation::Own(Jumpy3::default_eval());
    /// let err = SearchEngine::<Jumpy3>::try_new(huge, own).err().unwrap();
    /// assert!(matches!(err, plyforge::Error::Resources { .. }), "{err}");
    /// ```
    pub fn try_new(config: Config, eval: Evaluation<A>) -> Result<Self, Error> {
        let mib = config.tt_mib;
        if config.use_tt && config.algorithm != Algorithm::MaxN {
            crate::memory::check_available_mib(mib).map_err(|reason| Error::Resources {
                reason: format!("transposition table: {reason}"),
            })?;
        }
        let mut search = search::Search::try_new(config, eval).map_err(|e| Error::Resources {
            reason: format!("transposition table: {mib} MiB cannot be allocated ({e})"),
        })?;
        search.set_maxn_bounds(A::maxn_bounds());
        Ok(SearchEngine { search })
    }

    /// The flag that stops a running search.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.search.stop_handle()
    }

    /// Searches the record's current position under `limits`, calling `info` after each
    /// completed iteration.
    pub fn think(
        &mut self,
        record: &Record<A::Pos>,
        limits: Limits,
        info: impl FnMut(&Report<A::Move>),
    ) -> Report<A::Move> {
        self.search
            .run(record.position(), record.history_keys(), limits, info)
    }
}

/// A player of a match or of `arena play`.
#[non_exhaustive]
pub enum Agent<A: GameAdapter> {
    /// The search engine under limits.
    Search {
        /// The engine.
        engine: Box<SearchEngine<A>>,
        /// Limits per move.
        limits: Limits,
    },
    /// The greedy one-ply player.
    Greedy {
        /// Its evaluation.
        eval: Evaluation<A>,
        /// Tie-breaks.
        rng: Rng,
    },
    /// The game crate's own greedy player.
    CrateGreedy(CratePlayer<A::Pos, A::Move>),
    /// The random player.
    Random(Rng),
}

impl<A: GameAdapter> Agent<A> {
    /// The player a spec describes; `fallback` are the limits for a search spec without its
    /// own, `threads` the thread count unless the spec says otherwise, `seed` the seed unless
    /// the spec says otherwise.
    pub fn new(spec: &Spec, fallback: Limits, threads: Option<usize>, seed: u64) -> Self {
        let seed = spec.seed.unwrap_or(seed);
        match spec.kind {
            Kind::Search(_) => Agent::Search {
                engine: Box::new(SearchEngine::new(
                    search_config::<A>(spec, threads, seed),
                    spec.evaluator::<A>(),
                )),
                limits: spec.limits(fallback),
            },
            Kind::Greedy => match (spec.eval.is_none(), A::crate_greedy(seed)) {
                (true, Some(player)) => Agent::CrateGreedy(player),
                _ => Agent::Greedy {
                    eval: spec.evaluator::<A>(),
                    rng: Rng::seeded(seed),
                },
            },
            Kind::Random => Agent::Random(Rng::seeded(seed)),
        }
    }

    /// The player a spec describes, as [`Agent::new`] (the same seed rule), with the search
    /// engine's table allocated now ([`SearchEngine::try_new`]): an error instead of an
    /// abort when the memory is not there.
    pub fn try_new(
        spec: &Spec,
        fallback: Limits,
        threads: Option<usize>,
        seed: u64,
    ) -> Result<Self, Error> {
        match spec.kind {
            Kind::Search(_) => Ok(Agent::Search {
                engine: Box::new(SearchEngine::try_new(
                    search_config::<A>(spec, threads, spec.seed.unwrap_or(seed)),
                    spec.evaluator::<A>(),
                )?),
                limits: spec.limits(fallback),
            }),
            _ => Ok(Agent::new(spec, fallback, threads, seed)),
        }
    }

    /// Chooses a move in a position that is not over; the report is there for the search.
    pub fn choose(
        &mut self,
        record: &Record<A::Pos>,
        info: impl FnMut(&Report<A::Move>),
    ) -> (Option<A::Move>, Option<Report<A::Move>>) {
        match self {
            Agent::Search { engine, limits } => {
                let report = engine.think(record, *limits, info);
                let best = report
                    .best
                    .or_else(|| record.legal_moves().first().copied());
                (best, Some(report))
            }
            Agent::Greedy { eval, rng } => (greedy::<A::Pos>(record, &*eval, rng), None),
            Agent::CrateGreedy(player) => (player(record.position()), None),
            Agent::Random(rng) => {
                let moves = record.legal_moves();
                if moves.is_empty() {
                    (None, None)
                } else {
                    (Some(moves[rng.below(moves.len())]), None)
                }
            }
        }
    }
}

/// The search's configuration of `spec` with `seed` for MCTS's random choices (the spec's
/// own seed already chosen over the caller's by the caller).
fn search_config<A: GameAdapter>(spec: &Spec, threads: Option<usize>, seed: u64) -> Config {
    let mut config = spec.config::<A>(threads);
    config.mcts.seed = seed;
    config
}

/// The move after which the evaluation (or the game's end) is best for the mover; ties at
/// random.
fn greedy<G: Game>(record: &Record<G>, eval: &dyn Evaluator<G>, rng: &mut Rng) -> Option<G::Move> {
    let pos = record.position();
    let me: Player = pos.to_move();
    let mut best: Vec<G::Move> = Vec::new();
    let mut best_score = i64::MIN;
    for mv in legal_moves(pos) {
        let mut child = pos.clone();
        child.play(mv);
        let score = match child.outcome() {
            Some(o) => i64::from(o.utility(me)) * 10 * i64::from(MAX_EVAL),
            None => i64::from(eval.evaluate(&child)[me]),
        };
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(mv);
        }
    }
    if best.is_empty() {
        None
    } else {
        Some(best[rng.below(best.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Chexers;
    use std::time::Duration;

    /// A move and a search's score, nodes and line.
    type Choice = (Option<String>, Option<(i32, u64, Vec<String>)>);

    /// The move and the report of a player made by `make` from `spec` with `seed`.
    fn first_move(
        spec: &str,
        seed: u64,
        make: fn(&Spec, Limits, Option<usize>, u64) -> Agent<Chexers>,
    ) -> Choice {
        let spec = Spec::parse::<Chexers>(spec).unwrap();
        let mut agent = make(
            &spec,
            Limits::movetime(Duration::from_secs(1)),
            Some(1),
            seed,
        );
        let record = Record::new(Chexers::start());
        let (best, report) = agent.choose(&record, |_| {});
        let report = report.map(|r| {
            (
                r.score,
                r.nodes,
                r.pv.iter().map(ToString::to_string).collect(),
            )
        });
        (best.map(|m| m.to_string()), report)
    }

    #[test]
    fn try_new_honours_the_seed_as_new_does() {
        let spec = "mcts,nodes=400,playout=6";
        let try_new = |s: &Spec, l, t, seed| Agent::try_new(s, l, t, seed).unwrap();
        for seed in [3, 4] {
            assert_eq!(
                first_move(spec, seed, try_new),
                first_move(spec, seed, Agent::new),
                "seed {seed}"
            );
        }
        // The seed decides something: else the comparison above could not fail.
        assert_ne!(
            first_move(spec, 3, Agent::new),
            first_move(spec, 4, Agent::new)
        );
    }
}
