//! The checks every game passes, written once over [`GameAdapter`]: what the project's
//! property tests, random-play tests and fuzz targets run for every registered game, so that
//! a user's game is checked the way ours are.
//!
//! Each check **panics with a message naming the position and the move when a property
//! fails** (proptest shrinks such a failure to its shortest game; a fuzzer reports it as a
//! crash). Call them typed (`checks::play::<MyGame>(bytes)`) or, for any registered game,
//! through [`GameKind::checks`](crate::GameKind::checks).
//!
//! - [`notation`]: text from anywhere (a fuzzer) never panics the parsers; what parses
//!   displays and parses back to itself, its key is its recomputed key, each legal move
//!   round-trips, and a move plays through a record or is refused with an error.
//! - [`play`]: a game played from bytes (each a legal move by its index): after every move
//!   the key is the recomputed key, `play_from` is clone + play, the notation reads back,
//!   the record's repetition count is right, the game goes on exactly while it has moves;
//!   undoing every move gives back the start.
//! - [`notation_round_trips`], [`play_from_is_clone_and_play`], [`repetition_counts`]: the
//!   same properties over a game chosen by a seed and move choices (what proptest drives).
//! - [`random_play`]: [`search::conformance::random_play`] over random games to their end.
//! - [`params`](params()): the evaluation's tunable parameters are declared well, their
//!   defaults give the default evaluation, and each one changes it somewhere.
//! - [`features`]: the sparse features of a network's input are sorted, without repeats and
//!   in range, the observation's ones where the game says they are, and a game's changes
//!   between two positions are the difference of their features.
//!
//! ```
//! use plyforge::{checks, games::Jumpy3, GameKind};
//! checks::play::<Jumpy3>(&[0, 3, 1, 2, 0, 0, 1]);
//! checks::repetition_counts::<Jumpy3>(7, &[0, 1, 0, 1, 0, 1]);
//! // The same through the registry, for every game it has:
//! for kind in GameKind::all() {
//!     kind.checks().notation(b"start\n1");
//!     kind.checks().properties(3, &[1, 2, 3, 4, 5]);
//! }
//! ```

use search::conformance::{RandomPlay, RandomPlayStats as Stats};
use search::{Game, Record};

use crate::adapter::{legal_moves, play_text, read_position, GameAdapter};

/// The start (or, for games that start at random, a seeded random start) and the positions
/// reached by playing the legal move `choices[i] % n` at each ply, until the choices or the
/// game end.
pub fn random_game<A: GameAdapter>(seed: u64, choices: &[u16]) -> Record<A::Pos> {
    let start = match seed % 3 {
        0 => A::start(),
        _ => A::random_start(seed).unwrap_or_else(A::start),
    };
    let mut record = Record::<A::Pos>::new(start);
    for &c in choices {
        let moves = record.legal_moves();
        if moves.is_empty() {
            break;
        }
        record
            .play(moves[c as usize % moves.len()])
            .expect("a legal move plays");
    }
    record
}

/// `POSITION\nMOVE` from anywhere: see the [module](self).
pub fn notation<A: GameAdapter>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (pos_text, move_text) = text.split_once('\n').unwrap_or((text, ""));
    let _ = read_position::<A>(pos_text);
    let pos = match A::parse_position(pos_text) {
        Ok(p) => {
            let shown = p.to_string();
            let again = A::parse_position(&shown)
                .unwrap_or_else(|e| panic!("{shown:?}, displayed from {pos_text:?}: {e}"));
            assert_eq!(again, p, "{pos_text:?} -> {shown:?}");
            assert_eq!(again.to_string(), shown);
            assert_eq!(p.key(), p.recompute_key(), "{shown}");
            let moves = legal_moves(&p);
            assert!(
                !moves.is_empty() || p.outcome().is_some(),
                "{shown}: no moves but not over"
            );
            for m in moves {
                let t = m.to_string();
                assert!(
                    A::parse_move(&p, &t).is_ok_and(|back| back == m),
                    "{shown}: {t}"
                );
            }
            p
        }
        Err(_) => A::start(),
    };
    if let Ok(m) = A::parse_move(&pos, move_text) {
        let t = m.to_string();
        assert!(
            A::parse_move(&pos, &t).is_ok_and(|back| back == m),
            "{move_text:?} -> {t:?}"
        );
    }
    let mut record = Record::<A::Pos>::new(pos.clone());
    if play_text::<A>(&mut record, move_text).is_ok() {
        assert_eq!(record.moves().len(), 1);
        let mut child = pos.clone();
        child.play(record.moves()[0]);
        assert!(&child == record.position());
    }
}

/// A game played from bytes: see the [module](self). The first byte picks the start (the
/// rules' start, or a random one for games that have them), each next byte a legal move by
/// its index.
pub fn play<A: GameAdapter>(data: &[u8]) {
    let Some((&s, moves)) = data.split_first() else {
        return;
    };
    let start = match s % 4 {
        0 => A::start(),
        n => A::random_start(u64::from(n) + u64::from(s)).unwrap_or_else(A::start),
    };
    let mut record = Record::<A::Pos>::new(start.clone());
    for &b in moves.iter().take(4000) {
        let legal = record.legal_moves();
        let over = record.result();
        assert_eq!(
            legal.is_empty(),
            over.is_some(),
            "{}: moves {} but result {over:?}",
            record.position(),
            legal.len()
        );
        if legal.is_empty() {
            break;
        }
        let parent = record.position().clone();
        let mv = legal[b as usize % legal.len()];
        assert_eq!(parent.why_illegal(mv), None, "{parent}: {mv} listed");
        record.play(mv).expect("a legal move plays");
        let pos = record.position();
        assert_eq!(pos.key(), pos.recompute_key(), "{parent} {mv}");
        let mut from = start.clone();
        from.play_from(&parent, mv);
        assert!(&from == pos, "play_from {parent} {mv}");
        let shown = pos.to_string();
        let again = A::parse_position(&shown).unwrap_or_else(|e| panic!("{shown}: {e}"));
        assert_eq!(again.to_string(), shown);
        if A::NOTATION_IS_EXACT {
            assert!(&again == pos, "{shown} reads back to another position");
        }
        let key = pos.repetition_key();
        let count = record.history_keys().iter().filter(|&&k| k == key).count();
        assert_eq!(record.occurrences() as usize, count, "{shown}");
        // The outcome is a function of the position: asking twice gives the same.
        assert_eq!(pos.outcome(), pos.clone().outcome());
    }
    let played = record.moves().len();
    for _ in 0..played {
        record.undo().expect("a move to take back");
    }
    assert!(record.position() == &start);
    assert_eq!(record.occurrences(), 1);
}

/// A position's text reads back to a position with the same text (and, where the notation
/// says everything, [`GameAdapter::NOTATION_IS_EXACT`], the same position), and every legal
/// move's text reads back to that move, along [`random_game`]`(seed, choices)`.
pub fn notation_round_trips<A: GameAdapter>(seed: u64, choices: &[u16]) {
    let record = random_game::<A>(seed, choices);
    let mut pos = record.start().clone();
    for &mv in record.moves() {
        pos.play(mv);
        let text = pos.to_string();
        let back = A::parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.to_string(), text);
        if A::NOTATION_IS_EXACT {
            assert!(back == pos, "{text} reads back to another position");
        }
        for m in legal_moves(&pos) {
            let t = m.to_string();
            assert!(
                A::parse_move(&pos, &t).is_ok_and(|back| back == m),
                "{text}: {t}"
            );
        }
    }
}

/// `play_from` into a slot that held another position is clone + play, and keeps the key
/// right, for every legal move along [`random_game`]`(seed, choices)`.
pub fn play_from_is_clone_and_play<A: GameAdapter>(seed: u64, choices: &[u16]) {
    let record = random_game::<A>(seed, choices);
    let mut pos = record.start().clone();
    // A slot that held some other position.
    let mut slot = A::start();
    for &mv in record.moves() {
        for m in legal_moves(&pos) {
            let mut want = pos.clone();
            want.play(m);
            slot.play_from(&pos, m);
            assert!(slot == want, "{pos}: {m}");
            assert_eq!(slot.key(), slot.recompute_key());
        }
        pos.play(mv);
    }
}

/// [`Record`]'s repetition count is the number of earlier equal positions (by repetition
/// key), the start counting once; the repetition rule fires at its count; `undo` gives the
/// counts back, along [`random_game`]`(seed, choices)`.
pub fn repetition_counts<A: GameAdapter>(seed: u64, choices: &[u16]) {
    let mut record = random_game::<A>(seed, choices);
    let rule = record.start().repetition_rule();
    loop {
        let keys = record.history_keys();
        let now = *keys.last().expect("the current position");
        assert_eq!(now, record.position().repetition_key());
        let count = keys.iter().filter(|&&k| k == now).count() as u32;
        assert_eq!(record.occurrences(), count);
        if let Some((limit, outcome)) = rule {
            assert!(count <= limit, "play goes on past the repetition limit");
            if count == limit && !record.moves().is_empty() {
                assert_eq!(record.result(), Some(outcome));
            }
        }
        if record.undo().is_none() {
            break;
        }
    }
    assert_eq!(record.occurrences(), 1);
    assert!(record.position() == record.start());
}

/// The engine's random-play conformance check ([`search::conformance::random_play`]) over
/// `games` random games from `seed`, from the start (games that start at random: seeded
/// random starts).
pub fn random_play<A: GameAdapter>(games: usize, seed: u64) -> Stats {
    search::conformance::random_play(
        |i| A::random_start(seed ^ i as u64).unwrap_or_else(A::start),
        &RandomPlay::new(games, seed),
        |_, _| {},
    )
}

/// The sparse features ([`Encoding::features`](crate::encoding::Encoding::features)) over
/// the positions of `games` random games from `seed`, for every player: each list is
/// sorted without repeats and below [`Encoding::FEATURES`](crate::encoding::Encoding::FEATURES);
/// where the features are the observation's
/// ([`Encoding::OBSERVED_FEATURES`](crate::encoding::Encoding::OBSERVED_FEATURES)), they
/// are exactly the observation's entries equal to 1 (and `FEATURES` its size); where the
/// game says what changed between two positions
/// ([`Encoding::feature_changes`](crate::encoding::Encoding::feature_changes)), that is
/// exactly the difference of their lists, for consecutive positions, positions two plies
/// apart and positions of different games. A game without an encoding passes.
///
/// ```
/// plyforge::checks::features::<plyforge::games::Chexers>(5, 1);
/// ```
pub fn features<A: GameAdapter>(games: usize, seed: u64) {
    let Some(e) = A::encoding() else {
        return;
    };
    let mut rng = search::rng::XorShift64Star::seeded(seed);
    let mut positions: Vec<A::Pos> = Vec::new();
    for g in 0..games {
        let choices: Vec<u16> = (0..200).map(|_| rng.below(1 << 15) as u16).collect();
        let mut record = random_game::<A>(seed.wrapping_add(g as u64), &choices);
        let mut line = Vec::new();
        loop {
            line.push(record.position().clone());
            if record.undo().is_none() {
                break;
            }
        }
        line.reverse();
        positions.extend(line);
    }
    if e.observed_features {
        assert_eq!(
            e.features,
            e.size(),
            "{}: features said to be the observation's, but not one per entry",
            A::TITLE
        );
    }
    let mut obs = vec![0.0; e.size()];
    let (mut list, mut old) = (Vec::new(), Vec::new());
    let mut changes = crate::adapter::FeatureChanges::new();
    for (i, pos) in positions.iter().enumerate() {
        for player in 0..A::PLAYERS {
            e.write_features(pos, player, &mut list);
            assert!(
                list.windows(2).all(|w| w[0] < w[1]),
                "{}: {pos} player {player}: features {list:?} not sorted without repeats",
                A::TITLE
            );
            if let Some(f) = list.iter().find(|&&f| f as usize >= e.features) {
                panic!(
                    "{}: {pos} player {player}: feature {f} of {} features",
                    A::TITLE,
                    e.features
                );
            }
            if e.observed_features {
                e.write_observation(pos, player, &mut obs);
                let ones: Vec<u32> = (0..obs.len() as u32)
                    .filter(|&k| obs[k as usize] == 1.0)
                    .collect();
                assert_eq!(
                    list,
                    ones,
                    "{}: {pos} player {player}: the features are not the observation's ones",
                    A::TITLE
                );
            }
            for back in [1, 2, 37] {
                let Some(before) = i.checked_sub(back).map(|j| &positions[j]) else {
                    continue;
                };
                if !e.feature_changes(before, pos, player, &mut changes) {
                    continue;
                }
                let (mut added, mut removed) =
                    (changes.added().to_vec(), changes.removed().to_vec());
                e.write_features(before, player, &mut old);
                let (mut want_added, mut want_removed) = (Vec::new(), Vec::new());
                crate::adapter::list_changes(&old, &list, &mut want_added, &mut want_removed);
                added.sort_unstable();
                removed.sort_unstable();
                assert_eq!(
                    (&added, &removed),
                    (&want_added, &want_removed),
                    "{}: player {player}: the changes from {before} to {pos} (added, removed) \
                     are not the difference of their features",
                    A::TITLE
                );
            }
        }
    }
}

/// The evaluation's declared parameters ([`GameAdapter::params`]) are usable and wired:
/// the list passes [`crate::agent::check_params`]; every parameter at its default gives
/// exactly the default evaluation ([`GameAdapter::default_eval`]: the same scores, draw
/// scores and move hints) on the positions of `games` random games from `seed`; and each
/// parameter changes the evaluation somewhere on those positions (tried with every
/// parameter moved by a step, so that one that counts only with another, such as a
/// threshold, is seen too). A game without parameters passes.
///
/// ```
/// plyforge::checks::params::<plyforge::games::Throne>(20, 1);
/// ```
pub fn params<A: GameAdapter>(games: usize, seed: u64) {
    use search::{DrawKind, Evaluator};
    let params = A::params();
    if let Err(e) = crate::agent::check_params(&params) {
        panic!("{}: {e}", A::TITLE);
    }
    if params.is_empty() {
        return;
    }
    let name = A::evaluator_names()[0];
    let mut positions: Vec<A::Pos> = Vec::new();
    let mut rng = search::rng::XorShift64Star::seeded(seed);
    for g in 0..games {
        let choices: Vec<u16> = (0..300).map(|_| rng.below(1 << 15) as u16).collect();
        let mut record = random_game::<A>(seed.wrapping_add(g as u64), &choices);
        loop {
            positions.push(record.position().clone());
            if record.undo().is_none() {
                break;
            }
        }
    }
    // What an evaluation says of the positions: scores, draw scores, move hints.
    let look = |e: &A::Eval| -> Vec<i64> {
        let mut out = Vec::new();
        for p in &positions {
            out.extend(e.evaluate(p).iter().map(|&x| i64::from(x)));
            out.extend(
                e.draw_scores(p, DrawKind::Repetition)
                    .iter()
                    .map(|&x| i64::from(x)),
            );
            for mv in legal_moves(p) {
                out.push(i64::from(e.move_hint(p, mv)));
            }
        }
        out
    };
    let with = |values: &[(&'static str, f64)]| -> A::Eval {
        A::evaluator_with(name, values)
            .unwrap_or_else(|e| panic!("{}: eval={name} with {values:?}: {e}", A::TITLE))
    };
    let defaults: Vec<(&'static str, f64)> = params.iter().map(|p| (p.name, p.default)).collect();
    assert!(
        look(&with(&defaults)) == look(&A::default_eval()),
        "{}: every parameter at its default does not give the default evaluation",
        A::TITLE
    );
    let moved: Vec<(&'static str, f64)> = params
        .iter()
        .map(|p| {
            let up = p.default + p.step;
            let v = if up <= p.max { up } else { p.default - p.step };
            (p.name, p.used(v))
        })
        .collect();
    let all_moved = look(&with(&moved));
    for (i, p) in params.iter().enumerate() {
        let mut one_back = moved.clone();
        one_back[i].1 = p.default;
        assert!(
            look(&with(&one_back)) != all_moved,
            "{}: the parameter {} changes nothing on {} positions of random games",
            A::TITLE,
            p.name,
            positions.len()
        );
    }
}

/// The checks of one registered game, without its types: [`GameKind::checks`](crate::GameKind::checks).
#[derive(Clone, Copy)]
pub struct Checks {
    pub(crate) notation: fn(&[u8]),
    pub(crate) play: fn(&[u8]),
    pub(crate) properties: fn(u64, &[u16]),
    pub(crate) random_play: fn(usize, u64) -> Stats,
    pub(crate) params: fn(usize, u64),
    pub(crate) features: fn(usize, u64),
}

impl Checks {
    /// The checks of `A`.
    pub(crate) fn of<A: GameAdapter>() -> Checks {
        Checks {
            notation: notation::<A>,
            play: play::<A>,
            properties: |seed, choices| {
                notation_round_trips::<A>(seed, choices);
                play_from_is_clone_and_play::<A>(seed, choices);
                repetition_counts::<A>(seed, choices);
            },
            random_play: random_play::<A>,
            params: params::<A>,
            features: features::<A>,
        }
    }

    /// [`features`].
    pub fn features(&self, games: usize, seed: u64) {
        (self.features)(games, seed)
    }

    /// [`params()`](params).
    pub fn params(&self, games: usize, seed: u64) {
        (self.params)(games, seed)
    }

    /// [`notation`].
    pub fn notation(&self, data: &[u8]) {
        (self.notation)(data)
    }

    /// [`play`].
    pub fn play(&self, data: &[u8]) {
        (self.play)(data)
    }

    /// [`notation_round_trips`], [`play_from_is_clone_and_play`] and
    /// [`repetition_counts`].
    pub fn properties(&self, seed: u64, choices: &[u16]) {
        (self.properties)(seed, choices)
    }

    /// [`random_play`].
    pub fn random_play(&self, games: usize, seed: u64) -> Stats {
        (self.random_play)(games, seed)
    }
}

impl std::fmt::Debug for Checks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Checks")
    }
}
