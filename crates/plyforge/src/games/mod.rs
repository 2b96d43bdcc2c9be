//! The adapters: one per game crate, each holding only what differs between games.

#[cfg(feature = "chaosclock")]
mod chaosclock;
#[cfg(feature = "chexers")]
mod chexers;
#[cfg(feature = "jumpy3")]
mod jumpy3;
#[cfg(feature = "throne")]
mod throne;

#[cfg(feature = "chaosclock")]
pub use self::chaosclock::ChaosClock;
#[cfg(feature = "chexers")]
pub use self::chexers::Chexers;
#[cfg(feature = "jumpy3")]
pub use self::jumpy3::{Jumpy3, Jumpy3Eval};
#[cfg(feature = "throne")]
pub use self::throne::Throne;
