//! The adapters: one per game crate, each holding only what differs between games.

/// The [`GameAdapter`](crate::GameAdapter) items that every game crate provides under the
/// same names (the crates' one public shape): the start, the players' letters and names,
/// the engine's configuration.
macro_rules! crate_shape {
    ($krate:ident) => {
        fn start() -> Self::Pos {
            $krate::Position::start()
        }
        fn player_letter(p: search::Player) -> &'static str {
            $krate::player_letter(p)
        }
        fn player_name(p: search::Player) -> &'static str {
            $krate::player_name(p)
        }
        fn engine_config() -> search::Config {
            $krate::engine_config()
        }
    };
}

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
