//! The time manager: turns a move time or a game clock into a soft and a hard limit.
//!
//! - With a move time `t` (and no clock): the time is spent. The hard limit is `t` minus a
//!   small margin (`min(5 ms, t/20)`) for returning the answer, and iterations start until
//!   it: one the limit stops still gives the move its completed root moves found best
//!   (see [`crate::Search::run`]).
//! - With a clock (remaining `r`, increment `i`, moves to go `m`, 30 when unknown): a safety
//!   margin of `min(50 ms, r/20)` is never touched; the target is `r/m + 0.8·i`, the hard limit
//!   `min(r − margin, max(target, min(3·target, (r − margin)/2)))` (all of `r − margin` when
//!   `m = 1`). No iteration starts after 60 % of the target (the *soft limit*) or when the
//!   previous iterations' growth predicts it would pass the hard limit.
//! - **Instability** ([`Stability`]): when the best move changes between iterations, or the
//!   score falls by more than the evaluation's aspiration window, the soft limit
//!   stretches, by `1 + s` where `s` counts the changes (a fall counts half, a fall of
//!   several windows up to one), each iteration's weight halved at the next (one change in
//!   the last iteration: ×2; a change in each of the last iterations: up to ×3), never past
//!   the hard limit: a position where the search keeps changing its mind, or finds trouble,
//!   gets more time, one with a settled best move the plain share.
//! - On a game clock a root with a single legal move is answered after one iteration.
//!
//! Monte Carlo tree search, which can stop after any iteration, spends the target (the move
//! time less its margin, or `min(target, hard)` on a clock) instead of the soft limit.
//!
//! The search stops at the hard limit wherever it is (checked every 1024 nodes); of an
//! unfinished iteration only the root moves whose search completed count (the best of them
//! where one beat the window), so the answer comes before the hard limit.

use std::time::{Duration, Instant};

use crate::types::Limits;

/// Soft and hard limits of one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimeManager {
    start: Instant,
    /// Do not start an iteration after this.
    soft: Option<Duration>,
    /// Stop at once after this.
    hard: Option<Duration>,
    /// The time to spend on this move when the search can stop at any moment (Monte Carlo
    /// tree search): the move time's hard limit, or the clock's target.
    target: Option<Duration>,
    /// A move time without a clock: iterations start until the hard limit.
    spend_all: bool,
}

impl TimeManager {
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut spend: Option<Duration> = None;
        let mut tighten = |s: Duration, h: Duration, t: Duration| {
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
            spend = Some(spend.map_or(t, |x| x.min(t)));
        };
        if let Some(t) = limits.movetime {
            let h = t.saturating_sub((t / 20).min(Duration::from_millis(5)));
            tighten(h, h, h);
        }
        if let Some(c) = limits.clock {
            let r = c.remaining;
            let avail = r.saturating_sub((r / 20).min(Duration::from_millis(50)));
            let m = c.moves_to_go.unwrap_or(30).max(1);
            let target = (r / m + c.increment.mul_f64(0.8)).min(avail);
            let h = if m == 1 {
                avail
            } else {
                avail.min(target.max((target * 3).min(avail / 2)))
            };
            tighten(target.mul_f64(0.6).min(h), h, target.min(h));
        }
        TimeManager {
            start,
            soft,
            hard,
            target: spend,
            spend_all: limits.movetime.is_some() && limits.clock.is_none(),
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the time comes from a game clock (not a movetime alone).
    pub fn on_clock(&self) -> bool {
        self.limited() && !self.spend_all
    }

    /// Whether time is limited at all.
    pub fn limited(&self) -> bool {
        self.hard.is_some()
    }

    /// The time to spend on this move by a search that can stop at any moment: the move
    /// time (less its margin), or the clock's target share (never beyond the hard limit).
    pub fn target(&self) -> Option<Duration> {
        self.target
    }

    /// The hard limit has passed.
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether to start another iteration, given how long the last two took and how
    /// unsettled the best move is (the soft limit times [`Stability::scale`]).
    pub fn may_start(&self, last: Duration, before_last: Duration, scale: f64) -> bool {
        self.may_start_at(self.start.elapsed(), last, before_last, scale)
    }

    fn may_start_at(
        &self,
        elapsed: Duration,
        last: Duration,
        before_last: Duration,
        scale: f64,
    ) -> bool {
        let (Some(soft), Some(hard)) = (self.soft, self.hard) else {
            return true;
        };
        if self.spend_all {
            return elapsed < hard;
        }
        let soft = soft.mul_f64(scale.clamp(1.0, MAX_STRETCH)).min(hard);
        let growth = if before_last.as_nanos() > 0 {
            (last.as_secs_f64() / before_last.as_secs_f64()).clamp(1.5, 8.0)
        } else {
            2.0
        };
        elapsed < soft && elapsed + last.mul_f64(growth) < hard
    }
}

/// The most the soft limit stretches for an unsettled best move.
const MAX_STRETCH: f64 = 3.0;

/// How unsettled the best move of an iterative deepening is: each iteration that changes
/// the best move adds 1, one whose score falls by more than `window` adds half (up to 1 for
/// a fall of several windows), and the count halves at every iteration; the soft limit is
/// stretched by `1 + count` (at most ×3).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stability<M> {
    best: Option<M>,
    score: Option<i32>,
    window: i32,
    changes: f64,
}

impl<M: PartialEq + Copy> Stability<M> {
    /// For an evaluation whose values move by about `window` between iterations.
    pub fn new(window: i32) -> Self {
        Stability {
            best: None,
            score: None,
            window: window.max(1),
            changes: 0.0,
        }
    }

    /// A completed iteration whose best move is `best` (`None`: no move, as at a game's end)
    /// with the score `score`.
    pub fn update(&mut self, best: Option<M>, score: i32) {
        self.changes *= 0.5;
        if self.best.is_some() && best != self.best {
            self.changes += 1.0;
        }
        if let Some(prev) = self.score {
            let fall = i64::from(prev) - i64::from(score);
            if fall > i64::from(self.window) {
                self.changes += (fall as f64 / (4 * self.window) as f64).clamp(0.5, 1.0);
            }
        }
        self.best = best;
        self.score = Some(score);
    }

    /// The factor on the soft limit.
    pub fn scale(&self) -> f64 {
        (1.0 + self.changes).min(MAX_STRETCH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Clock;

    fn limits(r: u64, i: u64, m: Option<u32>) -> TimeManager {
        let clock = Clock {
            remaining: Duration::from_millis(r),
            increment: Duration::from_millis(i),
            moves_to_go: m,
        };
        let l = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        TimeManager::new(&l, Instant::now())
    }

    #[test]
    fn clock_allocation_keeps_a_margin() {
        let t = limits(60_000, 0, None);
        assert_eq!(t.hard, Some(Duration::from_millis(6000)));
        assert_eq!(t.soft, Some(Duration::from_millis(1200)));
        // One move to go: everything but the margin.
        let t = limits(1000, 0, Some(1));
        assert_eq!(t.hard, Some(Duration::from_millis(950)));
        // Very little time: never the whole of it.
        let t = limits(10, 0, Some(1));
        assert!(t.hard.unwrap() < Duration::from_millis(10));
        let t = limits(0, 100, None);
        assert_eq!(t.hard, Some(Duration::ZERO));
        // Moves to go and increment.
        let t = limits(10_000, 1000, Some(10));
        assert_eq!(t.hard, Some(Duration::from_millis(4975)));
    }

    #[test]
    fn an_unsettled_best_move_stretches_the_soft_limit() {
        // 60 s and 30 moves: target 2 s, soft 1.2 s, hard 6 s.
        let t = limits(60_000, 0, None);
        let ms = Duration::from_millis;
        let quick = ms(10);
        // Past the soft limit: no new iteration for a settled best move.
        assert!(t.may_start_at(ms(1100), quick, quick, 1.0));
        assert!(!t.may_start_at(ms(1300), quick, quick, 1.0));
        // The best move changed in the last iteration: twice the soft limit.
        let mut s = Stability::new(40);
        for m in [1, 1, 1] {
            s.update(Some(m), 0);
        }
        assert_eq!(s.scale(), 1.0);
        s.update(Some(2), 0);
        assert_eq!(s.scale(), 2.0);
        assert!(t.may_start_at(ms(2300), quick, quick, s.scale()));
        assert!(!t.may_start_at(ms(2500), quick, quick, s.scale()));
        // It settles again: the stretch halves with each iteration that keeps the move.
        s.update(Some(2), 0);
        assert_eq!(s.scale(), 1.5);
        s.update(Some(2), 0);
        assert_eq!(s.scale(), 1.25);
        // Changing every iteration: at most three times, and never past the hard limit.
        let mut s = Stability::new(40);
        for m in 0..20 {
            s.update(Some(m), 0);
        }
        assert!(s.scale() > 2.9 && s.scale() <= MAX_STRETCH);
        assert!(t.may_start_at(ms(3500), quick, quick, s.scale()));
        assert!(!t.may_start_at(ms(3700), quick, quick, s.scale()));
        assert!(!t.may_start_at(ms(3700), quick, quick, 100.0));
        // The growth of the last iterations still keeps the hard limit.
        assert!(!t.may_start_at(ms(3000), ms(1600), ms(800), s.scale()));
        // The first iteration's move sets no change; no move at all is one.
        let mut s = Stability::<u8>::new(40);
        s.update(None, 0);
        assert_eq!(s.scale(), 1.0);
        s.update(Some(3), 0);
        assert_eq!(s.scale(), 1.0);
        s.update(None, 0);
        assert_eq!(s.scale(), 2.0);
        // Without a clock every iteration may start.
        let free = TimeManager::new(&Limits::depth(3), Instant::now());
        assert!(free.may_start_at(ms(100_000), ms(50_000), ms(1), 1.0));
    }

    #[test]
    fn a_falling_score_stretches_the_soft_limit() {
        let mut s = Stability::new(40);
        s.update(Some(1), 100);
        s.update(Some(1), 90); // within the window: settled
        assert_eq!(s.scale(), 1.0);
        s.update(Some(1), 30); // a fall of 60: half a change
        assert_eq!(s.scale(), 1.5);
        let mut s = Stability::new(40);
        s.update(Some(1), 100);
        s.update(Some(1), -400); // several windows: a whole change
        assert_eq!(s.scale(), 2.0);
        s.update(Some(1), -300); // a rise is no trouble
        assert_eq!(s.scale(), 1.5);
    }

    #[test]
    fn a_movetime_is_spent() {
        let t = TimeManager::new(
            &Limits::movetime(Duration::from_millis(100)),
            Instant::now(),
        );
        let ms = Duration::from_millis;
        // However long the last iteration took, another starts while time is left: a
        // stopped iteration still improves the move through its completed root moves.
        assert!(t.may_start_at(ms(60), ms(50), ms(10), 1.0));
        assert!(t.may_start_at(ms(94), ms(90), ms(4), 1.0));
        assert!(!t.may_start_at(ms(95), ms(1), ms(1), 1.0));
        // With a clock as well, the clock's plan decides.
        let mut l = Limits::movetime(ms(100));
        l.clock = Some(Clock::new(ms(60_000)));
        let t = TimeManager::new(&l, Instant::now());
        assert!(!t.may_start_at(ms(60), ms(50), ms(10), 1.0));
    }

    #[test]
    fn movetime_and_clock_combine_to_the_tighter() {
        let mut l = Limits::movetime(Duration::from_millis(100));
        l.clock = Some(Clock {
            remaining: Duration::from_millis(1000),
            increment: Duration::ZERO,
            moves_to_go: None,
        });
        let t = TimeManager::new(&l, Instant::now());
        assert_eq!(t.hard, Some(Duration::from_millis(95)));
        assert!(!TimeManager::new(&Limits::depth(3), Instant::now()).limited());
    }
}
