//! Recorded games, read for learning from them (Texel's fit, `arena train`): match files
//! (`arena match --out`), tune files (`arena tune --out`), training game files (`arena
//! train`), and text records (`arena match --record`, the course referee harness's
//! `--record`: a `# …` line per game with `result: …`, optionally `start: …` and the seats,
//! then one move per line).

use plyforge::search::Game;
use plyforge::{read_position, GameAdapter};
use serde_json::Value;

use crate::error::Error;
use crate::matchfile;

/// A game read from a record: its start, its moves, its result, and where it was read.
pub(crate) struct RecordGame {
    pub(crate) start: String,
    pub(crate) moves: Vec<String>,
    pub(crate) result: String,
    /// The file and the line the game begins on.
    pub(crate) file: String,
    pub(crate) line: usize,
    /// Who sat in each seat, where a text record's header says ([`seats_field`]).
    pub(crate) seats: Vec<String>,
    /// Each move's search score for its mover, where the record says (match files, tune
    /// files and training games files do; `None` for a move no search chose).
    pub(crate) scores: Vec<Option<i32>>,
}

impl RecordGame {
    /// A self-play game of a training run, as a record.
    pub(crate) fn of_training(g: &crate::trainfile::TrainGame) -> RecordGame {
        RecordGame {
            start: g.start.clone(),
            moves: g.moves.clone(),
            result: g.result.clone(),
            file: "self-play".to_string(),
            line: g.index as usize + 1,
            seats: Vec::new(),
            scores: g.scores.clone(),
        }
    }

    /// A fault of this game.
    pub(crate) fn fault(&self, reason: impl std::fmt::Display) -> Error {
        Error::input(&self.file, Some(self.line), reason)
    }
}

/// Reads the games of a record file (a match or tune file, or a text record) of game
/// `game`.
pub(crate) fn read_file(
    path: &std::path::Path,
    game: &str,
    out: &mut Vec<RecordGame>,
) -> Result<(), Error> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Error::input(&name, None, e))?;
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if first.trim_start().starts_with('{') {
        read_json(&name, &text, game, out)
    } else {
        read_text(&name, &text, out)
    }
}

/// The games of a match file or a tune file.
fn read_json(name: &str, text: &str, game: &str, out: &mut Vec<RecordGame>) -> Result<(), Error> {
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let at = |reason: String| Error::input(name, Some(n + 1), reason);
        let v: Value = serde_json::from_str(line).map_err(|e| at(format!("not JSON ({e})")))?;
        let o = v
            .as_object()
            .ok_or_else(|| at("not a JSON object".to_string()))?;
        let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
        let g = match kind {
            "train" | "match" | "tune" => {
                let of = o.get("game").and_then(Value::as_str).unwrap_or("?");
                if of != game {
                    return Err(at(format!("the games of {of}, not {game}")));
                }
                continue;
            }
            "train-game" => {
                let g = crate::trainfile::parse_game(o).map_err(at)?;
                let mut r = RecordGame::of_training(&g);
                (r.file, r.line) = (name.to_string(), n + 1);
                out.push(r);
                continue;
            }
            "game" => matchfile::parse_game(o),
            "tune-game" => match o.get("game").and_then(Value::as_object) {
                Some(g) => matchfile::parse_game(g),
                None => Err("no field \"game\"".to_string()),
            },
            other => Err(format!("unknown line type {other:?}")),
        }
        .map_err(at)?;
        let opening = vec![None; g.opening_moves.len()];
        out.push(RecordGame {
            start: g.start,
            moves: g.opening_moves.into_iter().chain(g.moves).collect(),
            result: g.result,
            file: name.to_string(),
            line: n + 1,
            seats: Vec::new(),
            scores: opening.into_iter().chain(g.scores).collect(),
        });
    }
    Ok(())
}

/// The games of a text record: a `# …` line per game (`result: …`, optionally `start: …`
/// and the seats), then one move per line.
fn read_text(name: &str, text: &str, out: &mut Vec<RecordGame>) -> Result<(), Error> {
    let mut current: Option<RecordGame> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(head) = line.strip_prefix('#') {
            out.extend(current.take());
            let field = |key: &str| {
                head.split(" | ")
                    .find_map(|f| f.trim().strip_prefix(key))
                    .map(|s| s.trim().to_string())
            };
            let result = field("result: ").ok_or_else(|| {
                Error::input(name, Some(n + 1), "a game's line has no `result: …`")
            })?;
            current = Some(RecordGame {
                start: field("start: ").unwrap_or_else(|| "start".to_string()),
                moves: Vec::new(),
                result,
                file: name.to_string(),
                line: n + 1,
                seats: head.split(" | ").find_map(seats_field).unwrap_or_default(),
                scores: Vec::new(),
            });
        } else {
            match current.as_mut() {
                Some(g) => g.moves.push(line.to_string()),
                None => {
                    return Err(Error::input(
                        name,
                        Some(n + 1),
                        "a move before the first `# … result: …` line",
                    ))
                }
            }
        }
    }
    out.extend(current);
    Ok(())
}

/// The seats of a header field, in seat order: `r=NAME g=NAME b=NAME` (the course referee
/// harness's) or `r: NAME, g: NAME, b: NAME` (`arena match --record`'s), or `None` for
/// another field.
pub(crate) fn seats_field(field: &str) -> Option<Vec<String>> {
    let field = field.trim();
    let pairs: Vec<(&str, &str)> = if field.contains(": ") {
        field
            .split(", ")
            .map(|t| t.split_once(": "))
            .collect::<Option<_>>()?
    } else {
        field
            .split_whitespace()
            .map(|t| t.split_once('='))
            .collect::<Option<_>>()?
    };
    let fits = (2..=3).contains(&pairs.len())
        && pairs
            .iter()
            .all(|(letter, name)| letter.len() == 1 && !name.is_empty());
    fits.then(|| pairs.iter().map(|(_, name)| name.to_string()).collect())
}

/// Replays game `g` from its start: `visit(ply, position, move)` for each move played
/// before the game ends (`ply` from 0, the position before the move), each move parsed and
/// checked legal first.
pub(crate) fn replay<A: GameAdapter>(
    g: &RecordGame,
    mut visit: impl FnMut(usize, &A::Pos, A::Move),
) -> Result<(), Error> {
    let mut pos = read_position::<A>(&g.start).map_err(|e| g.fault(e))?;
    for (ply, text) in g.moves.iter().enumerate() {
        if pos.outcome().is_some() {
            break;
        }
        let mv = A::parse_move(&pos, text)
            .map_err(|e| g.fault(format!("move {} {text:?}: {e}", ply + 1)))?;
        if let Some(why) = pos.why_illegal(mv) {
            return Err(g.fault(format!("move {} {text}: {why}", ply + 1)));
        }
        visit(ply, &pos, mv);
        pos.play(mv);
    }
    Ok(())
}

/// The player a result names: by its letter (`r`, as `arena match` writes) or its name in
/// any case (`green`, as the course referee harness writes, which adds the agent in
/// brackets: `green (flying_solo)`; that and anything after a `:` is left out).
fn named<A: GameAdapter>(who: &str) -> Option<usize> {
    let who = who.split([' ', ':']).next().unwrap_or("").trim();
    (0..A::PLAYERS)
        .find(|&p| A::player_letter(p) == who || A::player_name(p).eq_ignore_ascii_case(who))
}

/// Whether a result is none: a game the course referee harness saw end by a fault of
/// nobody known (`error None (nobody known): …`, as when it could not read the referee's
/// log), which a trainer leaves out rather than guess at.
pub(crate) fn without_result(result: &str) -> bool {
    result.contains(" (nobody known)")
}

/// The target of a result: the winner 1, or an even split. Results as `arena match`
/// writes them (`winner r`, `loss g`, `draw …`) and as the course referee harness's
/// `--record` does (`winner green (flying_solo)`; a forfeit, `timeout blue (agent): …`,
/// `illegal …` or `error …`, is a loss of that player).
pub(crate) fn target<A: GameAdapter>(result: &str) -> Option<[f64; 3]> {
    let n = A::PLAYERS;
    let mut t = [0.0; 3];
    if let Some(who) = result.strip_prefix("winner ") {
        t[named::<A>(who)?] = 1.0;
        return Some(t);
    }
    let lost = ["loss ", "timeout ", "illegal ", "error "]
        .iter()
        .find_map(|kind| result.strip_prefix(kind));
    if let Some(who) = lost {
        // The others share the win.
        let p = named::<A>(who)?;
        for (q, x) in t.iter_mut().enumerate().take(n) {
            *x = if q == p { 0.0 } else { 1.0 / (n - 1) as f64 };
        }
        return Some(t);
    }
    if result.starts_with("draw") || result == "both win" || result == "both lose" {
        for x in t.iter_mut().take(n) {
            *x = 1.0 / n as f64;
        }
        return Some(t);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyforge::games::{Chexers, Jumpy3};

    #[test]
    fn a_fault_of_nobody_known_leaves_a_game_without_a_result() {
        let none = "error None (nobody known): harness: ValueError(\"referee log\")";
        assert!(without_result(none));
        assert_eq!(target::<Chexers>(none), None);
        for scored in [
            "winner green (flying_solo)",
            "error blue (max): crashed",
            "draw repetition",
        ] {
            assert!(!without_result(scored), "{scored}");
            assert!(target::<Chexers>(scored).is_some(), "{scored}");
        }
    }

    #[test]
    fn results_read_as_arena_match_and_the_referee_harness_write_them() {
        let third = 1.0 / 3.0;
        for (result, want) in [
            ("winner g", Some([0.0, 1.0, 0.0])),
            ("winner green (flying_solo)", Some([0.0, 1.0, 0.0])),
            ("winner Blue", Some([0.0, 0.0, 1.0])),
            ("loss r", Some([0.0, 0.5, 0.5])),
            (
                "timeout blue (flying_solo): blue player exceeded available time",
                Some([0.5, 0.5, 0.0]),
            ),
            (
                "illegal red (max): an action off the board",
                Some([0.0, 0.5, 0.5]),
            ),
            ("draw repetition", Some([third, third, third])),
            // Nobody named, or nobody of this game.
            ("timeout  (nobody known): the referee stopped", None),
            ("winner purple (someone)", None),
            ("resigned", None),
        ] {
            assert_eq!(target::<Chexers>(result), want, "{result:?}");
        }
        assert_eq!(target::<Jumpy3>("winner w"), Some([1.0, 0.0, 0.0]));
    }

    #[test]
    fn a_referee_harness_record_replays_with_its_seats_and_result() {
        let text = "# game 1 | pair flying_solo + max | r=arena_player g=flying_solo b=max | \
                    seed 33 opening 3 | exits 0,4,2 | 218 turns | result: winner green (flying_solo)\n\
                    MOVE -3 1 -2 1\n";
        let mut games = Vec::new();
        read_text("games.txt", text, &mut games).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.seats, ["arena_player", "flying_solo", "max"]);
        assert_eq!(target::<Chexers>(&g.result), Some([0.0, 1.0, 0.0]));
        let mut plies = 0;
        replay::<Chexers>(g, |_, _, _| plies += 1).unwrap();
        assert_eq!(plies, 1);
    }
}
