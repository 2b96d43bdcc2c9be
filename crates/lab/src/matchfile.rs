//! The match file (`arena match --out FILE`): one JSON object per line, flushed line by line
//! (a [`crate::jsonl`] file).
//!
//! The first line of a file is the match's header; every further line is one finished game.
//! Every line carries the match id (a hash of every setting that decides which games are
//! played and how), so that `arena merge` and `--resume` can refuse files of other matches.
//!
//! ```text
//! {"type":"match","format":1,"match":"5f0c…","game":"jumpy3","engines":["a","b"],
//!  "games":100,"cycle":2,"sprt":{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05},
//!  "shard":"2/4","settings":"…"}
//! {"type":"game","match":"5f0c…","game":17,"opening":8,"seats":[1,0],
//!  "engines":["b","a"],"outcome":"win","winner_seat":0,"result":"winner w",
//!  "adjudicated":null,"places":[1,2],"start":"…","opening_moves":["4"],
//!  "moves":["13","1",…],"time_ms":[0.41,…],"nodes":[112,…],"scores":[35,null,…],
//!  "setup_ms":0.9,"wall_ms":3.2}
//! ```
//!
//! - `game` is the game's index in the whole match (from 0), `opening` the index of its
//!   opening (its pair, or its six seat orders in Chexers); `seats[s]` is the index in
//!   `engines` of the engine in seat `s` (seat 0 moves first), and the game line's `engines`
//!   are their specifications in seat order.
//! - `outcome` is `win` (with `winner_seat`), `draw`, `both-win`, `both-lose` or `loss` (with
//!   `loser_seat`: a three-player game whose seat ran out of time); `result` the result in
//!   the rules' notation (`loss X` for a loss); `adjudicated` is `null` or why the match ended the game
//!   (`max-plies`, `resign`, `draw`, `time`); `places[s]` is the place of seat `s` (1 the best;
//!   tied seats share the better place).
//! - `start` is the opening's start position, `opening_moves` the opening's random moves,
//!   `moves` the engines' moves; `time_ms`, `nodes` and `scores` go with `moves`, one each
//!   (a score is `null` for a player that does not search); `setup_ms` is the time the
//!   players took to get ready (new engines, or kept ones cleared), `wall_ms` the whole
//!   game's.
//!
//! [`parse_line`] is a pure function of one line (no file, no game knowledge): the match
//! file is read only through it.

use serde_json::{json, Map, Value};

use crate::jsonl::{self, Format};
use crate::schedule::Shard;
use crate::sprt::Sprt;

/// The version of the format; a file of another version is refused.
pub const FORMAT: u64 = 1;

/// The first line of a match file.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The match id.
    pub match_id: String,
    /// The game's name on the command line.
    pub game: String,
    /// The engine specifications, in the order given.
    pub engines: Vec<String>,
    /// The most games of the match.
    pub games: u64,
    /// Games per opening (2 in two-player games; 6 in Chexers).
    pub cycle: u64,
    /// The test, if one was asked for.
    pub sprt: Option<Sprt>,
    /// The slice this file's process played (`None`: the whole match).
    pub shard: Option<Shard>,
    /// The settings the match id is the hash of, for people.
    pub settings: String,
}

/// How a game ended, by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The player in this seat won.
    Win(usize),
    /// Nobody won.
    Draw,
    /// Both won (Chaos Clock).
    BothWin,
    /// Both lost (Chaos Clock).
    BothLose,
    /// The player in this seat lost (a three-player game's clock ran out), and the others
    /// share the first place.
    Loss(usize),
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    /// The match id.
    pub match_id: String,
    /// The game's index in the match.
    pub game: u64,
    /// The index of its opening.
    pub opening: u64,
    /// The engine index in each seat.
    pub seats: Vec<usize>,
    /// The engine specifications in seat order.
    pub engines: Vec<String>,
    /// How it ended.
    pub ending: Ending,
    /// The result in the rules' notation.
    pub result: String,
    /// Why the match ended the game, if it did.
    pub adjudicated: Option<String>,
    /// Place of each seat (1 the best).
    pub places: Vec<u32>,
    /// The opening's start position.
    pub start: String,
    /// The opening's random moves.
    pub opening_moves: Vec<String>,
    /// The engines' moves.
    pub moves: Vec<String>,
    /// Thinking time of each move, in milliseconds.
    pub time_ms: Vec<f64>,
    /// Nodes searched for each move (0 for players that do not search).
    pub nodes: Vec<u64>,
    /// The mover's score of each move, where it searched.
    pub scores: Vec<Option<i32>>,
    /// Time the players took to get ready, in milliseconds.
    pub setup_ms: f64,
    /// Wall time of the whole game (setup included), in milliseconds.
    pub wall_ms: f64,
}

/// One line of a match file: the header, or a game.
pub type Line = jsonl::Line<Header, GameLine>;

/// The match file's [`Format`].
#[derive(Clone, Copy, Debug)]
pub struct MatchFile;

impl Format for MatchFile {
    type Header = Header;
    type Entry = GameLine;
    type Key = u64;
    const RUN: &'static str = "match";
    const SHORT: &'static str = "match";
    const WRITER: &'static str = "shard";
    fn parse(text: &str) -> Result<Line, String> {
        parse_line(text)
    }
    fn header_json(h: &Header) -> String {
        header_json(h)
    }
    fn entry_json(e: &GameLine) -> String {
        game_json(e)
    }
    fn header_id(h: &Header) -> &str {
        &h.match_id
    }
    fn header_shard(h: &Header) -> Option<Shard> {
        h.shard
    }
    fn header_settings(h: &Header) -> &str {
        &h.settings
    }
    fn entry_id(e: &GameLine) -> &str {
        &e.match_id
    }
    fn key(e: &GameLine) -> u64 {
        e.game
    }
}

impl Ending {
    fn word(self) -> &'static str {
        match self {
            Ending::Win(_) => "win",
            Ending::Draw => "draw",
            Ending::BothWin => "both-win",
            Ending::BothLose => "both-lose",
            Ending::Loss(_) => "loss",
        }
    }
}

/// The header as one line of JSON (no newline).
pub fn header_json(h: &Header) -> String {
    let sprt = h.sprt.map_or(
        Value::Null,
        |s| json!({"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta}),
    );
    json!({
        "type": "match",
        "format": FORMAT,
        "match": h.match_id,
        "game": h.game,
        "engines": h.engines,
        "games": h.games,
        "cycle": h.cycle,
        "sprt": sprt,
        "shard": h.shard.map(|s| s.to_string()),
        "settings": h.settings,
    })
    .to_string()
}

/// A game as one line of JSON (no newline).
pub fn game_json(g: &GameLine) -> String {
    let winner = match g.ending {
        Ending::Win(s) => json!(s),
        _ => Value::Null,
    };
    // Milliseconds to the microsecond: enough, and short. Only below a billion ms (eleven
    // days), where the rounding is exact enough to be a fixed point when written again;
    // larger times (a hand-edited or damaged file) are written as they are, since
    // multiplying them could drift by an ulp each write or overflow to infinity.
    let ms = |x: f64| {
        if x.abs() < 1e9 {
            (x * 1000.0).round() / 1000.0
        } else {
            x
        }
    };
    let mut line = json!({
        "type": "game",
        "match": g.match_id,
        "game": g.game,
        "opening": g.opening,
        "seats": g.seats,
        "engines": g.engines,
        "outcome": g.ending.word(),
        "winner_seat": winner,
        "result": g.result,
        "adjudicated": g.adjudicated,
        "places": g.places,
        "start": g.start,
        "opening_moves": g.opening_moves,
        "moves": g.moves,
        "time_ms": g.time_ms.iter().map(|&t| ms(t)).collect::<Vec<_>>(),
        "nodes": g.nodes,
        "scores": g.scores,
        "setup_ms": ms(g.setup_ms),
        "wall_ms": ms(g.wall_ms),
    });
    if let Ending::Loss(s) = g.ending {
        line["loser_seat"] = json!(s);
    }
    line.to_string()
}

pub(crate) fn field<'a>(o: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    o.get(key).ok_or_else(|| format!("no field {key:?}"))
}

pub(crate) fn string(o: &Map<String, Value>, key: &str) -> Result<String, String> {
    field(o, key)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("field {key:?} must be a string"))
}

pub(crate) fn uint(o: &Map<String, Value>, key: &str) -> Result<u64, String> {
    field(o, key)?
        .as_u64()
        .ok_or_else(|| format!("field {key:?} must be a whole number"))
}

pub(crate) fn number(v: &Value, key: &str) -> Result<f64, String> {
    v.as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("field {key:?} must be a number"))
}

pub(crate) fn array<'a>(o: &'a Map<String, Value>, key: &str) -> Result<&'a Vec<Value>, String> {
    field(o, key)?
        .as_array()
        .ok_or_else(|| format!("field {key:?} must be a list"))
}

pub(crate) fn strings(o: &Map<String, Value>, key: &str) -> Result<Vec<String>, String> {
    array(o, key)?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("field {key:?} must be a list of strings"))
        })
        .collect()
}

fn optional_string(o: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("field {key:?} must be a string or null")),
    }
}

/// A match id: 16 lower-case hex digits.
fn match_id(o: &Map<String, Value>) -> Result<String, String> {
    hex_id(o, "match")
}

/// An id (of a match, of a tuning run) in field `key`: 16 lower-case hex digits.
pub(crate) fn hex_id(o: &Map<String, Value>, key: &str) -> Result<String, String> {
    let id = string(o, key)?;
    if id.len() == 16 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(id)
    } else {
        Err(format!("{key} id {id:?} is not 16 hex digits"))
    }
}

/// Reads one line of a match file. The error says what is wrong with it.
pub fn parse_line(text: &str) -> Result<Line, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not a JSON object: {e}"))?;
    let o = value
        .as_object()
        .ok_or_else(|| "not a JSON object".to_string())?;
    match string(o, "type")?.as_str() {
        "match" => parse_header(o).map(Line::Header),
        "game" => parse_game(o).map(Line::Entry),
        other => Err(format!("unknown line type {other:?} (match, game)")),
    }
}

fn parse_header(o: &Map<String, Value>) -> Result<Header, String> {
    let match_id = match_id(o)?;
    let format = uint(o, "format")?;
    if format != FORMAT {
        return Err(format!("format {format}: this arena reads format {FORMAT}"));
    }
    let engines = strings(o, "engines")?;
    if !(2..=3).contains(&engines.len()) {
        return Err(format!("{} engines: a match has 2 or 3", engines.len()));
    }
    let cycle = uint(o, "cycle")?;
    if cycle == 0 || cycle > 6 {
        return Err(format!("cycle {cycle}: between 1 and 6"));
    }
    let sprt = match field(o, "sprt")? {
        Value::Null => None,
        Value::Object(s) => {
            let get = |k: &str| number(field(s, k)?, k);
            Some(Sprt::new(
                get("elo0")?,
                get("elo1")?,
                get("alpha")?,
                get("beta")?,
            )?)
        }
        _ => return Err("field \"sprt\" must be an object or null".to_string()),
    };
    let shard = match optional_string(o, "shard")? {
        None => None,
        Some(s) => Some(s.parse::<Shard>()?),
    };
    Ok(Header {
        match_id,
        game: string(o, "game")?,
        engines,
        games: uint(o, "games")?,
        cycle,
        sprt,
        shard,
        settings: string(o, "settings")?,
    })
}

/// The engine index in each seat.
fn seats(o: &Map<String, Value>) -> Result<Vec<usize>, String> {
    let seats: Vec<usize> = array(o, "seats")?
        .iter()
        .map(|v| {
            v.as_u64()
                .filter(|&s| s < 3)
                .map(|s| s as usize)
                .ok_or_else(|| "field \"seats\" must list engine indices 0, 1 or 2".to_string())
        })
        .collect::<Result<_, _>>()?;
    if !(2..=3).contains(&seats.len()) {
        return Err(format!("{} seats: a game has 2 or 3", seats.len()));
    }
    Ok(seats)
}

/// How the game ended, by seat (of `seats` seats).
fn ending(o: &Map<String, Value>, seats: usize) -> Result<Ending, String> {
    Ok(match string(o, "outcome")?.as_str() {
        "win" => {
            let s = uint(o, "winner_seat")? as usize;
            if s >= seats {
                return Err(format!("winner seat {s} of {seats} seats"));
            }
            Ending::Win(s)
        }
        "draw" => Ending::Draw,
        "both-win" => Ending::BothWin,
        "both-lose" => Ending::BothLose,
        "loss" => {
            let s = uint(o, "loser_seat")? as usize;
            if s >= seats {
                return Err(format!("loser seat {s} of {seats} seats"));
            }
            Ending::Loss(s)
        }
        other => {
            return Err(format!(
                "outcome {other:?} (win, draw, both-win, both-lose, loss)"
            ))
        }
    })
}

/// The place of each of `seats` seats.
fn places(o: &Map<String, Value>, seats: usize) -> Result<Vec<u32>, String> {
    let places: Vec<u32> = array(o, "places")?
        .iter()
        .map(|v| {
            v.as_u64()
                .filter(|&p| p >= 1 && p as usize <= seats)
                .map(|p| p as u32)
                .ok_or_else(|| "field \"places\" must list places from 1".to_string())
        })
        .collect::<Result<_, _>>()?;
    if places.len() != seats {
        return Err(format!("{} places for {seats} seats", places.len()));
    }
    Ok(places)
}

/// The engines' moves, with each move's time, nodes and score.
type PerMove = (Vec<String>, Vec<f64>, Vec<u64>, Vec<Option<i32>>);

/// The engines' moves and what goes with each: one entry per move in every list.
/// The field `scores`: one search score per move, `null` for a move no search chose.
pub(crate) fn scores(o: &Map<String, Value>) -> Result<Vec<Option<i32>>, String> {
    array(o, "scores")?
        .iter()
        .map(|v| match v {
            Value::Null => Ok(None),
            v => v
                .as_i64()
                .and_then(|s| i32::try_from(s).ok())
                .map(Some)
                .ok_or_else(|| "field \"scores\" must list whole numbers or null".to_string()),
        })
        .collect()
}

fn per_move(o: &Map<String, Value>) -> Result<PerMove, String> {
    let moves = strings(o, "moves")?;
    let time_ms: Vec<f64> = array(o, "time_ms")?
        .iter()
        .map(|v| {
            number(v, "time_ms").and_then(|t| {
                if t >= 0.0 {
                    Ok(t)
                } else {
                    Err("field \"time_ms\" must not be negative".to_string())
                }
            })
        })
        .collect::<Result<_, _>>()?;
    let nodes: Vec<u64> = array(o, "nodes")?
        .iter()
        .map(|v| {
            v.as_u64()
                .ok_or_else(|| "field \"nodes\" must list whole numbers".to_string())
        })
        .collect::<Result<_, _>>()?;
    let scores = scores(o)?;
    for (name, len) in [
        ("time_ms", time_ms.len()),
        ("nodes", nodes.len()),
        ("scores", scores.len()),
    ] {
        if len != moves.len() {
            return Err(format!(
                "field {name:?} has {len} entries for {} moves",
                moves.len()
            ));
        }
    }
    Ok((moves, time_ms, nodes, scores))
}

/// Reads a game line's object (also the `game` field of a tune file's line).
pub(crate) fn parse_game(o: &Map<String, Value>) -> Result<GameLine, String> {
    let match_id = match_id(o)?;
    let seats = seats(o)?;
    let ending = ending(o, seats.len())?;
    let places = places(o, seats.len())?;
    let (moves, time_ms, nodes, scores) = per_move(o)?;
    let engines = strings(o, "engines")?;
    if engines.len() != seats.len() {
        return Err(format!(
            "{} engines for {} seats",
            engines.len(),
            seats.len()
        ));
    }
    let wall_ms = number(field(o, "wall_ms")?, "wall_ms")?;
    let setup_ms = number(field(o, "setup_ms")?, "setup_ms")?;
    Ok(GameLine {
        match_id,
        game: uint(o, "game")?,
        opening: uint(o, "opening")?,
        seats,
        engines,
        ending,
        result: string(o, "result")?,
        adjudicated: optional_string(o, "adjudicated")?,
        places,
        start: string(o, "start")?,
        opening_moves: strings(o, "opening_moves")?,
        moves,
        time_ms,
        nodes,
        scores,
        setup_ms,
        wall_ms,
    })
}

/// The complete lines of a text, each with its number (from 1), and the byte length up to
/// the end of the last complete line.
pub type Parsed = (Vec<(usize, Line)>, usize);

/// The lines of a file's text: each complete line parsed (its number from 1 with it), and
/// the byte length of the text up to the end of its last complete line. A last line without
/// its newline is a write cut short (a killed process): it is left out, and a resumed match
/// cuts the file back to that length before appending. A malformed complete line is an
/// error naming its number.
pub fn parse_text(text: &str) -> Result<Parsed, (usize, String)> {
    jsonl::complete_lines(text, parse_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_game() -> GameLine {
        GameLine {
            match_id: "0123456789abcdef".to_string(),
            game: 17,
            opening: 8,
            seats: vec![1, 0],
            engines: vec!["random".to_string(), "engine,depth=2".to_string()],
            ending: Ending::Win(1),
            result: "winner b".to_string(),
            adjudicated: Some("resign".to_string()),
            places: vec![2, 1],
            start: "Wwww........bbbB w".to_string(),
            opening_moves: vec!["4".to_string()],
            moves: vec!["13".to_string(), "1".to_string()],
            time_ms: vec![0.125, 3.5],
            nodes: vec![0, 211],
            scores: vec![None, Some(-35)],
            setup_ms: 0.5,
            wall_ms: 4.25,
        }
    }

    fn sample_header() -> Header {
        Header {
            match_id: "0123456789abcdef".to_string(),
            game: "jumpy3".to_string(),
            engines: vec!["engine,depth=2".to_string(), "random".to_string()],
            games: 100,
            cycle: 2,
            sprt: Some(Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap()),
            shard: Some("2/4".parse().unwrap()),
            settings: "game=jumpy3".to_string(),
        }
    }

    #[test]
    fn a_loss_on_time_reads_back_and_counts_for_the_others() {
        let mut g = sample_game();
        g.seats = vec![0, 1, 1];
        g.engines = vec!["a".into(), "b".into(), "b".into()];
        g.places = vec![3, 1, 1];
        g.ending = Ending::Loss(0);
        g.result = "loss r".to_string();
        g.adjudicated = Some("time".to_string());
        let text = game_json(&g);
        assert!(text.contains("\"loser_seat\":0"), "{text}");
        assert_eq!(parse_line(&text), Ok(Line::Entry(g.clone())));
        let bad = text.replace("\"loser_seat\":0", "\"loser_seat\":3");
        assert!(parse_line(&bad).unwrap_err().contains("loser seat"));
        // Engine 1 lost its seat; engine 2 shares the first place: a loss and a draw.
        let schedule = crate::schedule::Schedule {
            cycle: crate::schedule::seatings(3, 2),
            games: 6,
        };
        let engines = ["a".to_string(), "b".to_string()];
        let ctx = crate::summary::Context {
            engines: &engines,
            players: 3,
            schedule: &schedule,
            sprt: None,
        };
        let games = [(g.game, g)].into_iter().collect();
        let f = crate::summary::figures(&ctx, &games);
        assert_eq!((f.tally[0].losses, f.tally[0].draws), (1, 0));
        assert_eq!((f.tally[1].wins, f.tally[1].draws), (0, 1));
        assert_eq!(f.h2h[1][0], (1, 0, 0));
    }

    #[test]
    fn lines_round_trip() {
        let g = sample_game();
        assert_eq!(parse_line(&game_json(&g)), Ok(Line::Entry(g)));
        let h = sample_header();
        assert_eq!(parse_line(&header_json(&h)), Ok(Line::Header(h.clone())));
        let mut whole = h.clone();
        whole.shard = None;
        whole.sprt = None;
        assert_eq!(parse_line(&header_json(&whole)), Ok(Line::Header(whole)));
    }

    /// Writing rounds times to the microsecond once; a line read back and written again is
    /// the same text, at every magnitude (the fuzzer found 5.6e41 ms drifting by one ulp).
    #[test]
    fn times_are_a_fixed_point_after_one_write() {
        let mut g = sample_game();
        let mut times = vec![0.0, 0.0004, 0.0005, 0.1234567, 1.0 / 3.0, 999_999.999_5];
        for e in -3..=300 {
            for m in [1.0, 5.555_555_555_555_555, 9.999_999_999_999_999] {
                times.push(m * 10f64.powi(e));
            }
        }
        times.push(
            "555555555555555555555555555555555555555559.001"
                .parse()
                .unwrap(),
        );
        times.push(f64::MAX);
        g.nodes = vec![0; times.len()];
        g.scores = vec![None; times.len()];
        g.moves = vec!["1".to_string(); times.len()];
        g.time_ms = times;
        let once = game_json(&g);
        let Ok(Line::Entry(back)) = parse_line(&once) else {
            panic!("{once}")
        };
        for (t, b) in g.time_ms.iter().zip(&back.time_ms) {
            let err = (t - b).abs();
            assert!(err <= 0.0005 + t * 1e-15, "{t} came back as {b}");
        }
        let twice = game_json(&back);
        assert_eq!(once, twice);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let good = game_json(&sample_game());
        let cases: Vec<(String, &str)> = vec![
            ("".to_string(), "JSON"),
            ("[1,2]".to_string(), "object"),
            (good.replace("\"type\":\"game\"", "\"type\":\"gem\""), "gem"),
            (
                good.replace("\"match\":\"0123456789abcdef\"", "\"match\":\"xyz\""),
                "xyz",
            ),
            (
                good.replace("\"winner_seat\":1", "\"winner_seat\":5"),
                "winner seat 5",
            ),
            (
                good.replace("\"nodes\":[0,211]", "\"nodes\":[0]"),
                "\"nodes\" has 1",
            ),
            (
                good.replace("\"outcome\":\"win\"", "\"outcome\":\"tie\""),
                "tie",
            ),
            (
                good.replace("\"places\":[2,1]", "\"places\":[2,7]"),
                "places",
            ),
            (
                good.replace("\"seats\":[1,0]", "\"seats\":[1,0,4]"),
                "seats",
            ),
            (
                good.replace("\"time_ms\":[0.125,3.5]", "\"time_ms\":[-1,3.5]"),
                "negative",
            ),
            (
                good.replace(",\"start\":\"Wwww........bbbB w\"", ""),
                "\"start\"",
            ),
            (
                header_json(&sample_header()).replace("\"shard\":\"2/4\"", "\"shard\":\"5/4\""),
                "5/4",
            ),
            (
                header_json(&sample_header()).replace("\"format\":1", "\"format\":9"),
                "format 9",
            ),
            (
                header_json(&sample_header()).replace("\"alpha\":0.05", "\"alpha\":2"),
                "--alpha",
            ),
        ];
        for (line, want) in cases {
            let e = parse_line(&line).expect_err(&line);
            assert!(e.contains(want), "{line}: {e}");
        }
    }

    #[test]
    fn a_line_cut_short_is_left_out() {
        let g = game_json(&sample_game());
        let h = header_json(&sample_header());
        let text = format!("{h}\n{g}\n{}", &g[..g.len() / 2]);
        let (lines, complete) = parse_text(&text).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(complete, h.len() + g.len() + 2);
        let bad = format!("{h}\n{{\"type\":\"game\"}}\n{g}\n");
        let (line, e) = parse_text(&bad).unwrap_err();
        assert_eq!(line, 2);
        assert!(e.contains("\"match\""), "{e}");
    }
}
