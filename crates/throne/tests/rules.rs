//! Every rule of the crate's README on a hand-built position: the position string, the legal moves
//! expected and the position after.
//!
//! The expected move lists and positions come from a separate, deliberately naive Python
//! implementation of those rules (full recomputation of prisoners before and after each
//! move, no bitboards), which reproduces every independent vector; each case was also checked by
//! hand against the rule it illustrates (the comments say how).

use std::collections::BTreeSet;

use plyforge_throne::{Cell, Move, Position, BLACK, WHITE};
use search::{DrawKind, Game, Outcome};

fn pos(s: &str) -> Position {
    let p: Position = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(p.to_string(), s);
    assert_eq!(p.key(), p.recompute_key());
    p
}

fn moves(p: &Position) -> BTreeSet<String> {
    let list = p.moves();
    let set: BTreeSet<String> = list.iter().map(ToString::to_string).collect();
    assert_eq!(set.len(), list.len(), "duplicate moves in {p}");
    for m in &list {
        assert_eq!(p.why_illegal(*m), None, "{m} listed but refused in {p}");
    }
    set
}

fn set(s: &str) -> BTreeSet<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// Plays `m` (which must be legal) and checks the position after.
fn play(p: &Position, m: &str, after: &str) -> Position {
    let mv: Move = m.parse().unwrap();
    assert_eq!(p.why_illegal(mv), None, "{m} in {p}");
    let mut q = p.clone();
    q.play(mv);
    assert_eq!(q.key(), q.recompute_key());
    assert_eq!(q.to_string(), after, "after {m}");
    assert_eq!(pos(after), q);
    q
}

/// `m` is refused with a reason containing `words`, and is not listed.
fn refused(p: &Position, m: &str, words: &str) {
    let why = p
        .why_illegal(m.parse().unwrap())
        .unwrap_or_else(|| panic!("{m} accepted in {p}"));
    assert!(why.reason().contains(words), "{m}: {why:?} lacks {words:?}");
    assert!(!moves(p).contains(m), "{m} listed in {p}");
}

fn cell(q: i32, r: i32) -> Cell {
    Cell::new(q, r).unwrap()
}

#[test]
fn start_position_is_pinned() {
    let p = pos("wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 0 0 0 0 0");
    assert_eq!(p, Position::start());
    assert_eq!(p.to_move(), BLACK);
    assert_eq!(p.ply(), 0);
    assert_eq!(p.outcome(), None);
    // By hand: the corner (-5,5) goes along the edge to (-5,4) or in to (-4,4); (-4,5) in to
    // (-4,4) or (-3,4); (-3,5) in to (-3,4) ((-2,4) holds the queen); (-2,5) in to (-1,4);
    // (-1,5) in to (-1,4) or (0,4); the corner (0,5) in to (0,4) or along the edge to (1,4);
    // the queen on ring 4 along the ring to (-3,4) or (-1,4), or in to (-2,3) or (-1,3).
    assert_eq!(
        moves(&p),
        set(
            "-5,5>-5,4 -5,5>-4,4 -4,5>-4,4 -4,5>-3,4 -3,5>-3,4 -2,5>-1,4 -1,5>-1,4 -1,5>0,4 \
             0,5>0,4 0,5>1,4 -2,4>-1,4 -2,4>-3,4 -2,4>-2,3 -2,4>-1,3 pass"
        )
    );
    play(
        &p,
        "0,5>1,4",
        "wwwwww/...W.../......../........./........../.........../........../........./......../...B..b/bbbbb. w 1 0 0 0 0",
    );
}

#[test]
fn pass_is_a_move_without_prisoners() {
    let p = Position::start();
    let q = play(
        &p,
        "pass",
        "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 1 0 0 0 0",
    );
    assert_eq!(q.to_move(), WHITE);
    assert!(moves(&q).contains("pass"));
    // Two passes change nothing but the ply count (which is part of the key).
    let r = play(
        &q,
        "pass",
        "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 2 0 0 0 0",
    );
    assert_ne!(r.key(), p.key());
    assert_eq!(moves(&r), moves(&p));
}

#[test]
fn steps_go_in_or_along_the_ring_and_only_a_queen_enters_the_throne() {
    // Black soldier (-1,0) and queen (1,0) on ring 1. The soldier may only go along ring 1
    // ((-1,1) or (0,-1)), never to the throne; the queen may also enter the throne.
    let p = pos("wwwwww/...W.../......../........./........../....b.B..../........../........./......../......./bbbbb. b 10 0 0 0 0");
    assert_eq!(moves(&p), set("-1,0>-1,1 -1,0>0,-1 -1,5>-1,4 -1,5>0,4 -1,5>0,5 -2,5>-1,4 -2,5>-2,4 -3,5>-2,4 -3,5>-3,4 -4,5>-3,4 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 1,0>0,0 1,0>0,1 1,0>1,-1 pass"));
    refused(&p, "-1,0>0,0", "only a queen");
    refused(&p, "1,0>2,0", "outward");
    refused(&p, "-1,5>-1,3", "not adjacent");
    refused(&p, "-1,5>-2,5", "not empty");
    refused(&p, "0,-5>0,-4", "no piece of the side to move");
    refused(&p, "2,2>2,1", "no piece of the side to move");
    // The queen on the throne cannot step anywhere: Black's next moves lack any 0,0>…
    let q = play(&p, "1,0>0,0", "wwwwww/...W.../......../........./........../....bB...../........../........./......../......./bbbbb. w 11 0 0 0 0");
    let r = play(&q, "pass", "wwwwww/...W.../......../........./........../....bB...../........../........./......../......./bbbbb. b 12 0 0 0 0");
    assert_eq!(moves(&r), set("-1,0>-1,1 -1,0>0,-1 -1,5>-1,4 -1,5>0,4 -1,5>0,5 -2,5>-1,4 -2,5>-2,4 -3,5>-2,4 -3,5>-3,4 -4,5>-3,4 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 pass"));
    assert!(moves(&r).iter().all(|m| !m.starts_with("0,0>")));
    refused(&r, "0,0>1,0", "outward");
}

#[test]
fn single_imprisonment_and_soldier_release_targets() {
    // Black (1,3)->(1,2) puts the white soldier (0,2) between (-1,2) and (1,2).
    let p = pos(".wwwww/......./......../......W../........../.........../..B......./....bw.../b.....b./......./b.b.b. b 10 0 0 0 0");
    assert_eq!(moves(&p), set("-1,2>-1,1 -1,2>-2,2 -1,2>0,1 -1,5>-1,4 -1,5>-2,5 -1,5>0,4 -1,5>0,5 -3,1>-2,0 -3,1>-2,1 -3,1>-3,0 -3,1>-3,2 -3,5>-2,4 -3,5>-2,5 -3,5>-3,4 -3,5>-4,5 -5,3>-4,2 -5,3>-4,3 -5,3>-5,2 -5,3>-5,4 -5,5>-4,4 -5,5>-4,5 -5,5>-5,4 1,3>0,3 1,3>0,4 1,3>1,2 1,3>2,2 pass"));
    let q = play(&p, "1,3>1,2", ".wwwww/......./......../......W../........../.........../..B......./....bwb../b......./......./b.b.b. w 11 1 0 0 0");
    assert_eq!((q.ptrap(BLACK), q.qtrap(BLACK)), (1, 0));
    assert_eq!(q.prisoners(WHITE), vec![cell(0, 2)]);
    assert!(q.is_imprisoned(cell(0, 2)));
    // The soldier goes to any empty cell of ring 5 except the prison cells (-4,5), (-2,5)
    // (between Black's edge soldiers) and (-5,4) (between (-5,5) and (-5,3)).
    let releases = moves(&q);
    assert_eq!(releases, set("0,2>-1,-4 0,2>-2,-3 0,2>-3,-2 0,2>-4,-1 0,2>-5,0 0,2>-5,1 0,2>-5,2 0,2>0,-5 0,2>0,5 0,2>1,4 0,2>2,3 0,2>3,2 0,2>4,1 0,2>5,-1 0,2>5,-2 0,2>5,-3 0,2>5,-4 0,2>5,0"));
    assert_eq!(releases.len(), 30 - 4 - 5 - 3);
    refused(&q, "0,2>-4,5", "imprisoned");
    refused(&q, "0,2>-5,4", "imprisoned");
    refused(&q, "0,2>0,1", "outermost ring");
    refused(&q, "0,2>-5,5", "not empty");
    refused(&q, "pass", "prisoners");
    refused(&q, "1,-5>1,-4", "released first");
    // The score: Black 10*(4+3+1+1+1+1) + 20*3 + 5*1 = 175, White 10*(4+5) + 20*3 = 150.
    assert_eq!((q.score(BLACK), q.score(WHITE)), (175, 150));
}

#[test]
fn double_imprisonment_and_one_release_per_turn() {
    // Black (1,2)->(1,1) sandwiches (0,1) between (-1,1) and (1,1) and (1,0) between (1,-1)
    // and (1,1) at once: Ptrap += 2.
    let p = pos("..wwww/...W.../......../........./.....b..../......w..../....bw..../......b../......../...B.../bbb... b 10 0 0 0 0");
    assert_eq!(moves(&p), set("-1,1>-1,0 -2,4>-1,3 -2,4>-1,4 -2,4>-2,3 -2,4>-3,4 -3,5>-2,5 -3,5>-3,4 -4,5>-3,4 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 1,-1>0,-1 1,2>0,2 1,2>0,3 1,2>1,1 1,2>2,1 pass"));
    let q = play(&p, "1,2>1,1", "..wwww/...W.../......../........./.....b..../......w..../....bwb.../........./......../...B.../bbb... w 11 2 0 0 0");
    assert_eq!(q.ptrap(BLACK), 2);
    assert_eq!(q.prisoners(WHITE), vec![cell(1, 0), cell(0, 1)]);
    // Either soldier may go first, each to a free ring-5 cell.
    assert_eq!(moves(&q), set("0,1>-1,-4 0,1>-1,5 0,1>-2,-3 0,1>-2,5 0,1>-3,-2 0,1>-4,-1 0,1>-5,0 0,1>-5,1 0,1>-5,2 0,1>-5,3 0,1>-5,4 0,1>0,-5 0,1>0,5 0,1>1,-5 0,1>1,4 0,1>2,3 0,1>3,2 0,1>4,1 0,1>5,-1 0,1>5,-2 0,1>5,-3 0,1>5,-4 0,1>5,0 1,0>-1,-4 1,0>-1,5 1,0>-2,-3 1,0>-2,5 1,0>-3,-2 1,0>-4,-1 1,0>-5,0 1,0>-5,1 1,0>-5,2 1,0>-5,3 1,0>-5,4 1,0>0,-5 1,0>0,5 1,0>1,-5 1,0>1,4 1,0>2,3 1,0>3,2 1,0>4,1 1,0>5,-1 1,0>5,-2 1,0>5,-3 1,0>5,-4 1,0>5,0"));
    let r = play(&q, "0,1>0,-5", "w.wwww/...W.../......../........./.....b..../......w..../....b.b.../........./......../...B.../bbb... b 12 2 0 0 0");
    assert_eq!(moves(&r), set("-1,1>-1,0 -1,1>0,1 -2,4>-1,3 -2,4>-1,4 -2,4>-2,3 -2,4>-3,4 -3,5>-2,5 -3,5>-3,4 -4,5>-3,4 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 1,-1>0,-1 1,1>0,1 1,1>0,2 1,1>2,0 pass"));
    // After Black's pass White still owes the second release: no pass, no other move.
    let s = play(&r, "pass", "w.wwww/...W.../......../........./.....b..../......w..../....b.b.../........./......../...B.../bbb... w 13 2 0 0 0");
    assert_eq!(s.prisoners(WHITE), vec![cell(1, 0)]);
    assert_eq!(moves(&s), set("1,0>-1,-4 1,0>-1,5 1,0>-2,-3 1,0>-2,5 1,0>-3,-2 1,0>-4,-1 1,0>-5,0 1,0>-5,1 1,0>-5,2 1,0>-5,3 1,0>-5,4 1,0>0,5 1,0>1,-5 1,0>1,4 1,0>2,3 1,0>3,2 1,0>4,1 1,0>5,-1 1,0>5,-2 1,0>5,-3 1,0>5,-4 1,0>5,0"));
    refused(&s, "pass", "prisoners");
    refused(&s, "2,-4>2,-3", "released first");
    let t = play(&s, "1,0>-5,0", "w.wwww/...W.../......../........./.....b..../w........../....b.b.../........./......../...B.../bbb... b 14 2 0 0 0");
    assert_eq!(t.ptrap(BLACK), 2);
    assert!(t.prisoners(WHITE).is_empty());
}

#[test]
fn queen_released_first_anywhere_but_the_throne() {
    // As above but (1,0) is White's queen: Ptrap += 1 and Qtrap += 1.
    let p = pos(".wwwww/......./......../........./.....b..../......W..../....bw..../......b../......../...B.../bbb... b 10 0 0 0 0");
    assert_eq!(moves(&p), set("-1,1>-1,0 -2,4>-1,3 -2,4>-1,4 -2,4>-2,3 -2,4>-3,4 -3,5>-2,5 -3,5>-3,4 -4,5>-3,4 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 1,-1>0,-1 1,2>0,2 1,2>0,3 1,2>1,1 1,2>2,1 pass"));
    let q = play(&p, "1,2>1,1", ".wwwww/......./......../........./.....b..../......W..../....bwb.../........./......../...B.../bbb... w 11 1 1 0 0");
    assert_eq!((q.ptrap(BLACK), q.qtrap(BLACK)), (1, 1));
    // Only the queen may move, to any empty cell except the throne (no empty cell here lies
    // between two black pieces): 91 cells - 14 pieces - the throne = 76 releases.
    let releases = moves(&q);
    assert_eq!(releases, set("1,0>-1,-1 1,0>-1,-2 1,0>-1,-3 1,0>-1,-4 1,0>-1,0 1,0>-1,2 1,0>-1,3 1,0>-1,4 1,0>-1,5 1,0>-2,-1 1,0>-2,-2 1,0>-2,-3 1,0>-2,0 1,0>-2,1 1,0>-2,2 1,0>-2,3 1,0>-2,5 1,0>-3,-1 1,0>-3,-2 1,0>-3,0 1,0>-3,1 1,0>-3,2 1,0>-3,3 1,0>-3,4 1,0>-4,-1 1,0>-4,0 1,0>-4,1 1,0>-4,2 1,0>-4,3 1,0>-4,4 1,0>-5,0 1,0>-5,1 1,0>-5,2 1,0>-5,3 1,0>-5,4 1,0>0,-1 1,0>0,-2 1,0>0,-3 1,0>0,-4 1,0>0,-5 1,0>0,2 1,0>0,3 1,0>0,4 1,0>0,5 1,0>1,-2 1,0>1,-3 1,0>1,-4 1,0>1,2 1,0>1,3 1,0>1,4 1,0>2,-1 1,0>2,-2 1,0>2,-3 1,0>2,-4 1,0>2,0 1,0>2,1 1,0>2,2 1,0>2,3 1,0>3,-1 1,0>3,-2 1,0>3,-3 1,0>3,-4 1,0>3,0 1,0>3,1 1,0>3,2 1,0>4,-1 1,0>4,-2 1,0>4,-3 1,0>4,-4 1,0>4,0 1,0>4,1 1,0>5,-1 1,0>5,-2 1,0>5,-3 1,0>5,-4 1,0>5,0"));
    assert!(releases.iter().all(|m| m.starts_with("1,0>")));
    assert!(!releases.contains("1,0>0,0"));
    assert_eq!(releases.len(), 91 - 14 - 1);
    refused(&q, "1,0>0,0", "throne");
    refused(&q, "0,1>0,-5", "queen");
    refused(&q, "pass", "prisoners");
    let r = play(&q, "1,0>-4,0", ".wwwww/......./......../........./.....b..../.W........./....bwb.../........./......../...B.../bbb... b 12 1 1 0 0");
    let s = play(&r, "pass", ".wwwww/......./......../........./.....b..../.W........./....bwb.../........./......../...B.../bbb... w 13 1 1 0 0");
    // Then the soldier, to ring 5 only.
    assert_eq!(moves(&s), set("0,1>-1,-4 0,1>-1,5 0,1>-2,-3 0,1>-2,5 0,1>-3,-2 0,1>-4,-1 0,1>-5,0 0,1>-5,1 0,1>-5,2 0,1>-5,3 0,1>-5,4 0,1>0,-5 0,1>0,5 0,1>1,4 0,1>2,3 0,1>3,2 0,1>4,1 0,1>5,-1 0,1>5,-2 0,1>5,-3 0,1>5,-4 0,1>5,0"));
    refused(&s, "0,1>0,0", "outermost ring");
    play(&s, "0,1>5,0", ".wwwww/......./......../........./.....b..../.W........w/....b.b.../........./......../...B.../bbb... b 14 1 1 0 0");
}

#[test]
fn queen_on_the_throne_can_be_imprisoned() {
    // White's queen on the throne; Black (-2,0)->(-1,0) completes (1,0) . (-1,0): Qtrap += 1.
    let p = pos("wwwwww/......./......../........./........../...b.Wb..../........../........./......../...B.../bbbb.. b 20 0 0 0 0");
    assert_eq!(moves(&p), set("-2,0>-1,-1 -2,0>-1,0 -2,0>-2,1 -2,4>-1,3 -2,4>-1,4 -2,4>-2,3 -2,4>-3,4 -2,5>-1,4 -2,5>-1,5 -3,5>-3,4 -4,5>-3,4 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 1,0>0,1 1,0>1,-1 pass"));
    let q = play(&p, "-2,0>-1,0", "wwwwww/......./......../........./........../....bWb..../........../........./......../...B.../bbbb.. w 21 0 1 0 0");
    assert_eq!((q.ptrap(BLACK), q.qtrap(BLACK)), (0, 1));
    assert_eq!(moves(&q), set("0,0>-1,-1 0,0>-1,-2 0,0>-1,-3 0,0>-1,-4 0,0>-1,1 0,0>-1,2 0,0>-1,3 0,0>-1,4 0,0>-1,5 0,0>-2,-1 0,0>-2,-2 0,0>-2,-3 0,0>-2,0 0,0>-2,1 0,0>-2,2 0,0>-2,3 0,0>-3,-1 0,0>-3,-2 0,0>-3,0 0,0>-3,1 0,0>-3,2 0,0>-3,3 0,0>-3,4 0,0>-4,-1 0,0>-4,0 0,0>-4,1 0,0>-4,2 0,0>-4,3 0,0>-4,4 0,0>-5,0 0,0>-5,1 0,0>-5,2 0,0>-5,3 0,0>-5,4 0,0>0,-1 0,0>0,-2 0,0>0,-3 0,0>0,-4 0,0>0,1 0,0>0,2 0,0>0,3 0,0>0,4 0,0>0,5 0,0>1,-1 0,0>1,-2 0,0>1,-3 0,0>1,-4 0,0>1,1 0,0>1,2 0,0>1,3 0,0>1,4 0,0>2,-1 0,0>2,-2 0,0>2,-3 0,0>2,-4 0,0>2,0 0,0>2,1 0,0>2,2 0,0>2,3 0,0>3,-1 0,0>3,-2 0,0>3,-3 0,0>3,-4 0,0>3,0 0,0>3,1 0,0>3,2 0,0>4,-1 0,0>4,-2 0,0>4,-3 0,0>4,-4 0,0>4,0 0,0>4,1 0,0>5,-1 0,0>5,-2 0,0>5,-3 0,0>5,-4 0,0>5,0"));
    play(&q, "0,0>1,1", "wwwwww/......./......../........./........../....b.b..../......W.../........./......../...B.../bbbb.. b 22 0 1 0 0");
}

#[test]
fn already_imprisoned_piece_is_not_counted_again() {
    // White (0,1) already stands between Black (-1,1) and (1,1). Black (0,3)->(0,2) sandwiches
    // it again along r (with the queen on the throne) and newly sandwiches (1,2) between (0,2)
    // and (2,2): Ptrap goes up by 1, not 2.
    let p = pos("..wwww/...W.../......../........./........../.....B...../....bwb.../......wb./.....b../......./bb.... b 10 0 0 0 0");
    assert!(p.is_imprisoned(cell(0, 1)));
    assert!(!p.is_imprisoned(cell(1, 2)));
    assert_eq!(moves(&p), set("-1,1>-1,0 -4,5>-3,4 -4,5>-3,5 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 0,3>-1,3 0,3>0,2 1,1>0,2 1,1>1,0 1,1>2,0 2,2>1,3 2,2>2,1 2,2>3,1 pass"));
    let q = play(&p, "0,3>0,2", "..wwww/...W.../......../........./........../.....B...../....bwb.../.....bwb./......../......./bb.... w 11 1 0 0 0");
    assert_eq!(q.ptrap(BLACK), 1);
    assert_eq!(q.prisoners(WHITE), vec![cell(0, 1), cell(1, 2)]);
    assert_eq!(moves(&q), set("0,1>-1,-4 0,1>-1,5 0,1>-2,-3 0,1>-2,5 0,1>-3,-2 0,1>-3,5 0,1>-4,-1 0,1>-5,0 0,1>-5,1 0,1>-5,2 0,1>-5,3 0,1>-5,4 0,1>0,-5 0,1>0,5 0,1>1,-5 0,1>1,4 0,1>2,3 0,1>3,2 0,1>4,1 0,1>5,-1 0,1>5,-2 0,1>5,-3 0,1>5,-4 0,1>5,0 1,2>-1,-4 1,2>-1,5 1,2>-2,-3 1,2>-2,5 1,2>-3,-2 1,2>-3,5 1,2>-4,-1 1,2>-5,0 1,2>-5,1 1,2>-5,2 1,2>-5,3 1,2>-5,4 1,2>0,-5 1,2>0,5 1,2>1,-5 1,2>1,4 1,2>2,3 1,2>3,2 1,2>4,1 1,2>5,-1 1,2>5,-2 1,2>5,-3 1,2>5,-4 1,2>5,0"));
}

#[test]
fn two_pieces_in_a_row_are_not_imprisoned() {
    // Black (1,2)->(1,1) makes b w w b along r = 1: nobody is imprisoned.
    let p = pos("..wwww/...W.../......../........./........../.........../...bww..../......b../......../...B.../bbbb.. b 10 0 0 0 0");
    assert_eq!(moves(&p), set("-2,1>-1,0 -2,1>-2,0 -2,1>-2,2 -2,4>-1,3 -2,4>-1,4 -2,4>-2,3 -2,4>-3,4 -2,5>-1,4 -2,5>-1,5 -3,5>-3,4 -4,5>-3,4 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 1,2>0,2 1,2>0,3 1,2>1,1 1,2>2,1 pass"));
    let q = play(&p, "1,2>1,1", "..wwww/...W.../......../........./........../.........../...bwwb.../........./......../...B.../bbbb.. w 11 0 0 0 0");
    assert_eq!(q.ptrap(BLACK), 0);
    assert!(q.prisoners(WHITE).is_empty());
    assert_eq!(moves(&q), set("-1,1>-1,0 0,1>1,0 2,-4>1,-3 2,-4>1,-4 2,-4>2,-3 2,-4>3,-4 2,-5>1,-4 2,-5>1,-5 3,-5>3,-4 4,-5>3,-4 4,-5>4,-4 5,-5>4,-4 5,-5>5,-4 pass"));
}

#[test]
fn a_move_into_a_prison_cell_is_illegal() {
    // (0,2) lies between White (-1,2) and (1,2): Black's soldier (0,3) may not step there.
    let p = pos("..wwww/...W.../......../........./........../.........../........../....w.w../.....bB./......./bbbbb. b 10 0 0 0 0");
    assert!(p.is_prison_cell_for(BLACK, cell(0, 2)));
    assert_eq!(moves(&p), set("-1,5>-1,4 -1,5>0,4 -1,5>0,5 -2,5>-1,4 -2,5>-2,4 -3,5>-2,4 -3,5>-3,4 -4,5>-3,4 -4,5>-4,4 -5,5>-4,4 -5,5>-5,4 0,3>-1,3 1,3>0,4 1,3>2,2 pass"));
    refused(&p, "0,3>0,2", "imprisoned");
}

#[test]
fn queen_on_the_throne_and_six_soldiers_around_wins() {
    let p = pos("wwwwww/...W.../......../........./....bb..../....bBb..../.....b..../....b..../......../......./...... b 10 0 0 0 0");
    assert_eq!(p.outcome(), None);
    assert_eq!(
        moves(&p),
        set("-1,0>-1,1 -1,2>-1,1 -1,2>-2,2 -1,2>0,2 0,1>-1,1 pass")
    );
    let q = play(&p, "-1,2>-1,1", "wwwwww/...W.../......../........./....bb..../....bBb..../....bb..../........./......../......./...... w 11 0 0 0 0");
    assert_eq!(q.outcome(), Some(Outcome::Win(BLACK)));
    assert!(q.moves().is_empty());
    assert_eq!(
        q.why_illegal(Move::Pass).as_ref().map(|e| e.reason()),
        Some("the game is over")
    );
    assert_eq!(q.score(BLACK), 6 * 50 + 120);
}

#[test]
fn six_soldiers_around_the_empty_throne_lose() {
    let p = pos("wwwwww/...W.../......../........./....bb..../....b.b..../.....b..../....b..../......../...B.../...... b 10 0 0 0 0");
    assert_eq!(moves(&p), set("-1,0>-1,1 -1,2>-1,1 -1,2>-2,2 -1,2>0,2 -2,4>-1,3 -2,4>-1,4 -2,4>-2,3 -2,4>-3,4 0,1>-1,1 pass"));
    let q = play(&p, "-1,2>-1,1", "wwwwww/...W.../......../........./....bb..../....b.b..../....bb..../........./......../...B.../...... w 11 0 0 0 0");
    assert_eq!(q.outcome(), Some(Outcome::Win(WHITE)));
    // Moving anything else does not end the game.
    let mut r = p.clone();
    r.play("-2,4>-2,3".parse().unwrap());
    assert_eq!(r.outcome(), None);
}

#[test]
fn move_limit_and_score() {
    // Ply 299, White to move; the boards mirror each other, Black Ptrap 2 (+10) and White
    // Qtrap 1 (+10): 10*6 + 20*2 + 10 = 110 each.
    let p = pos("wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 299 2 0 0 1");
    assert_eq!(p.moves_left(WHITE), 1);
    assert_eq!(p.moves_left(BLACK), 0);
    assert_eq!((p.score(BLACK), p.score(WHITE)), (110, 110));
    let q = play(&p, "pass", "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 300 2 0 0 1");
    assert_eq!(q.outcome(), Some(Outcome::Draw(DrawKind::Score)));
    assert!(q.moves().is_empty());
    // A soldier one ring in: White 120 > 110.
    let mut r = p.clone();
    r.play("0,-5>0,-4".parse().unwrap());
    assert_eq!(r.score(WHITE), 120);
    assert_eq!(r.outcome(), Some(Outcome::Win(WHITE)));
    // Along the ring: still equal.
    let mut r = p.clone();
    r.play("2,-4>3,-4".parse().unwrap());
    assert_eq!(r.outcome(), Some(Outcome::Draw(DrawKind::Score)));
    // The queen one ring in: 20 more.
    let mut r = p.clone();
    r.play("2,-4>2,-3".parse().unwrap());
    assert_eq!(r.score(WHITE), 130);
    assert_eq!(r.outcome(), Some(Outcome::Win(WHITE)));
    // One ply earlier nothing ends.
    let p = pos("wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb b 298 2 0 0 1");
    assert_eq!(p.moves_left(BLACK), 1);
    let q = play(&p, "pass", "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 299 2 0 0 1");
    assert_eq!(q.outcome(), None);
    // The Black-ahead case: counters alone decide.
    let p = pos("wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 299 3 0 0 1");
    let mut q = p.clone();
    q.play(Move::Pass);
    assert_eq!(q.outcome(), Some(Outcome::Win(BLACK)));
}

#[test]
fn throne_rules_come_before_the_move_limit() {
    // Ply 299: White, far ahead on score (340 to 100), surrounds the empty throne: Black wins.
    let p = pos("....../...W.../......../........./....ww..../....w.w..../.....w..../...w...../......../...B.../bbbbbb w 299 0 0 0 0");
    let q = play(&p, "-2,2>-1,1", "....../...W.../......../........./....ww..../....w.w..../....ww..../........./......../...B.../bbbbbb b 300 0 0 0 0");
    assert_eq!((q.score(BLACK), q.score(WHITE)), (100, 340));
    assert_eq!(q.outcome(), Some(Outcome::Win(BLACK)));
    // Ply 299: White, behind on score (420 to 500), completes the throne: White wins.
    let p = pos("....../......./......../........./....ww..../....wWw..../.....w..../...w...../......../...B.../bbbbbb w 299 80 0 0 0");
    let q = play(&p, "-2,2>-1,1", "....../......./......../........./....ww..../....wWw..../....ww..../........./......../...B.../bbbbbb b 300 80 0 0 0");
    assert_eq!((q.score(BLACK), q.score(WHITE)), (500, 420));
    assert_eq!(q.outcome(), Some(Outcome::Win(WHITE)));
    // Had White passed, the score would have decided for Black.
    let mut r = p.clone();
    r.play(Move::Pass);
    assert_eq!(r.outcome(), Some(Outcome::Win(BLACK)));
}

#[test]
fn moves_left_counts_each_side() {
    let mut p = Position::start();
    assert_eq!((p.moves_left(BLACK), p.moves_left(WHITE)), (150, 150));
    p.play(Move::Pass);
    assert_eq!((p.moves_left(BLACK), p.moves_left(WHITE)), (149, 150));
    p.play(Move::Pass);
    assert_eq!((p.moves_left(BLACK), p.moves_left(WHITE)), (149, 149));
}
