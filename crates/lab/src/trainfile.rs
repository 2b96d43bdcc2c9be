//! A training run's games file (`OUT.games.jsonl`, a [`crate::jsonl`] file that a killed
//! run resumes from), which [`crate::train`] writes and the records reader reads back:
//!
//! ```text
//! {"type":"train","format":1,"train":"9c1f…","game":"connect-four","settings":"…"}
//! {"type":"train-game","train":"9c1f…","index":0,"start":"…","moves":["d","c",…],
//!  "scores":[12,-30,null,…],"result":"winner x"}
//! ```
//!
//! `scores[k]` is the search's score of move `k` from the mover's point of view (`null` for
//! a random move of the opening or of exploration).

use serde_json::{json, Value};

use crate::jsonl::{Format, Line};
use crate::matchfile::{field, scores, string, strings, uint};
use crate::schedule::Shard;

/// The format's version.
pub const FORMAT: u64 = 1;

/// The first line: the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The run's id (a hash of the settings that decide its games).
    pub id: String,
    /// The game's name.
    pub game: String,
    /// Those settings, for people.
    pub settings: String,
    /// The worker's slice of the games, in a run shared by workers (`--shard K/N`).
    pub shard: Option<Shard>,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainGame {
    /// The run's id.
    pub id: String,
    /// The game's index in the run.
    pub index: u64,
    /// The start position.
    pub start: String,
    /// The moves, in notation.
    pub moves: Vec<String>,
    /// Each move's search score for the mover, where a search chose it.
    pub scores: Vec<Option<i32>>,
    /// The result in the rules' notation.
    pub result: String,
}

/// The format of a training run's games file.
pub struct Games;

/// The fields of a game line (also read by [`crate::records`]), read as a match file's
/// are.
pub(crate) fn parse_game(o: &serde_json::Map<String, Value>) -> Result<TrainGame, String> {
    let moves = strings(o, "moves")?;
    let scores = scores(o)?;
    if scores.len() != moves.len() {
        return Err(format!("{} scores for {} moves", scores.len(), moves.len()));
    }
    Ok(TrainGame {
        id: string(o, "train")?,
        index: uint(o, "index")?,
        start: string(o, "start")?,
        moves,
        scores,
        result: string(o, "result")?,
    })
}

impl Format for Games {
    type Header = Header;
    type Entry = TrainGame;
    type Key = u64;
    const RUN: &'static str = "training run";
    const SHORT: &'static str = "run";
    const WRITER: &'static str = "worker";

    fn parse(line: &str) -> Result<Line<Header, TrainGame>, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
        let o = v.as_object().ok_or("not a JSON object")?;
        match o.get("type").and_then(Value::as_str) {
            Some("train") => {
                let format = field(o, "format")?.as_u64();
                if format != Some(FORMAT) {
                    return Err(format!(
                        "a games file of format {format:?}; this arena reads format {FORMAT}"
                    ));
                }
                let shard = match o.get("shard") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.parse::<Shard>()?),
                    Some(_) => return Err("field \"shard\" must be a string or null".into()),
                };
                Ok(Line::Header(Header {
                    id: string(o, "train")?,
                    game: string(o, "game")?,
                    settings: string(o, "settings")?,
                    shard,
                }))
            }
            Some("train-game") => parse_game(o).map(Line::Entry),
            other => Err(format!("unknown line type {other:?}")),
        }
    }

    fn header_json(h: &Header) -> String {
        json!({"type": "train", "format": FORMAT, "train": h.id, "game": h.game,
               "settings": h.settings, "shard": h.shard.map(|s| s.to_string())})
        .to_string()
    }

    fn entry_json(g: &TrainGame) -> String {
        json!({"type": "train-game", "train": g.id, "index": g.index, "start": g.start,
               "moves": g.moves, "scores": g.scores, "result": g.result})
        .to_string()
    }

    fn header_id(h: &Header) -> &str {
        &h.id
    }

    fn header_shard(h: &Header) -> Option<Shard> {
        h.shard
    }

    fn header_settings(h: &Header) -> &str {
        &h.settings
    }

    fn entry_id(g: &TrainGame) -> &str {
        &g.id
    }

    fn key(g: &TrainGame) -> u64 {
        g.index
    }
}
