//! `arena tune`: a game's declared parameters ([`plyforge::params`]) tuned by games or fitted
//! to recorded games, for any registered game.
//!
//! The rooms: [`spsa`] (the SPSA schedule and update, pure), [`tunefile`] (the tune file),
//! `run` (the games of each iteration, resume and workers), `verify` (the SPRT match of the
//! tuned values against the start values), `svg` (the picture), `texel` (Texel's method
//! from records), and this file, which runs a subcommand.

use std::path::PathBuf;

use plyforge::GameAdapter;

use crate::fail::{outln, Fail};

pub(crate) mod run;
pub mod spsa;
pub(crate) mod svg;
#[cfg(test)]
pub(crate) mod testgame;
pub(crate) mod texel;
pub mod tunefile;
pub(crate) mod verify;

pub(crate) use run::TuneOptions;
pub(crate) use texel::TexelOptions;
pub(crate) use verify::VerifyOptions;

/// What `arena tune` was asked to do.
#[derive(Clone, Debug)]
pub(crate) enum TuneCommand {
    /// SPSA by game pairs (then a verification and a picture, if asked for).
    Spsa(Box<TuneOptions>),
    /// Texel's method from records.
    Texel(TexelOptions),
}

/// The picture's default file: the tune file's name with `.svg`.
fn default_svg(out: &std::path::Path) -> PathBuf {
    out.with_extension("svg")
}

/// Runs `arena tune` for game `A`.
pub(crate) fn tune<A: GameAdapter>(c: &TuneCommand) -> Result<(), Fail> {
    let o = match c {
        TuneCommand::Texel(t) => return texel::run::<A>(t),
        TuneCommand::Spsa(o) => o,
    };
    let outcome = run::run_spsa::<A>(o)?;
    let verified = match &o.verify {
        Some(v) => verify::verify::<A>(o, v, &outcome)?,
        None => None,
    };
    let svg = o.svg.clone().or_else(|| o.out.as_deref().map(default_svg));
    if let Some(path) = svg {
        let verified = match verified {
            Some(file) => Some(verify::read(&file)?),
            None => None,
        };
        let picture = svg::Picture {
            title: format!(
                "{} tune: {} iterations (SPSA), {}",
                A::TITLE,
                outcome.spsa.done,
                outcome.base
            ),
            names: outcome.params.iter().map(|p| p.name).collect(),
            start: outcome.spsa.params.iter().map(|p| p.start).collect(),
            path: &outcome.spsa.path,
            tuned: outcome.tuned_spec(),
            verified,
        };
        std::fs::write(&path, svg::render(&picture))
            .map_err(|e| Fail::runtime(format!("--svg {}: {e}", path.display())))?;
        outln!("picture: {}", path.display());
    }
    Ok(())
}
