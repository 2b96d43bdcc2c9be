//! A synthetic test game: seeded random game trees, cheap and deterministic.
//!
//! A position is a node id, a level (plies played) and the player to move; everything else
//! (branching, children, the player after a move, terminal nodes, outcomes, evaluations) is
//! derived from a seeded hash, so positions are tiny, `play` is a few multiplications and
//! every run sees the same tree. Children are mapped into [`Spec::width`] ids per level, so
//! different paths reach the same position (transpositions) while levels only grow (the
//! positions form a DAG). With [`Spec::cyclic`] the repetition key ignores the level, so
//! positions recur along a path, for testing repetition rules.
//!
//! The engine's own tests check it against [`crate::reference`] on many such trees, and the
//! benchmarks use it. It is also a compact example of implementing [`Game`].
//!
//! ```
//! use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
//! use plyforge_search::{reference, Config, Limits, Search};
//!
//! let game = Synthetic::new(Spec { seed: 7, ..Spec::default() });
//! let mut engine = Search::new(Config::default().with_tt_mib(1), SyntheticEval);
//! let report = engine.run(&game, &[], Limits::depth(5), |_| {});
//! assert_eq!(report.score, reference::minimax(&game, &SyntheticEval, 5, &[], true));
//! ```

use crate::game::{DrawKind, Evaluator, Game, MoveList, Outcome, Player, Scores};

/// The 64-bit finaliser of SplitMix64: a fast, well-mixing hash.
#[inline]
pub(crate) fn mix(z: u64) -> u64 {
    crate::rng::splitmix64(z)
}

/// How outcomes and evaluations relate across players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Payoffs {
    /// Wins, losses and draws only; evaluations sum to zero (`[v, -v, 0]` with two players).
    #[default]
    ZeroSum,
    /// Outcomes include "both win" and "both lose"; each player's evaluation is independent.
    GeneralSum,
    /// Evaluations are non-negative and sum to 1000 (games without wins and losses: use
    /// `terminal_per_mille: 0`); the setting in which max^n shallow pruning applies.
    ConstantSum,
}

/// The parameters of a synthetic game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// The seed: every tree property derives from it.
    pub seed: u64,
    /// Number of players: 2 or 3.
    pub players: u8,
    /// Fewest moves of a non-terminal position (at least 1).
    pub min_branching: u8,
    /// Most moves of a non-terminal position (at most 250).
    pub max_branching: u8,
    /// Distinct node ids per level: the smaller, the more transpositions.
    pub width: u64,
    /// Level at which the game ends in a draw by turn limit.
    pub length: u16,
    /// Per mille of positions (after the first move) where the game ends by the hash.
    pub terminal_per_mille: u16,
    /// Per mille of moves after which the same player moves again.
    pub extra_move_per_mille: u16,
    /// Per mille of moves that advance the level by two instead of one, so that one position
    /// is reached after different numbers of plies (and searched to different depths).
    pub long_move_per_mille: u16,
    /// Per mille of positions whose only move is a pass.
    pub pass_per_mille: u16,
    /// Per mille of moves reported by [`Game::noisy_moves`] (for quiescence search).
    pub noisy_per_mille: u16,
    /// If true the repetition key ignores the level, so positions recur along a path.
    pub cyclic: bool,
    /// The repetition rule ([`Game::repetition_rule`]).
    pub repetition: Option<(u32, Outcome)>,
    /// Whether [`Game::skip_turn`] works (for best-reply search).
    pub skip: bool,
    /// Kind of outcomes and evaluations.
    pub payoffs: Payoffs,
}

impl Default for Spec {
    /// Two players, 2 to 6 moves, 64 ids per level, 40 levels, a few terminals, extra moves,
    /// long moves, passes and noisy moves; no cycles, no repetition rule, no skipping.
    fn default() -> Self {
        Spec {
            seed: 1,
            players: 2,
            min_branching: 2,
            max_branching: 6,
            width: 64,
            length: 40,
            terminal_per_mille: 60,
            extra_move_per_mille: 100,
            long_move_per_mille: 150,
            pass_per_mille: 30,
            noisy_per_mille: 200,
            cyclic: false,
            repetition: None,
            skip: false,
            payoffs: Payoffs::ZeroSum,
        }
    }
}

impl Spec {
    /// The tree of the parallel-speedup measurements (the
    /// report of `cargo xtask bench`): two players, 4 to 8 moves, 2¹⁴ ids per level, 200
    /// levels, 1% terminal positions, and the defaults' extra, long, pass and noisy moves.
    /// Depth 17 takes about a second on one thread.
    pub fn speedup_tree(seed: u64) -> Spec {
        Spec {
            seed,
            min_branching: 4,
            max_branching: 8,
            width: 1 << 14,
            length: 200,
            terminal_per_mille: 10,
            ..Spec::default()
        }
    }
}

/// A move of the synthetic game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyntheticMove {
    /// Go to child number `i` of the position.
    Child(u8),
    /// The forced pass of a position whose only move is a pass.
    Pass,
}

/// A position of a synthetic game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Synthetic {
    spec: Spec,
    id: u64,
    level: u16,
    to_move: u8,
}

const K_LEVEL: u64 = 0xd6e8_feb8_6659_fd93;
const K_PLAYER: u64 = 0xa076_1d64_78bd_642f;
const K_ID: u64 = 0xe703_7ed1_a0b4_28db;
const SALT_CHILD: u64 = 0x1;
const SALT_EXTRA: u64 = 0x2;
const SALT_NOISY: u64 = 0x3;
const SALT_EVAL: u64 = 0x4;
const SALT_END: u64 = 0x5;
const SALT_PASS: u64 = 0x6;
const SALT_LONG: u64 = 0x7;

impl Synthetic {
    /// The root of the game described by `spec`: node 0, level 0, player 0 to move.
    pub fn new(spec: Spec) -> Synthetic {
        Synthetic::at(spec, 0, 0, 0)
    }

    /// An arbitrary position of the game.
    pub fn at(spec: Spec, id: u64, level: u16, to_move: Player) -> Synthetic {
        assert!(spec.players == 2 || spec.players == 3, "2 or 3 players");
        assert!(spec.min_branching >= 1 && spec.min_branching <= spec.max_branching);
        assert!(spec.max_branching <= 250 && spec.width >= 1);
        Synthetic {
            spec,
            id: id % spec.width,
            level,
            to_move: (to_move % spec.players as usize) as u8,
        }
    }

    /// The parameters.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The level: plies played from the root, plus one per long move.
    pub fn level(&self) -> u16 {
        self.level
    }

    /// The node id within its level.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The hash that decides this node's shape (without the level when cyclic).
    #[inline]
    fn shape(&self) -> u64 {
        let level = if self.spec.cyclic {
            0
        } else {
            self.level as u64
        };
        mix(self.spec.seed
            ^ self.id.wrapping_mul(K_ID)
            ^ level.wrapping_mul(K_LEVEL)
            ^ (self.to_move as u64 + 1).wrapping_mul(K_PLAYER))
    }

    #[inline]
    fn per_mille(h: u64, salt: u64, p: u16) -> bool {
        mix(h ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)) % 1000 < p as u64
    }

    fn is_pass_node(&self, h: u64) -> bool {
        Self::per_mille(h, SALT_PASS, self.spec.pass_per_mille)
    }

    fn branching(&self, h: u64) -> u8 {
        let span = (self.spec.max_branching - self.spec.min_branching) as u64 + 1;
        self.spec.min_branching + (mix(h ^ SALT_CHILD) % span) as u8
    }

    fn next_player(&self) -> u8 {
        (self.to_move + 1) % self.spec.players
    }
}

impl Game for Synthetic {
    type Move = SyntheticMove;

    fn players(&self) -> usize {
        self.spec.players as usize
    }

    fn to_move(&self) -> Player {
        self.to_move as Player
    }

    fn legal_moves(&self, out: &mut MoveList<SyntheticMove>) {
        if self.outcome().is_some() {
            return;
        }
        let h = self.shape();
        if self.is_pass_node(h) {
            out.push(SyntheticMove::Pass);
        } else {
            out.extend((0..self.branching(h)).map(SyntheticMove::Child));
        }
    }

    fn play(&mut self, mv: SyntheticMove) {
        let h = self.shape();
        self.level += 1;
        match mv {
            SyntheticMove::Pass => self.to_move = self.next_player(),
            SyntheticMove::Child(i) => {
                let c = h ^ (i as u64 + 1).wrapping_mul(K_ID);
                self.id = mix(c) % self.spec.width;
                if Self::per_mille(c, SALT_LONG, self.spec.long_move_per_mille) {
                    self.level = (self.level + 1).min(self.spec.length);
                }
                if !Self::per_mille(c, SALT_EXTRA, self.spec.extra_move_per_mille) {
                    self.to_move = self.next_player();
                }
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let players = self.spec.players as u64;
        if self.level >= self.spec.length {
            return Some(Outcome::Draw(DrawKind::TurnLimit));
        }
        let h = self.shape();
        if self.level == 0 || !Self::per_mille(h, SALT_END, self.spec.terminal_per_mille) {
            return None;
        }
        let r = mix(h ^ SALT_END);
        let general = self.spec.payoffs == Payoffs::GeneralSum;
        let kinds = players + 1 + if general { 2 } else { 0 };
        Some(match r % kinds {
            k if k < players => Outcome::Win(k as Player),
            k if k == players => Outcome::Draw(DrawKind::Score),
            k if k == players + 1 => Outcome::BothWin,
            _ => Outcome::BothLose,
        })
    }

    fn key(&self) -> u64 {
        mix(self.shape() ^ (self.level as u64).wrapping_mul(K_LEVEL))
    }

    fn recompute_key(&self) -> u64 {
        self.key()
    }

    fn repetition_key(&self) -> u64 {
        self.shape()
    }

    fn repetition_rule(&self) -> Option<(u32, Outcome)> {
        self.spec.repetition
    }

    fn skip_turn(&mut self) -> bool {
        if self.spec.skip {
            self.to_move = self.next_player();
        }
        self.spec.skip
    }

    fn zero_sum(&self) -> bool {
        self.spec.players == 2 && self.spec.payoffs == Payoffs::ZeroSum
    }

    fn noisy_moves(&self, out: &mut MoveList<SyntheticMove>) {
        if self.outcome().is_some() {
            return;
        }
        let h = self.shape();
        if self.is_pass_node(h) {
            return;
        }
        for i in 0..self.branching(h) {
            let c = h ^ (i as u64 + 1).wrapping_mul(K_ID);
            if Self::per_mille(c, SALT_NOISY, self.spec.noisy_per_mille) {
                out.push(SyntheticMove::Child(i));
            }
        }
    }
}

/// The evaluator of the synthetic game: hash-derived values in `-1000..=1000`, shaped by
/// [`Spec::payoffs`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyntheticEval;

impl Evaluator<Synthetic> for SyntheticEval {
    fn evaluate(&self, g: &Synthetic) -> Scores {
        let h = mix(g.key() ^ SALT_EVAL);
        let part = |i: u32| ((h >> (i * 16)) % 2001) as i32 - 1000;
        match (g.spec.payoffs, g.spec.players) {
            (Payoffs::ZeroSum, 2) => [part(0), -part(0), 0],
            (Payoffs::ZeroSum, _) => [part(0), part(1), -part(0) - part(1)],
            (Payoffs::GeneralSum, _) => [part(0), part(1), part(2)],
            (Payoffs::ConstantSum, 2) => {
                let a = (h % 1001) as i32;
                [a, 1000 - a, 0]
            }
            (Payoffs::ConstantSum, _) => {
                let a = (h % 1001) as i32;
                let b = ((h >> 20) % (1001 - a as u64)) as i32;
                [a, b, 1000 - a - b]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_with_transpositions_and_features() {
        let spec = Spec {
            width: 8,
            ..Spec::default()
        };
        let root = Synthetic::new(spec);
        let mut keys = std::collections::HashMap::new();
        let (mut extra, mut passes, mut ends, mut transpositions) = (0, 0, 0, 0);
        let mut frontier = vec![root];
        for _ in 0..6 {
            let mut next = Vec::new();
            for p in frontier {
                let mut moves = MoveList::new();
                p.legal_moves(&mut moves);
                assert_eq!(moves.is_empty(), p.outcome().is_some());
                if p.outcome().is_some() {
                    ends += 1;
                }
                if moves.as_slice() == [SyntheticMove::Pass] {
                    passes += 1;
                }
                for m in moves {
                    let mut c = p;
                    c.play(m);
                    assert_eq!(c.key(), c.recompute_key());
                    if c.to_move() == p.to_move() {
                        extra += 1;
                    }
                    if keys.insert(c.key(), c).is_some() {
                        transpositions += 1;
                    }
                    next.push(c);
                }
            }
            frontier = next;
        }
        assert!(extra > 0 && passes > 0 && ends > 0 && transpositions > 0);
        assert_eq!(SyntheticEval.evaluate(&root), SyntheticEval.evaluate(&root));
    }

    #[test]
    fn constant_sum_evaluations_sum_to_1000() {
        for players in [2, 3] {
            for id in 0..50 {
                let spec = Spec {
                    players,
                    payoffs: Payoffs::ConstantSum,
                    ..Spec::default()
                };
                let s = SyntheticEval.evaluate(&Synthetic::at(spec, id, 3, 1));
                assert!(s.iter().all(|&v| v >= 0));
                assert_eq!(s.iter().sum::<i32>(), 1000);
            }
        }
    }
}
