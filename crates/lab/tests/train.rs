//! A training run learns a known value function: in the race to 10 (add 1 or 2 to the
//! total; who reaches 10 wins) the player to move loses exactly where 10 − total is a
//! multiple of 3. Self-play from random totals by a search that sees to the end gives every
//! position its exact result, and the network trained on them must tell every total's
//! winner.

use plyforge::encoding::{Encoded, Encoding};
use plyforge::learned::{NetEval, SparseEval};
use plyforge::search::{Evaluator, Game, MoveList, Outcome, Player, Scores};
use plyforge::GameAdapter;
use plyforge_lab::train::{SparseSettings, Target, TrainReport, TrainSettings, Training};
use plyforge_lab::Silent;

const GOAL: u8 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Race {
    total: u8,
    to_move: u8,
}

impl std::fmt::Display for Race {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.total, self.to_move)
    }
}

impl std::str::FromStr for Race {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Race, Self::Err> {
        let (t, m) = s.trim().split_once(' ').unwrap_or((s.trim(), "0"));
        Ok(Race {
            total: t.parse()?,
            to_move: m.parse()?,
        })
    }
}

impl Game for Race {
    type Move = u8;
    fn players(&self) -> usize {
        2
    }
    fn to_move(&self) -> Player {
        usize::from(self.to_move)
    }
    fn legal_moves(&self, out: &mut MoveList<u8>) {
        for step in 1..=2 {
            if self.total + step <= GOAL {
                out.push(step);
            }
        }
    }
    fn play(&mut self, step: u8) {
        self.total += step;
        self.to_move = 1 - self.to_move;
    }
    fn outcome(&self) -> Option<Outcome> {
        // The player who reached the goal moved last.
        (self.total >= GOAL).then(|| Outcome::Win(usize::from(1 - self.to_move)))
    }
    fn key(&self) -> u64 {
        u64::from(self.total) << 1 | u64::from(self.to_move)
    }
    fn recompute_key(&self) -> u64 {
        self.key()
    }
}

/// Knows nothing: the search finds the results by itself.
#[derive(Clone, Copy)]
struct Blind;

impl Evaluator<Race> for Blind {
    fn evaluate(&self, _: &Race) -> Scores {
        [0; 3]
    }
}

struct RaceGame;

impl GameAdapter for RaceGame {
    type Pos = Race;
    type Move = u8;
    type Eval = Blind;
    const NAME: &'static str = "race";
    const TITLE: &'static str = "Race to 10";
    const PLAYERS: usize = 2;
    const RANDOM_START: bool = true;
    fn random_start(seed: u64) -> Option<Race> {
        Some(Race {
            total: (seed % u64::from(GOAL)) as u8,
            to_move: (seed / 16 % 2) as u8,
        })
    }
    fn start() -> Race {
        Race {
            total: 0,
            to_move: 0,
        }
    }
    fn player_letter(p: Player) -> &'static str {
        ["a", "b"][p]
    }
    fn player_name(p: Player) -> &'static str {
        ["A", "B"][p]
    }
    fn default_eval() -> Blind {
        Blind
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
}

impl Encoding for RaceGame {
    const ACTIONS: usize = 2;
    const SHAPE: &'static [usize] = &[GOAL as usize];
    fn action(step: u8) -> Option<usize> {
        (1..=2).contains(&step).then(|| usize::from(step) - 1)
    }
    fn decode(action: usize) -> Option<u8> {
        (action < 2).then(|| action as u8 + 1)
    }
    fn observe(pos: &Race, _player: Player, out: &mut [f32]) {
        // One-hot of the total (the same for both players).
        out[usize::from(pos.total.min(GOAL - 1))] = 1.0;
    }
}

/// A small dense network's run on the race: perfect self-play (12 plies see the end),
/// outcomes as targets.
fn race_settings(games: u64, epochs: u64) -> TrainSettings {
    TrainSettings {
        engine: Some("alphabeta,depth=12,tt=1".into()),
        games,
        explore: 0.0,
        target: Target::Outcome,
        hidden: vec![16],
        epochs,
        batch: 32,
        holdout: 0.0,
        ..TrainSettings::default()
    }
}

fn race_run(settings: &TrainSettings) -> TrainReport {
    Training::<RaceGame>::new(settings)
        .expect("settings")
        .run(&mut Silent)
        .expect("a run")
}

#[test]
fn a_network_learns_who_wins_the_race_from_each_total() {
    let report = race_run(&race_settings(300, 60));
    let net = report.net.dense().expect("a dense network").clone();
    let eval = NetEval::<RaceGame>::new(net).expect("the game's network");
    for total in 0..GOAL {
        for to_move in 0..2 {
            let pos = Race { total, to_move };
            let loses = (GOAL - total) % 3 == 0;
            let mine = eval.evaluate(&pos)[usize::from(to_move)];
            assert_eq!(
                mine < 0,
                loses,
                "total {total}, player {to_move} to move: scored {mine}"
            );
            assert!(mine.abs() > 500, "total {total}: {mine} is not sure");
        }
    }
    let (trained, _) = report.positions;
    assert!(trained > 1000, "{trained} positions");
    let (first, last) = (report.losses[0].0, report.losses.last().unwrap().0);
    assert!(last < first / 5.0, "loss {first} -> {last}");
}

#[test]
fn where_only_wins_count_the_draw_is_worth_what_the_positions_never_won_from_are() {
    let settings = TrainSettings {
        draw: -1.0,
        draw_fit: true,
        ..race_settings(200, 40)
    };
    let report = race_run(&settings);
    let fit = report.draw_fit.clone().expect("a learned draw");
    // The player to move from a total 3k short of the goal never wins (perfect play):
    // those positions are the ones the draw is worth, and every won one is above it.
    assert!(fit.score < 0.0 && fit.score > -1.0, "{fit}");
    let (top, count, wins) = fit.lowest;
    assert_eq!((top, wins), (fit.score, 0), "{fit}");
    assert!(count > 0 && fit.won > 0 && count < fit.values, "{fit}");
    let net = report.net.dense().expect("a dense network").clone();
    let noted: f32 = net.notes()["draw"].parse().expect("a number");
    assert_eq!(noted, fit.score);
    assert!(net.notes().contains_key("draw-fit"));
    let eval = NetEval::<RaceGame>::new(net).expect("the game's network");
    for total in 0..GOAL {
        for to_move in 0..2 {
            let pos = Race { total, to_move };
            let mine = eval.evaluate(&pos)[usize::from(to_move)];
            if (GOAL - total) % 3 != 0 {
                assert!(
                    mine as f32 > fit.score * plyforge::learned::SCALE,
                    "total {total}: won from, scored {mine}, the draw {}",
                    fit.score
                );
            }
        }
    }
    // A learned draw is a draw trained as no win: any other draw value is refused.
    let refused = Training::<RaceGame>::new(&TrainSettings {
        draw: 0.0,
        ..settings
    });
    assert!(refused.is_err());
}

#[test]
fn a_sparse_network_learns_who_wins_the_race_and_a_run_is_a_function_of_its_settings() {
    let dir = std::env::temp_dir().join(format!("plyforge-lab-sparse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = |out: &str, epochs: u64, resume: bool, concurrency: usize| TrainSettings {
        engine: Some("alphabeta,depth=12,tt=1".into()),
        games: 300,
        explore: 0.0,
        target: Target::Score,
        lambda: Some(0.5),
        score_scale: 300.0,
        sparse: Some(SparseSettings {
            width: 16,
            perspectives: 2,
            l2: None,
        }),
        epochs,
        batch: 32,
        learning_rate: 3e-3,
        holdout: 0.0,
        out: Some(dir.join(out)),
        resume,
        concurrency,
        ..TrainSettings::default()
    };
    let report = Training::<RaceGame>::new(&settings("a.safetensors", 60, false, 1))
        .expect("settings")
        .run(&mut Silent)
        .expect("a run");
    assert!(report.throughput.is_some_and(|t| t > 0.0));
    let net = report.net.sparse().expect("a sparse network").clone();
    assert_eq!(net.shape().features, 10, "the race's observed features");
    let eval = SparseEval::<RaceGame>::new(net).expect("the game's network");
    for total in 0..GOAL {
        for to_move in 0..2 {
            let pos = Race { total, to_move };
            let loses = (GOAL - total) % 3 == 0;
            let mine = eval.evaluate(&pos)[usize::from(to_move)];
            assert_eq!(
                mine < 0,
                loses,
                "total {total}, player {to_move} to move: scored {mine}"
            );
        }
    }
    // The same settings in two parts (resumed for more epochs), with games at once: the
    // same bytes.
    let bytes = |name: &str| std::fs::read(dir.join(name)).unwrap();
    Training::<RaceGame>::new(&settings("b.safetensors", 30, false, 2))
        .unwrap()
        .run(&mut Silent)
        .unwrap();
    Training::<RaceGame>::new(&settings("b.safetensors", 60, true, 1))
        .unwrap()
        .run(&mut Silent)
        .unwrap();
    assert!(bytes("a.safetensors") == bytes("b.safetensors"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Knows who wins: the mover loses where 10 − total is a multiple of 3.
#[derive(Clone, Copy)]
struct Judge;

impl Evaluator<Race> for Judge {
    fn evaluate(&self, pos: &Race) -> Scores {
        let me = usize::from(pos.to_move);
        let mine = if (GOAL - pos.total) % 3 == 0 {
            -1000
        } else {
            1000
        };
        let mut s = [0; 3];
        s[me] = mine;
        s[1 - me] = -mine;
        s
    }
}

/// The race with an observation that shows nothing: only its evaluation's terms (the
/// default ones, the judge's scores) tell the totals apart.
struct HiddenRace;

impl GameAdapter for HiddenRace {
    type Pos = Race;
    type Move = u8;
    type Eval = Judge;
    const NAME: &'static str = "hidden-race";
    const TITLE: &'static str = "Race to 10, unseen";
    const PLAYERS: usize = 2;
    const RANDOM_START: bool = true;
    fn random_start(seed: u64) -> Option<Race> {
        RaceGame::random_start(seed)
    }
    fn start() -> Race {
        RaceGame::start()
    }
    fn player_letter(p: Player) -> &'static str {
        RaceGame::player_letter(p)
    }
    fn player_name(p: Player) -> &'static str {
        RaceGame::player_name(p)
    }
    fn default_eval() -> Judge {
        Judge
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
}

impl Encoding for HiddenRace {
    const ACTIONS: usize = 2;
    const SHAPE: &'static [usize] = &[1];
    fn action(step: u8) -> Option<usize> {
        RaceGame::action(step)
    }
    fn decode(action: usize) -> Option<u8> {
        RaceGame::decode(action)
    }
    fn observe(_pos: &Race, _player: Player, _out: &mut [f32]) {}
}

#[test]
fn a_network_learns_from_the_evaluation_s_terms_what_the_observation_hides() {
    // Totals the network gets right, trained with and without the terms.
    let right = |terms: bool| {
        let settings = TrainSettings {
            engine: Some("alphabeta,depth=12,tt=1".into()),
            games: 200,
            explore: 0.0,
            hidden: vec![8],
            epochs: 40,
            batch: 32,
            holdout: 0.0,
            terms,
            ..TrainSettings::default()
        };
        let report = Training::<HiddenRace>::new(&settings)
            .expect("settings")
            .run(&mut Silent)
            .expect("a run");
        let net = report.net.dense().expect("a dense network").clone();
        assert_eq!(net.sizes()[0], if terms { 3 } else { 1 });
        assert_eq!(
            report.net.notes().get("terms").map(String::as_str),
            terms.then_some("2")
        );
        let eval = NetEval::<HiddenRace>::new(net).expect("the game's network");
        assert_eq!(eval.inputs().terms(), if terms { 2 } else { 0 });
        (0..GOAL)
            .filter(|&total| {
                let pos = Race { total, to_move: 0 };
                let loses = (GOAL - total) % 3 == 0;
                (eval.evaluate(&pos)[0] < 0) == loses
            })
            .count()
    };
    assert_eq!(right(true), usize::from(GOAL), "with the terms every total");
    let blind = right(false);
    assert!(
        blind <= 7,
        "without them one value for all totals: {blind} right"
    );
}
