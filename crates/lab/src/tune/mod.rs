//! Tuning a game's declared parameters ([`plyforge::params`]): by games (SPSA, [`Tuning`])
//! or fitted to recorded games (Texel's method, [`texel::fit`]), for any registered game;
//! a tuning run verified by an SPRT match ([`verify`]) and drawn ([`plot`]).
//!
//! The rooms: [`spsa`] (the SPSA schedule and update, pure), [`tunefile`] (the tune file),
//! [`run`] (the games of each iteration, resume and workers), [`params`] (the parameters by
//! name, and specifications with values set), [`verify`] (the match of the tuned values
//! against the start values), [`plot`] (the picture), [`texel`] (Texel's method).

pub mod params;
pub mod plot;
pub mod run;
pub mod spsa;
#[cfg(test)]
pub(crate) mod testgame;
pub mod texel;
pub mod tunefile;
pub mod verify;

pub use run::{TuneOutcome, TunePlan, TuneSettings, Tuning};
pub use texel::{TexelFit, TexelSettings};
pub use verify::VerifySettings;
