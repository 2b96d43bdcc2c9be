//! The dynamic layer: every registered game by name ([`GameKind`], the registry), a game in
//! progress that speaks notation ([`State`]) and an engine made from a specification
//! ([`Engine`]), for front ends that choose the game at run time (the `arena` program, the
//! Python package, the web page). Everything here is written once over the typed layer
//! ([`GameAdapter`](crate::GameAdapter)) through its object-safe faces (`erased`); every
//! method of `GameKind` and `State` is defined in this layer, and the typed layer never
//! names them.

mod engine;
mod erased;
mod registry;
mod state;

pub use engine::Engine;
pub use erased::{SearchInfo, SolutionText};
pub use registry::{register, GameInfo, GameKind};
pub use state::State;
