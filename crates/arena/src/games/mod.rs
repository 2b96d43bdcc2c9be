//! The adapters: one per game crate, each a thin layer over the crate's public API.

mod chaosclock;
mod chexers;
mod jumpy3;
mod throne;

pub(crate) use self::chaosclock::ChaosClock;
pub(crate) use self::chexers::Chexers;
pub(crate) use self::jumpy3::Jumpy3;
pub(crate) use self::throne::Throne;
