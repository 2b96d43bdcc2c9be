//! A Jumpy3 agent on `plyforge-jumpy3` alone: parse a position, list its moves, search it,
//! play a game against a random player, and print what happened. Exits non-zero if anything
//! is not as the crate documents it.

use plyforge_jumpy3::search::rng::XorShift64Star;
use plyforge_jumpy3::search::{mate_distance, Game, Limits, Record, Search};
use plyforge_jumpy3::{engine_config, player_name, DefaultEval, Position, WHITE};

fn main() {
    let pos: Position = "Wwww........bbbB w".parse().expect("the start parses");
    let moves: Vec<String> = pos.moves().iter().map(|m| m.to_string()).collect();
    println!("{pos}: moves {}", moves.join(" "));
    assert_eq!(moves, ["1", "2", "3", "4"]);

    let mut engine = Search::new(engine_config(), DefaultEval::default());
    let report = engine.run(&pos, &[], Limits::depth(25), |_| {});
    println!(
        "depth {}: best {} score {} ({} nodes)",
        report.depth,
        report.best.expect("a move"),
        report.score,
        report.nodes
    );
    // The start is a White win in 25 plies (the crate's solver says so too).
    assert_eq!(mate_distance(report.score), Some(25));

    // The engine (White) against a random player.
    let mut game = Record::new(pos);
    let mut rng = XorShift64Star::seeded(7);
    while game.result().is_none() {
        let mv = if game.position().to_move() == WHITE {
            engine
                .run(game.position(), game.history_keys(), Limits::depth(12), |_| {})
                .best
                .expect("a move")
        } else {
            let moves = game.legal_moves();
            moves[rng.below(moves.len())]
        };
        game.play(mv).expect("a legal move");
    }
    let result = game.result().expect("over");
    println!("after {} plies: {result:?}", game.moves().len());
    assert_eq!(
        result,
        plyforge_jumpy3::search::Outcome::Win(WHITE),
        "{} should beat a random player",
        player_name(WHITE)
    );
}
