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
mod matchup;
mod play;
mod rules_cmd;
mod solve;
mod web;

// The protocol, the server and the failures are in the internal library (src/lib.rs), where
// the fuzz targets and the tests reach them.
use plyforge_arena::{elo, fail, protocol, server};

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
        (Chexers: eval=NAME:WEIGHT=N:..., e.g. eval=default:contempt=600)
  mcts  iterations=N (= nodes) c=X bias=X scale=X playout=N parallel=tree|root
        reuse=on|off tree=MIB
A search spec without depth, time or nodes thinks --time per move.

Seats: with two specs A and B in a two-player game, games come in pairs from one opening,
A-B then B-A. In Chexers (three seats) two specs rotate through ABB BAB BBA BAA ABA AAB, so
each plays every seat, in the majority and in the minority; three specs rotate through all
six orders. Each opening is its own start (--book: the book's next position; --position: that
one; Chaos Clock without either: the random start Position::random(seed + opening number);
`--position fair`: the fair start of seed + opening number) followed by --opening random
plies (seeded).

Openings and books: --book FILE has one position per line in the game's notation (or
`start`, `random:SEED`, `fair:SEED`; blank lines and # comments skipped), used in file order
or, with --book-order random, in a seeded shuffle; when used up it starts over. `fair:SEED`
(Chaos Clock) is the first of a seeded series of random deals that the exact solver proves
\"both win\", so that neither side is favoured.

Scores: a win counts 1, a loss 0, any other result (draws, both win, both lose) ½. The Elo
difference of each pair of specs comes from their head-to-head score: the spec whose seat
won beats every other spec in that game; other results count ½. With two engines in a
two-player game the table adds the pentanomial (pairs by engine 1's score in the pair: LL,
LD, DD+WL, WD, WW), Elo, normalised Elo and LOS on pairs. In Chexers a ranking by places
(winner 1st, losers ordered by exits). Chexers has no SPRT: three players give no pairs
with the seats swapped and no single Elo difference to test.

SPRT: --sprt ELO0 ELO1 tests H0 nElo = ELO0 against H1 nElo = ELO1 for engine 1 (normalised
Elo, pentanomial model on pairs, log-likelihood ratio as fishtest computes it; bounds from
--alpha and --beta). The pairs are taken in schedule order: the match stops at the first
pair whose complete prefix crosses a bound, and counts exactly those pairs, however many
games run at once. --games is then the most games (default 10000).

Concurrency: --concurrency N plays N games at once, each in its own thread; each engine's
threads (threads=N in the spec, or --threads) count against the cores: N games with T
threads each want N x T cores, or timed engines think less than asked (a warning says so).
Each thread keeps its engines from game to game and clears their tables before each game (a
cleared engine plays as a new one): for engines of a few hundred nodes a move the clearing
costs more than the searching, and a small table (tt=1 in the spec) is many times faster.

Files: --out FILE writes a header line, then every game as one JSON line (engines, seats,
opening, moves, result, time, nodes and score per move) as it finishes, flushed per game.
--resume continues the match of FILE (same options: the match id in every line must agree),
playing only the games not there; a line cut short by a kill is dropped and replayed.
--shard K/N plays only openings K-1, K-1+N, K-1+2N, ... of the match, so N processes play
each game once; `arena merge` combines their files. A shard of a test with --out reads the
other .jsonl files beside its own every few seconds, so that on a shared volume all shards
stop once the test is decided on their games together.

Adjudication: --max-plies N ends a game after N plies with the game's move-limit result;
--resign MOVES,SCORE and --draw PLY,MOVES,SCORE judge two-player games by both engines'
scores (players that do not search have none, and are never adjudicated this way).

Examples:
  arena match chexers
  arena match chexers --engine paranoid --engine brs --engine maxn --games 12
  arena match jumpy3 --engine engine,depth=6 --engine engine,depth=6,eval=sheet --games 40
  arena match jumpy3 --engine engine,depth=7 --engine engine,depth=6 --sprt 0 10 \\
      --concurrency 2 --out test.jsonl --quiet
  arena match throne --engine engine,depth=3 --engine greedy --book openings.txt \\
      --book-order random --max-plies 200 --resign 3,800
  arena match jumpy3 --sprt 0 5 --games 10000 --shard 3/8 --out results/3.jsonl --resume
  arena merge results/*.jsonl
  arena match chaosclock --engine maxn --engine random --games 20 --record games.txt")]
    Match(MatchArgs),
    /// Combine the match files of a match's shards into one table (same figures, Elo, SPRT).
    #[command(after_help = "\
Reads the files `arena match --out FILE` wrote (the shards of one match, or one match resumed),
refuses files of different matches (every line names its match), counts a game found in
several files once, and prints the table of the whole match: the same figures, Elo and SPRT
verdict as the match played in one process. --out writes the merged match file.

Examples:
  arena merge results/shard-*.jsonl
  arena merge a.jsonl b.jsonl --out whole.jsonl")]
    Merge(MergeArgs),
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
the clock runs on), a side whose clock reaches zero loses, an agent that leaves loses (before
its first move, the game is void instead: it never started). A game ends by its rules or
after --moves moves each (default: the game's own limit, Throne 150 and Chexers 256, else
150; the result then is Throne's score comparison, else a draw). Everything an agent controls
is limited (--max-clients, --max-per-address, --max-games, --idle, line length, refused
lines in a row), each refusal an `error limit …` line.

The first line printed is `listening ADDR`. Every game is appended to the record file as it
is played (default: arena-serve-GAME-YYYYMMDD-HHMMSS.txt in the current directory), and made
durable at its end; a server started on the record of one that crashed first marks the games
it left unfinished (`end crashed aborted`). The
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
    /// Number of games (with --sprt the most; default 10, with --sprt 10000).
    #[arg(long, value_name = "N")]
    games: Option<usize>,
    /// Thinking time per move for specs without their own limit.
    #[arg(long, value_name = "T", default_value = "50ms")]
    time: String,
    /// Worker threads per engine unless its spec says otherwise.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Start every game here instead of the start position (`random` or `fair`: a new
    /// seeded one per opening, for games that start at random).
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    position: Option<String>,
    /// Random plies played at the start of each opening (default per game; 0 with a book or
    /// a position).
    #[arg(long, value_name = "PLIES")]
    opening: Option<usize>,
    /// Seed of openings, book order, random starts and random players.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Write every game to this file (text: start, result, moves).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// No line per game, only the table.
    #[arg(long)]
    quiet: bool,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Opening book: one position per line in the game's notation.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// The order the book's positions are used in.
    #[arg(long, value_name = "ORDER", value_enum, default_value_t = BookOrder::Sequential)]
    book_order: BookOrder,
    /// Sequential probability ratio test of H0 nElo = ELO0 against H1 nElo = ELO1 for
    /// engine 1 (normalised Elo, pentanomial model on game pairs); stops when decided.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// The test's chance of accepting H1 when H0 holds.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    alpha: f64,
    /// The test's chance of accepting H0 when H1 holds.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    beta: f64,
    /// Write every game as one JSON line to this file, as it finishes.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Continue the match of --out FILE: play only the games not in it.
    #[arg(long)]
    resume: bool,
    /// Play only slice K of N of the match (whole openings; N processes play each game of
    /// the match once).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// End a game after this many plies (the opening's included) with the game's result for
    /// a move limit (a draw; Throne: the score comparison).
    #[arg(long, value_name = "N")]
    max_plies: Option<usize>,
    /// Resign rule MOVES,SCORE: a game is lost for the side whose last MOVES scores are all
    /// at most -SCORE while its opponent's are all at least SCORE.
    #[arg(long, value_name = "MOVES,SCORE")]
    resign: Option<String>,
    /// Draw rule PLY,MOVES,SCORE: from ply PLY on, a game is drawn when both sides' last
    /// MOVES scores are all within +-SCORE.
    #[arg(long, value_name = "PLY,MOVES,SCORE")]
    draw: Option<String>,
}

/// How a book is walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BookOrder {
    /// In file order, from the top again when used up.
    Sequential,
    /// A seeded shuffle (--seed), shuffled anew each time the book is used up.
    Random,
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// Match files written by `arena match --out` (the shards of one match).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the merged match file here.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
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
    /// Start position of every game: notation, `start`, or `random` / `fair` (a new seeded
    /// random / fair start per game, for games that have them).
    #[arg(long, value_name = "P")]
    position: Option<String>,
    /// Seed of random starts.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Most connections at once; more are turned away.
    #[arg(long, value_name = "N", default_value_t = 512)]
    max_clients: usize,
    /// Most connections at once from one IP address; more are turned away.
    #[arg(long, value_name = "N", default_value_t = 128)]
    max_per_address: usize,
    /// Most games at once; agents beyond wait their turn.
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_games: usize,
    /// An agent silent this long outside a game is closed (`ping` keeps it).
    #[arg(long, value_name = "T", default_value = "10m")]
    idle: String,
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

/// Runs the command line: one arm per subcommand, each turning clap's options into the
/// command's own options and calling it for the game named (long as the list of commands).
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
            let adjudication = matchup::game::Adjudication {
                max_plies: a.max_plies,
                resign: a
                    .resign
                    .as_deref()
                    .map(matchup::game::Resign::parse)
                    .transpose()
                    .map_err(Fail::usage)?,
                draw: a
                    .draw
                    .as_deref()
                    .map(matchup::game::DrawRule::parse)
                    .transpose()
                    .map_err(Fail::usage)?,
            };
            if a.max_plies == Some(0) {
                return Err(Fail::usage("--max-plies must be at least 1"));
            }
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
                concurrency: a.concurrency,
                book: a.book,
                book_order: match a.book_order {
                    BookOrder::Sequential => matchup::book::Order::Sequential,
                    BookOrder::Random => matchup::book::Order::Random,
                },
                sprt: a.sprt.map(|v| (v[0], v[1])),
                alpha: a.alpha,
                beta: a.beta,
                out: a.out,
                resume: a.resume,
                shard: a
                    .shard
                    .as_deref()
                    .map(|s| s.parse().map_err(|e| Fail::usage(format!("--shard: {e}"))))
                    .transpose()?,
                adjudication,
            };
            with_game!(a.game, A => matchup::run_match::<A>(&opts))
        }
        Command::Merge(a) => matchup::merge::merge(&matchup::merge::Options {
            files: a.files,
            out: a.out,
        }),
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
                max_per_address: a.max_per_address,
                max_games: a.max_games,
                idle: a.idle,
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
