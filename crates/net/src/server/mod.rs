//! The match server (`arena serve`) and our engine as its client (`arena connect`).
//!
//! Agents of any author connect over TCP and speak the line protocol of
//! `docs/server-protocol.md` ([`wire`]). The server seats them (`lobby`: pairs in arrival
//! order, or a round robin), runs each game in its own task with a clock per side that runs
//! only for the side to move (`game`), answers each connection from its own task so that
//! a slow, silent or hostile peer cannot hold up anybody else (`conn`), and appends every
//! event to a record file, flushed per line ([`record`]; read back by [`reader`]). `client`
//! is `arena connect`.
//!
//! Everything game-specific comes from the facade's [`GameAdapter`]s, among them the game's
//! own move limit ([`GameAdapter::own_move_limit`]) and how a game ends when the server's move
//! limit, not the rules, stops it ([`GameAdapter::limit_outcome`]).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::Error;
use plyforge::duration::parse_duration;
use plyforge::GameAdapter;

mod client;
mod conn;
mod game;
mod lobby;
pub mod reader;
pub mod record;
pub mod wire;

/// The server's default address (loopback only: agents elsewhere need `--addr`).
pub const DEFAULT_ADDR: &str = "127.0.0.1:7717";

/// Moves per side when neither the game nor `--moves` gives a limit.
pub const DEFAULT_MOVES: u32 = 150;

/// The options of `arena serve`, as given on the command line.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address to listen on (`--addr`), default [`DEFAULT_ADDR`].
    pub addr: Option<String>,
    /// Port on 127.0.0.1 (`--port`), instead of `--addr`.
    pub port: Option<u16>,
    /// Thinking time per side for the whole game.
    pub time: String,
    /// Moves per side (default: the game's own limit, else [`DEFAULT_MOVES`]).
    pub moves: Option<u32>,
    /// Stop after this many games (pairing), or play the round-robin schedule this many times.
    pub games: Option<u64>,
    /// Wait for this many agents and play a round robin among them.
    pub round_robin: Option<usize>,
    /// Record file (default: a name with the game and the time in the current directory).
    pub record: Option<PathBuf>,
    /// Start position: notation, `start`, or `random` (a new seeded start per game).
    pub position: Option<String>,
    /// Seed of random starts.
    pub seed: u64,
    /// Most connections at once.
    pub max_clients: usize,
    /// Most connections at once from one IP address.
    pub max_per_address: usize,
    /// Most games at once (agents beyond wait their turn).
    pub max_games: usize,
    /// Time an agent may stay silent outside a game before it is closed (`10m`, `90s`).
    pub idle: String,
}

/// The options of `arena connect`.
#[derive(Clone, Debug)]
pub struct ConnectOptions {
    /// The server's address.
    pub addr: String,
    /// The name to announce.
    pub name: String,
    /// Engine specification (see `arena match --help`).
    pub engine: Option<String>,
    /// Worker threads.
    pub threads: usize,
    /// Leave after this many games (default: play until the server says goodbye).
    pub games: Option<u64>,
    /// Time kept back on every move for the way to the server and back.
    pub margin: String,
    /// No line per game on stderr.
    pub quiet: bool,
}

/// The checked settings of a server.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub addr: SocketAddr,
    pub time: Duration,
    /// Moves per side; the game ends after `moves × players` plies.
    pub moves: u32,
    pub games: Option<u64>,
    pub round_robin: Option<usize>,
    pub record: PathBuf,
    pub max_clients: usize,
    pub max_games: usize,
    pub limits: conn::Limits,
}

fn check_serve<A: GameAdapter>(o: &ServeOptions) -> Result<Settings, Error> {
    let addr_text = match (&o.addr, o.port) {
        (Some(_), Some(_)) => return Err(Error::settings("give --addr or --port, not both")),
        (Some(a), None) => a.clone(),
        (None, Some(p)) => format!("127.0.0.1:{p}"),
        (None, None) => DEFAULT_ADDR.to_string(),
    };
    let addr: SocketAddr = addr_text.parse().map_err(|_| {
        Error::settings(format!(
            "--addr {addr_text:?}: expected IP:PORT, such as 127.0.0.1:7717"
        ))
    })?;
    let time = parse_duration(&o.time).map_err(|e| Error::settings(format!("--time: {e}")))?;
    if time.is_zero() {
        return Err(Error::settings("--time: the clock needs some time"));
    }
    let moves = match o.moves {
        Some(0) => return Err(Error::settings("--moves: at least 1")),
        Some(m) => m.min(A::own_move_limit().unwrap_or(u32::MAX)),
        None => A::own_move_limit().unwrap_or(DEFAULT_MOVES),
    };
    if o.games == Some(0) {
        return Err(Error::settings(
            "--games: at least 1 (leave it out to serve until stopped)",
        ));
    }
    if let Some(k) = o.round_robin {
        if k < A::PLAYERS {
            return Err(Error::settings(format!(
                "--round-robin {k}: {} needs at least {} agents",
                A::TITLE,
                A::PLAYERS
            )));
        }
        if k > 32 {
            return Err(Error::settings(format!(
                "--round-robin {k}: at most 32 agents"
            )));
        }
    }
    if o.max_clients < A::PLAYERS {
        return Err(Error::settings(format!(
            "--max-clients {}: at least {}",
            o.max_clients,
            A::PLAYERS
        )));
    }
    if o.max_per_address == 0 {
        return Err(Error::settings("--max-per-address: at least 1"));
    }
    if o.max_games == 0 {
        return Err(Error::settings("--max-games: at least 1"));
    }
    let idle = parse_duration(&o.idle).map_err(|e| Error::settings(format!("--idle: {e}")))?;
    if idle < Duration::from_secs(1) {
        return Err(Error::settings("--idle: at least 1s"));
    }
    let record = o
        .record
        .clone()
        .unwrap_or_else(|| PathBuf::from(record::default_name(A::NAME)));
    Ok(Settings {
        addr,
        time,
        moves,
        games: o.games,
        round_robin: o.round_robin,
        record,
        max_clients: o.max_clients,
        max_games: o.max_games,
        limits: conn::Limits {
            per_address: o.max_per_address,
            idle,
        },
    })
}

/// `arena serve GAME`: runs the server until its games are played or it is stopped (Ctrl-C).
pub fn serve<A: GameAdapter>(o: &ServeOptions) -> Result<(), Error> {
    let settings = check_serve::<A>(o)?;
    let starts = game::GameStarts::<A>::new(o.position.as_deref(), o.seed)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::io(format!("cannot start the server's runtime: {e}")))?;
    let result = runtime.block_on(lobby::run::<A>(settings, starts));
    // Connections still open get no more than this to take their last lines.
    runtime.shutdown_timeout(Duration::from_millis(500));
    result
}

/// `arena connect GAME ADDR`: plays on a server with our engine until told goodbye.
pub fn connect<A: GameAdapter>(o: &ConnectOptions) -> Result<(), Error> {
    client::run::<A>(o)
}
