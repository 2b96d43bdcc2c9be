//! Every compiled-in position list parses, round-trips through the game's notation, and is
//! a position where the game goes on (the benches search from each).

use plyforge::{chaosclock, chexers, jumpy3, search, throne};
use std::fmt::Display;
use std::str::FromStr;

use benches::data::{self, parse_list, DataError};
use search::Game;

fn check<P>(name: &str, text: &str) -> usize
where
    P: Game + FromStr + Display + PartialEq + std::fmt::Debug,
    P::Err: Display,
{
    let list = parse_list::<P>(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(list.len() >= 4, "{name}: the start and a few middle games");
    assert_eq!(list[0].label, "start", "{name}: the start comes first");
    for e in &list {
        let again: P = e
            .position
            .to_string()
            .parse()
            .unwrap_or_else(|_| panic!("{name}/{}: its own notation does not parse", e.label));
        assert_eq!(again, e.position, "{name}/{}", e.label);
        assert_eq!(e.position.key(), e.position.recompute_key());
        assert!(
            e.position.outcome().is_none(),
            "{name}/{}: game over",
            e.label
        );
    }
    list.len()
}

#[test]
fn every_list_parses() {
    check::<jumpy3::Position>("jumpy3", data::JUMPY3);
    check::<chexers::Position>("chexers", data::CHEXERS);
    check::<throne::Position>("throne", data::THRONE);
    check::<connect_four::Position>("connect_four", data::CONNECT_FOUR);
    check::<example_games::othello::Othello>("othello", data::OTHELLO);
    check::<example_games::breakthrough::Breakthrough>("breakthrough", data::BREAKTHROUGH);
    check::<chaosclock::Position>("chaosclock", data::CHAOSCLOCK);
}

#[test]
fn the_start_entries_are_the_start_positions() {
    assert_eq!(data::jumpy3()[0].position, jumpy3::Position::start());
    assert_eq!(data::chexers()[0].position, chexers::Position::start());
    assert_eq!(data::throne()[0].position, throne::Position::start());
    assert_eq!(
        data::breakthrough()[0].position,
        example_games::breakthrough::Breakthrough::start()
    );
    assert_eq!(
        data::chaosclock()[0].position,
        chaosclock::Position::start()
    );
}

#[test]
fn bad_lists_are_errors_naming_the_line() {
    let bad = "# c\nstart: Wwww........bbbB w\nmid: Wwww........bbbB q\n";
    match parse_list::<jumpy3::Position>(bad) {
        Err(DataError::BadPosition { line: 3, label, .. }) => assert_eq!(label, "mid"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        parse_list::<jumpy3::Position>("Wwww........bbbB w"),
        Err(DataError::MissingLabel { line: 1 })
    );
    assert!(matches!(
        parse_list::<jumpy3::Position>("a b: Wwww........bbbB w"),
        Err(DataError::BadLabel { line: 1, .. })
    ));
    assert!(matches!(
        parse_list::<jumpy3::Position>("a: Wwww........bbbB w\na: Wwww........bbbB w"),
        Err(DataError::DuplicateLabel { line: 2, .. })
    ));
    assert_eq!(
        parse_list::<jumpy3::Position>("# nothing\n"),
        Err(DataError::Empty)
    );
}

/// The fixed benches of `arena bench` (each game crate's `BENCH`, `connect_four::BENCH`, the
/// example programs' `bench.txt`) parse, and a bench at one thread repeats its node count
/// exactly (the signature), here at smaller depths.
#[test]
fn the_bench_lists_parse_and_repeat() {
    use search::bench::{parse_list, run, BenchPosition};
    fn check<G: Game + FromStr>(name: &str, text: &str) -> Vec<BenchPosition<G>>
    where
        G::Err: Display,
    {
        let list = parse_list::<G>(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(list.len() >= 4, "{name}");
        assert_eq!(list[0].label, "start", "{name}");
        assert!(list.iter().all(|p| p.position.outcome().is_none()));
        list
    }
    check::<jumpy3::Position>("jumpy3", jumpy3::BENCH);
    check::<chexers::Position>("chexers", chexers::BENCH);
    check::<throne::Position>("throne", throne::BENCH);
    check::<chaosclock::Position>("chaosclock", chaosclock::BENCH);
    // The example games registered in `plyforge-arena`'s examples.
    check::<example_games::breakthrough::Breakthrough>(
        "breakthrough",
        include_str!("../../crates/arena/examples/breakthrough/bench.txt"),
    );
    check::<example_games::othello::Othello>(
        "othello",
        include_str!("../../crates/arena/examples/othello/bench.txt"),
    );
    let c4: Vec<_> = check::<connect_four::Position>("connect_four", connect_four::BENCH)
        .into_iter()
        .map(|p| BenchPosition {
            depth: p.depth - 8,
            ..p
        })
        .collect();
    let eval = search::SideToMove(connect_four::DefaultEval);
    let config = connect_four::engine_config();
    let (a, b) = (run(&c4, eval, &config), run(&c4, eval, &config));
    assert_eq!(a.nodes, b.nodes);
    let key = |r: &search::bench::BenchReport<_>| -> Vec<_> {
        r.lines
            .iter()
            .map(|l| (l.label.clone(), l.nodes, l.score, l.best))
            .collect()
    };
    assert_eq!(key(&a), key(&b));
}
