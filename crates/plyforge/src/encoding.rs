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
//! A game gives its encoding by implementing [`Encoding`] and returning
//! `Some(Encoded::new())` from [`GameAdapter::encoding`](crate::GameAdapter::encoding). Front ends that choose the game at
//! run time reach the encodings through [`KindEncoding`]
//! (on a [`GameKind`]) and [`StateEncoding`] (on a [`State`]):
//!
//! ```
//! use plyforge::encoding::{KindEncoding, StateEncoding};
//! use plyforge::GameKind;
//! let jumpy3 = GameKind::from_name("jumpy3")?;
//! let mut game = jumpy3.new_game();
//! assert_eq!(jumpy3.num_distinct_actions()?, 16);
//! assert_eq!(game.legal_actions()?, [0, 1, 2, 3]); // squares 1 to 4
//! assert_eq!(game.play_action(3)?, "4");
//! assert_eq!(game.position(), "Www.w.......bbbB b");
//! assert!(game.play_action(3).is_err()); // square 4 holds no Black piece
//! let obs = game.observation(1)?;
//! assert_eq!(obs.len(), 5 * 16);
//! # Ok::<(), plyforge::Error>(())
//! ```
//!
//! A game without action numbers ([`GameAdapter::encoding`](crate::GameAdapter::encoding) is `None`) answers
//! [`Error::NoEncoding`] to all of these.

pub use crate::adapter::{
    default_terms, list_changes, observed_features, push_bits, score_terms, shape_size, Encoded,
    Encoding, FeatureChanges, MOST_CHANGES,
};
use crate::dynamic::{GameKind, State};
use crate::error::Error;

/// The encodings of a game chosen at run time.
pub trait KindEncoding {
    /// The number of distinct actions ([`Encoding::ACTIONS`]).
    fn num_distinct_actions(self) -> Result<usize, Error>;
    /// The shape of an observation tensor ([`Encoding::SHAPE`]).
    fn observation_shape(self) -> Result<&'static [usize], Error>;
    /// The move of an action number, in notation; an error when the number names no move of
    /// the game.
    fn action_to_move(self, action: usize) -> Result<String, Error>;
    /// The number of sparse features ([`Encoding::FEATURES`]): every index of
    /// [`StateEncoding::features`] is below it.
    fn num_features(self) -> Result<usize, Error>;
}

impl KindEncoding for GameKind {
    fn num_distinct_actions(self) -> Result<usize, Error> {
        self.info()
            .actions
            .ok_or(Error::NoEncoding { game: self.title() })
    }

    fn observation_shape(self) -> Result<&'static [usize], Error> {
        self.num_distinct_actions()?;
        Ok(self.info().observation_shape)
    }

    fn action_to_move(self, action: usize) -> Result<String, Error> {
        GameKind::action_to_move(self, action)
    }

    fn num_features(self) -> Result<usize, Error> {
        self.num_distinct_actions()?;
        Ok(self.info().features)
    }
}

/// The encodings of a game in progress.
pub trait StateEncoding {
    /// The action numbers of the legal moves, in the order of [`State::legal_moves`] (none once
    /// the game is over).
    fn legal_actions(&self) -> Result<Vec<usize>, Error>;
    /// One flag per action number: true for the legal moves.
    fn legal_actions_mask(&self) -> Result<Vec<bool>, Error>;
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
    fn history_actions(&self) -> Result<Vec<usize>, Error>;
    /// The current position as `player` sees it, a tensor of [`KindEncoding::observation_shape`]
    /// flattened row-major; [`Error::NoSuchPlayer`] for a player the game does not have.
    fn observation(&self, player: usize) -> Result<Vec<f32>, Error>;
    /// Writes [`observation`](StateEncoding::observation) into `out` (of the tensor's size;
    /// other sizes are an error).
    fn write_observation(&self, player: usize, out: &mut [f32]) -> Result<(), Error>;
    /// The evaluation's terms of the current position as `player` sees them
    /// ([`Encoding::terms`]): what a network trained with `arena train --terms` reads after
    /// the observation.
    fn evaluation_terms(&self, player: usize) -> Result<Vec<f32>, Error>;
    /// The sparse features of the current position as `player` sees it
    /// ([`Encoding::features`]): the indices of the active features, sorted, each below
    /// [`KindEncoding::num_features`]; what a sparse network (`arena train --net sparse`)
    /// reads, one list per view (the mover's first).
    fn features(&self, player: usize) -> Result<Vec<u32>, Error>;
}

impl StateEncoding for State {
    fn legal_actions(&self) -> Result<Vec<usize>, Error> {
        self.dyn_encoding().legal_actions()
    }

    fn legal_actions_mask(&self) -> Result<Vec<bool>, Error> {
        let mut mask = vec![false; self.kind().num_distinct_actions()?];
        self.write_legal_actions_mask(&mut mask)?;
        Ok(mask)
    }

    fn write_legal_actions_mask(&self, out: &mut [bool]) -> Result<(), Error> {
        let size = self.kind().num_distinct_actions()?;
        if out.len() != size {
            return Err(Error::Resources {
                reason: format!("a mask of {} entries for {} actions", out.len(), size),
            });
        }
        out.fill(false);
        for a in self.legal_actions()? {
            out[a] = true;
        }
        Ok(())
    }

    fn action_of(&self, mv: &str) -> Result<usize, Error> {
        self.dyn_encoding().action_of(mv)
    }

    fn play_action(&mut self, action: usize) -> Result<String, Error> {
        let index = self.dyn_encoding().find_action(action)?;
        self.play_index(index)
    }

    fn history_actions(&self) -> Result<Vec<usize>, Error> {
        self.dyn_encoding().history_actions()
    }

    fn observation(&self, player: usize) -> Result<Vec<f32>, Error> {
        let size = self.kind().observation_shape()?.iter().product();
        let mut out = vec![0.0; size];
        self.write_observation(player, &mut out)?;
        Ok(out)
    }

    fn write_observation(&self, player: usize, out: &mut [f32]) -> Result<(), Error> {
        self.dyn_encoding().observe(player, out)
    }

    fn evaluation_terms(&self, player: usize) -> Result<Vec<f32>, Error> {
        self.dyn_encoding().terms(player)
    }

    fn features(&self, player: usize) -> Result<Vec<u32>, Error> {
        self.dyn_encoding().features(player)
    }
}
