//! The adapters of the games compiled into this crate (one cargo feature each): one per
//! game crate, each holding only what differs between games. They join the registry
//! through [`crate::register`] like any user's game; [`visit_default_games`] is the one
//! list of them.

use crate::adapter::GameAdapter;

/// Code written once over [`GameAdapter`] and run for several games, each with its adapter
/// type: what a front end does to take games whose types it knows at compile time (the
/// default games of [`visit_default_games`], a user's own).
pub trait GameVisitor {
    /// Called with each game's adapter as `A`.
    fn visit<A: GameAdapter>(&mut self);
}

/// Calls `v.visit::<A>()` for each game compiled into this crate, in the order Jumpy3,
/// Chexers, Throne, Chaos Clock (those whose features are on): **the one place that lists
/// our games**. The registry registers them this way, and `arena` takes its games so.
///
/// ```
/// use plyforge::games::{visit_default_games, GameVisitor};
/// use plyforge::GameAdapter;
/// struct Names(Vec<&'static str>);
/// impl GameVisitor for Names {
///     fn visit<A: GameAdapter>(&mut self) {
///         self.0.push(A::NAME);
///     }
/// }
/// let mut names = Names(Vec::new());
/// visit_default_games(&mut names);
/// assert_eq!(names.0, ["jumpy3", "chexers", "throne", "chaosclock"]);
/// ```
pub fn visit_default_games<V: GameVisitor>(v: &mut V) {
    #[cfg(feature = "jumpy3")]
    v.visit::<Jumpy3>();
    #[cfg(feature = "chexers")]
    v.visit::<Chexers>();
    #[cfg(feature = "throne")]
    v.visit::<Throne>();
    #[cfg(feature = "chaosclock")]
    v.visit::<ChaosClock>();
    let _ = v;
}

/// The [`GameAdapter`](crate::GameAdapter) items that every game crate provides under the
/// same names (the crates' one public shape): the start, the players' letters and names,
/// the engine's configuration.
#[cfg(any(
    feature = "jumpy3",
    feature = "chexers",
    feature = "throne",
    feature = "chaosclock"
))]
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
