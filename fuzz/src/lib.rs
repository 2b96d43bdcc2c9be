//! What the fuzz targets check, written once over the facade's [`GameAdapter`] (each target
//! in `fuzz_targets/` is a line that calls one of these). Every function takes the fuzzer's
//! bytes and panics only when a property fails: a crash is a bug.

use std::io::{BufReader, Write};
use std::sync::{Arc, Mutex, OnceLock};

use plyforge::{GameAdapter, GameKind, GameVisitor};
use plyforge_lab::matchfile;
use plyforge_net::protocol::{self, Command, Flow, Session};
use plyforge_net::server::{reader, wire};

/// The games the targets fuzz: every game the fuzz crate registers — ours, and the
/// example of a user's own game (`examples/connect-four`) — each with the typed entry points
/// the arena's inside needs. Registered in the facade's registry too, so that
/// [`GameKind::all`] holds them all.
pub struct FuzzGame {
    /// The game.
    pub kind: GameKind,
    protocol_line: fn(&str),
    session: fn(&[u8]),
    check_game: fn(&reader::RecordedGame),
}

struct Collect(Vec<FuzzGame>);

impl GameVisitor for Collect {
    fn visit<A: GameAdapter>(&mut self) {
        let kind = plyforge::register::<A>().expect("a fuzzed game registers");
        self.0.push(FuzzGame {
            kind,
            protocol_line: parse_line::<A>,
            session: session::<A>,
            check_game: |g| {
                let _ = reader::check_game::<A>(g);
            },
        });
    }
}

/// The fuzzed games, in the registry's order.
pub fn games() -> &'static [FuzzGame] {
    static GAMES: OnceLock<Vec<FuzzGame>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut c = Collect(Vec::new());
        plyforge::visit_default_games(&mut c);
        c.visit::<connect_four_arena::ConnectFour>();
        c.0
    })
}

/// The game of a byte: the fuzzed games by index, modulo their number.
pub fn game_of(byte: u8) -> &'static FuzzGame {
    let g = games();
    &g[byte as usize % g.len()]
}

/// `POSITION\nMOVE` to every fuzzed game's parsers: [`plyforge::checks::notation`].
pub fn notation(data: &[u8]) {
    for g in games() {
        g.kind.checks().notation(data);
    }
}

/// A game played from bytes: the first byte picks the game (see [`game_of`]), the rest is
/// [`plyforge::checks::play`]'s input (the start, then each move by its index).
pub fn play(data: &[u8]) {
    let Some((&g, rest)) = data.split_first() else {
        return;
    };
    game_of(g).kind.checks().play(rest);
}

/// One line of the engine protocol, read by every game's parser: never a panic; a `go`
/// turns into limits for every side.
pub fn protocol_line(data: &[u8]) {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    for g in games() {
        (g.protocol_line)(line);
    }
    let _ = protocol::read_line(&mut BufReader::new(data));
}

fn parse_line<A: GameAdapter>(line: &str) {
    if let Ok(Command::Go(go)) = protocol::parse_command::<A>(line) {
        for p in 0..A::PLAYERS {
            let _ = go.limits(p);
        }
    }
}

/// Output that goes nowhere, for sessions under the fuzzer.
fn sink() -> protocol::Output {
    Arc::new(Mutex::new(
        Box::new(std::io::sink()) as Box<dyn Write + Send>
    ))
}

/// A protocol session fed the fuzzer's lines (the first byte picks the game): each line
/// handled as `arena engine` would, a `stop` after every `go` (so that no search outlives
/// its input), up to 64 lines; tables are capped at 1 MiB and threads at 2.
pub fn protocol_session(data: &[u8]) {
    let Some((&g, rest)) = data.split_first() else {
        return;
    };
    (game_of(g).session)(rest);
}

fn session<A: GameAdapter>(data: &[u8]) {
    let mut s = Session::<A>::new(1, None, sink())
        .expect("the default engine")
        .with_caps(1, 2);
    let mut input = BufReader::new(data);
    for _ in 0..64 {
        let line = match protocol::read_line(&mut input) {
            Ok(Some(protocol::InputLine::Text(t))) => t,
            Ok(Some(_)) => continue,
            _ => break,
        };
        if s.handle(&line) == Flow::Quit {
            return;
        }
        if line.trim_start().starts_with("go") {
            s.handle("stop");
        }
    }
    s.handle("stop");
    s.finish();
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime")
    })
}

/// The match server's wire: bytes read into lines as a connection reads them (capped, as
/// UTF-8 or not), each line parsed; no line longer than the cap, none with a line end; every
/// refusal a single `error` line.
pub fn server_wire(data: &[u8]) {
    runtime().block_on(async {
        let mut r = wire::LineReader::new(data);
        loop {
            match r.next().await.expect("a slice reads") {
                wire::Input::Eof => break,
                wire::Input::Line(l) => {
                    assert!(l.len() <= wire::MAX_LINE);
                    assert!(!l.contains('\n'));
                    match wire::parse_request(&l) {
                        Ok(wire::Request::Hello { name, .. }) => assert!(wire::valid_name(&name)),
                        Ok(wire::Request::Move(m)) => assert!(!m.is_empty() && m.trim() == m),
                        Ok(_) => {}
                        Err(refusal) => {
                            let line = refusal.line();
                            assert!(line.starts_with("error ") && !line.contains(['\n', '\r']));
                        }
                    }
                }
                wire::Input::TooLong | wire::Input::NotUtf8 => {}
            }
        }
    });
}

/// The server's record file read back: never a panic; a file that reads has its games
/// replayed through their rules (which may fail, not crash), and its unfinished games found.
pub fn server_record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        let _ = reader::parse_line(line);
    }
    let _ = reader::unfinished(text, &["w", "b"]);
    let Ok(file) = reader::read(text) else {
        return;
    };
    for run in &file.runs {
        for g in &run.games {
            if let Some(f) = games().iter().find(|f| f.kind.name() == g.game) {
                (f.check_game)(g);
            }
        }
    }
}

/// `arena match`'s file read back (what `--resume` and `arena merge` read): the whole text
/// and each line parsed without a panic; a line that parses is written again by the
/// match's own writer, and that text parses back to the same line and writes the same again
/// (writing may round the times once; after that it is a fixed point).
pub fn match_record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = matchfile::parse_text(text);
    for line in text.lines() {
        let Ok(parsed) = matchfile::parse_line(line) else {
            continue;
        };
        let write = |l: &matchfile::Line| match l {
            matchfile::Line::Header(h) => matchfile::header_json(h),
            matchfile::Line::Entry(g) => matchfile::game_json(g),
        };
        let once = write(&parsed);
        let again = matchfile::parse_line(&once)
            .unwrap_or_else(|e| panic!("{once:?}, written from {line:?}: {e}"));
        let twice = write(&again);
        assert_eq!(once, twice, "{line:?}");
        let thrice = matchfile::parse_line(&twice).expect("parsed once already");
        assert_eq!(again, thrice, "{line:?}");
    }
}
