//! What the Jumpy3 examples (`config_match`, `blunders`, `depth`) share:
//! their seeded random choices, openings and evaluations. Included with `#[path]`; each
//! example uses what it needs.

#![allow(dead_code)]

use jumpy3::eval::{DefaultEval, Estimate, Weights, FEATURES};
use jumpy3::search::{Evaluator, Game, MoveList, Scores};
use jumpy3::Position;
use plyforge::jumpy3;

/// One step of xorshift64 (13, 7, 17) on `s` (never 0), returning the new state. The
/// examples' figures were measured with these sequences, so they must not change.
pub fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// Plays a random legal move of `p` (which must go on), chosen by the next step of `s`.
pub fn play_random(p: &mut Position, s: &mut u64) {
    let mut m = MoveList::new();
    p.legal_moves(&mut m);
    p.play(m[(xorshift(s) % m.len() as u64) as usize]);
}

/// A start position: 4 to 15 seeded random plies from the start, still in play.
pub fn opening(seed: u64) -> Position {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    loop {
        let mut p = Position::start();
        let plies = 4 + xorshift(&mut s) % 12;
        for _ in 0..plies {
            if p.outcome().is_some() {
                break;
            }
            play_random(&mut p, &mut s);
        }
        if p.outcome().is_none() {
            return p;
        }
    }
}

/// The sheet's estimate, or [`DefaultEval`] with some weights.
#[derive(Clone, Copy)]
pub enum Eval {
    /// [`Estimate::Sheet`].
    Sheet,
    /// The default evaluation's features with these weights.
    Tuned(DefaultEval),
}

impl Evaluator<Position> for Eval {
    fn evaluate(&self, p: &Position) -> Scores {
        match self {
            Eval::Sheet => Estimate::Sheet.evaluate(p),
            Eval::Tuned(e) => e.evaluate(p),
        }
    }
}

/// `sheet`, `default`, or comma-separated weights.
pub fn parse_eval(s: &str) -> Eval {
    match s {
        "sheet" => Eval::Sheet,
        "default" => Eval::Tuned(DefaultEval::default()),
        s => Eval::Tuned(DefaultEval::with_weights(parse_weights(s))),
    }
}

/// Comma-separated weights (missing ones are 0).
pub fn parse_weights(s: &str) -> Weights {
    let mut w = [0; FEATURES];
    for (k, x) in s.split(',').enumerate() {
        w[k] = x.parse().expect("a weight");
    }
    Weights(w)
}
