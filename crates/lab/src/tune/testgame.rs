//! A game of two numbers for the tests of `arena tune`: its evaluation weighs them by two
//! parameters ([`TwoGame`]), or by nothing tunable ([`Plain`]).

use plyforge::params::Param;
use plyforge::search::{Evaluator, Game, MoveList, Outcome, Scores};
use plyforge::{EvalError, GameAdapter};

/// A position of two numbers; the evaluation is `wa·a + wb·b` for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Two {
    pub(crate) a: i32,
    pub(crate) b: i32,
}

impl std::fmt::Display for Two {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.a, self.b)
    }
}

impl std::str::FromStr for Two {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Two, Self::Err> {
        let (a, b) = s.split_once(',').unwrap_or((s, "0"));
        Ok(Two {
            a: a.parse()?,
            b: b.parse()?,
        })
    }
}

impl Game for Two {
    type Move = u8;
    fn players(&self) -> usize {
        2
    }
    fn to_move(&self) -> usize {
        0
    }
    fn legal_moves(&self, out: &mut MoveList<u8>) {
        out.push(0);
    }
    fn play(&mut self, _mv: u8) {}
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn key(&self) -> u64 {
        (self.a as u64) << 32 | self.b as u32 as u64
    }
    fn recompute_key(&self) -> u64 {
        self.key()
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Weighted(i32, i32);

impl Evaluator<Two> for Weighted {
    fn evaluate(&self, p: &Two) -> Scores {
        let v = self.0 * p.a + self.1 * p.b;
        [v, -v, 0]
    }
}

pub(crate) struct TwoGame;

impl GameAdapter for TwoGame {
    type Pos = Two;
    type Move = u8;
    type Eval = Weighted;
    const NAME: &'static str = "two";
    const TITLE: &'static str = "Two";
    const PLAYERS: usize = 2;
    fn start() -> Two {
        Two { a: 0, b: 0 }
    }
    fn player_letter(p: usize) -> &'static str {
        ["x", "o"][p]
    }
    fn player_name(p: usize) -> &'static str {
        ["X", "O"][p]
    }
    fn default_eval() -> Weighted {
        Weighted(10, 10)
    }
    fn params() -> Vec<Param> {
        vec![
            Param::int("wa", 10, 0, 100, 4, "a"),
            Param::int("wb", 10, 0, 100, 4, "b"),
        ]
    }
    fn evaluator_with(name: &str, values: &[(&'static str, f64)]) -> Result<Weighted, EvalError> {
        let mut w = Self::evaluator(name)?;
        for &(k, v) in values {
            match k {
                "wa" => w.0 = v as i32,
                _ => w.1 = v as i32,
            }
        }
        Ok(w)
    }
}

/// [`Two`] with no tunable parameters.
pub(crate) struct Plain;

impl GameAdapter for Plain {
    type Pos = Two;
    type Move = u8;
    type Eval = Weighted;
    const NAME: &'static str = "plain";
    const TITLE: &'static str = "Plain";
    const PLAYERS: usize = 2;
    fn start() -> Two {
        Two { a: 0, b: 0 }
    }
    fn player_letter(p: usize) -> &'static str {
        ["x", "o"][p]
    }
    fn player_name(p: usize) -> &'static str {
        ["X", "O"][p]
    }
    fn default_eval() -> Weighted {
        Weighted(1, 1)
    }
}
