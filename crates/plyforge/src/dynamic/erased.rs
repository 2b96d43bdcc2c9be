//! The object-safe faces of the typed layer that the dynamic layer holds: a game's record
//! ([`DynState`], and its action numbers, [`DynEncoding`]), a player ([`DynEngine`]) and a
//! game's registration ([`DynGame`]), each implemented once over [`GameAdapter`]; and what
//! they answer in notation ([`SolutionText`], [`SearchInfo`]). Nothing here names
//! `GameKind` or `State`: those are built on these faces.

use std::any::Any;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use search::{mate_distance, Game, Limits, Outcome, Player, Record, Report};

use crate::adapter::picture::Board;
use crate::adapter::{
    self, board_of, play_list, play_random, play_text, read_position, result_text, result_words,
    ExactValue, GameAdapter, SolveSettings,
};
use crate::agent::{Agent, Spec};
use crate::draw::Paint;
use crate::error::Error;

/// An exact solution with its moves in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SolutionText {
    /// The value for the side to move.
    pub value: ExactValue,
    /// Every best move.
    pub best: Vec<String>,
    /// One perfect-play line (may be empty or cut short).
    pub line: Vec<String>,
}

/// What a search found, with its moves in notation.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchInfo {
    /// The move chosen (`None` only when the game is over).
    pub best: Option<String>,
    /// The score from the point of view of the player to move (see [`search::MATE`]); 0 for
    /// players that do not search.
    pub score: i32,
    /// One value per player (max^n; the two-player searches fill in the negation).
    pub scores: Vec<i32>,
    /// Depth of the last completed iteration (0 for players that do not search).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<String>,
    /// Fraction of table probes that found an entry.
    pub tt_hit_rate: f64,
}

impl SearchInfo {
    /// `Some(n)`: the score is a forced win (`n > 0`) or loss (`n < 0`) in `|n|` plies.
    pub fn mate(&self) -> Option<i32> {
        mate_distance(self.score)
    }

    fn from_report<M: fmt::Display>(r: &Report<M>, players: usize) -> SearchInfo {
        SearchInfo {
            best: r.best.as_ref().map(ToString::to_string),
            score: r.score,
            scores: r.scores[..players].to_vec(),
            depth: r.depth,
            nodes: r.nodes,
            nps: r.nps,
            elapsed: r.elapsed,
            pv: r.pv.iter().map(ToString::to_string).collect(),
            tt_hit_rate: r.tt_hit_rate,
        }
    }
}

/// The object-safe face of a [`Record`] of any game.
pub(crate) trait DynState: Send + Sync {
    fn clone_box(&self) -> Box<dyn DynState>;
    fn as_any(&self) -> &dyn Any;
    fn position(&self) -> String;
    fn start(&self) -> String;
    fn players(&self) -> usize;
    fn to_move(&self) -> Player;
    fn legal_moves(&self) -> Vec<String>;
    fn play(&mut self, text: &str) -> Result<String, Error>;
    fn play_index(&mut self, index: usize) -> Result<String, Error>;
    fn play_all(&mut self, items: &[&str]) -> Result<usize, Error>;
    fn undo(&mut self) -> Option<String>;
    fn moves(&self) -> Vec<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn result_text(&self, o: Outcome) -> String;
    fn result_words(&self, o: Outcome) -> String;
    fn draw(&self, paint: &dyn Fn(&str, Paint) -> String) -> String;
    fn perft(&self, depth: u32) -> u64;
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    fn solve(&self, settings: &SolveSettings<'_>) -> Result<SolutionText, Error>;
    fn key(&self) -> u64;
    fn clock_limits(&self, own: Limits, remaining: Duration, cap: Option<u32>) -> Limits;
    fn board(&self) -> Option<Board>;
    fn random_playout(&mut self, seed: u64, max_moves: Option<usize>) -> usize;
    fn encoding(&self) -> &dyn DynEncoding;
}

pub(crate) struct StateOf<A: GameAdapter> {
    pub(crate) record: Record<A::Pos>,
}

fn texts<M: fmt::Display>(moves: &[M]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

impl<A: GameAdapter> DynState for StateOf<A> {
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(StateOf::<A> {
            record: self.record.clone(),
        })
    }
    fn as_any(&self) -> &dyn Any {
        &self.record
    }
    fn position(&self) -> String {
        self.record.position().to_string()
    }
    fn start(&self) -> String {
        self.record.start().to_string()
    }
    fn players(&self) -> usize {
        A::PLAYERS
    }
    fn to_move(&self) -> Player {
        self.record.position().to_move()
    }
    fn legal_moves(&self) -> Vec<String> {
        texts(&self.record.legal_moves())
    }
    fn play(&mut self, text: &str) -> Result<String, Error> {
        play_text::<A>(&mut self.record, text).map(|m| m.to_string())
    }
    fn play_index(&mut self, index: usize) -> Result<String, Error> {
        if let Some(o) = self.record.result() {
            return Err(Error::GameOver {
                result: result_text::<A>(o),
            });
        }
        let moves = self.record.legal_moves();
        let mv = *moves.get(index).ok_or(Error::NoSuchMove {
            index,
            moves: moves.len(),
        })?;
        self.record
            .play(mv)
            .map_err(|e| Error::move_error(1, &mv.to_string(), e))?;
        Ok(mv.to_string())
    }
    fn play_all(&mut self, items: &[&str]) -> Result<usize, Error> {
        play_list::<A>(&mut self.record, items)
    }
    fn undo(&mut self) -> Option<String> {
        self.record.undo().map(|m| m.to_string())
    }
    fn moves(&self) -> Vec<String> {
        texts(self.record.moves())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.record.result()
    }
    fn result_text(&self, o: Outcome) -> String {
        result_text::<A>(o)
    }
    fn result_words(&self, o: Outcome) -> String {
        result_words::<A>(o)
    }
    fn draw(&self, paint: &dyn Fn(&str, Paint) -> String) -> String {
        A::draw(self.record.position(), paint)
    }
    fn perft(&self, depth: u32) -> u64 {
        search::perft(self.record.position(), depth)
    }
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        search::perft_divide(self.record.position(), depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect()
    }
    fn solve(&self, settings: &SolveSettings<'_>) -> Result<SolutionText, Error> {
        let s = A::solve(&self.record, settings).ok_or(Error::NoSolver { game: A::TITLE })??;
        Ok(SolutionText {
            value: s.value,
            best: texts(&s.best),
            line: texts(&s.line),
        })
    }
    fn key(&self) -> u64 {
        self.record.position().key()
    }
    fn clock_limits(&self, own: Limits, remaining: Duration, cap: Option<u32>) -> Limits {
        adapter::clock_limits::<A>(self.record.position(), own, remaining, cap)
    }
    fn board(&self) -> Option<Board> {
        A::view().map(|v| board_of::<A>(&v, &self.record))
    }
    fn random_playout(&mut self, seed: u64, max_moves: Option<usize>) -> usize {
        play_random::<A>(&mut self.record, seed, max_moves)
    }
    fn encoding(&self) -> &dyn DynEncoding {
        self
    }
}

impl<A: GameAdapter> DynEncoding for StateOf<A> {
    fn legal_actions(&self) -> Result<Vec<usize>, Error> {
        adapter::legal_actions::<A>(&self.record)
    }
    fn action_of(&self, mv: &str) -> Result<usize, Error> {
        adapter::action_of::<A>(&self.record, mv)
    }
    fn find_action(&self, action: usize) -> Result<usize, Error> {
        adapter::find_action::<A>(&self.record, action)
    }
    fn history_actions(&self) -> Result<Vec<usize>, Error> {
        adapter::history_actions::<A>(&self.record)
    }
    fn observe(&self, player: usize, out: &mut [f32]) -> Result<(), Error> {
        adapter::observe::<A>(&self.record, player, out)
    }
    fn terms(&self, player: usize) -> Result<Vec<f32>, Error> {
        adapter::seen_terms::<A>(&self.record, player)
    }
    fn features(&self, player: usize) -> Result<Vec<u32>, Error> {
        adapter::seen_features::<A>(&self.record, player)
    }
}

/// The encodings of a game in progress, behind one object-safe face (the dynamic layer's
/// `StateEncoding` calls it).
pub(crate) trait DynEncoding {
    fn legal_actions(&self) -> Result<Vec<usize>, Error>;
    fn action_of(&self, mv: &str) -> Result<usize, Error>;
    fn find_action(&self, action: usize) -> Result<usize, Error>;
    fn history_actions(&self) -> Result<Vec<usize>, Error>;
    fn observe(&self, player: usize, out: &mut [f32]) -> Result<(), Error>;
    fn terms(&self, player: usize) -> Result<Vec<f32>, Error>;
    fn features(&self, player: usize) -> Result<Vec<u32>, Error>;
}

/// The object-safe face of an [`Agent`] of any game.
pub(crate) trait DynEngine: Send {
    /// A search of the record behind `state` (another game's record is refused, naming
    /// `title`, that game's name for people).
    fn search(
        &mut self,
        state: &dyn DynState,
        title: &str,
        limits: Option<Limits>,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchInfo, Error>;
    fn stop_handle(&self) -> Option<Arc<AtomicBool>>;
}

pub(crate) struct EngineOf<A: GameAdapter> {
    pub(crate) agent: Agent<A>,
}

impl<A: GameAdapter> DynEngine for EngineOf<A> {
    fn search(
        &mut self,
        state: &dyn DynState,
        title: &str,
        limits: Option<Limits>,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchInfo, Error> {
        let record = state
            .as_any()
            .downcast_ref::<Record<A::Pos>>()
            .ok_or_else(|| Error::Spec {
                text: A::NAME.to_string(),
                reason: format!("this engine plays {}, not {title}", A::TITLE),
            })?;
        if let Some(o) = record.result() {
            return Err(Error::GameOver {
                result: result_text::<A>(o),
            });
        }
        // Other limits for this search only.
        let mut saved = None;
        if let (Some(l), Agent::Search { limits: own, .. }) = (limits, &mut self.agent) {
            saved = Some(std::mem::replace(own, l));
        }
        let (best, report) = self
            .agent
            .choose(record, |r| info(&SearchInfo::from_report(r, A::PLAYERS)));
        if let (Some(l), Agent::Search { limits: own, .. }) = (saved, &mut self.agent) {
            *own = l;
        }
        Ok(match report {
            Some(r) => SearchInfo {
                best: best.map(|m| m.to_string()),
                ..SearchInfo::from_report(&r, A::PLAYERS)
            },
            None => SearchInfo {
                best: best.map(|m| m.to_string()),
                score: 0,
                scores: vec![0; A::PLAYERS],
                depth: 0,
                nodes: 0,
                nps: 0,
                elapsed: Duration::ZERO,
                pv: best.iter().map(ToString::to_string).collect(),
                tt_hit_rate: 0.0,
            },
        })
    }
    fn stop_handle(&self) -> Option<Arc<AtomicBool>> {
        match &self.agent {
            Agent::Search { engine, .. } => Some(engine.stop_handle()),
            _ => None,
        }
    }
}

/// The typed operations of a registered game, behind one object-safe face (kept by the
/// registry's entry of the game).
pub(crate) trait DynGame: Send + Sync {
    fn read(&self, position: &str) -> Result<Box<dyn DynState>, Error>;
    fn start(&self) -> Box<dyn DynState>;
    fn engine(
        &self,
        spec: &str,
        threads: Option<usize>,
    ) -> Result<(Box<dyn DynEngine>, Spec), Error>;
    fn spec(&self, spec: &str) -> Result<Spec, Error>;
    fn action_to_move(&self, action: usize) -> Result<String, Error>;
}

/// [`DynGame`] of adapter `A`.
pub(crate) struct Ops<A>(pub(crate) std::marker::PhantomData<fn() -> A>);

impl<A: GameAdapter> DynGame for Ops<A> {
    fn read(&self, position: &str) -> Result<Box<dyn DynState>, Error> {
        Ok(state_of::<A>(Record::new(read_position::<A>(position)?)))
    }
    fn start(&self) -> Box<dyn DynState> {
        state_of::<A>(Record::new(A::start()))
    }
    fn engine(
        &self,
        spec: &str,
        threads: Option<usize>,
    ) -> Result<(Box<dyn DynEngine>, Spec), Error> {
        let spec = Spec::parse::<A>(spec)?;
        let agent = Agent::<A>::try_new(
            &spec,
            Limits::movetime(std::time::Duration::from_secs(1)),
            threads,
            1,
        )?;
        Ok((Box::new(EngineOf::<A> { agent }), spec))
    }
    fn spec(&self, spec: &str) -> Result<Spec, Error> {
        Spec::parse::<A>(spec)
    }
    fn action_to_move(&self, action: usize) -> Result<String, Error> {
        adapter::decode::<A>(action).map(|m| m.to_string())
    }
}

/// A record of game `A` behind the object-safe face.
pub(crate) fn state_of<A: GameAdapter>(record: Record<A::Pos>) -> Box<dyn DynState> {
    Box::new(StateOf::<A> { record })
}
