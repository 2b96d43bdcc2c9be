//! What differs between the games' adapters: move limits and the result a server's move
//! limit gives.

use plyforge::games::{Chexers, Jumpy3, Throne};
use plyforge::search::{DrawKind, Outcome};
use plyforge::GameAdapter;

#[test]
fn move_limits_and_their_results() {
    assert_eq!(Throne::own_move_limit(), Some(150));
    assert_eq!(Chexers::own_move_limit(), Some(256));
    assert_eq!(Jumpy3::own_move_limit(), None);
    // The start is symmetric: equal scores.
    assert_eq!(
        Throne::limit_outcome(&plyforge::throne::Position::start()),
        Outcome::Draw(DrawKind::Score)
    );
    // Black's soldier from (-4,5) to (-4,4), one ring in, scores 10 more (grade 1 -> 2).
    let ahead: plyforge::throne::Position =
        "wwwwww/...W.../......../........./........../.........../........../........./......../.b.B.../b.bbbb w 1 0 0 0 0"
            .parse()
            .expect("a position");
    assert_eq!(
        Throne::limit_outcome(&ahead),
        Outcome::Win(plyforge::throne::BLACK)
    );
    assert_eq!(
        Jumpy3::limit_outcome(&plyforge::jumpy3::Position::start()),
        Outcome::Draw(DrawKind::TurnLimit)
    );
}
