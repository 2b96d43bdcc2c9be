//! What the fuzz targets check, written once over the facade's [`GameAdapter`] (each target
//! in `fuzz_targets/` is a line that calls one of these). Every function takes the fuzzer's
//! bytes and panics only when a property fails: a crash is a bug.

use std::io::{BufReader, Write};
use std::sync::{Arc, Mutex, OnceLock};

use plyforge::search::{Game, Record};
use plyforge::{legal_moves, play_text, read_position, GameAdapter};
use plyforge_arena::protocol::{self, Command, Flow, Session};
use plyforge_arena::server::{reader, wire};

/// `POSITION\nMOVE`: the position (if it parses) displays and parses back to itself, its key
/// is its recomputed key, each legal move displays and parses back to itself; the move text
/// parses in that position (or the start) and round-trips too, and plays through a record
/// or is refused with an error.
pub fn notation<A: GameAdapter>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (pos_text, move_text) = text.split_once('\n').unwrap_or((text, ""));
    let _ = read_position::<A>(pos_text);
    let pos = match A::parse_position(pos_text) {
        Ok(p) => {
            let shown = p.to_string();
            let again = A::parse_position(&shown)
                .unwrap_or_else(|e| panic!("{shown:?}, displayed from {pos_text:?}: {e}"));
            assert_eq!(again, p, "{pos_text:?} -> {shown:?}");
            assert_eq!(again.to_string(), shown);
            assert_eq!(p.key(), p.recompute_key(), "{shown}");
            let moves = legal_moves(&p);
            assert!(
                !moves.is_empty() || p.outcome().is_some(),
                "{shown}: no moves but not over"
            );
            for m in moves {
                let t = m.to_string();
                assert_eq!(A::parse_move(&p, &t), Ok(m), "{shown}: {t}");
            }
            p
        }
        Err(_) => A::start(),
    };
    if let Ok(m) = A::parse_move(&pos, move_text) {
        let t = m.to_string();
        assert_eq!(A::parse_move(&pos, &t), Ok(m), "{move_text:?} -> {t:?}");
    }
    let mut record = Record::<A::Pos>::new(pos.clone());
    if play_text::<A>(&mut record, move_text).is_ok() {
        assert_eq!(record.moves().len(), 1);
        let mut child = pos.clone();
        child.play(record.moves()[0]);
        assert!(&child == record.position());
    }
}

/// The games, by the first byte.
pub fn game_of(byte: u8) -> plyforge::GameKind {
    plyforge::GameKind::ALL[byte as usize % plyforge::GameKind::ALL.len()]
}

/// A game played from bytes: the first byte picks the game (see [`game_of`]), the second
/// the start (the rules' start, or a random one for games that have them), each next byte a
/// legal move by its index. After every move: the key is the recomputed key, `play_from`
/// gives what clone-and-play gives, the position's notation reads back to itself, the
/// record's count of the position is the number of equal repetition keys in its history,
/// and a game goes on exactly while it has moves. Undoing every move gives back the start.
pub fn play(data: &[u8]) {
    struct Play<'a>(&'a [u8]);
    impl plyforge::Visitor for Play<'_> {
        type Output = ();
        fn visit<A: GameAdapter>(self) {
            play_game::<A>(self.0);
        }
    }
    let Some((&g, rest)) = data.split_first() else {
        return;
    };
    game_of(g).visit(Play(rest));
}

fn play_game<A: GameAdapter>(data: &[u8]) {
    let Some((&s, moves)) = data.split_first() else {
        return;
    };
    let start = match s % 4 {
        0 => A::start(),
        n => A::random_start(u64::from(n) + u64::from(s)).unwrap_or_else(A::start),
    };
    let mut record = Record::<A::Pos>::new(start.clone());
    for &b in moves.iter().take(4000) {
        let legal = record.legal_moves();
        let over = record.result();
        assert_eq!(
            legal.is_empty(),
            over.is_some(),
            "{}: moves {} but result {over:?}",
            record.position(),
            legal.len()
        );
        if legal.is_empty() {
            break;
        }
        let parent = record.position().clone();
        let mv = legal[b as usize % legal.len()];
        assert_eq!(parent.why_illegal(mv), None, "{parent}: {mv} listed");
        record.play(mv).expect("a legal move plays");
        let pos = record.position();
        assert_eq!(pos.key(), pos.recompute_key(), "{parent} {mv}");
        let mut from = start.clone();
        from.play_from(&parent, mv);
        assert!(&from == pos, "play_from {parent} {mv}");
        // Text round trip (Chaos Clock's notation cannot say that the last move was a pass,
        // so the positions may differ in that flag alone: see its README).
        let shown = pos.to_string();
        let again = A::parse_position(&shown).unwrap_or_else(|e| panic!("{shown}: {e}"));
        assert_eq!(again.to_string(), shown);
        let key = pos.repetition_key();
        let count = record.history_keys().iter().filter(|&&k| k == key).count();
        assert_eq!(record.occurrences() as usize, count, "{shown}");
        // The outcome is a function of the position: asking twice gives the same.
        assert_eq!(pos.outcome(), pos.clone().outcome());
    }
    let played = record.moves().len();
    for _ in 0..played {
        record.undo().expect("a move to take back");
    }
    assert!(record.position() == &start);
    assert_eq!(record.occurrences(), 1);
}

/// One line of the engine protocol, read by every game's parser: never a panic; a `go`
/// turns into limits for every side.
pub fn protocol_line(data: &[u8]) {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    struct Parse<'a>(&'a str);
    impl plyforge::Visitor for Parse<'_> {
        type Output = ();
        fn visit<A: GameAdapter>(self) {
            if let Ok(Command::Go(go)) = protocol::parse_command::<A>(self.0) {
                for p in 0..A::PLAYERS {
                    let _ = go.limits(p);
                }
            }
        }
    }
    for &kind in plyforge::GameKind::ALL {
        kind.visit(Parse(line));
    }
    let _ = protocol::read_line(&mut BufReader::new(data));
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
    struct Run<'a>(&'a [u8]);
    impl plyforge::Visitor for Run<'_> {
        type Output = ();
        fn visit<A: GameAdapter>(self) {
            let mut s = Session::<A>::new(1, None, sink())
                .expect("the default engine")
                .with_caps(1, 2);
            let mut input = BufReader::new(self.0);
            for _ in 0..64 {
                let line = match protocol::read_line(&mut input) {
                    Ok(Some(protocol::Line::Text(t))) => t,
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
    }
    let Some((&g, rest)) = data.split_first() else {
        return;
    };
    game_of(g).visit(Run(rest));
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
    struct Check<'a>(&'a reader::RecordedGame);
    impl plyforge::Visitor for Check<'_> {
        type Output = ();
        fn visit<A: GameAdapter>(self) {
            let _ = reader::check_game::<A>(self.0);
        }
    }
    for run in &file.runs {
        for g in &run.games {
            if let Ok(kind) = g.game.parse::<plyforge::GameKind>() {
                kind.visit(Check(g));
            }
        }
    }
}
