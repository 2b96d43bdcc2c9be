//! `arena`: play, analyse, match, solve and perft four board games (Jumpy3, Chexers, Throne,
//! Chaos Clock) with one search engine, plus a scriptable interface to the rules (`moves`,
//! `apply`) and a UCI-shaped engine protocol (`engine`, see `docs/protocol.md`).
//!
//! Every subcommand is written once, generically over the facade's [`plyforge::GameAdapter`]
//! (each game's adapter is in `plyforge::games`). A subcommand dispatches to the game with
//! the `with_game!` macro.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

mod analyse;
mod draw;
mod elo;
mod fail;
mod matchup;
mod play;
mod protocol;
mod rules_cmd;
mod server;
mod solve;
mod web;

use plyforge::games;

use fail::Fail;

const EXAMPLES: &str = "\
Examples:
  arena match chexers                         a short match between two engine settings
  arena match jumpy3 --engine engine,depth=8 --engine greedy --games 20
  arena play throne --human b --time 1s       you play Black against the engine
  arena analyse jumpy3 start --depth 12
  arena solve jumpy3 start                    exact value and every best move
  arena perft chexers start 4 --divide
  arena moves jumpy3 'Wwww........bbbB w'
  arena apply chexers start 'MOVE -3 1 -2 1' 'MOVE 0 -3 0 -2'
  arena engine throne                         the text protocol of docs/protocol.md

POSITION is a position in the game's notation, or the word `start` (the rules' start; for
Chaos Clock also `random` or `random:SEED`, a seeded random derangement).";

/// Play, analyse, match and solve board games with one search engine.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum GameName {
    /// Jumpy3: one row of 16 squares, two kings racing off the board.
    Jumpy3,
    /// Chexers: three players on a hexagon of 37 hexes (COMP30024, 2019).
    Chexers,
    /// Throne: queens and soldiers race to the throne on a hexagon of 91 cells.
    Throne,
    /// Chaos Clock: twelve pieces on a clock face; both can win, both can lose.
    Chaosclock,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play against the engine in the terminal (or watch it play itself).
    #[command(after_help = "\
Examples:
  arena play jumpy3                      you are White (the first player), 1 s per engine move
  arena play chexers --human r --human g two people and the engine (Blue)
  arena play throne --human none --time 200ms   watch the engine play itself

At the prompt type a move in the game's notation, or: moves (list the legal moves),
board, undo, help, quit. End of input ends the program cleanly.")]
    Play(PlayArgs),
    /// Analyse a position: one line per completed depth.
    #[command(
        visible_alias = "analyze",
        after_help = "\
Examples:
  arena analyse jumpy3 start --depth 12
  arena analyse chexers start --time 5s --threads 2
  arena analyse throne start --engine alphabeta,eval=default --time 3s"
    )]
    Analyse(AnalyseArgs),
    /// Engine configurations play each other, seats rotated; a table with Elo at the end.
    #[command(after_help = "\
SPEC is KIND[,KEY=VALUE]...:
  KIND  engine (the game's recommended settings), alphabeta, paranoid, brs, maxn,
        mcts (Monte Carlo tree search), greedy (one ply, the evaluation's favourite), random
  KEYs  depth=N time=DUR nodes=N threads=N eval=NAME tt=MIB (0: no table)
        ordering=on|off aspiration=on|off quiescence=on|off seed=N
  mcts  iterations=N (= nodes) c=X bias=X scale=X playout=N parallel=tree|root
        reuse=on|off tree=MIB
A search spec without depth, time or nodes thinks --time per move.

Seats: with two specs A and B in a two-player game, games alternate A-B and B-A from the
same opening. In Chexers (three seats) two specs rotate through ABB BAB BBA BAA ABA AAB, so
each plays every seat, in the majority and in the minority; three specs rotate through all
six orders. Each pair of seatings (a cycle) starts from the same opening: --opening random
plies (seeded), or for Chaos Clock without --position the random start Position::random(seed
+ cycle number).

Scores: a win counts 1, a loss 0, any other result (draws, both win, both lose) ½. The Elo
difference of each pair of specs comes from their head-to-head score: the spec whose seat
won beats every other spec in that game; other results count ½.

Examples:
  arena match chexers
  arena match chexers --engine paranoid --engine brs --engine maxn --games 12
  arena match jumpy3 --engine engine,depth=6 --engine engine,depth=6,eval=sheet --games 40
  arena match chaosclock --engine maxn --engine random --games 20 --record games.txt")]
    Match(MatchArgs),
    /// Exact game-theoretic value and every best move (the two-player games).
    #[command(after_help = "\
Output: `value: …` (Jumpy3: `win N`, `loss N` or `draw` for the side to move, N plies to the
end with best play; Chaos Clock: the result code 4 = the side to move wins, 3 = both win,
2 = both lose, 1 = the side to move loses), `best: M…` (every best move), then `line: M…`,
one perfect-play line.

Jumpy3 solves all 28 million positions once (about 9 s of CPU time, 56 MB) into the cache
directory ($PLYFORGE_CACHE_DIR, else ~/.cache/plyforge), or into --table FILE, and answers
from that file afterwards (its header and checksum are checked; a stale or damaged file is
solved again). Positions with at most one pawn a side are solved at once without it.
Chaos Clock solves by search: positions with most pieces on the board can take long
(--time T gives up). Throne is solved by proof-number search (df-pn), which proves or
disproves each side's forced win and finds its exact distance: `value: win N`, `loss N` or
`draw` (neither side can force a win); positions far from the end take very long (--time T
gives up). Chexers, with three players, has no solver.

Examples:
  arena solve jumpy3 start
  arena solve jumpy3 start --table jumpy3.table
  arena solve chaosclock '8,6,1,11,9,10,12,7,4,2,3,5;1;0'
  arena solve throne POSITION --time 30s")]
    Solve(SolveArgs),
    /// Count the leaves of the move tree (move-generator check).
    #[command(after_help = "\
Prints `perft D N` for each depth up to DEPTH, or with --divide `MOVE: N` per legal move and
`total N`. The position's own rules only: history rules (repetition) are not applied.

Examples:
  arena perft jumpy3 start 8
  arena perft chexers start 3 --divide")]
    Perft(PerftArgs),
    /// Every legal move of a position, one per line (scriptable).
    #[command(after_help = "\
Examples:
  arena moves jumpy3 start
  arena moves chaosclock '8,6,1,11,9,10,12,7,4,2,3,5;1;0'")]
    Moves(MovesArgs),
    /// Play moves from a position; print the position reached and `result: …` if over.
    #[command(after_help = "\
Each MOVE is one argument; a Chexers move contains spaces and is quoted as one argument
(`'MOVE -3 1 -2 1'`), though its words may also come as separate arguments. The moves go
through the game's record, so history rules (repetition) apply. Result lines: `result:
winner X` (X a player letter), `draw repetition`, `draw turns`, `draw score`, `both win`,
`both lose`. An illegal move, or a move after the end, is an error (exit code 2).

Examples:
  arena apply jumpy3 start 4 13 1
  arena apply chexers start 'MOVE -3 1 -2 1' 'MOVE 0 -3 0 -2'")]
    Apply(ApplyArgs),
    /// The engine protocol on stdin/stdout (see docs/protocol.md).
    #[command(after_help = "\
Example session:
  position startpos moves 4
  go depth 8
  info depth 1 score … nodes … nps … time … pv …
  …
  bestmove 13")]
    Engine(EngineArgs),
    /// A match server: agents connect over TCP (docs/server-protocol.md) and play under a clock.
    #[command(after_help = "\
Agents connect over TCP and speak the line protocol of docs/server-protocol.md (any
language; docs/example_client.py is one in Python). The server seats waiting agents in
arrival order (or, with --round-robin K, waits for K agents and plays every seating among
them) and enforces the rules and the clock: each side has --time for the whole game, the
clock runs only for the side to move, an illegal move is refused (the turn does not pass,
the clock runs on), a side whose clock reaches zero loses, an agent that leaves loses. A game
ends by its rules or after --moves moves each (default: the game's own limit, Throne 150 and
Chexers 256, else 150; the result then is Throne's score comparison, else a draw).

The first line printed is `listening ADDR`. Every game is appended to the record file as it
is played (default: arena-serve-GAME-YYYYMMDD-HHMMSS.txt in the current directory). The
standings are printed at the end: after --games games, after the round robin, or on Ctrl-C.

Examples:
  arena serve throne                          127.0.0.1:7717, 2 minutes and 150 moves each
  arena serve throne --port 9000 --time 30s --games 10
  arena serve jumpy3 --round-robin 4 --time 10s --moves 60
  arena connect throne 127.0.0.1:7717 --name ours")]
    Serve(ServeArgs),
    /// Play on a match server with our engine, thinking on the server's clock.
    #[command(after_help = "\
Plays every game the server seats it in, until the server says goodbye or --games are
played. The engine's time for each move comes from the server's clock (the time left less
--margin, shared over the moves left with a reserve), so that it does not lose on time.

Examples:
  arena connect throne 127.0.0.1:7717
  arena connect chexers 127.0.0.1:7717 --name paranoid --engine paranoid --games 6")]
    Connect(ConnectArgs),
    /// The games in a browser: play, analyse, solve, share, watch a match server.
    #[command(after_help = "\
Serves a page per game (http://127.0.0.1:8080/jumpy3, /chexers, /throne, /chaosclock):
the board drawn in SVG, moves by clicking or typed in notation, seats for people and
engines (the specs of `arena match`), a live analysis panel, exact solves (Jumpy3, Chaos
Clock), clocks, and the game's record in the page's URL to share it. The first line printed
is `listening ADDR`. Loopback unless --addr says otherwise (the page has no login).

With --watch FILE (the record file of `arena serve`, repeatable) the page /watch lists the
server's games and shows each one live as the server writes it.

Examples:
  arena web                                    http://127.0.0.1:8080/
  arena web --addr 127.0.0.1:9000 --threads 2
  arena serve throne --record games.txt &  arena web --watch games.txt")]
    Web(WebArgs),
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// The game.
    game: GameName,
    /// Side(s) played by a person: a letter (w, b / r, g, b / odd, even), a name, `all` or
    /// `none`. Default: the first player.
    #[arg(long, value_name = "SIDE", num_args = 1..)]
    human: Vec<String>,
    /// Engine thinking time per move.
    #[arg(long, value_name = "T", default_value = "1s")]
    time: String,
    /// Engine fixed depth per move (instead of --time).
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Engine threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Start position (notation or `start`).
    #[arg(long, value_name = "P")]
    position: Option<String>,
    /// The engine's specification (see `arena match --help`).
    #[arg(long, value_name = "SPEC")]
    engine: Option<String>,
}

#[derive(Args, Debug)]
struct AnalyseArgs {
    /// The game.
    game: GameName,
    /// The position (notation or `start`).
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Search to this depth.
    #[arg(long, value_name = "D", conflicts_with = "time")]
    depth: Option<u32>,
    /// Search for this long (default 5s when no depth is given).
    #[arg(long, value_name = "T")]
    time: Option<String>,
    /// Worker threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Engine specification (algorithm, evaluation, ...; see `arena match --help`).
    #[arg(long, value_name = "SPEC")]
    engine: Option<String>,
}

#[derive(Args, Debug)]
struct MatchArgs {
    /// The game.
    game: GameName,
    /// An engine specification; give two (or three for Chexers). Default: a pair chosen per
    /// game.
    #[arg(long, value_name = "SPEC")]
    engine: Vec<String>,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 10)]
    games: usize,
    /// Thinking time per move for specs without their own limit.
    #[arg(long, value_name = "T", default_value = "50ms")]
    time: String,
    /// Worker threads per engine unless its spec says otherwise.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Start every game here instead of the start position.
    #[arg(long, value_name = "P")]
    position: Option<String>,
    /// Random plies played at the start of each cycle of games (default per game).
    #[arg(long, value_name = "PLIES")]
    opening: Option<usize>,
    /// Seed of openings, random starts and random players.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Write every game to this file.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// No line per game, only the table.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// The game (jumpy3, throne or chaosclock).
    game: GameName,
    /// The position (notation or `start`).
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Jumpy3: read the solved table from FILE, or solve every position and save the table
    /// there (56 MB) for the next time (default: the cache directory).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Chaos Clock and Throne: give up after this long (exit code 1) instead of solving
    /// however long it takes.
    #[arg(long, value_name = "T")]
    time: Option<String>,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// The game.
    game: GameName,
    /// The position (notation or `start`).
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Depth in plies.
    depth: u32,
    /// Count per legal move.
    #[arg(long)]
    divide: bool,
}

#[derive(Args, Debug)]
struct MovesArgs {
    /// The game.
    game: GameName,
    /// The position (notation or `start`).
    #[arg(allow_hyphen_values = true)]
    position: String,
}

#[derive(Args, Debug)]
struct ApplyArgs {
    /// The game.
    game: GameName,
    /// The position (notation or `start`).
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// The moves, in order.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    moves: Vec<String>,
}

#[derive(Args, Debug)]
struct EngineArgs {
    /// The game.
    game: GameName,
    /// Worker threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Engine specification (algorithm, evaluation, ...; see `arena match --help`).
    #[arg(long, value_name = "SPEC")]
    engine: Option<String>,
}

#[derive(Args, Debug)]
struct ServeArgs {
    /// The game.
    game: GameName,
    /// Address to listen on (IP:PORT; port 0 picks a free port). Default 127.0.0.1:7717.
    #[arg(long, value_name = "IP:PORT")]
    addr: Option<String>,
    /// Port on 127.0.0.1 (instead of --addr).
    #[arg(long, value_name = "P")]
    port: Option<u16>,
    /// Thinking time per side for the whole game.
    #[arg(long, value_name = "T", default_value = "120s")]
    time: String,
    /// Moves per side (default: the game's own limit, else 150).
    #[arg(long, value_name = "N")]
    moves: Option<u32>,
    /// Stop after N games (default: serve until Ctrl-C); with --round-robin, play the
    /// schedule N times.
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// Wait for K agents, then play a round robin among them and stop.
    #[arg(long, value_name = "K")]
    round_robin: Option<usize>,
    /// Record file (appended to).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Start position of every game: notation, `start`, or `random` (a new seeded start per
    /// game, for games that start at random).
    #[arg(long, value_name = "P")]
    position: Option<String>,
    /// Seed of random starts.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Most connections at once; more are turned away.
    #[arg(long, value_name = "N", default_value_t = 512)]
    max_clients: usize,
}

#[derive(Args, Debug)]
struct ConnectArgs {
    /// The game.
    game: GameName,
    /// The server's address (HOST:PORT).
    addr: String,
    /// The name given to the server.
    #[arg(long, value_name = "NAME", default_value = "arena")]
    name: String,
    /// Engine specification (see `arena match --help`).
    #[arg(long, value_name = "SPEC")]
    engine: Option<String>,
    /// Worker threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Leave after N games (default: play until the server says goodbye).
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// Time kept back on every move for the network and the machine's load.
    #[arg(long, value_name = "T", default_value = "100ms")]
    margin: String,
    /// No line per game on stderr.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct WebArgs {
    /// Address to listen on (IP:PORT; port 0 picks a free port).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    addr: String,
    /// Engine threads per search unless a seat's spec says otherwise.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Searches and solves running at once; more wait their turn (default: the cores).
    #[arg(long, value_name = "N")]
    max_searches: Option<usize>,
    /// Follow this record file of `arena serve` and show its games live (repeatable).
    #[arg(long, value_name = "FILE")]
    watch: Vec<PathBuf>,
    /// Jumpy3 solves: read the solved table from FILE, or build every position's (about a
    /// minute) and save it there (56 MB). Without it each solve builds what it needs.
    #[arg(long, value_name = "FILE")]
    solve_table: Option<PathBuf>,
    /// Chaos Clock solves give up after this long.
    #[arg(long, value_name = "T", default_value = "30s")]
    solve_time: String,
}

/// Runs `$body` with `$A` bound to the adapter type of the game `$game`.
macro_rules! with_game {
    ($game:expr, $A:ident => $body:expr) => {
        match $game {
            GameName::Jumpy3 => {
                type $A = games::Jumpy3;
                $body
            }
            GameName::Chexers => {
                type $A = games::Chexers;
                $body
            }
            GameName::Throne => {
                type $A = games::Throne;
                $body
            }
            GameName::Chaosclock => {
                type $A = games::ChaosClock;
                $body
            }
        }
    };
}

fn threads_ok(n: usize) -> Result<usize, Fail> {
    if n == 0 || n > 256 {
        Err(Fail::usage(format!("--threads {n}: between 1 and 256")))
    } else {
        Ok(n)
    }
}

fn run(cli: Cli) -> Result<(), Fail> {
    match cli.command {
        Command::Moves(a) => with_game!(a.game, A => rules_cmd::moves::<A>(&a.position)),
        Command::Apply(a) => with_game!(a.game, A => rules_cmd::apply::<A>(&a.position, &a.moves)),
        Command::Perft(a) => {
            with_game!(a.game, A => rules_cmd::perft::<A>(&a.position, a.depth, a.divide))
        }
        Command::Solve(a) => {
            if a.game == GameName::Chexers {
                return Err(Fail::usage(
                    "chexers has three players: solve needs a two-player game (jumpy3, throne, chaosclock)",
                ));
            }
            if a.game == GameName::Jumpy3 && a.time.is_some() {
                return Err(Fail::usage(
                    "--time applies to throne and chaosclock only (jumpy3 answers from its table)",
                ));
            }
            if a.game != GameName::Jumpy3 && a.table.is_some() {
                return Err(Fail::usage("--table applies to jumpy3 only"));
            }
            let time = match &a.time {
                Some(t) => Some(
                    plyforge::duration::parse_duration(t)
                        .map_err(|e| Fail::usage(format!("--time: {e}")))?,
                ),
                None => None,
            };
            let settings = plyforge::SolveSettings::default()
                .with_table(a.table.as_deref())
                .with_time(time);
            with_game!(a.game, A => solve::solve::<A>(&a.position, &settings))
        }
        Command::Analyse(a) => {
            let opts = analyse::Options {
                position: a.position,
                depth: a.depth,
                time: a.time,
                threads: threads_ok(a.threads)?,
                engine: a.engine,
            };
            with_game!(a.game, A => analyse::analyse::<A>(&opts))
        }
        Command::Play(a) => {
            let opts = play::Options {
                human: a.human,
                time: a.time,
                depth: a.depth,
                threads: threads_ok(a.threads)?,
                position: a.position,
                engine: a.engine,
            };
            with_game!(a.game, A => play::play::<A>(&opts))
        }
        Command::Match(a) => {
            let opts = matchup::Options {
                engines: a.engine,
                games: a.games,
                time: a.time,
                threads: threads_ok(a.threads)?,
                position: a.position,
                opening: a.opening,
                seed: a.seed,
                record: a.record,
                quiet: a.quiet,
            };
            with_game!(a.game, A => matchup::run_match::<A>(&opts))
        }
        Command::Engine(a) => {
            let threads = threads_ok(a.threads)?;
            with_game!(a.game, A => protocol::serve_stdio::<A>(threads, a.engine.as_deref()))
        }
        Command::Serve(a) => {
            let opts = server::ServeOptions {
                addr: a.addr,
                port: a.port,
                time: a.time,
                moves: a.moves,
                games: a.games,
                round_robin: a.round_robin,
                record: a.record,
                position: a.position,
                seed: a.seed,
                max_clients: a.max_clients,
            };
            with_game!(a.game, A => server::serve::<A>(&opts))
        }
        Command::Connect(a) => {
            let opts = server::ConnectOptions {
                addr: a.addr,
                name: a.name,
                engine: a.engine,
                threads: threads_ok(a.threads)?,
                games: a.games,
                margin: a.margin,
                quiet: a.quiet,
            };
            with_game!(a.game, A => server::connect::<A>(&opts))
        }
        Command::Web(a) => web::web(&web::WebOptions {
            addr: a.addr,
            threads: threads_ok(a.threads)?,
            max_searches: a.max_searches,
            watch: a.watch,
            solve_table: a.solve_table,
            solve_time: a.solve_time,
        }),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: {e}");
            ExitCode::from(e.code() as u8)
        }
    }
}
