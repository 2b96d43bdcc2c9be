//! The tune file (`arena tune --out FILE`): one JSON object per line, flushed line by line,
//! as the match file is (a [`crate::jsonl`] file).
//!
//! The first line is the run's header (its settings, the parameters with their schedule);
//! every further line is one finished game of one iteration, with the two points it played
//! and the game itself in the match file's form (so that the games of a tuning run are
//! records that `arena tune --records` reads):
//!
//! ```text
//! {"type":"tune","format":1,"tune":"5f0c…","game":"jumpy3","engine":"engine,depth=4",
//!  "opponent":null,"iterations":200,"pairs":1,"alpha":0.602,"gamma":0.101,"a_ratio":0.1,
//!  "seed":1,"shard":null,"params":[{"name":"pawns","start":98,"min":0,"max":400,
//!  "c_end":10,"r_end":0.02,"integer":true}],"settings":"…"}
//! {"type":"tune-game","tune":"5f0c…","iter":0,"index":1,"plus":[112.4],"minus":[83.6],
//!  "diff":-1,"game":{"type":"game","match":"5f0c…",…}}
//! ```
//!
//! - `iter` is the iteration (from 0), `index` the game's index within it (its pair is
//!   `index / cycle`); `plus` and `minus` are θ+ and θ− as the iteration computed them
//!   (before rounding), `diff` θ+'s points less θ−'s in this game (see the `run` module).
//! - A last line without its newline is a write cut short: left out, and cut off by
//!   `--resume` before it appends.
//!
//! [`parse_line`] is a pure function of one line.

use serde_json::{json, Map, Value};

use super::spsa::{ParamPlan, Schedule};
use crate::jsonl::{self, Format};
use crate::matchfile::{self, field, string, uint, Ending, GameLine};
use crate::schedule::Shard;

/// The version of the format.
pub const FORMAT: u64 = 1;

/// The first line of a tune file.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The run's id: a hash of every setting that decides its games.
    pub tune_id: String,
    /// The game's name.
    pub game: String,
    /// The engine specification whose parameters are tuned (without them).
    pub engine: String,
    /// The fixed opponent's specification, if not self-play.
    pub opponent: Option<String>,
    /// The parameters.
    pub params: Vec<ParamPlan>,
    /// The schedule.
    pub schedule: Schedule,
    /// Game pairs per iteration.
    pub pairs: u64,
    /// The seed.
    pub seed: u64,
    /// The slice this file's process played.
    pub shard: Option<Shard>,
    /// The settings, for people.
    pub settings: String,
}

/// One finished game of a tuning run.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneGame {
    /// The run's id.
    pub tune_id: String,
    /// The iteration.
    pub iter: u64,
    /// The game's index within its iteration.
    pub index: u64,
    /// θ+ of the iteration.
    pub plus: Vec<f64>,
    /// θ− of the iteration.
    pub minus: Vec<f64>,
    /// θ+'s points less θ−'s in this game.
    pub diff: f64,
    /// The game.
    pub game: GameLine,
}

/// One line of a tune file: the header, or a game.
pub type Line = jsonl::Line<Header, TuneGame>;

/// The tune file's [`Format`].
#[derive(Clone, Copy, Debug)]
pub struct TuneFile;

impl Format for TuneFile {
    type Header = Header;
    type Entry = TuneGame;
    type Key = (u64, u64);
    const RUN: &'static str = "tuning run";
    const SHORT: &'static str = "run";
    const WRITER: &'static str = "worker";
    fn parse(text: &str) -> Result<Line, String> {
        parse_line(text)
    }
    fn header_json(h: &Header) -> String {
        header_json(h)
    }
    fn entry_json(e: &TuneGame) -> String {
        game_json(e)
    }
    fn header_id(h: &Header) -> &str {
        &h.tune_id
    }
    fn header_shard(h: &Header) -> Option<Shard> {
        h.shard
    }
    fn header_settings(h: &Header) -> &str {
        &h.settings
    }
    fn entry_id(e: &TuneGame) -> &str {
        &e.tune_id
    }
    fn key(e: &TuneGame) -> (u64, u64) {
        (e.iter, e.index)
    }
}

/// The header as one line of JSON.
pub fn header_json(h: &Header) -> String {
    let params: Vec<Value> = h
        .params
        .iter()
        .map(|p| {
            json!({"name": p.name, "start": p.start, "min": p.min, "max": p.max,
                   "c_end": p.c_end, "r_end": p.r_end, "integer": p.integer})
        })
        .collect();
    json!({
        "type": "tune",
        "format": FORMAT,
        "tune": h.tune_id,
        "game": h.game,
        "engine": h.engine,
        "opponent": h.opponent,
        "iterations": h.schedule.iterations,
        "pairs": h.pairs,
        "alpha": h.schedule.alpha,
        "gamma": h.schedule.gamma,
        "a_ratio": h.schedule.a_ratio,
        "seed": h.seed,
        "shard": h.shard.map(|s| s.to_string()),
        "params": params,
        "settings": h.settings,
    })
    .to_string()
}

/// A game as one line of JSON.
pub fn game_json(g: &TuneGame) -> String {
    let game: Value =
        serde_json::from_str(&matchfile::game_json(&g.game)).expect("the match file's JSON");
    json!({
        "type": "tune-game",
        "tune": g.tune_id,
        "iter": g.iter,
        "index": g.index,
        "plus": g.plus,
        "minus": g.minus,
        "diff": g.diff,
        "game": game,
    })
    .to_string()
}

fn number(o: &Map<String, Value>, key: &str) -> Result<f64, String> {
    matchfile::number(field(o, key)?, key)
}

fn numbers(o: &Map<String, Value>, key: &str) -> Result<Vec<f64>, String> {
    matchfile::array(o, key)?
        .iter()
        .map(|v| matchfile::number(v, key))
        .collect()
}

fn tune_id(o: &Map<String, Value>) -> Result<String, String> {
    matchfile::hex_id(o, "tune")
}

/// Reads one line of a tune file; the error says what is wrong with it.
pub fn parse_line(text: &str) -> Result<Line, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not a JSON object: {e}"))?;
    let o = value
        .as_object()
        .ok_or_else(|| "not a JSON object".to_string())?;
    match string(o, "type")?.as_str() {
        "tune" => parse_header(o).map(Line::Header),
        "tune-game" => parse_game(o).map(Line::Entry),
        other => Err(format!("unknown line type {other:?} (tune, tune-game)")),
    }
}

fn parse_header(o: &Map<String, Value>) -> Result<Header, String> {
    let tune_id = tune_id(o)?;
    let format = uint(o, "format")?;
    if format != FORMAT {
        return Err(format!("format {format}: this arena reads format {FORMAT}"));
    }
    let iterations = uint(o, "iterations")?;
    let pairs = uint(o, "pairs")?;
    if iterations == 0 || pairs == 0 {
        return Err("iterations and pairs must be at least 1".to_string());
    }
    let list = field(o, "params")?
        .as_array()
        .ok_or_else(|| "field \"params\" must be a list".to_string())?;
    let mut params = Vec::new();
    for p in list {
        let p = p
            .as_object()
            .ok_or_else(|| "a parameter must be an object".to_string())?;
        let plan = ParamPlan {
            name: string(p, "name")?,
            start: number(p, "start")?,
            min: number(p, "min")?,
            max: number(p, "max")?,
            c_end: number(p, "c_end")?,
            r_end: number(p, "r_end")?,
            integer: field(p, "integer")?
                .as_bool()
                .ok_or_else(|| "field \"integer\" must be true or false".to_string())?,
        };
        if !(plan.min <= plan.start && plan.start <= plan.max) || plan.c_end <= 0.0 {
            return Err(format!(
                "parameter {}: start, range or c_end out of order",
                plan.name
            ));
        }
        params.push(plan);
    }
    if params.is_empty() {
        return Err("no parameters".to_string());
    }
    let opponent = match field(o, "opponent")? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        _ => return Err("field \"opponent\" must be a string or null".to_string()),
    };
    let shard = match field(o, "shard")? {
        Value::Null => None,
        Value::String(s) => Some(s.parse::<Shard>()?),
        _ => return Err("field \"shard\" must be a string or null".to_string()),
    };
    Ok(Header {
        tune_id,
        game: string(o, "game")?,
        engine: string(o, "engine")?,
        opponent,
        params,
        schedule: Schedule {
            iterations,
            alpha: number(o, "alpha")?,
            gamma: number(o, "gamma")?,
            a_ratio: number(o, "a_ratio")?,
        },
        pairs,
        seed: uint(o, "seed")?,
        shard,
        settings: string(o, "settings")?,
    })
}

fn parse_game(o: &Map<String, Value>) -> Result<TuneGame, String> {
    let game = field(o, "game")?
        .as_object()
        .ok_or_else(|| "field \"game\" must be an object".to_string())?;
    let game = matchfile::parse_game(game).map_err(|e| format!("field \"game\": {e}"))?;
    let plus = numbers(o, "plus")?;
    let minus = numbers(o, "minus")?;
    if plus.len() != minus.len() {
        return Err("plus and minus must have one value per parameter".to_string());
    }
    let d = number(o, "diff")?;
    if d != diff(&game) {
        return Err(format!(
            "diff {d} contradicts its game, whose outcome gives {}",
            diff(&game)
        ));
    }
    Ok(TuneGame {
        tune_id: tune_id(o)?,
        iter: uint(o, "iter")?,
        index: uint(o, "index")?,
        plus,
        minus,
        diff: d,
        game,
    })
}

/// θ+'s points less θ−'s in a finished game (spec 0 is θ+, spec 1 θ−, spec 2 an
/// opponent): a win 1, a loss 0, anything else ½, the mean over a spec's seats; a point not
/// in the game counts as 0 against the other's points less ½.
pub fn diff(line: &GameLine) -> f64 {
    let points = |seat: usize| match line.ending {
        Ending::Win(w) if w == seat => 1.0,
        Ending::Win(_) => 0.0,
        Ending::Loss(l) if l == seat => 0.0,
        _ => 0.5,
    };
    let mean = |spec: usize| -> Option<f64> {
        let seats: Vec<usize> = (0..line.seats.len())
            .filter(|&s| line.seats[s] == spec)
            .collect();
        (!seats.is_empty())
            .then(|| seats.iter().map(|&s| points(s)).sum::<f64>() / seats.len() as f64)
    };
    match (mean(0), mean(1)) {
        (Some(p), Some(m)) => p - m,
        (Some(p), None) => p - 0.5,
        (None, Some(m)) => 0.5 - m,
        (None, None) => 0.0,
    }
}

/// The complete lines of a text, each with its number (from 1), and the byte length up to
/// the end of the last complete line.
pub type Parsed = (Vec<(usize, Line)>, usize);

/// The complete lines of a text (each with its number from 1) and the byte length up to the
/// end of the last complete line (a last line cut short is left out); a malformed complete
/// line is an error naming its number.
pub fn parse_text(text: &str) -> Result<Parsed, (usize, String)> {
    jsonl::complete_lines(text, parse_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            tune_id: "0123456789abcdef".to_string(),
            game: "jumpy3".to_string(),
            engine: "engine,depth=2".to_string(),
            opponent: Some("greedy".to_string()),
            params: vec![ParamPlan {
                name: "pawns".to_string(),
                start: 98.0,
                min: 0.0,
                max: 400.0,
                c_end: 10.0,
                r_end: 0.02,
                integer: true,
            }],
            schedule: Schedule::new(50),
            pairs: 2,
            seed: 7,
            shard: Some("2/3".parse().unwrap()),
            settings: "s".to_string(),
        }
    }

    fn game() -> TuneGame {
        TuneGame {
            tune_id: "0123456789abcdef".to_string(),
            iter: 3,
            index: 1,
            plus: vec![101.25],
            minus: vec![94.75],
            diff: 0.0,
            game: GameLine {
                match_id: "0123456789abcdef".to_string(),
                game: 13,
                opening: 6,
                seats: vec![1, 0],
                engines: vec!["b".to_string(), "a".to_string()],
                ending: Ending::Draw,
                result: "draw repetition".to_string(),
                adjudicated: None,
                places: vec![1, 1],
                start: "Wwww........bbbB w".to_string(),
                opening_moves: vec!["4".to_string()],
                moves: vec!["13".to_string()],
                time_ms: vec![0.5],
                nodes: vec![10],
                scores: vec![Some(3)],
                setup_ms: 0.25,
                wall_ms: 1.5,
            },
        }
    }

    #[test]
    fn lines_read_back() {
        let h = header();
        assert_eq!(parse_line(&header_json(&h)), Ok(Line::Header(h)));
        let g = game();
        assert_eq!(parse_line(&game_json(&g)), Ok(Line::Entry(g.clone())));
        let text = format!(
            "{}\n{}\n{{\"type\":\"tune-g",
            header_json(&header()),
            game_json(&g)
        );
        let (lines, complete) = parse_text(&text).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(complete, text.rfind('\n').unwrap() + 1);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (text, says) in [
            ("[]", "not a JSON object"),
            ("{\"type\":\"x\"}", "unknown line type"),
            ("{\"type\":\"tune\",\"tune\":\"xyz\"}", "16 hex digits"),
            (
                "{\"type\":\"tune-game\",\"tune\":\"0123456789abcdef\",\"game\":{}}",
                "field \"game\"",
            ),
        ] {
            let e = parse_line(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
        let h = header_json(&header()).replace("\"format\":1", "\"format\":9");
        assert!(parse_line(&h).unwrap_err().contains("format 9"));
        let (n, e) = parse_text("{}\n").unwrap_err();
        assert_eq!(n, 1);
        assert!(e.contains("type"), "{e}");
        // A diff that its game's outcome does not give: refused.
        let tampered = game_json(&game()).replace("\"diff\":0.0", "\"diff\":1.0");
        assert_ne!(tampered, game_json(&game()));
        let e = parse_line(&tampered).unwrap_err();
        assert!(e.contains("contradicts its game"), "{e}");
    }

    fn line(seats: Vec<usize>, ending: Ending) -> GameLine {
        GameLine {
            seats,
            ending,
            ..game().game
        }
    }

    #[test]
    fn a_game_scores_theta_plus_less_theta_minus() {
        assert_eq!(diff(&line(vec![0, 1], Ending::Win(0))), 1.0);
        assert_eq!(diff(&line(vec![1, 0], Ending::Win(0))), -1.0);
        assert_eq!(diff(&line(vec![0, 1], Ending::Draw)), 0.0);
        // Against the opponent (spec 2): θ+'s points less ½, or ½ less θ−'s.
        assert_eq!(diff(&line(vec![0, 2], Ending::Win(0))), 0.5);
        assert_eq!(diff(&line(vec![2, 1], Ending::Win(0))), 0.5);
        assert_eq!(diff(&line(vec![2, 1], Ending::Draw)), 0.0);
        // Three players, θ− in two seats: the mean of its seats.
        assert_eq!(diff(&line(vec![1, 0, 1], Ending::Win(2))), -0.5);
        assert_eq!(diff(&line(vec![1, 0, 1], Ending::Win(1))), 1.0);
    }
}
