//! One game of a match, from its opening to its end (by the rules or by adjudication), with
//! what the file keeps of it: moves, times, nodes, scores, the result and the places.

use std::time::{Duration, Instant};

use plyforge::agent::{Agent, Kind, SearchEngine, Spec};
use plyforge::search::{Game, Limits, Outcome, Player, Record};
use plyforge::{result_text, GameAdapter};

use crate::error::Error;
use crate::matchfile::{Ending, GameLine};

/// `--resign MOVES,SCORE`: a side resigns when its own last MOVES scores are all at most
/// −SCORE and its opponent's last MOVES scores all at least SCORE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    /// Consecutive moves of each side.
    pub moves: usize,
    /// The score, in the engine's units.
    pub score: i32,
}

/// `--draw PLY,MOVES,SCORE`: from ply PLY on, a game is drawn when both sides' last MOVES
/// scores are all within ±SCORE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first ply at which the rule applies.
    pub from_ply: usize,
    /// Consecutive moves of each side.
    pub moves: usize,
    /// The score, in the engine's units.
    pub score: i32,
}

/// The match's rules for ending games early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// End a game after this many plies (the opening's included) with the game's own
    /// result for a move limit.
    pub max_plies: Option<usize>,
    /// The resign rule.
    pub resign: Option<Resign>,
    /// The draw rule.
    pub draw: Option<DrawRule>,
}

fn numbers(option: &str, text: &str, want: usize) -> Result<Vec<i64>, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let values: Option<Vec<i64>> = parts.iter().map(|p| p.parse::<i64>().ok()).collect();
    match values {
        Some(v) if v.len() == want && v.iter().all(|&x| x > 0) => Ok(v),
        _ => Err(format!(
            "{option} {text:?}: expected {} positive whole numbers separated by commas",
            want
        )),
    }
}

impl Resign {
    /// Parses `MOVES,SCORE`.
    pub fn parse(text: &str) -> Result<Resign, String> {
        let v = numbers("--resign", text, 2)?;
        Ok(Resign {
            moves: v[0] as usize,
            score: v[1].min(i64::from(i32::MAX)) as i32,
        })
    }
}

impl DrawRule {
    /// Parses `PLY,MOVES,SCORE`.
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let v = numbers("--draw", text, 3)?;
        Ok(DrawRule {
            from_ply: v[0] as usize,
            moves: v[1] as usize,
            score: v[2].min(i64::from(i32::MAX)) as i32,
        })
    }
}

/// The last `n` scores of a side, if it has `n` and all are known.
fn last(scores: &[Option<i32>], n: usize) -> Option<Vec<i32>> {
    if scores.len() < n {
        return None;
    }
    scores[scores.len() - n..].iter().copied().collect()
}

impl Adjudication {
    /// The score rules' result after a move, for a two-player game: `scores[p]` are player
    /// `p`'s scores of its moves so far (each from its own point of view), `plies` the plies
    /// played.
    pub fn by_scores(
        &self,
        scores: &[Vec<Option<i32>>],
        plies: usize,
    ) -> Option<(Outcome, &'static str)> {
        if scores.len() != 2 {
            return None;
        }
        if let Some(r) = self.resign {
            for winner in 0..2 {
                let (w, l) = (
                    last(&scores[winner], r.moves),
                    last(&scores[1 - winner], r.moves),
                );
                if let (Some(w), Some(l)) = (w, l) {
                    if w.iter().all(|&s| s >= r.score) && l.iter().all(|&s| s <= -r.score) {
                        return Some((Outcome::Win(winner), "resign"));
                    }
                }
            }
        }
        if let Some(d) = self.draw {
            if plies >= d.from_ply {
                let quiet = |p: usize| {
                    last(&scores[p], d.moves).is_some_and(|v| v.iter().all(|&s| s.abs() <= d.score))
                };
                if quiet(0) && quiet(1) {
                    return Some((Outcome::Draw(plyforge::search::DrawKind::TurnLimit), "draw"));
                }
            }
        }
        None
    }
}

/// What a game needs besides its opening and seats.
pub struct Setup<'a> {
    /// The match id.
    pub match_id: &'a str,
    /// The engine specifications.
    pub specs: &'a [Spec],
    /// Limits of specs without their own.
    pub fallback: Limits,
    /// Threads of specs without their own.
    pub threads: usize,
    /// `--seed`.
    pub seed: u64,
    /// The adjudication rules.
    pub adjudication: Adjudication,
    /// A game clock per side for the whole game, for the specs without a limit of their
    /// own.
    pub clock: Option<Duration>,
}

/// The search engines a thread keeps from game to game, reset before each game: a new
/// engine allocates its table on its first search, which for fast engines (a 16 MiB table
/// against searches of a few hundred nodes) costs far more than the game itself. A reset
/// engine searches exactly as a new one, so which thread played which games before does not
/// change a game.
pub struct Engines<A: GameAdapter> {
    /// Idle engines of each specification (boxed as `Agent::Search` holds them).
    #[allow(clippy::vec_box)]
    idle: Vec<Vec<Box<SearchEngine<A>>>>,
}

impl<A: GameAdapter> Engines<A> {
    /// No engines yet, for `specs` specifications.
    pub fn new(specs: usize) -> Self {
        Engines {
            idle: (0..specs).map(|_| Vec::new()).collect(),
        }
    }

    /// The player of specification `s` for one game: a kept engine (reset) or a new one for
    /// a search spec, a new player otherwise.
    fn agent(&mut self, setup: &Setup<'_>, s: usize, seed: u64) -> Agent<A> {
        let spec = &setup.specs[s];
        if !matches!(spec.kind, Kind::Search(_)) {
            return Agent::new(spec, setup.fallback, Some(setup.threads), seed);
        }
        let engine = match self.idle[s].pop() {
            Some(mut e) => {
                e.reset();
                e
            }
            None => Box::new(SearchEngine::new(
                spec.config::<A>(Some(setup.threads)),
                spec.evaluator::<A>(),
            )),
        };
        Agent::Search {
            engine,
            limits: spec.limits(setup.fallback),
        }
    }

    /// Keeps the engine of a finished game's player.
    fn keep(&mut self, s: usize, agent: Agent<A>) {
        if let Agent::Search { engine, .. } = agent {
            self.idle[s].push(engine);
        }
    }
}

/// The seed of the players of game `g` (seat `s` gets this plus `s`), as `arena match` has
/// always seeded them.
pub fn game_seed(seed: u64, g: u64) -> u64 {
    seed.wrapping_mul(7919).wrapping_add(g.wrapping_mul(3))
}

/// The place of each seat: 1 + the number of seats that did strictly better (by their
/// payoff, then by the game's measure of progress).
pub fn places<A: GameAdapter>(pos: &A::Pos, outcome: Outcome) -> Vec<u32> {
    let key = |p: Player| (outcome.utility(p), A::progress(pos, p));
    (0..A::PLAYERS)
        .map(|p| 1 + (0..A::PLAYERS).filter(|&q| key(q) > key(p)).count() as u32)
        .collect()
}

/// Plays game `g` (of opening `opening`, the engines of `seats`) from the opening's record.
pub fn play<A: GameAdapter>(
    setup: &Setup<'_>,
    engines: &mut Engines<A>,
    g: u64,
    opening: u64,
    seats: &[usize],
    from: &Record<A::Pos>,
) -> Result<GameLine, Error> {
    let started = Instant::now();
    let seed = game_seed(setup.seed, g);
    let mut agents: Vec<Agent<A>> = seats
        .iter()
        .enumerate()
        .map(|(seat, &s)| engines.agent(setup, s, seed.wrapping_add(seat as u64)))
        .collect();
    let setup_ms = started.elapsed().as_secs_f64() * 1000.0;
    let line = play_with::<A>(setup, &mut agents, g, opening, seats, from, started)
        .map(|line| GameLine { setup_ms, ..line });
    for (agent, &s) in agents.into_iter().zip(seats) {
        engines.keep(s, agent);
    }
    line
}

/// How a game ended: by its rules or an adjudication (with the reason), or a seat's clock
/// ran out.
enum Finished {
    Over(Outcome, Option<&'static str>),
    Flag(usize),
}

/// The clocks of a game's seats (every seat's, when the match has a clock), and each
/// seat's own limits, which apply within its clock (as on a match server).
struct Clocks {
    left: Vec<Option<Duration>>,
    own: Vec<Limits>,
}

impl Clocks {
    fn new(setup: &Setup<'_>, seats: &[usize]) -> Clocks {
        Clocks {
            left: seats.iter().map(|_| setup.clock).collect(),
            own: seats
                .iter()
                .map(|&s| setup.specs[s].limits(Limits::default()))
                .collect(),
        }
    }

    /// Before seat `p` moves: its agent's limits from its clock and its own limits (the
    /// one clock rule, with the game's policy); false when the clock has run out.
    fn arm<A: GameAdapter>(&self, p: usize, agent: &mut Agent<A>, pos: &A::Pos) -> bool {
        match self.left[p] {
            Some(left) if left.is_zero() => false,
            Some(left) => {
                if let Agent::Search { limits, .. } = agent {
                    *limits = plyforge::clock_limits::<A>(pos, self.own[p], left, None);
                }
                true
            }
            None => true,
        }
    }

    /// After seat `p` moved in `spent`: its clock run down; false when it ran out.
    fn charge(&mut self, p: usize, spent: Duration) -> bool {
        match &mut self.left[p] {
            Some(left) if spent >= *left => {
                *left = Duration::ZERO;
                false
            }
            Some(left) => {
                *left -= spent;
                true
            }
            None => true,
        }
    }
}

/// What a game's moves gave: the record, and what each move took.
struct Moves<P: plyforge::search::Game> {
    record: Record<P>,
    time_ms: Vec<f64>,
    nodes: Vec<u64>,
    scores: Vec<Option<i32>>,
}

/// The moves of a game until it ends (by the rules, the adjudication, or a clock).
fn play_moves<A: GameAdapter>(
    setup: &Setup<'_>,
    agents: &mut [Agent<A>],
    g: u64,
    seats: &[usize],
    from: &Record<A::Pos>,
) -> Result<(Moves<A::Pos>, Finished), Error> {
    let mut m = Moves {
        record: from.clone(),
        time_ms: Vec::new(),
        nodes: Vec::new(),
        scores: Vec::new(),
    };
    let record = &mut m.record;
    let mut by_player: Vec<Vec<Option<i32>>> = vec![Vec::new(); A::PLAYERS];
    let mut clocks = Clocks::new(setup, seats);
    let finished = loop {
        if let Some(r) = record.result() {
            break Finished::Over(r, None);
        }
        if let Some(max) = setup.adjudication.max_plies {
            if record.moves().len() >= max {
                break Finished::Over(A::limit_outcome(record.position()), Some("max-plies"));
            }
        }
        let p = record.position().to_move();
        if !clocks.arm(p, &mut agents[p], record.position()) {
            break Finished::Flag(p);
        }
        let spec = &setup.specs[seats[p]].text;
        let t = Instant::now();
        let (mv, report) = agents[p].choose(record, |_| {});
        let dt = t.elapsed();
        if !clocks.charge(p, dt) {
            break Finished::Flag(p);
        }
        let mv = mv.ok_or_else(|| {
            Error::Game(format!(
                "engine {spec:?} found no move in {} (game {})",
                record.position(),
                g + 1
            ))
        })?;
        let before = record.position().to_string();
        record.play(mv).map_err(|e| {
            Error::Game(format!(
                "engine {spec:?} chose {mv} in {before} (game {}): {e}",
                g + 1
            ))
        })?;
        let score = report.as_ref().map(|r| r.score);
        m.time_ms.push(dt.as_secs_f64() * 1000.0);
        m.nodes.push(report.as_ref().map_or(0, |r| r.nodes));
        m.scores.push(score);
        by_player[p].push(score);
        if record.result().is_none() {
            if let Some((o, why)) = setup
                .adjudication
                .by_scores(&by_player, record.moves().len())
            {
                break Finished::Over(o, Some(why));
            }
        }
    };
    Ok((m, finished))
}

/// Plays a game with its players.
fn play_with<A: GameAdapter>(
    setup: &Setup<'_>,
    agents: &mut [Agent<A>],
    g: u64,
    opening: u64,
    seats: &[usize],
    from: &Record<A::Pos>,
    started: Instant,
) -> Result<GameLine, Error> {
    let opening_len = from.moves().len();
    let (m, finished) = play_moves::<A>(setup, agents, g, seats, from)?;
    let record = &m.record;
    // A seat out of time loses: in a two-player game the other wins; with three, the
    // others share the first place.
    let (ending, result, adjudicated, places) = match finished {
        Finished::Flag(p) if A::PLAYERS == 2 => {
            let o = Outcome::Win(1 - p);
            (
                Ending::Win(1 - p),
                result_text::<A>(o),
                Some("time"),
                places::<A>(record.position(), o),
            )
        }
        Finished::Flag(p) => {
            let places = (0..A::PLAYERS)
                .map(|s| if s == p { A::PLAYERS as u32 } else { 1 })
                .collect();
            (
                Ending::Loss(p),
                format!("loss {}", A::player_letter(p)),
                Some("time"),
                places,
            )
        }
        Finished::Over(o, why) => {
            let ending = match o {
                Outcome::Win(p) => Ending::Win(p),
                Outcome::BothWin => Ending::BothWin,
                Outcome::BothLose => Ending::BothLose,
                _ => Ending::Draw,
            };
            (
                ending,
                result_text::<A>(o),
                why,
                places::<A>(record.position(), o),
            )
        }
    };
    let moves: Vec<String> = record.moves().iter().map(|m| m.to_string()).collect();
    Ok(GameLine {
        match_id: setup.match_id.to_string(),
        game: g,
        opening,
        seats: seats.to_vec(),
        engines: seats.iter().map(|&s| setup.specs[s].text.clone()).collect(),
        ending,
        result,
        adjudicated: adjudicated.map(str::to_string),
        places,
        start: record.start().to_string(),
        opening_moves: moves[..opening_len].to_vec(),
        moves: moves[opening_len..].to_vec(),
        time_ms: m.time_ms,
        nodes: m.nodes,
        scores: m.scores,
        setup_ms: 0.0,
        wall_ms: started.elapsed().as_secs_f64() * 1000.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyforge::games::{Chexers, Jumpy3};

    #[test]
    fn rules_parse_and_refuse() {
        assert_eq!(
            Resign::parse("3,600"),
            Ok(Resign {
                moves: 3,
                score: 600
            })
        );
        assert_eq!(
            DrawRule::parse(" 40, 8 ,10"),
            Ok(DrawRule {
                from_ply: 40,
                moves: 8,
                score: 10
            })
        );
        for bad in ["3", "3,x", "0,600", "3,-5", "1,2,3"] {
            assert!(
                Resign::parse(bad).unwrap_err().contains("--resign"),
                "{bad}"
            );
        }
        assert!(DrawRule::parse("40,8").unwrap_err().contains("--draw"));
    }

    #[test]
    fn the_score_rules() {
        let adj = Adjudication {
            max_plies: None,
            resign: Some(Resign {
                moves: 2,
                score: 500,
            }),
            draw: Some(DrawRule {
                from_ply: 10,
                moves: 2,
                score: 5,
            }),
        };
        let s = |v: &[i32]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        // Both agree twice: player 1 wins.
        let sc = vec![s(&[0, -600, -700]), s(&[0, 550, 800])];
        assert_eq!(adj.by_scores(&sc, 6), Some((Outcome::Win(1), "resign")));
        // Only once for the loser: no.
        let sc = vec![s(&[0, 100, -700]), s(&[0, 550, 800])];
        assert_eq!(adj.by_scores(&sc, 6), None);
        // A player without scores (greedy, random) never agrees.
        let sc = vec![vec![None, None], s(&[900, 900])];
        assert_eq!(adj.by_scores(&sc, 4), None);
        // Quiet scores draw, but only from ply 10.
        let sc = vec![s(&[3, -2, 1]), s(&[0, 4, -5])];
        assert_eq!(adj.by_scores(&sc, 9), None);
        assert_eq!(adj.by_scores(&sc, 10).map(|x| x.1), Some("draw"),);
        // Three players: no score rules.
        let sc = vec![s(&[0, 0]), s(&[0, 0]), s(&[0, 0])];
        assert_eq!(adj.by_scores(&sc, 20), None);
    }

    #[test]
    fn places_follow_the_result_then_progress() {
        let j = plyforge::read_position::<Jumpy3>("start").unwrap();
        assert_eq!(places::<Jumpy3>(&j, Outcome::Win(1)), vec![2, 1]);
        assert_eq!(
            places::<Jumpy3>(&j, Outcome::Draw(plyforge::search::DrawKind::Repetition)),
            vec![1, 1]
        );
        // Chexers: red won; of green (2 exits) and blue (1 exit), green places second.
        let c = plyforge::read_position::<Chexers>(
            "gg../...../....../r.....b/.....b/....b/.... r 3,2,1 30",
        )
        .unwrap();
        assert_eq!(places::<Chexers>(&c, Outcome::Win(0)), vec![1, 2, 3]);
        assert_eq!(places::<Chexers>(&c, Outcome::Win(2)), vec![2, 3, 1]);
        let even = plyforge::read_position::<Chexers>("start").unwrap();
        assert_eq!(places::<Chexers>(&even, Outcome::Win(2)), vec![2, 2, 1]);
    }
}
