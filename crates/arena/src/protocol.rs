//! `arena engine GAME`: the line-based, UCI-shaped engine protocol of `docs/protocol.md`.
//! The search runs in a background thread so that `stop`, `isready` and `quit` are answered
//! while it thinks. Commands that change the game (`position`, `go`, `newgame`, `setoption`)
//! wait for a running finite search to end (so that a script may send everything at once)
//! and stop an infinite one.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use plyforge::search::{Clock, Game, Limits, Record, Report};

use crate::fail::Fail;
use plyforge::agent::{Engine, Kind, Spec};
use plyforge::{play_list, read_position, result_text, GameAdapter};

/// Where protocol output goes: shared by the reader and the search thread, one line at a time.
pub(crate) type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes one line and flushes.
fn say(out: &Output, line: &str) {
    // A poisoned lock only means another thread panicked mid-line; keep writing.
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// What the caller does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`: stop.
    Quit,
}

struct Running<A: GameAdapter> {
    handle: JoinHandle<Engine<A>>,
    stop: Arc<AtomicBool>,
    requested: Arc<AtomicBool>,
    infinite: bool,
}

/// One protocol session: the current game, the engine, a search that may be running.
pub(crate) struct Session<A: GameAdapter> {
    record: Record<A::Pos>,
    spec: Spec,
    threads: usize,
    engine: Option<Engine<A>>,
    running: Option<Running<A>>,
    out: Output,
}

/// The `info` line of a report: `info depth D score S nodes N nps N time MS pv M1 M2 ...`.
pub(crate) fn info_line<M: std::fmt::Display>(r: &Report<M>) -> String {
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

fn number<T: std::str::FromStr>(word: &str, v: Option<&&str>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("`{word}` needs a number"))?;
    v.parse().map_err(|_| format!("`{word} {v}`: not a number"))
}

impl<A: GameAdapter> Session<A> {
    /// A session at the start position; `spec` chooses the engine (`None`: the game's own).
    pub(crate) fn new(threads: usize, spec: Option<&str>, out: Output) -> Result<Self, Fail> {
        let spec = match spec {
            Some(text) => Spec::parse::<A>(text)
                .map_err(|e| Fail::usage(format!("--engine: {}", e.reason())))?,
            None => Spec::default_engine(),
        };
        if !matches!(spec.kind, Kind::Search(_)) {
            return Err(Fail::usage("--engine: the protocol needs a search engine"));
        }
        Ok(Session {
            record: Record::<A::Pos>::new(A::start()),
            spec,
            threads,
            engine: None,
            running: None,
            out,
        })
    }

    fn error(&self, msg: &str) {
        say(&self.out, &format!("info string error: {msg}"));
    }

    /// Stops a running search (its `bestmove` is printed) and takes the engine back.
    fn stop_search(&mut self) {
        if let Some(run) = self.running.take() {
            run.requested.store(true, Ordering::SeqCst);
            // The search may clear its flag when it starts: keep setting it until it ends.
            while !run.handle.is_finished() {
                run.stop.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(1));
            }
            self.engine = run.handle.join().ok();
        }
    }

    /// Waits for a running search to end by itself (a finite one), or stops an infinite one.
    pub(crate) fn finish(&mut self) {
        if let Some(run) = self.running.take() {
            if run.infinite {
                self.running = Some(run);
                self.stop_search();
            } else {
                self.engine = run.handle.join().ok();
            }
        }
    }

    /// Handles one line of input.
    pub(crate) fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            return Flow::Continue;
        };
        // Reap a search that has finished by itself.
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.finish();
        }
        match command {
            "uci" => {
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
                    "option name Threads type spin default 1 min 1 max 256",
                );
                say(
                    &self.out,
                    &format!(
                        "option name Hash type spin default {} min 0 max 65536",
                        A::engine_config().tt_mib
                    ),
                );
                say(&self.out, "uciok");
            }
            "isready" => say(&self.out, "readyok"),
            "newgame" | "ucinewgame" => {
                self.finish();
                self.engine = None;
                self.record = Record::<A::Pos>::new(A::start());
            }
            "setoption" => self.set_option(&words[1..]),
            "position" => {
                self.finish();
                let rest = line.trim_start()["position".len()..].trim();
                match self.read_position(rest) {
                    Ok(r) => self.record = r,
                    Err(e) => self.error(&e),
                }
            }
            "go" => {
                self.finish();
                self.go(&words[1..]);
            }
            "stop" => self.stop_search(),
            "quit" => {
                self.stop_search();
                return Flow::Quit;
            }
            "d" | "board" => {
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
            other => self.error(&format!("unknown command {other}")),
        }
        Flow::Continue
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name NAME value VALUE
        let name_at = words.iter().position(|w| *w == "name");
        let value_at = words.iter().position(|w| *w == "value");
        let (Some(n), Some(v)) = (name_at, value_at) else {
            self.error("setoption needs `name NAME value VALUE`");
            return;
        };
        let name = words[n + 1..v].join(" ").to_ascii_lowercase();
        let value = words[v + 1..].join(" ");
        match name.as_str() {
            "threads" => match value.parse::<usize>() {
                Ok(t) if (1..=256).contains(&t) => {
                    self.threads = t;
                    self.spec.threads = None;
                }
                _ => self.error(&format!("Threads {value}: a number from 1 to 256")),
            },
            "hash" => match value.parse::<usize>() {
                Ok(m) => self.spec.tt_mib = Some(m),
                _ => self.error(&format!("Hash {value}: a number of MiB")),
            },
            _ => self.error(&format!("unknown option {name}")),
        }
        self.finish();
        self.engine = None;
    }

    fn read_position(&self, rest: &str) -> Result<Record<A::Pos>, String> {
        // Split at ` moves ` (or a trailing `moves`).
        let (head, moves) = match rest.find(" moves") {
            Some(i) if rest[i + 6..].is_empty() || rest[i + 6..].starts_with(' ') => {
                (rest[..i].trim(), rest[i + 6..].trim())
            }
            _ => (rest, ""),
        };
        let head = if head == "moves" { "" } else { head };
        let pos = if head == "startpos" || head == "start" {
            A::start()
        } else if let Some(fen) = head.strip_prefix("fen") {
            let fen = fen.trim();
            if fen.is_empty() {
                return Err("position fen needs a position".to_string());
            }
            read_position::<A>(fen).map_err(|e| e.to_string())?
        } else {
            return Err(format!(
                "position {head:?}: expected `startpos` or `fen POSITION`"
            ));
        };
        let mut record = Record::<A::Pos>::new(pos);
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        play_list::<A>(&mut record, &tokens).map_err(|e| e.to_string())?;
        Ok(record)
    }

    fn go(&mut self, words: &[&str]) {
        let mut limits = Limits::default();
        let mut infinite = false;
        let me = self.record.position().to_move();
        let letter = A::player_letter(me);
        let (my_time, my_inc) = (format!("{letter}time"), format!("{letter}inc"));
        let mut time: Option<u64> = None;
        let mut inc: Option<u64> = None;
        let mut moves_to_go: Option<u32> = None;
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let arg = words.get(i + 1);
            let r: Result<(), String> = (|| {
                match w {
                    "depth" => limits.depth = Some(number(w, arg)?),
                    "nodes" => limits.nodes = Some(number(w, arg)?),
                    "movetime" => limits.movetime = Some(Duration::from_millis(number(w, arg)?)),
                    "time" => time = Some(number(w, arg)?),
                    "inc" => inc = Some(number(w, arg)?),
                    "movestogo" => moves_to_go = Some(number(w, arg)?),
                    "infinite" => {
                        infinite = true;
                        return Ok(());
                    }
                    _ if w == my_time => time = Some(number(w, arg)?),
                    _ if w == my_inc => inc = Some(number(w, arg)?),
                    _ if w.ends_with("time") || w.ends_with("inc") => {
                        // Another side's clock: read and ignore.
                        let _: u64 = number(w, arg)?;
                    }
                    _ => return Err(format!("go: unknown word {w:?}")),
                }
                i += 1;
                Ok(())
            })();
            if let Err(e) = r {
                self.error(&e);
                return;
            }
            i += 1;
        }
        if let Some(t) = time {
            let mut clock = Clock::new(Duration::from_millis(t))
                .with_increment(Duration::from_millis(inc.unwrap_or(0)));
            clock.moves_to_go = moves_to_go;
            limits.clock = Some(clock);
        }
        if self.record.result().is_some() {
            say(&self.out, "bestmove none");
            return;
        }
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => {
                let mut spec = self.spec.clone();
                spec.threads = spec.threads.or(Some(self.threads));
                Engine::<A>::new(spec.config::<A>(Some(self.threads)), spec.evaluator::<A>())
            }
        };
        if !infinite && limits == Limits::default() {
            // A bare `go`: the spec's own limits, else search until `stop`.
            limits = self.spec.limits(Limits::default());
            infinite = limits == Limits::default();
        }
        let stop = engine.stop_handle();
        stop.store(false, Ordering::SeqCst);
        let requested = Arc::new(AtomicBool::new(false));
        let record = self.record.clone();
        let out = self.out.clone();
        let req = requested.clone();
        let handle = std::thread::spawn(move || {
            let report = engine.think(&record, limits, |r| say(&out, &info_line(r)));
            if infinite {
                while !req.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            let best = report
                .best
                .or_else(|| record.legal_moves().first().copied());
            match best {
                Some(mv) => say(&out, &format!("bestmove {mv}")),
                None => say(&out, "bestmove none"),
            }
            engine
        });
        self.running = Some(Running {
            handle,
            stop,
            requested,
            infinite,
        });
    }
}

/// Runs the protocol on stdin and stdout until `quit` or the end of input.
pub(crate) fn serve_stdio<A: GameAdapter>(threads: usize, spec: Option<&str>) -> Result<(), Fail> {
    let out: Output = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    let mut session = Session::<A>::new(threads, spec, out)?;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| Fail::runtime(format!("reading input: {e}")))?;
        if session.handle(&line) == Flow::Quit {
            return Ok(());
        }
    }
    session.finish();
    Ok(())
}
