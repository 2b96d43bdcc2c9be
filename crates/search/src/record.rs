//! A game in progress with its history: the rules that need more than the position
//! (repetition) live here, not in the position's key.

use std::fmt;

use fxhash::FxHashMap;

use crate::game::{Game, IllegalMove, MoveList, Outcome};

/// Why [`Record::play`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The game has already ended.
    GameOver(Outcome),
    /// The move is not legal here.
    Illegal(IllegalMove),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(o) => write!(f, "the game is already over ({o:?})"),
            PlayError::Illegal(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A game from a start position: the moves played, how often each position occurred, and
/// the result once it ends (by the position's rules or by the repetition rule).
///
/// The start position counts as its first occurrence. When the repetition rule and the
/// position's own rules both end the game on the same move, the repetition wins (as the
/// Chexers course referee rules).
#[derive(Clone, Debug)]
pub struct Record<G: Game> {
    start: G,
    position: G,
    moves: Vec<G::Move>,
    keys: Vec<u64>,
    seen: FxHashMap<u64, u32>,
    result: Option<Outcome>,
}

impl<G: Game> Record<G> {
    /// A record that starts at `start` (which may already be over).
    pub fn new(start: G) -> Self {
        let key = start.repetition_key();
        let mut seen = FxHashMap::default();
        seen.insert(key, 1);
        let result = start.outcome();
        Record {
            position: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
            seen,
            result,
        }
    }

    /// The number of moves played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when no move has been played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Takes back the last move (the history rules' counts with it); `None` when no move has
    /// been played. The record is then exactly what it was before that move.
    pub fn undo(&mut self) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        let key = self.keys.pop().expect("one key per position");
        if let Some(count) = self.seen.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                self.seen.remove(&key);
            }
        }
        let mut position = self.start.clone();
        for &m in &self.moves {
            position.play(m);
        }
        self.position = position;
        // A move was played from that position, so the game was not over there.
        self.result = None;
        Some(mv)
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<Outcome> {
        self.result
    }

    /// Repetition keys of every position so far, the current one last: what a search from the
    /// current position needs to know of the past.
    pub fn history_keys(&self) -> &[u64] {
        &self.keys
    }

    /// How often the current position has occurred (at least 1).
    pub fn occurrences(&self) -> u32 {
        self.seen
            .get(&self.position.repetition_key())
            .copied()
            .unwrap_or(0)
    }

    /// The legal moves now; empty once the game is over.
    pub fn legal_moves(&self) -> MoveList<G::Move> {
        let mut out = MoveList::new();
        if self.result.is_none() {
            self.position.legal_moves(&mut out);
        }
        out
    }

    /// Plays `mv` after checking it, then applies the end rules.
    pub fn play(&mut self, mv: G::Move) -> Result<Option<Outcome>, PlayError> {
        if let Some(o) = self.result {
            return Err(PlayError::GameOver(o));
        }
        if let Some(why) = self.position.why_illegal(mv) {
            return Err(PlayError::Illegal(why));
        }
        self.position.play(mv);
        self.moves.push(mv);
        let key = self.position.repetition_key();
        self.keys.push(key);
        let count = self.seen.entry(key).or_insert(0);
        *count += 1;
        let count = *count;
        self.result = match self.position.repetition_rule() {
            Some((limit, outcome)) if count >= limit => Some(outcome),
            _ => self.position.outcome(),
        };
        Ok(self.result)
    }
}
