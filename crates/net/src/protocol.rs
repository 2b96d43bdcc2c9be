//! `arena engine GAME`: the line-based, UCI-shaped engine protocol of `docs/protocol.md`.
//!
//! A line is read into a [`Command`] by [`parse_command`] (pure: no state, so that it can be
//! fuzzed and tested alone); a [`Session`] carries the commands out. The search runs in a
//! background thread so that `stop`, `isready` and `quit` are answered while it thinks.
//! Commands that change the game (`position`, `go`, `newgame`, `setoption`) wait for a
//! running finite search to end (so that a script may send everything at once) and stop an
//! infinite one.
//!
//! Every `go` is answered by exactly one `bestmove` line (`bestmove none` when the game is
//! over or the `go` was refused, after an `info string error` line saying why), except after
//! `quit`, which prints nothing more.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use plyforge::search::{Clock, Game, Limits, Player, Record, Report};

use crate::Error;
use plyforge::agent::{Kind, SearchEngine, Spec};
use plyforge::{play_list, read_position, result_text, GameAdapter};

/// Where protocol output goes: shared by the reader and the search thread, one line at a time.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// The longest input line, in bytes: a longer one is answered with an error and skipped.
/// (The longest sensible line, a `position` with every move of a Chexers game, is about
/// 12 KB.)
pub const MAX_LINE: usize = 1 << 20;

/// The largest time in milliseconds that `go` accepts (`movetime`, `time`, `inc`):
/// 2^31 − 1 ms, about 24.8 days, the largest value UCI interfaces send. A longer search is
/// `go infinite`.
pub const MAX_MS: u64 = i32::MAX as u64;

/// Writes one line and flushes.
fn say(out: &Output, line: &str) {
    // A poisoned lock only means another thread panicked mid-line; keep writing.
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// Writes one line unless `silent` is set, deciding under the output's lock, so that a
/// `quit` that sets `silent` under the same lock is never followed by this line.
fn say_unless(out: &Output, silent: &AtomicBool, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    if !silent.load(Ordering::SeqCst) {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// What the caller does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`: stop.
    Quit,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos` (or `start`): the rules' start.
    StartPos,
    /// `fen POSITION`: a position in the game's notation.
    Fen(String),
}

/// The arguments of `go`, checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth D`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`.
    pub movetime: Option<Duration>,
    /// `time MS` (the side to move's clock) and `<letter>time MS` (a side's clock).
    pub time: Vec<(Option<Player>, Duration)>,
    /// `inc MS` and `<letter>inc MS`.
    pub inc: Vec<(Option<Player>, Duration)>,
    /// `movestogo N`.
    pub moves_to_go: Option<u32>,
    /// `infinite`.
    pub infinite: bool,
}

impl Go {
    /// The search limits for the side to move `me`: the limits given, and the clock of `me`
    /// (from `time`/`inc`, or `me`'s letter's).
    pub fn limits(&self, me: Player) -> Limits {
        let mut limits = Limits::default()
            .with_depth(self.depth)
            .with_nodes(self.nodes)
            .with_movetime(self.movetime);
        let mine = |list: &[(Option<Player>, Duration)]| {
            list.iter()
                .rev()
                .find(|(p, _)| p.is_none() || *p == Some(me))
                .map(|&(_, d)| d)
        };
        if let Some(t) = mine(&self.time) {
            let mut clock = Clock::new(t).with_increment(mine(&self.inc).unwrap_or_default());
            clock.moves_to_go = self.moves_to_go;
            limits.clock = Some(clock);
        }
        limits
    }

    /// True when `go` gave no limit at all (a bare `go`).
    pub fn is_bare(&self) -> bool {
        *self == Go::default()
    }
}

/// The limits of `go` for the side to move in `pos`: [`Go::limits`], where a game clock
/// without increment or `movestogo` is planned by the one clock rule with the game's policy
/// ([`plyforge::clock_limits`]: the moves left estimated, a reserve kept), as the course
/// agent's `go time MS` asks.
pub fn planned<A: GameAdapter>(go: &Go, pos: &A::Pos) -> Limits {
    let limits = go.limits(pos.to_move());
    match limits.clock {
        Some(c) if c.increment.is_zero() && c.moves_to_go.is_none() => {
            plyforge::clock_limits::<A>(pos, limits, c.remaining, None)
        }
        _ => limits,
    }
}

/// One command of the protocol, read from one line by [`parse_command`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line: ignored.
    Empty,
    /// `uci`.
    Uci,
    /// `isready`.
    IsReady,
    /// `newgame` / `ucinewgame`.
    NewGame,
    /// `setoption name NAME value VALUE` (the name in lower case).
    SetOption {
        /// The option's name, lower case.
        name: String,
        /// Its value as given.
        value: String,
    },
    /// `position startpos|fen POSITION [moves M…]`: the moves as tokens (a Chexers move is
    /// several; they are joined when played).
    Position {
        /// Where it starts.
        start: Start,
        /// The tokens after `moves`.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `d` / `board`.
    Board,
}

fn number<T: std::str::FromStr>(word: &str, v: Option<&&str>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("go: `{word}` needs a number"))?;
    v.parse()
        .map_err(|_| format!("go: `{word} {}`: not a number", shown(v)))
}

fn millis(word: &str, v: Option<&&str>) -> Result<Duration, String> {
    let ms: u64 = number(word, v)?;
    if ms > MAX_MS {
        return Err(format!(
            "go: `{word} {ms}`: at most {MAX_MS} ms (about 24 days); `go infinite` searches until `stop`"
        ));
    }
    Ok(Duration::from_millis(ms))
}

/// At most 60 characters of input, for echoing it in an error.
fn shown(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

/// The player whose letter starts `word` before `suffix` (`wtime` → White), if any.
fn side_word<A: GameAdapter>(word: &str, suffix: &str) -> Option<Player> {
    let letter = word.strip_suffix(suffix)?;
    (0..A::PLAYERS).find(|&p| A::player_letter(p) == letter)
}

fn parse_go<A: GameAdapter>(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let arg = words.get(i + 1);
        match w {
            "depth" => go.depth = Some(number(w, arg)?),
            "nodes" => go.nodes = Some(number(w, arg)?),
            "movetime" => go.movetime = Some(millis(w, arg)?),
            "time" => go.time.push((None, millis(w, arg)?)),
            "inc" => go.inc.push((None, millis(w, arg)?)),
            "movestogo" => go.moves_to_go = Some(number(w, arg)?),
            "infinite" => {
                go.infinite = true;
                i += 1;
                continue;
            }
            _ => {
                if let Some(p) = side_word::<A>(w, "time") {
                    go.time.push((Some(p), millis(w, arg)?));
                } else if let Some(p) = side_word::<A>(w, "inc") {
                    go.inc.push((Some(p), millis(w, arg)?));
                } else {
                    return Err(format!("go: unknown word {:?}", shown(w)));
                }
            }
        }
        i += 2;
    }
    Ok(go)
}

fn parse_position(rest: &str) -> Result<Command, String> {
    // Split at the word `moves` (a position's notation never contains it).
    let words: Vec<&str> = rest.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let start = match head {
        ["startpos"] | ["start"] => Start::StartPos,
        ["fen"] => return Err("position fen needs a position".to_string()),
        ["fen", fen @ ..] => Start::Fen(fen.join(" ")),
        _ => {
            return Err(format!(
                "position {:?}: expected `startpos` or `fen POSITION`",
                shown(&head.join(" "))
            ))
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// Reads one line of the protocol. The error is the reason, as the `info string error` line
/// gives it.
pub fn parse_command<A: GameAdapter>(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&command) = words.first() else {
        return Ok(Command::Empty);
    };
    let no_args = |c: Command| {
        if words.len() == 1 {
            Ok(c)
        } else {
            Err(format!("`{command}` takes no arguments"))
        }
    };
    match command {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "newgame" | "ucinewgame" => no_args(Command::NewGame),
        "stop" => no_args(Command::Stop),
        "quit" => Ok(Command::Quit),
        "d" | "board" => no_args(Command::Board),
        "setoption" => {
            // setoption name NAME value VALUE
            let rest = &words[1..];
            let name_at = rest.iter().position(|w| *w == "name");
            let value_at = rest.iter().position(|w| *w == "value");
            match (name_at, value_at) {
                (Some(0), Some(v)) if v > 1 => Ok(Command::SetOption {
                    name: rest[1..v].join(" ").to_ascii_lowercase(),
                    value: rest[v + 1..].join(" "),
                }),
                _ => Err("setoption needs `name NAME value VALUE`".to_string()),
            }
        }
        "position" => parse_position(&line.trim_start()["position".len()..]),
        "go" => parse_go::<A>(&words[1..]).map(Command::Go),
        other => Err(format!("unknown command {}", shown(other))),
    }
}

/// A search running in its thread.
struct SearchThread<A: GameAdapter> {
    handle: JoinHandle<Option<SearchEngine<A>>>,
    /// The engine's stop flag (`None`: nothing to stop, a finished game waiting for `stop`).
    stop: Option<Arc<AtomicBool>>,
    /// `stop` (or the end of the session) was asked: an infinite search may print.
    requested: Arc<AtomicBool>,
    /// `quit`: print nothing more.
    silent: Arc<AtomicBool>,
    infinite: bool,
}

/// One protocol session: the current game, the engine, a search that may be running.
pub struct Session<A: GameAdapter> {
    record: Record<A::Pos>,
    /// A `position` has been given since the start or the last `newgame`.
    positioned: bool,
    spec: Spec,
    threads: usize,
    engine: Option<SearchEngine<A>>,
    running: Option<SearchThread<A>>,
    out: Output,
    max_hash: usize,
    max_threads: usize,
}

/// The `info` line of a report: `info depth D score S nodes N nps N time MS pv M1 M2 ...`.
pub fn info_line<M: std::fmt::Display>(r: &Report<M>) -> String {
    let mut line = format!(
        "info depth {} score {} nodes {} nps {} time {}",
        r.depth,
        r.score,
        r.nodes,
        r.nps,
        r.elapsed.as_millis()
    );
    if !r.pv.is_empty() {
        line.push_str(" pv");
        for m in &r.pv {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

/// The largest `Hash` this machine can take: its memory in MiB (65536 where it is unknown).
pub fn max_hash_mib() -> usize {
    plyforge::memory::total_mib().map_or(65536, |m| m as usize)
}

impl<A: GameAdapter> Session<A> {
    /// A session at the start position; `spec` chooses the engine (`None`: the game's own).
    pub fn new(threads: usize, spec: Option<&str>, out: Output) -> Result<Self, Error> {
        let spec = match spec {
            Some(text) => Spec::parse::<A>(text)
                .map_err(|e| Error::settings(format!("--engine: {}", e.reason())))?,
            None => Spec::recommended::<A>()
                .map_err(|e| Error::settings(format!("the game's engine: {}", e.reason())))?,
        };
        if !matches!(spec.kind, Kind::Search(_)) {
            return Err(Error::settings(
                "--engine: the protocol needs a search engine",
            ));
        }
        Ok(Session {
            record: Record::<A::Pos>::new(A::start()),
            positioned: false,
            spec,
            threads,
            engine: None,
            running: None,
            out,
            max_hash: max_hash_mib(),
            max_threads: 256,
        })
    }

    /// This session with lower caps on the `Hash` (MiB) and `Threads` options than the
    /// machine's (for fuzzing, where a large table per input would be all the time spent).
    pub fn with_caps(mut self, max_hash: usize, max_threads: usize) -> Self {
        self.max_hash = max_hash;
        self.max_threads = max_threads.max(1);
        self
    }

    fn error(&self, msg: &str) {
        say(&self.out, &format!("info string error: {msg}"));
    }

    /// Stops a running search (its `bestmove` is printed unless `quit` said otherwise) and
    /// takes the engine back.
    fn stop_search(&mut self) {
        if let Some(run) = self.running.take() {
            run.requested.store(true, Ordering::SeqCst);
            // The search may clear its flag when it starts: keep setting it until it ends.
            while !run.handle.is_finished() {
                if let Some(stop) = &run.stop {
                    stop.store(true, Ordering::SeqCst);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            if let Ok(Some(engine)) = run.handle.join() {
                self.engine = Some(engine);
            }
        }
    }

    /// Waits for a running search to end by itself (a finite one), or stops an infinite one.
    pub fn finish(&mut self) {
        if let Some(run) = self.running.take() {
            if run.infinite {
                self.running = Some(run);
                self.stop_search();
            } else if let Ok(Some(engine)) = run.handle.join() {
                self.engine = Some(engine);
            }
        }
    }

    /// `quit`: ends a running search without its `bestmove`.
    fn quit(&mut self) {
        if let Some(run) = &self.running {
            let _w = self.out.lock().unwrap_or_else(|e| e.into_inner());
            run.silent.store(true, Ordering::SeqCst);
        }
        self.stop_search();
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        // Reap a search that has finished by itself.
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.finish();
        }
        let command = match parse_command::<A>(line) {
            Ok(c) => c,
            Err(e) => {
                // A `go` that cannot be read is still answered, so that nobody waits for it
                // (after the search it replaces, as any `go`).
                if line.split_whitespace().next() == Some("go") {
                    self.finish();
                    self.refuse_go(&e);
                } else {
                    self.error(&e);
                }
                return Flow::Continue;
            }
        };
        match command {
            Command::Empty => {}
            Command::Uci => {
                say(
                    &self.out,
                    &format!("id name arena {} {}", A::NAME, env!("CARGO_PKG_VERSION")),
                );
                say(
                    &self.out,
                    &format!("id author {}", env!("CARGO_PKG_AUTHORS")),
                );
                say(
                    &self.out,
                    &format!(
                        "option name Threads type spin default 1 min 1 max {}",
                        self.max_threads
                    ),
                );
                say(
                    &self.out,
                    &format!(
                        "option name Hash type spin default {} min 0 max {}",
                        A::engine_config().tt_mib.min(self.max_hash),
                        self.max_hash
                    ),
                );
                say(&self.out, "uciok");
            }
            Command::IsReady => say(&self.out, "readyok"),
            Command::NewGame => {
                self.finish();
                self.engine = None;
                self.record = Record::<A::Pos>::new(A::start());
                self.positioned = false;
            }
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::Position { start, moves } => {
                self.finish();
                match self.read_position(&start, &moves) {
                    Ok(r) => {
                        self.record = r;
                        self.positioned = true;
                    }
                    Err(e) => self.error(&e),
                }
            }
            Command::Go(go) => {
                self.finish();
                self.go(&go);
            }
            Command::Stop => {
                if self.running.is_some() {
                    self.stop_search();
                } else {
                    self.error("stop: no search is running");
                }
            }
            Command::Quit => {
                self.quit();
                return Flow::Quit;
            }
            Command::Board => {
                say(
                    &self.out,
                    &format!("info string position {}", self.record.position()),
                );
                if let Some(r) = self.record.result() {
                    say(
                        &self.out,
                        &format!("info string result: {}", result_text::<A>(r)),
                    );
                }
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, name: &str, value: &str) {
        match name {
            "threads" => match value.parse::<usize>() {
                Ok(t) if (1..=self.max_threads).contains(&t) => {
                    self.finish();
                    self.threads = t;
                    self.spec.threads = None;
                    self.engine = None;
                }
                _ => self.error(&format!(
                    "Threads {}: a number from 1 to {}",
                    shown(value),
                    self.max_threads
                )),
            },
            "hash" => match value.parse::<usize>() {
                Ok(m) if m > self.max_hash => self.error(&format!(
                    "Hash {m}: at most {} MiB (this machine's memory)",
                    self.max_hash
                )),
                Ok(m) => match plyforge::memory::check_table_mib(m) {
                    Ok(()) => {
                        self.finish();
                        self.spec.tt_mib = Some(m);
                        self.engine = None;
                    }
                    Err(e) => self.error(&format!("Hash {m}: {e}")),
                },
                _ => self.error(&format!("Hash {}: a number of MiB", shown(value))),
            },
            _ => self.error(&format!("unknown option {}", shown(name))),
        }
    }

    fn read_position(&self, start: &Start, moves: &[String]) -> Result<Record<A::Pos>, String> {
        let pos = match start {
            Start::StartPos => A::start(),
            Start::Fen(fen) => read_position::<A>(fen).map_err(|e| e.to_string())?,
        };
        let mut record = Record::<A::Pos>::new(pos);
        let tokens: Vec<&str> = moves.iter().map(String::as_str).collect();
        play_list::<A>(&mut record, &tokens).map_err(|e| e.to_string())?;
        Ok(record)
    }

    /// Refuses a `go`: the reason, then `bestmove none`.
    fn refuse_go(&self, why: &str) {
        self.error(why);
        say(&self.out, "bestmove none");
    }

    fn go(&mut self, go: &Go) {
        if !self.positioned {
            self.refuse_go(
                "go: no position yet (send `position startpos` or `position fen POSITION` first)",
            );
            return;
        }
        let mut limits = planned::<A>(go, self.record.position());
        let mut infinite = go.infinite;
        if !infinite && go.is_bare() {
            // A bare `go`: the spec's own limits, else search until `stop`.
            limits = self.spec.limits(Limits::default());
            infinite = limits == Limits::default();
        }
        let requested = Arc::new(AtomicBool::new(false));
        let silent = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let (req, quiet) = (requested.clone(), silent.clone());
        if self.record.result().is_some() {
            // Nothing to search; an infinite `go` still answers only after `stop`.
            let handle = std::thread::spawn(move || {
                while infinite && !req.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(2));
                }
                say_unless(&out, &quiet, "bestmove none");
                None
            });
            self.running = Some(SearchThread {
                handle,
                stop: None,
                requested,
                silent,
                infinite,
            });
            return;
        }
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => {
                let mut spec = self.spec.clone();
                spec.threads = spec.threads.or(Some(self.threads));
                match SearchEngine::<A>::try_new(
                    spec.config::<A>(Some(self.threads)),
                    spec.evaluator::<A>(),
                ) {
                    Ok(e) => e,
                    Err(e) => {
                        self.refuse_go(&format!("go: {e}"));
                        return;
                    }
                }
            }
        };
        let stop = engine.stop_handle();
        stop.store(false, Ordering::SeqCst);
        let record = self.record.clone();
        let handle = std::thread::spawn(move || {
            let report = engine.think(&record, limits, |r| say_unless(&out, &quiet, &info_line(r)));
            while infinite && !req.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let best = report
                .best
                .or_else(|| record.legal_moves().first().copied());
            match best {
                Some(mv) => say_unless(&out, &quiet, &format!("bestmove {mv}")),
                None => say_unless(&out, &quiet, "bestmove none"),
            }
            Some(engine)
        });
        self.running = Some(SearchThread {
            handle,
            stop: Some(stop),
            requested,
            silent,
            infinite,
        });
    }
}

/// One line of input, read as bytes: a line that is not UTF-8 or longer than [`MAX_LINE`] is
/// an error to answer, not the end of the session.
#[derive(Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line of text, without its line end (`\n` or `\r\n`).
    Text(String),
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line longer than [`MAX_LINE`] bytes (skipped to its end).
    TooLong,
}

/// Reads the next line of at most [`MAX_LINE`] bytes; `None` at the end of input (a last line
/// without a line end counts).
pub fn read_line(r: &mut impl BufRead) -> std::io::Result<Option<InputLine>> {
    let mut buf = Vec::new();
    let n = std::io::Read::take(&mut *r, MAX_LINE as u64 + 2).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > MAX_LINE {
        // Skip the rest of the line, a chunk at a time.
        loop {
            let chunk = r.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    r.consume(i + 1);
                    break;
                }
                None => {
                    let len = chunk.len();
                    r.consume(len);
                }
            }
        }
        return Ok(Some(InputLine::TooLong));
    }
    if buf.len() > MAX_LINE {
        return Ok(Some(InputLine::TooLong));
    }
    Ok(Some(match String::from_utf8(buf) {
        Ok(s) => InputLine::Text(s),
        Err(_) => InputLine::NotUtf8,
    }))
}

/// Runs the protocol on `input` until `quit` or the end of input.
pub fn run<A: GameAdapter>(mut session: Session<A>, input: &mut impl BufRead) -> Result<(), Error> {
    loop {
        let line = read_line(input).map_err(|e| Error::io(format!("reading input: {e}")))?;
        let text = match line {
            None => break,
            Some(InputLine::Text(t)) => t,
            Some(InputLine::NotUtf8) => {
                session.error("line is not UTF-8: ignored");
                continue;
            }
            Some(InputLine::TooLong) => {
                session.error(&format!("line longer than {MAX_LINE} bytes: ignored"));
                continue;
            }
        };
        if session.handle(&text) == Flow::Quit {
            return Ok(());
        }
    }
    session.finish();
    Ok(())
}

/// Runs the protocol on stdin and stdout until `quit` or the end of input.
pub fn serve_stdio<A: GameAdapter>(threads: usize, spec: Option<&str>) -> Result<(), Error> {
    let out: Output = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    let session = Session::<A>::new(threads, spec, out)?;
    run(session, &mut std::io::stdin().lock())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyforge::games::{Chexers, Jumpy3, Throne};

    #[test]
    fn commands_parse() {
        let p = parse_command::<Jumpy3>;
        assert_eq!(p("  "), Ok(Command::Empty));
        assert_eq!(p("isready"), Ok(Command::IsReady));
        assert_eq!(
            p("position startpos moves 4 13"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: vec!["4".into(), "13".into()]
            })
        );
        assert_eq!(
            p("position fen Wwww........bbbB w"),
            Ok(Command::Position {
                start: Start::Fen("Wwww........bbbB w".into()),
                moves: vec![]
            })
        );
        assert_eq!(
            p("position startpos moves"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: vec![]
            })
        );
        assert!(p("position").is_err());
        assert!(p("position fen").is_err());
        assert!(p("position moves 4").is_err());
        assert_eq!(
            p("setoption name Hash value 16"),
            Ok(Command::SetOption {
                name: "hash".into(),
                value: "16".into()
            })
        );
        assert!(p("setoption name value 3").is_err());
        assert!(p("setoption Hash 3").is_err());
        assert!(p("isready now").is_err());
        assert!(p("frob").unwrap_err().contains("unknown command frob"));
    }

    #[test]
    fn a_bare_clock_is_planned_by_the_games_clock_policy() {
        let go = parse_command::<Chexers>("go time 60000").unwrap();
        let Command::Go(go) = go else { panic!("a go") };
        let start = Chexers::start();
        let want = plyforge::clock_limits::<Chexers>(
            &start,
            Limits::default(),
            Duration::from_secs(60),
            None,
        );
        assert_eq!(planned::<Chexers>(&go, &start), want);
        assert_eq!(want.clock.unwrap().moves_to_go, Some(39));
        // With movestogo or an increment, the clock as given.
        for text in ["go time 60000 movestogo 5", "go time 60000 inc 10"] {
            let Command::Go(go) = parse_command::<Chexers>(text).unwrap() else {
                panic!("a go")
            };
            assert_eq!(planned::<Chexers>(&go, &start), go.limits(0), "{text}");
        }
    }

    #[test]
    fn go_reads_limits_and_the_side_to_move_clock() {
        let Ok(Command::Go(go)) =
            parse_command::<Throne>("go wtime 1000 btime 2000 winc 10 movestogo 5 depth 3")
        else {
            panic!("a go");
        };
        assert_eq!(go.depth, Some(3));
        // Throne: Black (0) moves first.
        let black = go.limits(0).clock.unwrap();
        assert_eq!(black.remaining, Duration::from_millis(2000));
        assert_eq!(black.increment, Duration::ZERO);
        assert_eq!(black.moves_to_go, Some(5));
        let white = go.limits(1).clock.unwrap();
        assert_eq!(white.remaining, Duration::from_millis(1000));
        assert_eq!(white.increment, Duration::from_millis(10));
        // Chexers' letters.
        let Ok(Command::Go(go)) = parse_command::<Chexers>("go gtime 300") else {
            panic!("a go");
        };
        assert_eq!(
            go.limits(1).clock.unwrap().remaining,
            Duration::from_millis(300)
        );
        assert_eq!(go.limits(0).clock, None);
        assert!(parse_command::<Chexers>("go xtime 300").is_err());
        assert!(parse_command::<Jumpy3>("go infinite").is_ok_and(|c| c
            == Command::Go(Go {
                infinite: true,
                ..Go::default()
            })));
        assert!(parse_command::<Jumpy3>("go").is_ok_and(|c| c == Command::Go(Go::default())));
    }

    #[test]
    fn go_refuses_bad_and_huge_numbers() {
        let e = parse_command::<Jumpy3>("go movetime 99999999999999999999").unwrap_err();
        assert!(e.contains("not a number"), "{e}");
        let e = parse_command::<Jumpy3>("go movetime 18446744073709551615").unwrap_err();
        assert!(e.contains("at most 2147483647 ms"), "{e}");
        assert!(parse_command::<Jumpy3>("go movetime 2147483647").is_ok());
        assert!(parse_command::<Jumpy3>("go wtime 3000000000").is_err());
        assert!(parse_command::<Jumpy3>("go depth").is_err());
        assert!(parse_command::<Jumpy3>("go depth -1").is_err());
        assert!(parse_command::<Jumpy3>("go wibble").is_err());
    }

    fn lines_of(input: &[u8]) -> Vec<InputLine> {
        let mut r = std::io::BufReader::with_capacity(16, input);
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn lines_are_read_as_bytes() {
        let mut input = b"\xff\xfe\nisready\r\n".to_vec();
        input.extend(std::iter::repeat(b'x').take(MAX_LINE + 5));
        input.extend_from_slice(b"\nquit");
        assert_eq!(
            lines_of(&input),
            vec![
                InputLine::NotUtf8,
                InputLine::Text("isready".into()),
                InputLine::TooLong,
                InputLine::Text("quit".into())
            ]
        );
        let mut exact = vec![b'y'; MAX_LINE];
        exact.push(b'\n');
        assert_eq!(
            lines_of(&exact),
            vec![InputLine::Text("y".repeat(MAX_LINE))]
        );
    }
}
