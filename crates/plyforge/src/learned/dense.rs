//! The dense network ([`learn::Net`]) as an evaluation: it reads the observation tensor
//! of the player to move (and the evaluation's terms after it, if it was trained with
//! them: [`Inputs`]), its first layer kept up to date from the inputs that changed since
//! the thread's last evaluation ([`learn::fast`]).

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use learn::{Accumulator, FastNet, Net};
use search::{DrawKind, Evaluator, Game, Player, Scores, MAX_PLAYERS};

use super::base::{
    bad_note, draw_score, draw_scores_of, encoding, in_player_order, scores_of, NetError,
    ASPIRATION_WINDOW, MARGIN, TERMS_NOTE,
};
use crate::adapter::{Encoded, GameAdapter};

/// What a network of game `A` reads: the observation tensor of the player to move, then,
/// if the network was trained so, the evaluation's terms as that player sees them.
pub struct Inputs<A: GameAdapter> {
    encoded: Encoded<A>,
    /// The terms read: the encoding's count, or 0.
    terms: usize,
}

impl<A: GameAdapter> Clone for Inputs<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: GameAdapter> Copy for Inputs<A> {}

impl<A: GameAdapter> fmt::Debug for Inputs<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Inputs({}: {} observed, {} terms)",
            A::NAME,
            self.encoded.size(),
            self.terms
        )
    }
}

impl<A: GameAdapter> Inputs<A> {
    /// The observation, with the evaluation's terms after it when `terms`.
    pub fn new(terms: bool) -> Result<Self, NetError> {
        let encoded = encoding::<A>()?;
        Ok(Inputs {
            terms: if terms { encoded.terms } else { 0 },
            encoded,
        })
    }

    /// What `net` reads, by its [`TERMS_NOTE`] (which must be the game's count of terms),
    /// checked against the network: `A`'s name, these inputs, one output per player.
    pub fn of_net(net: &Net) -> Result<Self, NetError> {
        let e = encoding::<A>()?;
        let terms = match net.notes().get(TERMS_NOTE) {
            None => false,
            Some(text) if text.parse::<usize>().ok() == Some(e.terms) => true,
            Some(text) => {
                return Err(bad_note(format!(
                        "note {TERMS_NOTE:?} is {text:?}: the network reads that many evaluation terms, {} gives {}",
                        A::TITLE,
                        e.terms
                )))
            }
        };
        let inputs = Inputs::new(terms)?;
        net.check_for(A::NAME, inputs.size(), A::PLAYERS)?;
        Ok(inputs)
    }

    /// The number of inputs.
    pub fn size(&self) -> usize {
        self.encoded.size() + self.terms
    }

    /// The number of the evaluation's terms among them (0: the observation alone).
    pub fn terms(&self) -> usize {
        self.terms
    }

    /// Writes the inputs of `pos` as `player` sees it into `out` (of
    /// [`size`](Inputs::size) entries, zeroed here first).
    pub fn write(&self, pos: &A::Pos, player: Player, out: &mut [f32]) {
        let (x, t) = out.split_at_mut(self.encoded.size());
        self.encoded.write_observation(pos, player, x);
        if self.terms > 0 {
            self.encoded.write_terms(pos, player, t);
        }
    }

    /// Marks `net` as reading these inputs ([`TERMS_NOTE`]).
    pub fn annotate(&self, net: &mut Net) {
        if self.terms > 0 {
            net.set_note(TERMS_NOTE, self.terms.to_string());
        }
    }
}

thread_local! {
    /// Each thread's buffer for the observation, the hidden layers and the outputs: grown
    /// once, then no allocation per evaluation.
    static WORK: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    /// Each thread's last observation and first-layer sums ([`learn::fast`]): the next
    /// evaluation adds only the rows of the inputs that changed.
    static ACC: RefCell<Accumulator> = RefCell::new(Accumulator::default());
}

/// A value network as an evaluation of game `A` (how it reads a position: [`crate::learned`]).
pub struct NetEval<A: GameAdapter> {
    net: Arc<Net>,
    /// The network prepared for incremental evaluation, unless its weights are too large.
    fast: Option<Arc<FastNet>>,
    inputs: Inputs<A>,
    /// The game's default evaluation, for move-ordering hints.
    hints: A::Eval,
    /// What a draw scores for every player (three or more players).
    draw: i32,
}

impl<A: GameAdapter> Clone for NetEval<A> {
    fn clone(&self) -> Self {
        NetEval {
            net: Arc::clone(&self.net),
            fast: self.fast.clone(),
            inputs: self.inputs,
            hints: self.hints.clone(),
            draw: self.draw,
        }
    }
}

impl<A: GameAdapter> NetEval<A> {
    /// The evaluation of `net`, which must be `A`'s (its name, its [`Inputs`], one output
    /// per player).
    pub fn new(net: Net) -> Result<Self, NetError> {
        NetEval::shared(Arc::new(net))
    }

    /// The evaluation of a shared network, checked as [`NetEval::new`] checks.
    pub fn shared(net: Arc<Net>) -> Result<Self, NetError> {
        let inputs = Inputs::of_net(&net)?;
        Ok(NetEval {
            draw: draw_score::<A>(net.notes())?,
            fast: FastNet::new(Arc::clone(&net)).map(Arc::new),
            net,
            inputs,
            hints: A::default_eval(),
        })
    }

    /// The network.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// What the network reads.
    pub fn inputs(&self) -> Inputs<A> {
        self.inputs
    }

    /// The network's values of `pos` (−1 … 1), one per player in the players' own order
    /// (entries past the game's players are 0).
    pub fn values(&self, pos: &A::Pos) -> [f32; MAX_PLAYERS] {
        let me = pos.to_move();
        let (inputs, hidden, outputs) = (self.inputs.size(), self.net.work_len(), A::PLAYERS);
        WORK.with(|cell| {
            let mut buf = cell.borrow_mut();
            if buf.len() < inputs + hidden + outputs {
                buf.resize(inputs + hidden + outputs, 0.0);
            }
            let (x, rest) = buf.split_at_mut(inputs);
            let (work, rest) = rest.split_at_mut(hidden);
            let out = &mut rest[..outputs];
            self.inputs.write(pos, me, x);
            match &self.fast {
                Some(fast) => ACC.with(|acc| fast.forward(x, &mut acc.borrow_mut(), work, out)),
                None => self.net.forward(x, work, out),
            }
            in_player_order::<A>(out, me)
        })
    }
}

impl<A: GameAdapter> Evaluator<A::Pos> for NetEval<A> {
    fn evaluate(&self, pos: &A::Pos) -> Scores {
        scores_of::<A>(self.values(pos))
    }

    fn aspiration_window(&self) -> i32 {
        ASPIRATION_WINDOW
    }

    fn margin(&self) -> i32 {
        MARGIN
    }

    fn move_hint(&self, pos: &A::Pos, mv: A::Move) -> i32 {
        self.hints.move_hint(pos, mv)
    }

    fn draw_scores(&self, _pos: &A::Pos, _kind: DrawKind) -> Scores {
        draw_scores_of::<A>(self.draw)
    }
}
