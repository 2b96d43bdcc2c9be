//! `arena`: play, analyse, match and solve the plyforge games (Jumpy3, Chexers, Throne,
//! Chaos Clock) with one search engine. The whole program is the library's
//! [`plyforge_arena::Arena`]; a user's own binary adds its game the same way.

fn main() -> std::process::ExitCode {
    plyforge_arena::Arena::with_default_games().run()
}
