//! Move-generation counts (perft) against counts from an independent implementation.

use plyforge_throne::search::perft;
use plyforge_throne::Position;

const DATA: &str = include_str!("data/perft.txt");

#[test]
fn perft_counts() {
    let mut checked = 0;
    for line in DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (pos, counts) = line.split_once('|').expect("pos|counts");
        let p: Position = pos.parse().unwrap();
        for (i, want) in counts.split_whitespace().enumerate() {
            let want: u64 = want.parse().unwrap();
            assert_eq!(perft(&p, i as u32 + 1), want, "{pos} depth {}", i + 1);
            checked += 1;
        }
    }
    assert_eq!(checked, 22);
}
