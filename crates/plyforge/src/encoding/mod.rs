//! Action numbers and observation tensors: the fixed-size encodings that learning code
//! (OpenSpiel-style state APIs, PettingZoo environments, the Python package) needs on top of
//! notation.
//!
//! Every game has a fixed number of distinct actions ([`Encoding::ACTIONS`]); each move of the
//! game has exactly one action number in `0..ACTIONS`, whatever the position (so a move's
//! number does not depend on where it is played), and an action number names at most one move.
//! A position is observed from one player's point of view as a tensor of `f32` of a fixed shape
//! ([`Encoding::SHAPE`], row-major). What each number and each plane means is given per game
//! in [`crate::games::Jumpy3`], [`crate::games::Chexers`], [`crate::games::Throne`] and
//! [`crate::games::ChaosClock`] (the impls of [`Encoding`]) and in the table below.
//!
//! | game | actions | observation shape |
//! |---|---|---|
//! | Jumpy3 | 16: the square of the piece that moves, minus 1 | `[5, 16]` |
//! | Chexers | 482: `MOVE` 0..222, `JUMP` 222..444, `EXIT` 444..481, `PASS` 481 | `[11, 7, 7]` |
//! | Throne | 8282: `from * 91 + to` (cells in notation order), `pass` 8281 | `[11, 11, 11]` |
//! | Chaos Clock | 25: `wN` N−1, `pN` 11+N, `pass` 24 | `[17, 12]` |
//!
//! Front ends that choose the game at run time reach the encodings through [`KindEncoding`]
//! (on a [`GameKind`]) and [`StateEncoding`] (on a [`State`]):
//!
//! ```
//! use plyforge::encoding::{KindEncoding, StateEncoding};
//! use plyforge::GameKind;
//! let mut game = GameKind::Jumpy3.new_game();
//! assert_eq!(GameKind::Jumpy3.num_distinct_actions(), 16);
//! assert_eq!(game.legal_actions(), [0, 1, 2, 3]); // squares 1 to 4
//! assert_eq!(game.play_action(3).unwrap(), "4");
//! assert_eq!(game.position(), "Www.w.......bbbB b");
//! assert!(game.play_action(3).is_err()); // square 4 holds no Black piece
//! let obs = game.observation(1).unwrap();
//! assert_eq!(obs.len(), 5 * 16);
//! ```

use search::{Game, Player, Record};

use crate::adapter::{result_text, GameAdapter};
use crate::{Error, GameKind, State};

/// The action numbers and the observation tensor of a game.
pub trait Encoding: GameAdapter {
    /// The number of distinct actions: every action number is below it.
    const ACTIONS: usize;
    /// The shape of an observation tensor (row-major, the last index fastest).
    const SHAPE: &'static [usize];

    /// The action number of a move, in `0..ACTIONS`; `None` for a value of the move type that
    /// is no move of the game anywhere (a Chexers `MOVE` between hexes that are not
    /// neighbours). Every legal move has a number.
    fn action(mv: Self::Move) -> Option<usize>;

    /// The move of an action number, if the number names one (the move need not be legal
    /// anywhere; numbers that name no move of the game give `None`).
    fn decode(action: usize) -> Option<Self::Move>;

    /// Writes `pos` as seen by `player` into `out` (of the size of [`Encoding::SHAPE`],
    /// zeroed by the caller). `player` is below [`GameAdapter::PLAYERS`].
    fn observe(pos: &Self::Pos, player: Player, out: &mut [f32]);

    /// The number of entries of an observation tensor.
    fn observation_size() -> usize {
        Self::SHAPE.iter().product()
    }
}

/// Code written once for every game's encoding: [`visit_encoding`] calls `visit::<E>()` with
/// the game's adapter as `E`.
pub trait EncodingVisitor {
    /// What the visit returns.
    type Output;
    /// The visit, with the game's adapter as `E`.
    fn visit<E: Encoding>(self) -> Self::Output;
}

/// Calls `v.visit::<E>()` with `E` the adapter (and encoding) of `kind`.
pub fn visit_encoding<V: EncodingVisitor>(kind: GameKind, v: V) -> V::Output {
    crate::dynamic::dispatch_kind!(kind, v)
}

/// The encodings of a game chosen at run time.
pub trait KindEncoding {
    /// The number of distinct actions ([`Encoding::ACTIONS`]).
    fn num_distinct_actions(self) -> usize;
    /// The shape of an observation tensor ([`Encoding::SHAPE`]).
    fn observation_shape(self) -> &'static [usize];
    /// The move of an action number, in notation; an error when the number names no move of
    /// the game.
    fn action_to_move(self, action: usize) -> Result<String, Error>;
}

impl KindEncoding for GameKind {
    fn num_distinct_actions(self) -> usize {
        struct Actions;
        impl EncodingVisitor for Actions {
            type Output = usize;
            fn visit<E: Encoding>(self) -> usize {
                E::ACTIONS
            }
        }
        visit_encoding(self, Actions)
    }

    fn observation_shape(self) -> &'static [usize] {
        struct Shape;
        impl EncodingVisitor for Shape {
            type Output = &'static [usize];
            fn visit<E: Encoding>(self) -> &'static [usize] {
                E::SHAPE
            }
        }
        visit_encoding(self, Shape)
    }

    fn action_to_move(self, action: usize) -> Result<String, Error> {
        struct Decode(usize);
        impl EncodingVisitor for Decode {
            type Output = Result<String, Error>;
            fn visit<E: Encoding>(self) -> Self::Output {
                decode::<E>(self.0).map(|m| m.to_string())
            }
        }
        visit_encoding(self, Decode(action))
    }
}

/// The move of `action`, or the error that says why there is none.
fn decode<E: Encoding>(action: usize) -> Result<E::Move, Error> {
    if action >= E::ACTIONS {
        return Err(Error::Action {
            action,
            reason: format!(
                "out of range: {} has actions 0 to {}",
                E::TITLE,
                E::ACTIONS - 1
            ),
        });
    }
    E::decode(action).ok_or_else(|| Error::Action {
        action,
        reason: format!("names no move of {} (it would leave the board)", E::TITLE),
    })
}

/// The number of a move that was legal (played or generated): every such move has one.
fn number<E: Encoding>(mv: E::Move) -> usize {
    E::action(mv).expect("every legal move has an action number (tested for every game)")
}

/// The record of `state`, which is of game `E`.
fn record<E: Encoding>(state: &State) -> &Record<E::Pos> {
    state
        .record::<E>()
        .expect("visit_encoding visits the state's own game")
}

/// The encodings of a game in progress.
pub trait StateEncoding {
    /// The action numbers of the legal moves, in the order of [`State::legal_moves`] (none once
    /// the game is over).
    fn legal_actions(&self) -> Vec<usize>;
    /// One flag per action number: true for the legal moves.
    fn legal_actions_mask(&self) -> Vec<bool>;
    /// Writes the mask of [`legal_actions_mask`](StateEncoding::legal_actions_mask) into `out`
    /// (of length [`KindEncoding::num_distinct_actions`]; other lengths are an error).
    fn write_legal_actions_mask(&self, out: &mut [bool]) -> Result<(), Error>;
    /// The action number of a move given in notation (parsed in the current position; it need
    /// not be legal).
    fn action_of(&self, mv: &str) -> Result<usize, Error>;
    /// Plays the move of an action number; returns the move in notation. Errors name the
    /// action and the reason (out of range, no move of the game, illegal here, game over).
    fn play_action(&mut self, action: usize) -> Result<String, Error>;
    /// The action numbers of the moves played so far.
    fn history_actions(&self) -> Vec<usize>;
    /// The current position as `player` sees it, a tensor of [`KindEncoding::observation_shape`]
    /// flattened row-major; [`Error::NoSuchPlayer`] for a player the game does not have.
    fn observation(&self, player: usize) -> Result<Vec<f32>, Error>;
    /// Writes [`observation`](StateEncoding::observation) into `out` (of the tensor's size;
    /// other sizes are an error).
    fn write_observation(&self, player: usize, out: &mut [f32]) -> Result<(), Error>;
}

impl StateEncoding for State {
    fn legal_actions(&self) -> Vec<usize> {
        struct Legal<'a>(&'a State);
        impl EncodingVisitor for Legal<'_> {
            type Output = Vec<usize>;
            fn visit<E: Encoding>(self) -> Vec<usize> {
                record::<E>(self.0)
                    .legal_moves()
                    .iter()
                    .map(|&m| number::<E>(m))
                    .collect()
            }
        }
        visit_encoding(self.kind(), Legal(self))
    }

    fn legal_actions_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; self.kind().num_distinct_actions()];
        self.write_legal_actions_mask(&mut mask)
            .expect("the mask has the game's size");
        mask
    }

    fn write_legal_actions_mask(&self, out: &mut [bool]) -> Result<(), Error> {
        let size = self.kind().num_distinct_actions();
        if out.len() != size {
            return Err(Error::Resources {
                reason: format!("a mask of {} entries for {} actions", out.len(), size),
            });
        }
        out.fill(false);
        for a in self.legal_actions() {
            out[a] = true;
        }
        Ok(())
    }

    fn action_of(&self, mv: &str) -> Result<usize, Error> {
        struct Of<'a>(&'a State, &'a str);
        impl EncodingVisitor for Of<'_> {
            type Output = Result<usize, Error>;
            fn visit<E: Encoding>(self) -> Self::Output {
                let pos = record::<E>(self.0).position();
                let bad = |reason: String| Error::Move {
                    index: 1,
                    text: self.1.trim().to_string(),
                    reason,
                };
                let mv = E::parse_move(pos, self.1).map_err(bad)?;
                E::action(mv).ok_or_else(|| bad(format!("no move of {} has this shape", E::TITLE)))
            }
        }
        visit_encoding(self.kind(), Of(self, mv))
    }

    fn play_action(&mut self, action: usize) -> Result<String, Error> {
        // Which legal move it is (its index), or why it cannot be played.
        struct Find<'a>(&'a State, usize);
        impl EncodingVisitor for Find<'_> {
            type Output = Result<usize, Error>;
            fn visit<E: Encoding>(self) -> Self::Output {
                let mv = decode::<E>(self.1)?;
                let record = record::<E>(self.0);
                if let Some(o) = record.result() {
                    return Err(Error::GameOver {
                        result: result_text::<E>(o),
                    });
                }
                if let Some(i) = record.legal_moves().iter().position(|&m| m == mv) {
                    return Ok(i);
                }
                let reason = record
                    .position()
                    .why_illegal(mv)
                    .map_or_else(|| "not a legal move here".to_string(), |w| w.to_string());
                Err(Error::Action {
                    action: self.1,
                    reason: format!("{mv}: {reason}"),
                })
            }
        }
        let index = visit_encoding(self.kind(), Find(self, action))?;
        self.play_index(index)
    }

    fn history_actions(&self) -> Vec<usize> {
        struct History<'a>(&'a State);
        impl EncodingVisitor for History<'_> {
            type Output = Vec<usize>;
            fn visit<E: Encoding>(self) -> Vec<usize> {
                record::<E>(self.0)
                    .moves()
                    .iter()
                    .map(|&m| number::<E>(m))
                    .collect()
            }
        }
        visit_encoding(self.kind(), History(self))
    }

    fn observation(&self, player: usize) -> Result<Vec<f32>, Error> {
        let size = self.kind().observation_shape().iter().product();
        let mut out = vec![0.0; size];
        self.write_observation(player, &mut out)?;
        Ok(out)
    }

    fn write_observation(&self, player: usize, out: &mut [f32]) -> Result<(), Error> {
        struct Observe<'a, 'b>(&'a State, usize, &'b mut [f32]);
        impl EncodingVisitor for Observe<'_, '_> {
            type Output = Result<(), Error>;
            fn visit<E: Encoding>(self) -> Self::Output {
                if self.1 >= E::PLAYERS {
                    return Err(Error::NoSuchPlayer {
                        player: self.1,
                        players: E::PLAYERS,
                    });
                }
                if self.2.len() != E::observation_size() {
                    return Err(Error::Resources {
                        reason: format!(
                            "an observation buffer of {} entries for a tensor of {}",
                            self.2.len(),
                            E::observation_size()
                        ),
                    });
                }
                self.2.fill(0.0);
                E::observe(record::<E>(self.0).position(), self.1, self.2);
                Ok(())
            }
        }
        visit_encoding(self.kind(), Observe(self, player, out))
    }
}

#[cfg(feature = "chaosclock")]
mod chaosclock;
#[cfg(feature = "chexers")]
mod chexers;
#[cfg(feature = "jumpy3")]
mod jumpy3;
#[cfg(feature = "throne")]
mod throne;

/// Fills plane `plane` of a `[planes, n]` tensor (n = `plane_len`) with `value`.
fn fill_plane(out: &mut [f32], plane: usize, plane_len: usize, value: f32) {
    out[plane * plane_len..(plane + 1) * plane_len].fill(value);
}
