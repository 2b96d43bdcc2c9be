//! Jumpy3's default engine plays from the solved table once it is cached on disk
//! (`plyforge::cache_dir()`): with it, a search of depth 1 plays a perfect move. Before, it
//! plays with the network the game ships, learned from the table.

use plyforge::agent::Spec;
use plyforge::games::Jumpy3;
use plyforge::jumpy3::solve::Table;
use plyforge::jumpy3::Position;
use plyforge::learned::{self, SHIPPED};
use plyforge::{Engine, GameAdapter, GameKind};

/// Positions with the two kings and at most one pawn a side (those a small table covers).
fn small_positions() -> Vec<String> {
    let mut out = Vec::new();
    for (i, (w, b)) in [(0, 15), (3, 12), (5, 9), (1, 14), (6, 10)]
        .iter()
        .enumerate()
    {
        for wp in 0..16 {
            for bp in 0..16 {
                let mut sq = ['.'; 16];
                sq[*w] = 'W';
                sq[*b] = 'B';
                if sq[wp] != '.' || sq[bp] != '.' || wp == bp {
                    continue;
                }
                sq[wp] = 'w';
                sq[bp] = 'b';
                let side = if (wp + bp + i) % 2 == 0 { 'w' } else { 'b' };
                let text = format!("{} {side}", sq.iter().collect::<String>());
                if text.parse::<Position>().is_ok() {
                    out.push(text);
                }
            }
        }
    }
    out
}

#[test]
fn the_default_engine_plays_from_the_cached_table() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("jumpy3-table-cache");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::env::set_var("PLYFORGE_CACHE_DIR", &dir);

    let engine =
        |text: &str| Engine::new(GameKind::from_name("jumpy3").unwrap(), text, Some(1)).unwrap();
    // No table cached: `eval=default` is the estimate, and the engines that name no
    // evaluation search with the shipped network.
    assert!(Jumpy3::cached_table().is_none());
    assert!(!Jumpy3::evaluator("default").unwrap().is_table());
    let shipped = learned::shipped::<Jumpy3>().expect("a network while no table is cached");
    assert!(shipped.is_ok(), "{:?}", shipped.err());
    let net = |text: &str| Spec::parse::<Jumpy3>(text).unwrap().net.map(|n| n.path);
    assert_eq!(net("engine"), Some(SHIPPED.to_string()));
    assert_eq!(net("engine,eval=default"), None);
    let mut estimate = engine("engine,depth=1,eval=estimate");
    let mut network = engine("engine,depth=1");

    // The table cached (a small one, of one pawn a side at most): the default reads it.
    let table = Table::build_up_to(1);
    table.save(dir.join(Jumpy3::TABLE_FILE)).unwrap();
    assert!(Jumpy3::cached_table().is_some());
    assert!(Jumpy3::evaluator("default").unwrap().is_table());
    assert!(Jumpy3::evaluator("table").unwrap().is_table());
    assert!(!Jumpy3::evaluator("estimate").unwrap().is_table());
    // With the table, no network: the engine searches with the table.
    assert!(learned::shipped::<Jumpy3>().is_none());
    assert_eq!(net("engine"), None);
    let mut perfect = engine("engine,depth=1");

    let (mut tried, mut estimate_missed, mut network_missed) = (0, 0, 0);
    for text in small_positions() {
        let pos: Position = text.parse().unwrap();
        let best: Vec<String> = table
            .best_moves(&pos)
            .iter()
            .map(|m| m.to_string())
            .collect();
        if !table.covers(&pos) || best.is_empty() {
            continue;
        }
        let state = GameKind::from_name("jumpy3")
            .unwrap()
            .game_from(&text)
            .unwrap();
        if state.is_over() {
            continue;
        }
        tried += 1;
        let best_of = |engine: &mut Engine| {
            engine
                .search(&state, None, &mut |_| {})
                .unwrap()
                .best
                .unwrap()
        };
        let got = best_of(&mut perfect);
        assert!(best.contains(&got), "{text}: {got} not in {best:?}");
        if !best.contains(&best_of(&mut estimate)) {
            estimate_missed += 1;
        }
        if !best.contains(&best_of(&mut network)) {
            network_missed += 1;
        }
    }
    assert!(tried > 100, "{tried} positions");
    // The estimate at depth 1 is not perfect: the table is what makes the difference.
    assert!(estimate_missed > 0, "the estimate missed none of {tried}");
    // The network, taught by the table, misses fewer.
    assert!(
        network_missed < estimate_missed,
        "of {tried}: the network missed {network_missed}, the estimate {estimate_missed}"
    );

    // A damaged file in the cache: no table (the network plays), as often as asked; once a
    // good table replaces it, the table.
    let damaged = dir.join("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    std::fs::write(damaged.join(Jumpy3::TABLE_FILE), b"not a table").unwrap();
    std::env::set_var("PLYFORGE_CACHE_DIR", &damaged);
    for _ in 0..2 {
        assert!(Jumpy3::cached_table().is_none());
        assert_eq!(net("engine"), Some(SHIPPED.to_string()));
    }
    table.save(damaged.join(Jumpy3::TABLE_FILE)).unwrap();
    assert!(Jumpy3::cached_table().is_some());
    assert_eq!(net("engine"), None);

    // `eval=table` where nothing is cached: the table is solved and cached, as a solve
    // does, and from then on the engines search with it, not with the network.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::env::set_var("PLYFORGE_CACHE_DIR", &empty);
    assert!(learned::shipped::<Jumpy3>().is_some());
    assert!(Jumpy3::evaluator("table").unwrap().is_table());
    assert!(empty.join(Jumpy3::TABLE_FILE).is_file());
    let cached = Jumpy3::cached_table().expect("the table solved and cached");
    assert!(cached.covers(&Position::start()));
    assert!(learned::shipped::<Jumpy3>().is_none());
    assert!(Jumpy3::evaluator("default").unwrap().is_table());
    let _ = std::fs::remove_dir_all(&dir);
}
