//! [`Arena`]: the `arena` program as a library entry point, for a set of games.

use std::ffi::OsString;
use std::process::ExitCode;

use plyforge::{GameAdapter, GameKind, GameVisitor};

use crate::commands::Games;

/// Names the web page's routes take, which no game may have.
const RESERVED: &[&str] = &["api", "watch", "assets", "static", "favicon.svg"];

/// The `arena` program for a set of games: every subcommand (`play`, `analyse`, `match`,
/// `merge`, `solve`, `perft`, `moves`, `apply`, `engine`, `serve`, `connect`, `web`) for
/// each game it is given. The `arena` binary is `Arena::with_default_games().run()`; a
/// user's binary adds its own game in one more call, and the game gets the whole toolbox,
/// its web page at `/<name>` included.
///
/// ```no_run
/// # use plyforge::games::Jumpy3 as MyGame;
/// fn main() -> std::process::ExitCode {
///     plyforge_arena::Arena::with_default_games()
///         .game::<MyGame>()
///         .run()
/// }
/// ```
///
/// Games come in the order they are added; each is registered with the facade's registry
/// ([`plyforge::register`]), so that the engine specifications, the web page and match
/// files find it by name.
pub struct Arena {
    games: Games,
    problems: Vec<String>,
}

impl Default for Arena {
    fn default() -> Self {
        Arena::new()
    }
}

impl Arena {
    /// An arena without games.
    pub fn new() -> Arena {
        Arena {
            games: Games::default(),
            problems: Vec::new(),
        }
    }

    /// An arena with the games compiled into `plyforge` (its default features: Jumpy3,
    /// Chexers, Throne, Chaos Clock).
    pub fn with_default_games() -> Arena {
        struct Add(Arena);
        impl GameVisitor for Add {
            fn visit<A: GameAdapter>(&mut self) {
                let arena = std::mem::take(&mut self.0);
                self.0 = arena.game::<A>();
            }
        }
        let mut add = Add(Arena::new());
        plyforge::visit_default_games(&mut add);
        add.0
    }

    /// This arena with game `A` too. A game that cannot join (a name the registry refuses,
    /// or one the web page's routes take) is reported when the arena runs, which then
    /// stops with exit code 2.
    pub fn game<A: GameAdapter>(mut self) -> Arena {
        if RESERVED.contains(&A::NAME) {
            self.problems.push(format!(
                "game {:?}: the web page's addresses take this name",
                A::NAME
            ));
            return self;
        }
        match plyforge::register::<A>() {
            Ok(_) => self.games.add::<A>(),
            Err(e) => self.problems.push(e.to_string()),
        }
        self
    }

    /// The games, in order.
    pub fn kinds(&self) -> Vec<GameKind> {
        self.games.kinds()
    }

    /// Runs the program on the process's command line: prints what went wrong and returns
    /// its exit code (0 on success, 2 for bad usage or input, 1 for failures while working).
    pub fn run(self) -> ExitCode {
        self.run_with(std::env::args_os())
    }

    /// Reads a command line as the program would, without running it: the subcommand, its
    /// options and the game's name checked (for scripts and for tests of the
    /// documentation's commands); the reason when the program would refuse it.
    ///
    /// ```
    /// use plyforge_arena::Arena;
    /// let arena = Arena::with_default_games();
    /// assert!(arena.check_args(["arena", "match", "chexers", "--games", "4"]).is_ok());
    /// let e = arena.check_args(["arena", "match", "breakthrough"]).unwrap_err();
    /// assert!(e.contains("breakthrough"), "{e}");
    /// ```
    pub fn check_args<I, T>(&self, args: I) -> Result<(), String>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        crate::cli::parse(&self.kinds(), args)
            .map(drop)
            .map_err(|e| e.to_string())
    }

    /// Runs the program on these arguments (the first is the program's name), as
    /// [`run`](Arena::run).
    pub fn run_with<I, T>(self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        crate::fail::set_program(args.first().map(OsString::as_os_str));
        if let Some(p) = self.problems.first() {
            crate::errln!("{p}");
            return ExitCode::from(2);
        }
        let cli = match crate::cli::parse(&self.kinds(), args) {
            Ok(cli) => cli,
            Err(e) => {
                let _ = e.print();
                return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
            }
        };
        match crate::cli::run(&self.games, cli) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                crate::errln!("{e}");
                ExitCode::from(e.code() as u8)
            }
        }
    }
}
