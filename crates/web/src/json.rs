//! The JSON the page reads: a game's state with its board (`plyforge::view`), search
//! information, solutions.

use plyforge::view::{Board, Layout, Mark, MoveSpots, Role, Shape, Symbol};
use plyforge::{GameKind, SearchInfo, SolutionText, State};
use serde_json::{json, Value};

fn layout(l: Layout) -> Value {
    match l {
        Layout::Row => json!({ "kind": "row" }),
        Layout::Grid { columns, rows } => {
            json!({ "kind": "grid", "columns": columns, "rows": rows })
        }
        Layout::Squares { files, ranks } => json!({
            "kind": "squares",
            "columns": files.len(),
            "rows": ranks.len(),
            "files": files,
            "ranks": ranks,
        }),
        Layout::Hexagon { radius } => json!({ "kind": "hexagon", "radius": radius }),
        Layout::Clock { radius } => json!({ "kind": "clock", "radius": radius }),
        other => json!({ "kind": format!("{other:?}").to_lowercase() }),
    }
}

fn shape(s: Shape) -> Value {
    match s {
        Shape::Rect { x, y, w, h } => json!({ "kind": "rect", "x": x, "y": y, "w": w, "h": h }),
        Shape::Hex { x, y, r } => json!({ "kind": "hex", "x": x, "y": y, "r": r }),
        Shape::Circle { x, y, r } => json!({ "kind": "circle", "x": x, "y": y, "r": r }),
        Shape::Band { x1, y1, x2, y2 } => {
            json!({ "kind": "band", "x1": x1, "y1": y1, "x2": x2, "y2": y2 })
        }
        other => {
            let (x, y) = other.centre();
            json!({ "kind": "circle", "x": x, "y": y, "r": 0.5 })
        }
    }
}

fn role(r: Role) -> Value {
    match r {
        Role::Cell => json!({ "kind": "cell" }),
        Role::Off(p) => json!({ "kind": "off", "player": p }),
        Role::Hand(p) => json!({ "kind": "hand", "player": p }),
        other => json!({ "kind": format!("{other:?}").to_lowercase() }),
    }
}

fn mark(m: &Mark) -> Value {
    match m {
        Mark::ExitFor(p) => json!({ "kind": "exit", "player": p }),
        Mark::Goal => json!({ "kind": "goal" }),
        other => json!({ "kind": format!("{other:?}").to_lowercase() }),
    }
}

fn symbol(s: &Symbol) -> Value {
    match s {
        Symbol::Plain => json!({ "kind": "plain" }),
        Symbol::Crown => json!({ "kind": "crown" }),
        Symbol::Ring => json!({ "kind": "ring" }),
        Symbol::Text(t) => json!({ "kind": "text", "text": t }),
        _ => json!({ "kind": "plain" }),
    }
}

pub(crate) fn move_spots(m: &MoveSpots) -> Value {
    json!({ "text": m.text, "from": m.from, "to": m.to })
}

/// A board for the page.
pub(crate) fn board(b: &Board) -> Value {
    json!({
        "pictured": true,
        "layout": layout(b.layout),
        "spots": b.spots.iter().map(|s| json!({
            "id": s.id,
            "role": role(s.role),
            "shape": shape(s.shape),
            "grade": s.grade,
            "marks": s.marks.iter().map(mark).collect::<Vec<_>>(),
            "caption": s.caption,
        })).collect::<Vec<_>>(),
        "players": b.players.iter().map(|p| json!({
            "letter": p.letter, "name": p.name, "colour": p.colour,
        })).collect::<Vec<_>>(),
        "pieces": b.pieces.iter().map(|p| json!({
            "spot": p.spot, "player": p.player, "kind": p.name, "symbol": symbol(&p.symbol),
            "fixed": p.fixed, "captive": p.captive,
        })).collect::<Vec<_>>(),
        "moves": b.moves.iter().map(move_spots).collect::<Vec<_>>(),
        "last": b.last.as_ref().map(move_spots),
        "facts": b.facts.iter().map(|f| json!({ "label": f.label, "value": f.value }))
            .collect::<Vec<_>>(),
    })
}

/// A game's state: the record, the position, whose turn, the result, the board.
pub(crate) fn state(s: &State) -> Value {
    let kind = s.kind();
    json!({
        "game": kind.name(),
        "start": s.start(),
        "moves": s.moves(),
        "position": s.position(),
        "to_move": s.to_move(),
        "to_move_letter": s.to_move().map(|p| kind.player_letter(p)),
        "result": s.result(),
        "result_words": s.result_words(),
        "returns": s.returns(),
        "board": s.board().as_ref().map_or_else(|| no_picture(s), board),
    })
}

/// The board of a game without a picture ([`plyforge::GameAdapter::view`]): no spots, the
/// legal moves (touching no spot), the players in plain colours; the page shows the
/// position's notation.
fn no_picture(s: &State) -> Value {
    const COLOURS: [&str; 3] = ["#c0392b", "#2471a3", "#229954"];
    let kind = s.kind();
    json!({
        "pictured": false,
        "layout": { "kind": "none" },
        "spots": [],
        "players": (0..kind.players()).map(|p| json!({
            "letter": kind.player_letter(p), "name": kind.player_name(p),
            "colour": COLOURS[p % COLOURS.len()],
        })).collect::<Vec<_>>(),
        "pieces": [],
        "moves": s.legal_moves().iter().map(|m| json!({ "text": m, "from": null, "to": null }))
            .collect::<Vec<_>>(),
        "last": s.moves().last().map(|m| json!({ "text": m, "from": null, "to": null })),
        "facts": [],
    })
}

/// One game's description for the page.
pub(crate) fn game(kind: GameKind) -> Value {
    let start = kind.new_game();
    json!({
        "name": kind.name(),
        "title": kind.title(),
        "players": (0..kind.players()).map(|p| json!({
            "letter": kind.player_letter(p), "name": kind.player_name(p),
        })).collect::<Vec<_>>(),
        "start": start.position(),
        "has_solver": kind.has_solver(),
        "evaluators": kind.evaluator_names(),
        "move_limit": kind.info().own_move_limit,
        "about": kind.info().about,
    })
}

/// One iteration (or the end) of a search.
pub(crate) fn info(i: &SearchInfo, kind: &str) -> Value {
    json!({
        "type": kind,
        "best": i.best,
        "score": i.score,
        "mate": i.mate(),
        "scores": i.scores,
        "depth": i.depth,
        "nodes": i.nodes,
        "nps": i.nps,
        "ms": i.elapsed.as_millis() as u64,
        "pv": i.pv,
        "tt_hit_rate": i.tt_hit_rate,
    })
}

/// An exact solution.
pub(crate) fn solution(s: &SolutionText, state: &State) -> Value {
    let kind = state.kind();
    let words = match s.value {
        plyforge::ExactValue::Win(n) => format!(
            "{} wins in {n} plies",
            state.to_move().map_or("?", |p| kind.player_name(p))
        ),
        plyforge::ExactValue::Loss(n) => format!(
            "{} loses in {n} plies",
            state.to_move().map_or("?", |p| kind.player_name(p))
        ),
        plyforge::ExactValue::Draw => "a draw".to_string(),
        plyforge::ExactValue::Code(c) => {
            let me = state.to_move().map_or("?", |p| kind.player_name(p));
            match c {
                4 => format!("{me} (to move) wins"),
                3 => "both win".to_string(),
                2 => "both lose".to_string(),
                1 => format!("{me} (to move) loses"),
                _ => "unknown".to_string(),
            }
        }
        other => format!("{other}"),
    };
    json!({
        "value": s.value.to_string(),
        "words": words,
        "best": s.best,
        "line": s.line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_of_squares_names_its_files_and_ranks() {
        let squares = Layout::Squares {
            files: &["a", "b", "c"],
            ranks: &["2", "1"],
        };
        assert_eq!(
            layout(squares),
            json!({ "kind": "squares", "columns": 3, "rows": 2,
                    "files": ["a", "b", "c"], "ranks": ["2", "1"] })
        );
        let grid = Layout::Grid {
            columns: 7,
            rows: 6,
        };
        assert_eq!(
            layout(grid),
            json!({ "kind": "grid", "columns": 7, "rows": 6 })
        );
    }
}
