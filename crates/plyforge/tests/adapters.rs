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

#[test]
fn fair_starts_where_the_game_has_them() {
    use plyforge::games::ChaosClock;
    use plyforge::{read_position, read_start};
    const { assert!(ChaosClock::HAS_FAIR_START && !Jumpy3::HAS_FAIR_START) };
    assert_eq!(Jumpy3::fair_start(1), None);
    let e = read_start::<Throne>("fair:3").unwrap_err().to_string();
    assert!(e.contains("no fair start"), "{e}");
    let e = read_start::<ChaosClock>("fair:three")
        .unwrap_err()
        .to_string();
    assert!(e.contains("fair:"), "{e}");
    // Reading a position stays cheap: a fair start is solved, and only `read_start` solves.
    let e = read_position::<ChaosClock>("fair").unwrap_err().to_string();
    assert!(e.contains("solved, not read"), "{e}");
    // A fair start is a "both win" deal (result code 3).
    let fair = read_start::<ChaosClock>("fair").unwrap();
    let solved = plyforge::chaosclock::solve::solve(&fair);
    assert_eq!(solved.value.code(), 3);
}

#[test]
fn progress_places_the_losers() {
    let p: plyforge::chexers::Position = "gg../...../....../r.....b/.....b/....b/.... r 3,2,1 30"
        .parse()
        .expect("a position");
    let exits: Vec<u32> = (0..3).map(|pl| Chexers::progress(&p, pl)).collect();
    assert_eq!(exits, vec![3, 2, 1]);
    assert_eq!(Jumpy3::progress(&plyforge::jumpy3::Position::start(), 0), 0);
}

#[test]
fn chexers_evaluations_take_weight_settings() {
    use plyforge::agent::Spec;
    use plyforge::search::Evaluator;
    use plyforge::Error;
    let start = <Chexers as GameAdapter>::start();
    // A draw at the start (level) is worth minus the contempt to everybody.
    let draw = |name: &str| {
        let eval = <Chexers as GameAdapter>::evaluator(name).expect(name);
        eval.draw_scores(&start, DrawKind::Repetition)
    };
    let plain = draw("default");
    assert_eq!(draw("default:contempt=600:draw_standing=0"), [-600; 3]);
    assert_eq!(draw("default:contempt=7"), [-7; 3]);
    assert_eq!(draw("default:"), plain);
    // The spec carries the settings to the engine's evaluation.
    let spec = Spec::parse::<Chexers>("paranoid,eval=greedy:contempt=250,depth=2").unwrap();
    let eval = spec.evaluator::<Chexers>();
    assert_eq!(eval.draw_scores(&start, DrawKind::Repetition), [-250; 3]);
    // Bad settings are refused with the reason, the crate's own error as the source.
    let e = <Chexers as GameAdapter>::evaluator("default:bravery=1").unwrap_err();
    let source = std::error::Error::source(&e).expect("the weight error");
    assert!(source
        .downcast_ref::<plyforge::chexers::WeightError>()
        .is_some());
    for (text, says) in [
        ("engine,eval=default:bravery=1", "no weight \"bravery\""),
        (
            "engine,eval=default:contempt=lots",
            "contempt=lots: expected a whole number",
        ),
        ("engine,eval=default:contempt", "expected NAME=NUMBER"),
        (
            "engine,eval=nope:contempt=1",
            "Chexers has the evaluations default",
        ),
    ] {
        match Spec::parse::<Chexers>(text) {
            Err(Error::Spec { reason, .. }) => assert!(reason.contains(says), "{text}: {reason}"),
            other => panic!("{text}: {other:?}"),
        }
        let eval = text.split_once("eval=").unwrap().1;
        assert!(<Chexers as GameAdapter>::evaluator(eval).is_err(), "{text}");
    }
    // Other games keep their plain names.
    assert!(<Throne as GameAdapter>::evaluator("default").is_ok());
    assert!(<Throne as GameAdapter>::evaluator("default:contempt=1").is_err());
}

#[test]
fn specs_take_the_declared_parameters_as_keys() {
    use plyforge::agent::Spec;
    use plyforge::games::ChaosClock;
    use plyforge::search::Evaluator;
    use plyforge::Error;
    let reason = |game_spec: Result<Spec, Error>| match game_spec {
        Err(Error::Spec { reason, .. }) => reason,
        other => panic!("{other:?}"),
    };
    // Chexers: a weight as a key is the same as the eval's own setting.
    let start = <Chexers as GameAdapter>::start();
    let by_key = Spec::parse::<Chexers>("paranoid,contempt=250,draw_standing=0").unwrap();
    assert_eq!(by_key.params, [("contempt", 250.0), ("draw_standing", 0.0)]);
    assert_eq!(
        by_key
            .evaluator::<Chexers>()
            .draw_scores(&start, DrawKind::Repetition),
        [-250; 3]
    );
    // A key twice keeps its last value; the key goes with the named evaluation.
    let twice = Spec::parse::<Chexers>("engine,material=100,material=200").unwrap();
    assert_eq!(twice.params, [("material", 200.0)]);
    let greedy = Spec::parse::<Chexers>("engine,eval=greedy,contempt=9").unwrap();
    assert_eq!(
        greedy
            .evaluator::<Chexers>()
            .draw_scores(&start, DrawKind::Repetition),
        [-9; 3]
    );
    // Out of range, not a number, not whole, unknown: each refused with the reason.
    let r = reason(Spec::parse::<Chexers>("engine,material=5000"));
    assert!(
        r.contains("material=5000") && r.contains("between 0 and 1500"),
        "{r}"
    );
    let r = reason(Spec::parse::<Chexers>("engine,material=lots"));
    assert!(r.contains("must be a number"), "{r}");
    let r = reason(Spec::parse::<Chexers>("engine,material=2.5"));
    assert!(r.contains("whole number"), "{r}");
    let r = reason(Spec::parse::<Chexers>("engine,bravery=1"));
    assert!(
        r.contains("unknown key \"bravery\"") && r.contains("material"),
        "{r}"
    );
    // Throne: its weights.
    let t = Spec::parse::<Throne>("engine,tempo=0").unwrap();
    let pos = <Throne as GameAdapter>::start();
    let [with_tempo, ..] = <Throne as GameAdapter>::default_eval().evaluate(&pos);
    let [without, ..] = t.evaluator::<Throne>().evaluate(&pos);
    assert_eq!(with_tempo - without, 40);
    // Jumpy3: the estimate's weights; the sheet takes none.
    assert!(Spec::parse::<Jumpy3>("engine,pawns=120").is_ok());
    let r = reason(Spec::parse::<Jumpy3>("engine,eval=sheet,pawns=120"));
    assert!(r.contains("does not take the parameter pawns"), "{r}");
    // Chaos Clock: real numbers.
    let c = Spec::parse::<ChaosClock>("engine,tempo=0.1").unwrap();
    assert_eq!(c.params, [("tempo", 0.1)]);
}

/// A finished position (by its rules, no history) of a game with a solver solves to its
/// result, with no move to make; `None` if random games from the start never end so.
fn finished_positions_solve<A: GameAdapter>() -> usize {
    use plyforge::search::rng::XorShift64Star;
    use plyforge::search::{Game, Record};
    use plyforge::{ExactValue, SolveSettings};
    let mut finished = 0;
    for seed in 0..40 {
        let mut rng = XorShift64Star::seeded(seed);
        let mut record = Record::new(A::start());
        while record.result().is_none() && record.moves().len() < 2000 {
            let moves = record.legal_moves();
            let mv = moves[rng.below(moves.len())];
            record.play(mv).expect("a legal move");
        }
        // The last position alone: over by the rules, not by its history.
        let pos = record.position().clone();
        let Some(outcome) = pos.outcome() else {
            continue;
        };
        let s = A::solve(&Record::new(pos.clone()), &SolveSettings::default())
            .expect("a solver")
            .unwrap_or_else(|e| panic!("{} {pos}: {e}", A::NAME));
        // Chaos Clock's result codes: 4 the side to move wins, 3 both win, 2 both lose, 1
        // it loses.
        let coded = matches!(s.value, ExactValue::Code(_));
        let mover = pos.to_move();
        let want = match outcome {
            Outcome::Win(w) if w == mover && coded => ExactValue::Code(4),
            Outcome::Win(_) if coded => ExactValue::Code(1),
            Outcome::BothWin if coded => ExactValue::Code(3),
            Outcome::BothLose if coded => ExactValue::Code(2),
            Outcome::Win(w) if w == mover => ExactValue::Win(0),
            Outcome::Win(_) => ExactValue::Loss(0),
            _ => ExactValue::Draw,
        };
        assert_eq!(s.value, want, "{} {pos}", A::NAME);
        assert!(s.best.is_empty() && s.line.is_empty(), "{} {pos}", A::NAME);
        finished += 1;
    }
    finished
}

/// Every game with a solver gives a finished position its result: the proof search of the
/// default solver (Throne) as well as the games' own solvers.
#[test]
fn a_finished_position_solves_to_its_result() {
    use plyforge::games::ChaosClock;
    assert!(finished_positions_solve::<Throne>() > 0);
    assert!(finished_positions_solve::<Jumpy3>() > 0);
    assert!(finished_positions_solve::<ChaosClock>() > 0);
}
