//! Each game's subcommands, behind one object-safe face: [`GameCommands`] is implemented once,
//! generically, for every game ([`Commands`]), and [`Games`] (which [`crate::Arena`] keeps)
//! holds one per game it was given. This is where a game's types meet the command line; everything below is
//! written once over [`GameAdapter`].

use std::marker::PhantomData;

use plyforge::{GameAdapter, GameKind, SolveSettings};

use crate::fail::Fail;
use crate::{analyse, bench, matchup, play, rules_cmd, solve, train, tune};
use net::{protocol, server};

/// The subcommands of one game.
pub(crate) trait GameCommands: Send + Sync {
    /// The game.
    fn kind(&self) -> GameKind;
    /// `arena moves`.
    fn moves(&self, position: &str) -> Result<(), Fail>;
    /// `arena apply`.
    fn apply(&self, position: &str, moves: &[String]) -> Result<(), Fail>;
    /// `arena perft`.
    fn perft(&self, position: &str, depth: u32, divide: bool) -> Result<(), Fail>;
    /// `arena solve` (options already checked against the solver).
    fn solve(&self, position: &str, settings: &SolveSettings<'_>) -> Result<(), Fail>;
    /// `arena analyse`.
    fn analyse(&self, o: &analyse::AnalyseOptions) -> Result<(), Fail>;
    /// `arena play`.
    fn play(&self, o: &play::PlayOptions) -> Result<(), Fail>;
    /// `arena match`.
    fn run_match(&self, o: &lab::MatchSettings, quiet: bool) -> Result<(), Fail>;
    /// `arena engine`.
    fn engine(&self, threads: usize, spec: Option<&str>) -> Result<(), Fail>;
    /// `arena serve`.
    fn serve(&self, o: &server::ServeOptions) -> Result<(), Fail>;
    /// `arena connect`.
    fn connect(&self, o: &server::ConnectOptions) -> Result<(), Fail>;
    /// `arena bench` (`None`: the game has no bench).
    fn bench(&self, threads: usize) -> Result<Option<bench::Totals>, Fail>;
    /// `arena bench --scaling` (`false`: the game has no bench).
    fn bench_scaling(&self, o: &bench::ScalingOptions) -> Result<bool, Fail>;
    /// `arena tune`.
    fn tune(&self, c: &tune::TuneCommand) -> Result<(), Fail>;
    /// `arena train`.
    fn train(&self, c: &train::TrainCommand) -> Result<(), Fail>;
}

/// The games of an arena, in the order they were added, each with its subcommands.
#[derive(Default)]
pub(crate) struct Games(Vec<Box<dyn GameCommands>>);

impl Games {
    /// Adds game `A` (once).
    pub(crate) fn add<A: GameAdapter>(&mut self) {
        if !self.0.iter().any(|g| g.kind() == GameKind::of::<A>()) {
            self.0.push(Box::new(Commands::<A>::new()));
        }
    }

    /// The games, in order.
    pub(crate) fn kinds(&self) -> Vec<GameKind> {
        self.0.iter().map(|g| g.kind()).collect()
    }

    /// The commands of the game of this name.
    pub(crate) fn commands(&self, name: &str) -> Result<&dyn GameCommands, Fail> {
        let n = name.trim().to_ascii_lowercase();
        self.0
            .iter()
            .find(|g| g.kind().name() == n)
            .map(|g| &**g)
            .ok_or_else(|| {
                Fail::usage(format!(
                    "unknown game {name:?} ({})",
                    self.kinds()
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }
}

/// The subcommands of game `A`.
pub(crate) struct Commands<A>(PhantomData<fn() -> A>);

impl<A: GameAdapter> Commands<A> {
    pub(crate) fn new() -> Self {
        Commands(PhantomData)
    }
}

impl<A: GameAdapter> GameCommands for Commands<A> {
    fn kind(&self) -> GameKind {
        GameKind::of::<A>()
    }
    fn moves(&self, position: &str) -> Result<(), Fail> {
        rules_cmd::moves::<A>(position)
    }
    fn apply(&self, position: &str, moves: &[String]) -> Result<(), Fail> {
        rules_cmd::apply::<A>(position, moves)
    }
    fn perft(&self, position: &str, depth: u32, divide: bool) -> Result<(), Fail> {
        rules_cmd::perft::<A>(position, depth, divide)
    }
    fn solve(&self, position: &str, settings: &SolveSettings<'_>) -> Result<(), Fail> {
        solve::solve::<A>(position, settings)
    }
    fn analyse(&self, o: &analyse::AnalyseOptions) -> Result<(), Fail> {
        analyse::analyse::<A>(o)
    }
    fn play(&self, o: &play::PlayOptions) -> Result<(), Fail> {
        play::play::<A>(o)
    }
    fn run_match(&self, o: &lab::MatchSettings, quiet: bool) -> Result<(), Fail> {
        matchup::run_match::<A>(o, quiet)
    }
    fn engine(&self, threads: usize, spec: Option<&str>) -> Result<(), Fail> {
        Ok(protocol::serve_stdio::<A>(threads, spec)?)
    }
    fn serve(&self, o: &server::ServeOptions) -> Result<(), Fail> {
        Ok(server::serve::<A>(o)?)
    }
    fn connect(&self, o: &server::ConnectOptions) -> Result<(), Fail> {
        Ok(server::connect::<A>(o)?)
    }
    fn bench(&self, threads: usize) -> Result<Option<bench::Totals>, Fail> {
        bench::bench::<A>(threads)
    }
    fn bench_scaling(&self, o: &bench::ScalingOptions) -> Result<bool, Fail> {
        bench::scaling::<A>(o)
    }
    fn tune(&self, c: &tune::TuneCommand) -> Result<(), Fail> {
        tune::tune::<A>(c)
    }
    fn train(&self, c: &train::TrainCommand) -> Result<(), Fail> {
        train::train::<A>(c)
    }
}
