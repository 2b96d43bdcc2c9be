//! The record file read back (format: `docs/server-protocol.md`, "Record file"): each line
//! parsed ([`parse_line`]), whole files read into server runs and games ([`read`]), a game
//! checked by replaying it through its rules ([`check_game`]), and what a restarted server
//! needs to mark the games that a crash left unfinished ([`unfinished`]).

use std::collections::HashMap;

use plyforge::search::{Game, Record};
use plyforge::{play_text, result_text, GameAdapter};

/// One line of a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `server FORMAT GAME UNIX_SECONDS SETTINGS…`: a server run begins.
    Server {
        /// The format version.
        format: u32,
        /// The game's name.
        game: String,
        /// When, in seconds since 1970 (UTC).
        unix: u64,
        /// The settings (`time=MS moves=N`).
        settings: String,
    },
    /// `ID game GAME TIME MOVES NAME…`.
    Game {
        /// The game number.
        id: u64,
        /// The game's name.
        game: String,
        /// Each side's clock at the start, in ms.
        time_ms: u64,
        /// Moves per side.
        moves: u32,
        /// The agents' names in seat order.
        names: Vec<String>,
    },
    /// `ID start POSITION`.
    Start {
        /// The game number.
        id: u64,
        /// The start position in notation.
        position: String,
    },
    /// `ID move SIDE MS MOVE`.
    Move {
        /// The game number.
        id: u64,
        /// The mover's letter.
        side: String,
        /// The time the move took on the mover's clock.
        ms: u64,
        /// The move in notation.
        text: String,
    },
    /// `ID illegal SIDE MS TEXT`.
    Illegal {
        /// The game number.
        id: u64,
        /// The side that tried.
        side: String,
        /// Milliseconds since its turn began.
        ms: u64,
        /// What it sent (shortened).
        text: String,
    },
    /// `ID end REASON RESULT plies=N L1=MS L2=MS [L3=MS]`.
    End(u64, End),
}

/// How a recorded game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// `rules`, `limit`, `time`, `disconnect`, `quit`, `absent`, `stopped`, `crashed`.
    pub reason: String,
    /// `winner X`, `draw …`, `both win`, `both lose`, `loss X`, `void`, `aborted`.
    pub result: String,
    /// Moves played.
    pub plies: usize,
    /// Each side's clock left, in ms, by letter.
    pub clocks: Vec<(String, u64)>,
}

fn number<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what}: {text:?} is not a number"))
}

/// Splits off the first word.
fn word(text: &str) -> (&str, &str) {
    text.split_once(' ').unwrap_or((text, ""))
}

/// Parses one line (without its line end).
pub fn parse_line(line: &str) -> Result<Event, String> {
    let (first, rest) = word(line);
    if first == "server" {
        let (format, rest) = word(rest);
        let (game, rest) = word(rest);
        let (unix, settings) = word(rest);
        if game.is_empty() {
            return Err("server: expected `server FORMAT GAME UNIX_SECONDS SETTINGS`".into());
        }
        return Ok(Event::Server {
            format: number("server: format", format)?,
            game: game.to_string(),
            unix: number("server: time", unix)?,
            settings: settings.to_string(),
        });
    }
    let id: u64 = number("game number", first)?;
    let (kind, rest) = word(rest);
    match kind {
        "game" => {
            let w: Vec<&str> = rest.split(' ').collect();
            if w.len() < 4 || w[3..].iter().any(|n| n.is_empty()) {
                return Err(format!("{id} game: expected `GAME TIME MOVES NAME…`"));
            }
            Ok(Event::Game {
                id,
                game: w[0].to_string(),
                time_ms: number("game: time", w[1])?,
                moves: number("game: moves", w[2])?,
                names: w[3..].iter().map(|n| n.to_string()).collect(),
            })
        }
        "start" if !rest.is_empty() => Ok(Event::Start {
            id,
            position: rest.to_string(),
        }),
        "move" | "illegal" => {
            let (side, rest) = word(rest);
            let (ms, text) = word(rest);
            if side.is_empty() || (kind == "move" && text.is_empty()) {
                return Err(format!("{id} {kind}: expected `SIDE MS TEXT`"));
            }
            let ms = number(&format!("{id} {kind}: time"), ms)?;
            let (side, text) = (side.to_string(), text.to_string());
            Ok(if kind == "move" {
                Event::Move { id, side, ms, text }
            } else {
                Event::Illegal { id, side, ms, text }
            })
        }
        "end" => {
            let (reason, rest) = word(rest);
            let (result, rest) = rest
                .split_once(" plies=")
                .ok_or_else(|| format!("{id} end: no `plies=`"))?;
            if reason.is_empty() || result.is_empty() {
                return Err(format!("{id} end: expected `REASON RESULT plies=N …`"));
            }
            let mut w = rest.split(' ');
            let plies = number(&format!("{id} end: plies"), w.next().unwrap_or(""))?;
            let clocks = w
                .map(|kv| {
                    let (k, v) = kv
                        .split_once('=')
                        .ok_or_else(|| format!("{id} end: clock {kv:?} is not `L=MS`"))?;
                    Ok((k.to_string(), number(&format!("{id} end: clock"), v)?))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Event::End(
                id,
                End {
                    reason: reason.to_string(),
                    result: result.to_string(),
                    plies,
                    clocks,
                },
            ))
        }
        other => Err(format!("{id}: unknown kind of line {other:?}")),
    }
}

/// One game of a record file, as recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordedGame {
    /// The game number (unique within its server run).
    pub id: u64,
    /// The game's name.
    pub game: String,
    /// Each side's clock at the start, in ms.
    pub time_ms: u64,
    /// Moves per side.
    pub moves_per_side: u32,
    /// The agents' names in seat order.
    pub names: Vec<String>,
    /// The start position, if recorded.
    pub start: Option<String>,
    /// The moves: (side, ms, move).
    pub moves: Vec<(String, u64, String)>,
    /// Refused attempts.
    pub illegal: usize,
    /// How it ended; `None`: no `end` line (cut off by a crash, not yet marked).
    pub end: Option<End>,
}

impl RecordedGame {
    /// Takes in an event of this game after its `game` line: a start, a move, a refusal or
    /// its end, each in its order.
    fn take(&mut self, event: Event) -> Result<(), String> {
        let id = self.id;
        if self.end.is_some() {
            return Err(format!("game {id} goes on after its `end` line"));
        }
        match event {
            Event::Start { position, .. } => {
                if self.start.is_some() {
                    return Err(format!("game {id} starts twice"));
                }
                self.start = Some(position);
            }
            Event::Move { side, ms, text, .. } => {
                if self.start.is_none() {
                    return Err(format!("game {id}: a move before its `start` line"));
                }
                self.moves.push((side, ms, text));
            }
            Event::Illegal { .. } => self.illegal += 1,
            Event::End(_, end) => {
                if end.plies != self.moves.len() {
                    return Err(format!(
                        "game {id} ends after plies={} but has {} moves",
                        end.plies,
                        self.moves.len()
                    ));
                }
                self.end = Some(end);
            }
            Event::Server { .. } | Event::Game { .. } => {
                return Err(format!("game {id}: not an event of a game"))
            }
        }
        Ok(())
    }
}

/// One server run of a record file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// The game played.
    pub game: String,
    /// When it began (seconds since 1970, UTC).
    pub unix: u64,
    /// Its settings.
    pub settings: String,
    /// Its games, in the order they began.
    pub games: Vec<RecordedGame>,
}

/// A whole record file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordFile {
    /// The server runs, in order.
    pub runs: Vec<Run>,
    /// The file ends in a line without its line end (a write cut short), which is ignored.
    pub torn: bool,
}

/// A record file that cannot be read: the line (from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ReadError {}

/// Reads a record file: every line parsed, and each game's lines in order (`game` first,
/// then `start`, moves, at most one `end`, nothing after it).
pub fn read(text: &str) -> Result<RecordFile, ReadError> {
    let mut file = RecordFile::default();
    let body = match text.rfind('\n') {
        Some(i) => {
            file.torn = i + 1 < text.len();
            &text[..=i]
        }
        None => {
            file.torn = !text.is_empty();
            ""
        }
    };
    // Games of the current run by number: index into its `games`.
    let mut index: HashMap<u64, usize> = HashMap::new();
    for (n, line) in body.lines().enumerate() {
        let bad = |reason: String| ReadError {
            line: n + 1,
            reason,
        };
        let event = parse_line(line).map_err(bad)?;
        if let Event::Server {
            game,
            unix,
            settings,
            ..
        } = event
        {
            file.runs.push(Run {
                game,
                unix,
                settings,
                games: Vec::new(),
            });
            index.clear();
            continue;
        }
        let Some(run) = file.runs.last_mut() else {
            return Err(bad("a game's line before any `server` line".into()));
        };
        if let Event::Game {
            id,
            game,
            time_ms,
            moves,
            names,
        } = event
        {
            if index.contains_key(&id) {
                return Err(bad(format!("game {id} begins twice in one server run")));
            }
            index.insert(id, run.games.len());
            run.games.push(RecordedGame {
                id,
                game,
                time_ms,
                moves_per_side: moves,
                names,
                ..RecordedGame::default()
            });
            continue;
        }
        let id = match &event {
            Event::Start { id, .. }
            | Event::Move { id, .. }
            | Event::Illegal { id, .. }
            | Event::End(id, _) => *id,
            Event::Server { .. } | Event::Game { .. } => unreachable!("handled above"),
        };
        let g = index
            .get(&id)
            .map(|&i| &mut run.games[i])
            .ok_or_else(|| bad(format!("game {id} has no `game` line before this")))?;
        g.take(event).map_err(bad)?;
    }
    Ok(file)
}

/// Replays a recorded game through the rules of `A` and checks it against its `end` line:
/// every move legal, by the side to move, in the game's own spelling; a `rules` end where
/// the rules ended it with the recorded result; a `limit` end after every move of the limit
/// with the result the limit gives; any other end in a game the rules had not ended.
pub fn check_game<A: GameAdapter>(g: &RecordedGame) -> Result<(), String> {
    if g.game != A::NAME {
        return Err(format!(
            "game {}: a game of {}, not {}",
            g.id,
            g.game,
            A::NAME
        ));
    }
    let (record, used) = replay::<A>(g)?;
    let Some(end) = &g.end else {
        return Err(format!("game {}: no `end` line", g.id));
    };
    check_end::<A>(g, end, &record)?;
    // Every clock: no more than the start less the moves' time.
    for (letter, left) in &end.clocks {
        let p = (0..A::PLAYERS)
            .find(|&p| A::player_letter(p) == letter)
            .ok_or_else(|| format!("game {}: clock of an unknown side {letter:?}", g.id))?;
        if *left > g.time_ms.saturating_sub(used[p]) {
            return Err(format!(
                "game {}: {letter} has {left} ms left after using {} of {}",
                g.id, used[p], g.time_ms
            ));
        }
    }
    Ok(())
}

/// The game's moves played through the rules (each legal, by the side to move, in the
/// game's own spelling), and the time each side used.
fn replay<A: GameAdapter>(g: &RecordedGame) -> Result<(Record<A::Pos>, Vec<u64>), String> {
    let start = g
        .start
        .as_deref()
        .ok_or_else(|| format!("game {}: no start position", g.id))?;
    let pos = A::parse_position(start).map_err(|e| format!("game {}: start: {e}", g.id))?;
    let mut record = Record::<A::Pos>::new(pos);
    let mut used = vec![0u64; A::PLAYERS];
    for (i, (side, ms, text)) in g.moves.iter().enumerate() {
        let to_move = record.position().to_move();
        if side != A::player_letter(to_move) {
            return Err(format!(
                "game {} move {}: {side} moved, {} was to move",
                g.id,
                i + 1,
                A::player_letter(to_move)
            ));
        }
        let mv = play_text::<A>(&mut record, text)
            .map_err(|e| format!("game {} move {}: {e}", g.id, i + 1))?;
        if mv.to_string() != *text {
            return Err(format!(
                "game {} move {}: {text:?} is not written as the game writes it ({mv})",
                g.id,
                i + 1
            ));
        }
        used[to_move] += ms;
    }
    Ok((record, used))
}

/// The `end` line against the replayed game: a `rules` end where the rules ended it with
/// the recorded result; a `limit` end after every move of the limit with the result the
/// limit gives; any other end in a game the rules had not ended, with a result it can have.
fn check_end<A: GameAdapter>(
    g: &RecordedGame,
    end: &End,
    record: &Record<A::Pos>,
) -> Result<(), String> {
    let over = record.result();
    match end.reason.as_str() {
        "rules" => {
            let o = over.ok_or_else(|| format!("game {}: `rules` but not over", g.id))?;
            if end.result != result_text::<A>(o) {
                return Err(format!(
                    "game {}: the rules give {}, the record {}",
                    g.id,
                    result_text::<A>(o),
                    end.result
                ));
            }
        }
        "limit" => {
            let want = g.moves_per_side as usize * A::PLAYERS;
            let limit = result_text::<A>(A::limit_outcome(record.position()));
            if over.is_some() || g.moves.len() != want || end.result != limit {
                return Err(format!(
                    "game {}: `limit` after {} of {want} moves with {} (the limit gives {limit})",
                    g.id,
                    g.moves.len(),
                    end.result
                ));
            }
        }
        "time" | "disconnect" | "quit" | "absent" | "stopped" | "crashed" => {
            if over.is_some() {
                return Err(format!(
                    "game {}: `{}` in a game already over",
                    g.id, end.reason
                ));
            }
            let forfeit = |r: &str| {
                r.strip_prefix("winner ")
                    .or_else(|| r.strip_prefix("loss "))
                    .is_some_and(|l| (0..A::PLAYERS).any(|p| A::player_letter(p) == l))
            };
            let fits = match end.reason.as_str() {
                "stopped" | "crashed" => end.result == "aborted",
                _ => forfeit(&end.result) || end.result == "void",
            };
            if !fits {
                return Err(format!(
                    "game {}: `{}` cannot end in {:?}",
                    g.id, end.reason, end.result
                ));
            }
        }
        other => return Err(format!("game {}: unknown end {other:?}", g.id)),
    }
    Ok(())
}

/// A game of the last server run of a record that has no `end` line: the number, the moves
/// played, and each side's clock as its moves left it (letter, ms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// The game number.
    pub id: u64,
    /// Moves played.
    pub plies: usize,
    /// Each side's clock: the start less its moves' time.
    pub clocks: Vec<(String, u64)>,
}

/// Follows a record file line by line and keeps, for its last server run, the games not yet
/// ended: what a restarted server marks as cut off by a crash. Lines it cannot read are
/// counted and skipped (the server that reads this is about to append, not to judge).
#[derive(Debug, Default)]
pub struct OpenGames {
    /// The last run's game.
    pub game: Option<String>,
    open: HashMap<u64, (u64, usize, HashMap<String, u64>)>,
    order: Vec<u64>,
    /// Lines that could not be read.
    pub unreadable: usize,
    /// Lines read.
    pub lines: usize,
}

impl OpenGames {
    /// Takes one line (without its line end).
    pub fn line(&mut self, line: &str) {
        self.lines += 1;
        match parse_line(line) {
            Ok(Event::Server { game, .. }) => {
                self.game = Some(game);
                self.open.clear();
                self.order.clear();
            }
            Ok(Event::Game { id, time_ms, .. }) => {
                if self.open.insert(id, (time_ms, 0, HashMap::new())).is_none() {
                    self.order.push(id);
                }
            }
            Ok(Event::Move { id, side, ms, .. }) => {
                if let Some((_, plies, used)) = self.open.get_mut(&id) {
                    *plies += 1;
                    let u = used.entry(side).or_insert(0);
                    *u = u.saturating_add(ms);
                }
            }
            Ok(Event::End(id, _)) => {
                self.open.remove(&id);
            }
            Ok(_) => {}
            Err(_) => self.unreadable += 1,
        }
    }

    /// The games of the last run without an `end` line, in the order they began; `letters`
    /// are the game's sides, for the clocks.
    pub fn unfinished(&self, letters: &[&str]) -> Vec<Unfinished> {
        self.order
            .iter()
            .filter_map(|id| {
                let (time, plies, used) = self.open.get(id)?;
                Some(Unfinished {
                    id: *id,
                    plies: *plies,
                    clocks: letters
                        .iter()
                        .map(|l| {
                            let spent = used.get(*l).copied().unwrap_or(0);
                            (l.to_string(), time.saturating_sub(spent))
                        })
                        .collect(),
                })
            })
            .collect()
    }
}

/// The games of the last run of `text` without an `end` line (see [`OpenGames`]).
pub fn unfinished(text: &str, letters: &[&str]) -> Vec<Unfinished> {
    let mut t = OpenGames::default();
    for line in text.lines() {
        t.line(line);
    }
    t.unfinished(letters)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyforge::games::Jumpy3;

    const RECORD: &str = "\
server 1 jumpy3 1700000000 time=5000 moves=150
1 game jumpy3 5000 150 a b
1 start Wwww........bbbB w
2 game jumpy3 5000 150 c d
1 move w 12 4
2 start Wwww........bbbB w
1 illegal b 3 99
1 move b 20 13
2 move w 7 1
1 end disconnect winner b plies=2 w=4988 b=4980
";

    #[test]
    fn a_record_reads_into_runs_and_games() {
        let f = read(RECORD).unwrap();
        assert!(!f.torn);
        assert_eq!(f.runs.len(), 1);
        let games = &f.runs[0].games;
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[0].illegal, 1);
        assert_eq!(games[0].end.as_ref().unwrap().result, "winner b");
        assert_eq!(games[1].end, None);
        assert_eq!(check_game::<Jumpy3>(&games[0]), Ok(()));
        assert!(check_game::<Jumpy3>(&games[1])
            .unwrap_err()
            .contains("no `end`"));
        let open = unfinished(RECORD, &["w", "b"]);
        assert_eq!(
            open,
            vec![Unfinished {
                id: 2,
                plies: 1,
                clocks: vec![("w".into(), 4993), ("b".into(), 5000)]
            }]
        );
    }

    #[test]
    fn a_torn_last_line_is_set_aside() {
        let cut = &RECORD[..RECORD.len() - 10];
        let f = read(cut).unwrap();
        assert!(f.torn);
        assert_eq!(f.runs[0].games[0].end, None);
    }

    #[test]
    fn bad_records_name_the_line() {
        let e = read("1 game jumpy3 5 150 a b\n").unwrap_err();
        assert_eq!(e.line, 1);
        let twice = format!("{RECORD}1 move w 3 4\n");
        let e = read(&twice).unwrap_err();
        assert_eq!(e.line, 11);
        assert!(e.reason.contains("after its `end`"), "{e}");
        let e = read("server 1 jumpy3 0 x\n3 move w 1 4\n").unwrap_err();
        assert!(e.reason.contains("no `game` line"), "{e}");
        let e = read("server 1 jumpy3 0 x\n3 game jumpy3 1 1 a b\n3 end rules draw plies=2\n")
            .unwrap_err();
        assert!(e.reason.contains("plies=2 but has 0 moves"), "{e}");
        assert!(parse_line("1 frob").is_err());
        assert!(parse_line("x game").is_err());
        assert!(parse_line("1 end rules winner w plies=x").is_err());
        assert!(parse_line("1 end rules winner w plies=1 w:3").is_err());
    }

    #[test]
    fn a_replay_catches_a_wrong_record() {
        let f = read(RECORD).unwrap();
        let mut g = f.runs[0].games[0].clone();
        g.moves[1].2 = "12".into();
        assert!(check_game::<Jumpy3>(&g).unwrap_err().contains("move 2"));
        let mut g = f.runs[0].games[0].clone();
        g.end.as_mut().unwrap().reason = "rules".into();
        assert!(check_game::<Jumpy3>(&g).unwrap_err().contains("not over"));
        let mut g = f.runs[0].games[0].clone();
        g.end.as_mut().unwrap().clocks[0].1 = 4999;
        assert!(check_game::<Jumpy3>(&g)
            .unwrap_err()
            .contains("4999 ms left"));
    }
}
