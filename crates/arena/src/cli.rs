//! The command line of `arena`: the subcommands and their options (clap), their help with
//! examples made from the program's own games, and the dispatch of each subcommand to its
//! game's commands ([`crate::commands`]).

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::commands::Games;
use crate::fail::Fail;
use crate::{analyse, matchup, play, train, tune};
use lab::tune::spsa;
use net::server;

/// Play, analyse, match and solve board games with one search engine.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Verb,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Play against the engine in the terminal (or watch it play itself).
    Play(PlayArgs),
    /// Analyse a position: one line per completed depth.
    #[command(visible_alias = "analyze")]
    Analyse(AnalyseArgs),
    /// Engine configurations play each other, seats rotated; a table with Elo at the end.
    Match(MatchArgs),
    /// Combine the match files of a match's shards into one table (same figures, Elo, SPRT).
    Merge(MergeArgs),
    /// The threads' effective speedup by games, from the match files of threads against one
    /// thread and of one thread with more time against one thread.
    Speedup(SpeedupArgs),
    /// Exact game-theoretic value and every best move (the two-player games).
    Solve(SolveArgs),
    /// Count the leaves of the move tree (move-generator check).
    Perft(PerftArgs),
    /// Every legal move of a position, one per line (scriptable).
    Moves(MovesArgs),
    /// Play moves from a position; print the position reached and `result: …` if over.
    Apply(ApplyArgs),
    /// The engine protocol on stdin/stdout (see docs/protocol.md).
    Engine(EngineArgs),
    /// A match server: agents connect over TCP (docs/server-protocol.md) and play under a clock.
    Serve(ServeArgs),
    /// Play on a match server with our engine, thinking on the server's clock.
    Connect(ConnectArgs),
    /// The games in a browser: play, analyse, solve, share, watch a match server.
    Web(WebArgs),
    /// Fixed positions searched to fixed depths: the search's signature and nodes per second.
    Bench(BenchArgs),
    /// Tune the game's parameters: SPSA by game pairs, or fitted to recorded games (Texel).
    Tune(TuneArgs),
    /// Train a value network (for eval=net:FILE) from self-play and recorded games.
    Train(TrainArgs),
}

#[derive(Args, Debug)]
struct TrainArgs {
    /// The game (any game with an observation tensor).
    game: String,
    /// The network's file (safetensors); beside it OUT.games.jsonl (the self-play games),
    /// OUT.state.safetensors (the trainer after each epoch) and OUT.loss.svg (the loss curve).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Go on with the run whose files are at --out (a killed run loses no finished game or
    /// epoch, and ends with the weights of an unbroken run).
    #[arg(long)]
    resume: bool,
    /// The engine of the self-play games (a depth or node budget; see `arena match --help`).
    #[arg(long, value_name = "SPEC", default_value = lab::train::DEFAULT_ENGINE)]
    engine: String,
    /// Self-play games (0: learn from --records alone).
    #[arg(long, value_name = "N", default_value_t = 200)]
    games: u64,
    /// Random plies played at the start of each self-play game (default: the game's opening
    /// plies and two more), as `arena match --opening`.
    #[arg(long, value_name = "PLIES", visible_alias = "random-plies")]
    opening: Option<usize>,
    /// The chance that a self-play move after the opening is a random one.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    explore: f64,
    /// Draw each self-play game's opening on its own, so that openings (and whole games)
    /// may repeat, as arena train did before it drew them distinct (the runs that made the
    /// networks shipped before then, and their files, need it to reproduce or resume).
    /// Without it the openings of a game that starts from one position differ, longer once
    /// the short ones are used up, as arena match's do.
    #[arg(long)]
    independent_openings: bool,
    /// Plies after which a self-play game ends with the game's limit result.
    #[arg(long, value_name = "N")]
    max_plies: Option<usize>,
    /// Self-play games at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Share the self-play games among N workers (processes, on one machine or on several
    /// with a shared folder): this one plays the games K, K+N, …, each worker with its own
    /// --out in one folder; each waits for the others' games and trains on all of them,
    /// ending with the same network. With --generations, every generation so: the judging
    /// match is shared the same way, and every worker keeps or drops each network alike.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Recorded games to learn from too: match files, tune files, training games files, text
    /// records (arena match --record, the course referee harness's --record).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    records: Vec<PathBuf>,
    /// What each position's values are trained towards: outcome (the game's result), score
    /// (the search's score of the move played), td (TD(λ) over the network's own values of
    /// the positions that follow), tdleaf (TD(λ) over the searched values recorded).
    #[arg(long, value_name = "T", default_value = "outcome")]
    target: String,
    /// λ: of td and tdleaf (default 0.7); of score, the weight of the game's outcome
    /// against the search's score, as NNUE's trainers mix them (default 0: the score).
    #[arg(long, value_name = "L")]
    lambda: Option<f64>,
    /// Evaluation points per unit of tanh, for search scores as targets.
    #[arg(long, value_name = "X", default_value_t = 400.0)]
    score_scale: f64,
    /// What a drawn game is worth to every player as a target, -1 to 1 (below 0 where only
    /// wins count, as in the COMP30024 course); the network's searches score draws the same.
    /// `wins`: only wins count, and what a draw is worth to the searches is learned: drawn
    /// games are trained as no win (-1), and after training the draw's score is fitted to
    /// the run's positions (the value below which their players never won), not set by hand
    #[arg(
        long,
        value_name = "V",
        default_value = "0",
        allow_hyphen_values = true
    )]
    draw_value: String,
    /// The network: dense (fully connected over the observation tensor) or sparse
    /// (NNUE's shape over the game's features: integer inference kept up to date per search
    /// thread, several times the dense one's speed in a search).
    #[arg(long, value_name = "KIND", default_value = "dense")]
    net: String,
    /// Dense: hidden layers' sizes (one or two: --hidden 64 or --hidden 128,32; default 64).
    #[arg(long, value_name = "N", value_delimiter = ',')]
    hidden: Option<Vec<usize>>,
    /// Sparse: the feature transformer's width per view (default 64; multiples of 32 run
    /// fastest).
    #[arg(long, value_name = "N")]
    width: Option<usize>,
    /// Sparse: the views, 1 (the player to move's; default) or the number of players (one
    /// per player, the mover's first).
    #[arg(long, value_name = "P")]
    perspectives: Option<usize>,
    /// Sparse: a second hidden layer of this width (default none).
    #[arg(long, value_name = "N")]
    l2: Option<usize>,
    /// The network reads the evaluation's terms too, after the observation (what the game's
    /// hand-made evaluation measures; by default its scores, Chexers its 36 terms); its
    /// file says so and its searches compute them at every evaluation.
    #[arg(long)]
    terms: bool,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 20)]
    epochs: u64,
    /// Positions per step.
    #[arg(long, value_name = "N", default_value_t = 256)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, value_name = "X", default_value_t = 0.001)]
    learning_rate: f64,
    /// Decoupled weight decay (AdamW).
    #[arg(long, value_name = "X", default_value_t = 0.0)]
    weight_decay: f64,
    /// The share of games held out to measure the loss on.
    #[arg(long, value_name = "P", default_value_t = 0.1)]
    holdout: f64,
    /// The first plies of each game that are not trained on.
    #[arg(long, value_name = "N", default_value_t = 0)]
    skip_plies: usize,
    /// The seed of the games, the first weights and the order of the positions.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Generations: each plays --games self-play games with the best network so far, trains
    /// a new one on every generation's games, and keeps it only if it wins an SPRT match
    /// against the best (OUT.genG.* are each generation's files, OUT the best network).
    #[arg(long, value_name = "N")]
    generations: Option<u64>,
    /// With --generations: the engine of the judging match (each side with its network).
    #[arg(
        long,
        value_name = "SPEC",
        default_value = "engine",
        requires = "generations"
    )]
    gate_engine: String,
    /// With --generations: time per move in the judging match.
    #[arg(
        long,
        value_name = "T",
        default_value = "50ms",
        requires = "generations"
    )]
    gate_time: String,
    /// With --generations: the most games of the judging match.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 400,
        requires = "generations"
    )]
    gate_games: usize,
    /// With --generations: the judging SPRT's bounds (normalised Elo).
    #[arg(long, value_names = ["ELO0", "ELO1"], num_args = 2, requires = "generations")]
    gate_sprt: Option<Vec<f64>>,
}

#[derive(Args, Debug)]
struct TuneArgs {
    /// The game.
    game: String,
    /// A parameter to tune, NAME or NAME=START (repeatable, or NAME,NAME); default: every
    /// parameter the game declares (and the search's own for an mcts engine). See below.
    #[arg(long, value_name = "NAME[=START]")]
    param: Vec<String>,
    /// The engine whose parameters are tuned (its other settings and limits stay); values
    /// it sets for tuned parameters are the start values.
    #[arg(long, value_name = "SPEC")]
    engine: Option<String>,
    /// Play theta+ and theta- each against this engine instead of against each other.
    #[arg(long, value_name = "SPEC")]
    opponent: Option<String>,
    /// SPSA iterations (the schedule's N).
    #[arg(long, value_name = "N", default_value_t = 200)]
    iterations: u64,
    /// Game pairs per iteration (each pair: one opening in every seat order).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pairs: u64,
    /// Thinking time per move for specs without their own limit.
    #[arg(long, value_name = "T", default_value = "20ms")]
    time: String,
    /// Worker threads per engine unless its spec says otherwise.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Start every game here (`random` or `fair`: a new seeded one per opening).
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    position: Option<String>,
    /// Random plies played at the start of each opening (default per game); more where the
    /// shorter openings are used up: no two openings end alike.
    #[arg(long, value_name = "PLIES")]
    opening: Option<usize>,
    /// Opening book: one position per line, walked in a seeded random order.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Seed of the perturbations, openings and random players.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Write every game as one JSON line to this tune file, as it finishes.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Continue the run of --out FILE: play only the games not in it.
    #[arg(long)]
    resume: bool,
    /// Be worker K of N: play the pairs of each iteration whose opening is K's, and wait for
    /// the other workers' games in the other .jsonl files of --out's directory.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// The learning rate at the end (r_end): a win more per pair then moves a parameter by
    /// this fraction of its step.
    #[arg(long, value_name = "X", default_value_t = spsa::R_END)]
    r_end: f64,
    /// Spall's alpha (the learning rate's decay).
    #[arg(long, value_name = "X", default_value_t = spsa::ALPHA)]
    spsa_alpha: f64,
    /// Spall's gamma (the perturbation's decay).
    #[arg(long, value_name = "X", default_value_t = spsa::GAMMA)]
    spsa_gamma: f64,
    /// The learning rate's delay A as a fraction of the iterations.
    #[arg(long, value_name = "X", default_value_t = spsa::A_RATIO)]
    spsa_a: f64,
    /// Only the final table (no hint line).
    #[arg(long)]
    quiet: bool,
    /// Then play the tuned values against the start values on new openings: an SPRT
    /// (two players) or a table (three).
    #[arg(long)]
    verify: bool,
    /// The verification's most games (default 10000 for a two-player game, whose
    /// verification is an SPRT that stops when decided; 60 for three players, a table).
    #[arg(long, value_name = "N", requires = "verify")]
    verify_games: Option<usize>,
    /// The verification's SPRT (two-player games): H0 nElo = ELO0 against H1 nElo = ELO1
    /// (default 0 10).
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true, requires = "verify")]
    verify_sprt: Option<Vec<f64>>,
    /// The verification's match file (default: the tune file's name with .verify.jsonl).
    #[arg(long, value_name = "FILE", requires = "verify")]
    verify_out: Option<PathBuf>,
    /// Draw each parameter's path (and the verification) here (default: the tune file's
    /// name with .svg, when there is a tune file).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Texel's method instead of SPSA: fit the evaluation's parameters to the results of
    /// these recorded games (match files, tune files, training games files, text records;
    /// the same files as `arena train --records`).
    #[arg(long, value_name = "FILE", num_args = 1.., visible_alias = "from-records", conflicts_with_all = ["opponent", "out", "resume", "shard", "verify", "svg"])]
    records: Vec<PathBuf>,
    /// With --records: folds of cross-validation (0: none).
    #[arg(long, value_name = "K", default_value_t = 5)]
    folds: usize,
    /// With --records: the first ply of a game whose position counts.
    #[arg(long, value_name = "PLY", default_value_t = 6)]
    skip_plies: usize,
    /// With --records: the most passes of the local search.
    #[arg(long, value_name = "N", default_value_t = 40)]
    rounds: usize,
    /// With --records: fit to the moves these players chose (names as the records'
    /// seats give them) instead of the results: an opponent model.
    #[arg(long, value_name = "NAME", num_args = 1.., requires = "records")]
    predict: Vec<String>,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// The games (default: every game with a bench).
    games: Vec<String>,
    /// Worker threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// How the threads share the search: the bench at 1, 2, 4, 8 and 16 threads, each
    /// against one thread (node overhead, speedup, nodes per second, the largest thread's
    /// share, the parallel search's counters, the values).
    #[arg(long, conflicts_with = "threads")]
    scaling: bool,
    /// With --scaling: search each position this many plies deeper than the bench does
    /// (longer searches show the overhead of a real search better).
    #[arg(long, value_name = "PLIES", default_value_t = 0, requires = "scaling")]
    deeper: u32,
    /// With --scaling: the thread counts measured against one thread.
    #[arg(
        long,
        value_name = "N,N,...",
        value_delimiter = ',',
        default_values_t = [2, 4, 8, 16],
        requires = "scaling"
    )]
    counts: Vec<usize>,
    /// With --scaling: the engine specification (as `arena match` takes it) instead of the
    /// game's recommended engine, such as `brs` or `mcts` for Chexers.
    #[arg(long, value_name = "SPEC", requires = "scaling")]
    engine: Option<String>,
    /// With --scaling: this one position (with --depth) instead of the game's bench list.
    #[arg(long, value_name = "POSITION", requires = "depth")]
    position: Option<String>,
    /// With --position: the depth it is searched to.
    #[arg(long, value_name = "D", requires = "position")]
    depth: Option<u32>,
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// The game.
    game: String,
    /// Side(s) played by a person: a player's letter or name (see below), `all` or `none`.
    /// Default: the first player.
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
    game: String,
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
    game: String,
    /// An engine specification; give two (or three for a three-player game). Default: a pair
    /// chosen per game.
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
    /// a position); more where the shorter openings are used up: no two openings end alike.
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
    /// a move limit (a draw, or the game's own, such as a score comparison).
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
    /// A game clock: each side has T for the whole game; every engine thinks on it (the
    /// game's clock policy; a spec's own depth, nodes or time apply within it), each move
    /// charged with its wall time, and a side whose clock runs out loses (adjudicated:
    /// time).
    #[arg(long, value_name = "T")]
    clock: Option<String>,
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
struct SpeedupArgs {
    /// The match file (`arena match --out`) of the threads (engine 1) against one thread
    /// (engine 2) at the same time.
    threads: PathBuf,
    /// The match file of one thread at FACTOR times the time (engine 1) against one thread
    /// at the time (engine 2); give one per factor measured.
    #[arg(long, value_name = "FACTOR=FILE", required = true)]
    odds: Vec<String>,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// The game (one with an exact solver).
    game: String,
    /// The position (notation or `start`).
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// For a solver that keeps a solved table (see below): read it from FILE, or solve and
    /// save it there for the next time (default: the cache directory).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// For a solver that searches (see below): give up after this long (exit code 1)
    /// instead of solving however long it takes.
    #[arg(long, value_name = "T")]
    time: Option<String>,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// The game.
    game: String,
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
    game: String,
    /// The position (notation or `start`).
    #[arg(allow_hyphen_values = true)]
    position: String,
}

#[derive(Args, Debug)]
struct ApplyArgs {
    /// The game.
    game: String,
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
    game: String,
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
    game: String,
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
    game: String,
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
    /// Solves of a game whose solver keeps a solved table: read it from FILE, or build it
    /// and save it there. Without it each solve uses the cache directory.
    #[arg(long, value_name = "FILE")]
    solve_table: Option<PathBuf>,
    /// Solves by search give up after this long.
    #[arg(long, value_name = "T", default_value = "30s")]
    solve_time: String,
}

fn threads_ok(n: usize) -> Result<usize, Fail> {
    if n == 0 || n > 256 {
        Err(Fail::usage(format!("--threads {n}: between 1 and 256")))
    } else {
        Ok(n)
    }
}

/// The game arguments of the subcommands (the positional `game`, and `bench`'s `games`)
/// take exactly the arena's games, each shown with its line of help.
fn with_game_names(command: clap::Command, kinds: &[plyforge::GameKind]) -> clap::Command {
    let values: Vec<clap::builder::PossibleValue> = kinds
        .iter()
        .map(|k| clap::builder::PossibleValue::new(k.name()).help(k.info().about))
        .collect();
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    names.iter().fold(command, |command, name| {
        command.mut_subcommand(name, |sub| {
            // `mut_arg` moves the argument to the end: every argument is taken in its order,
            // so that the positional ones keep theirs.
            let ids: Vec<String> = sub
                .get_arguments()
                .map(|a| a.get_id().to_string())
                .collect();
            ids.iter().fold(sub, |sub, id| {
                sub.mut_arg(id, |a| {
                    if a.is_positional() && (id == "game" || id == "games") {
                        a.value_parser(clap::builder::PossibleValuesParser::new(values.clone()))
                    } else {
                        a
                    }
                })
            })
        })
    })
}

/// Parses the command line against the arena's games: the game argument of every
/// subcommand takes exactly their names, and the help's examples use them.
pub(crate) fn parse(
    kinds: &[plyforge::GameKind],
    args: Vec<std::ffi::OsString>,
) -> Result<Cli, clap::Error> {
    let command = with_game_names(Cli::command(), kinds);
    let mut command = crate::help::with_help(kinds, command);
    let matches = command.try_get_matches_from_mut(args)?;
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command))
}

/// Runs the command line: one arm per subcommand, each turning clap's options into the
/// command's own options and calling it for the game named (long as the list of commands).
pub(crate) fn run(arena: &Games, cli: Cli) -> Result<(), Fail> {
    match cli.command {
        Verb::Moves(a) => arena.commands(&a.game)?.moves(&a.position),
        Verb::Apply(a) => arena.commands(&a.game)?.apply(&a.position, &a.moves),
        Verb::Perft(a) => arena
            .commands(&a.game)?
            .perft(&a.position, a.depth, a.divide),
        Verb::Solve(a) => solve(arena, a),
        Verb::Analyse(a) => {
            let opts = analyse::AnalyseOptions {
                position: a.position,
                depth: a.depth,
                time: a.time,
                threads: threads_ok(a.threads)?,
                engine: a.engine,
            };
            arena.commands(&a.game)?.analyse(&opts)
        }
        Verb::Play(a) => {
            let opts = play::PlayOptions {
                human: a.human,
                time: a.time,
                depth: a.depth,
                threads: threads_ok(a.threads)?,
                position: a.position,
                engine: a.engine,
            };
            arena.commands(&a.game)?.play(&opts)
        }
        Verb::Match(a) => {
            let game = arena.commands(&a.game)?;
            let quiet = a.quiet;
            game.run_match(&match_settings(a)?, quiet)
        }
        Verb::Merge(a) => matchup::merge(&a.files, a.out.as_ref()),
        Verb::Speedup(a) => matchup::speedup(&a.threads, &a.odds),
        Verb::Engine(a) => {
            let threads = threads_ok(a.threads)?;
            arena
                .commands(&a.game)?
                .engine(threads, a.engine.as_deref())
        }
        Verb::Serve(a) => {
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
            arena.commands(&a.game)?.serve(&opts)
        }
        Verb::Connect(a) => {
            let opts = server::ConnectOptions {
                addr: a.addr,
                name: a.name,
                engine: a.engine,
                threads: threads_ok(a.threads)?,
                games: a.games,
                margin: a.margin,
                quiet: a.quiet,
            };
            arena.commands(&a.game)?.connect(&opts)
        }
        Verb::Bench(a) => bench_command(arena, a),
        Verb::Tune(a) => {
            let game = arena.commands(&a.game)?;
            game.tune(&tune_command(a)?)
        }
        Verb::Train(a) => {
            let game = arena.commands(&a.game)?;
            game.train(&train_command(a)?)
        }
        Verb::Web(a) => Ok(web::serve(&web::WebSettings {
            addr: a.addr,
            threads: threads_ok(a.threads)?,
            max_searches: a.max_searches,
            watch: a.watch,
            solve_table: a.solve_table,
            solve_time: duration("--solve-time", &a.solve_time)?,
            games: arena.kinds(),
        })?),
    }
}

/// `arena bench`: the signature's list, or with `--scaling` how the threads share it.
fn bench_command(arena: &Games, a: BenchArgs) -> Result<(), Fail> {
    if a.scaling {
        let o = crate::bench::ScalingOptions {
            deeper: a.deeper,
            counts: a.counts.clone(),
            engine: a.engine.clone(),
            position: a.position.clone().zip(a.depth),
        };
        bench_scaling(arena, &a.games, &o)
    } else if a.position.is_some() {
        Err(Fail::usage(
            "--position needs --scaling (the bench's signature is its own list)",
        ))
    } else {
        bench(arena, &a.games, threads_ok(a.threads)?)
    }
}

/// `arena solve`: the options checked against what the game's solver takes.
fn solve(arena: &Games, a: SolveArgs) -> Result<(), Fail> {
    let game = arena.commands(&a.game)?;
    let kind = game.kind();
    let with = |want: fn(&plyforge::SolverTraits) -> bool| {
        arena
            .kinds()
            .into_iter()
            .filter(|k| k.info().solver.as_ref().is_some_and(want))
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(solver) = kind.info().solver else {
        return Err(Fail::usage(if kind.players() != 2 {
            format!(
                "{} has {} players: solve needs a two-player game ({})",
                kind.name(),
                number_word(kind.players()),
                with(|_| true)
            )
        } else {
            format!("{} has no exact solver", kind.name())
        }));
    };
    if a.time.is_some() && !solver.time_limit {
        return Err(Fail::usage(format!(
            "--time applies to {} only ({} answers from its table)",
            with(|s| s.time_limit),
            kind.name()
        )));
    }
    if a.table.is_some() && !solver.table_file {
        return Err(Fail::usage(format!(
            "--table applies to {} only",
            with(|s| s.table_file)
        )));
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
    game.solve(&a.position, &settings)
}

/// `arena bench`: each game's bench, then the total over them: the signature.
fn bench(arena: &Games, games: &[String], threads: usize) -> Result<(), Fail> {
    let names: Vec<String> = if games.is_empty() {
        arena.kinds().iter().map(|k| k.name().to_string()).collect()
    } else {
        games.to_vec()
    };
    let (mut positions, mut nodes, mut seconds) = (0, 0u64, 0.0);
    for name in &names {
        match arena.commands(name)?.bench(threads)? {
            Some(t) => {
                positions += t.positions;
                nodes += t.nodes;
                seconds += t.seconds;
            }
            None if !games.is_empty() => {
                return Err(Fail::usage(format!(
                    "{name} has no bench (a game gives its bench in GameAdapter::BENCH: \
                     `label: depth: position` lines, searched with its engine settings)"
                )));
            }
            None => {}
        }
    }
    crate::fail::outln!("===========================");
    crate::fail::outln!("positions  {positions}");
    crate::fail::outln!("threads    {threads}");
    crate::fail::outln!("signature  {nodes}");
    crate::fail::outln!(
        "nodes/s    {}",
        if seconds > 0.0 {
            (nodes as f64 / seconds) as u64
        } else {
            0
        }
    );
    Ok(())
}

/// `arena bench --scaling`: the games' benches at 1 to 16 threads.
fn bench_scaling(
    arena: &Games,
    games: &[String],
    o: &crate::bench::ScalingOptions,
) -> Result<(), Fail> {
    let names: Vec<String> = if games.is_empty() {
        arena.kinds().iter().map(|k| k.name().to_string()).collect()
    } else {
        games.to_vec()
    };
    for name in &names {
        if !arena.commands(name)?.bench_scaling(o)? && !games.is_empty() {
            return Err(Fail::usage(format!("{name} has no bench to measure")));
        }
    }
    Ok(())
}

/// `two`, `three`, … for small numbers.
fn number_word(n: usize) -> String {
    ["zero", "one", "two", "three", "four"]
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// A duration option (`--time`).
fn duration(option: &str, text: &str) -> Result<std::time::Duration, Fail> {
    plyforge::duration::parse_duration(text).map_err(|e| Fail::usage(format!("{option}: {e}")))
}

/// A `--shard K/N` option.
fn shard(text: Option<&str>) -> Result<Option<lab::schedule::Shard>, Fail> {
    text.map(|s| s.parse().map_err(|e| Fail::usage(format!("--shard: {e}"))))
        .transpose()
}

/// The settings of `arena match`, checked.
fn match_settings(a: MatchArgs) -> Result<lab::MatchSettings, Fail> {
    use lab::game::{Adjudication, DrawRule, Resign};
    let adjudication = Adjudication {
        max_plies: a.max_plies,
        resign: a
            .resign
            .as_deref()
            .map(Resign::parse)
            .transpose()
            .map_err(Fail::usage)?,
        draw: a
            .draw
            .as_deref()
            .map(DrawRule::parse)
            .transpose()
            .map_err(Fail::usage)?,
    };
    if a.max_plies == Some(0) {
        return Err(Fail::usage("--max-plies must be at least 1"));
    }
    Ok(lab::MatchSettings {
        engines: a.engine,
        specs: Vec::new(),
        games: a.games,
        time: duration("--time", &a.time)?,
        threads: threads_ok(a.threads)?,
        position: a.position,
        opening: a.opening,
        seed: a.seed,
        record: a.record,
        concurrency: a.concurrency,
        book: a.book,
        book_order: match a.book_order {
            BookOrder::Sequential => lab::book::Order::Sequential,
            BookOrder::Random => lab::book::Order::Random,
        },
        sprt: a.sprt.map(|v| (v[0], v[1])),
        alpha: a.alpha,
        beta: a.beta,
        out: a.out,
        resume: a.resume,
        shard: shard(a.shard.as_deref())?,
        adjudication,
        clock: a
            .clock
            .as_deref()
            .map(|t| duration("--clock", t))
            .transpose()?,
    })
}

/// The options of `arena train`, checked: one run, or generations of runs.
fn train_command(a: TrainArgs) -> Result<train::TrainCommand, Fail> {
    let generations = a.generations;
    let gate = (
        a.gate_engine.clone(),
        duration("--gate-time", &a.gate_time)?,
        a.gate_games,
        a.gate_sprt.clone().map_or((0.0, 10.0), |v| (v[0], v[1])),
    );
    let concurrency = a.concurrency.max(1);
    let settings = train_settings(a)?;
    Ok(match generations {
        None => train::TrainCommand::Once(settings),
        Some(generations) => {
            train::TrainCommand::Generations(lab::train::generations::GenerationSettings {
                train: settings,
                generations,
                gate_engine: gate.0,
                gate_time: gate.1,
                gate_games: gate.2,
                gate_sprt: gate.3,
                gate_concurrency: concurrency,
            })
        }
    })
}

/// The options of one training run.
fn train_settings(a: TrainArgs) -> Result<lab::train::TrainSettings, Fail> {
    let target = lab::train::Target::parse(&a.target).ok_or_else(|| {
        Fail::usage(format!(
            "--target {}: outcome, score, td or tdleaf",
            a.target
        ))
    })?;
    let sparse = match a.net.as_str() {
        "dense" => {
            if a.width.is_some() || a.perspectives.is_some() || a.l2.is_some() {
                return Err(Fail::usage(
                    "--width, --perspectives and --l2 shape a sparse network: add --net sparse",
                ));
            }
            None
        }
        "sparse" => {
            if a.hidden.is_some() || a.terms {
                return Err(Fail::usage(
                    "--hidden and --terms shape a dense network; a sparse one takes --width, \
                     --perspectives and --l2",
                ));
            }
            let d = lab::train::SparseSettings::default();
            Some(lab::train::SparseSettings {
                width: a.width.unwrap_or(d.width),
                perspectives: a.perspectives.unwrap_or(d.perspectives),
                l2: a.l2,
            })
        }
        other => return Err(Fail::usage(format!("--net {other}: dense or sparse"))),
    };
    let (draw, draw_fit) = match a.draw_value.as_str() {
        "wins" => (-1.0, true),
        v => match v.parse::<f64>() {
            Ok(d) if (-1.0..=1.0).contains(&d) => (d, false),
            _ => {
                return Err(Fail::usage(format!(
                    "--draw-value {v}: a number from -1 to 1, or wins"
                )))
            }
        },
    };
    Ok(lab::train::TrainSettings {
        engine: Some(a.engine),
        net: None,
        games: a.games,
        random_plies: a.opening,
        explore: a.explore,
        independent_openings: a.independent_openings,
        max_plies: a.max_plies,
        records: a.records,
        target,
        lambda: a.lambda,
        score_scale: a.score_scale,
        draw,
        draw_fit,
        hidden: a.hidden.unwrap_or_else(|| vec![64]),
        terms: a.terms,
        sparse,
        epochs: a.epochs,
        batch: a.batch,
        learning_rate: a.learning_rate,
        weight_decay: a.weight_decay,
        holdout: a.holdout,
        skip: a.skip_plies,
        seed: a.seed,
        out: Some(a.out),
        resume: a.resume,
        concurrency: a.concurrency.max(1),
        shard: shard(a.shard.as_deref())?,
    })
}

/// The options of `arena tune`, checked.
fn tune_command(a: TuneArgs) -> Result<tune::TuneCommand, Fail> {
    if !a.records.is_empty() {
        return Ok(tune::TuneCommand::Texel(lab::tune::TexelSettings {
            files: a.records,
            params: a.param,
            engine: a.engine,
            folds: a.folds,
            skip: a.skip_plies,
            rounds: a.rounds,
            predict: a.predict,
        }));
    }
    let verify = a.verify.then(|| lab::tune::VerifySettings {
        games: a.verify_games,
        sprt: a.verify_sprt.map_or((0.0, 10.0), |v| (v[0], v[1])),
        out: a.verify_out,
    });
    let settings = lab::tune::TuneSettings {
        params: a.param,
        engine: a.engine,
        opponent: a.opponent,
        iterations: a.iterations,
        pairs: a.pairs,
        time: duration("--time", &a.time)?,
        threads: threads_ok(a.threads)?,
        position: a.position,
        opening: a.opening,
        book: a.book,
        seed: a.seed,
        concurrency: a.concurrency,
        out: a.out,
        resume: a.resume,
        shard: shard(a.shard.as_deref())?,
        r_end: a.r_end,
        alpha: a.spsa_alpha,
        gamma: a.spsa_gamma,
        a_ratio: a.spsa_a,
    };
    Ok(tune::TuneCommand::Spsa(Box::new(tune::Spsa {
        settings,
        quiet: a.quiet,
        verify,
        svg: a.svg,
    })))
}
