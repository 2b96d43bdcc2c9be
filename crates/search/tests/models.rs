//! Models of the opponents. [`Config::apart`]: the model where the player to move is out
//! of their reach ([`Game::in_contact`] false at the root) replaces the configured
//! algorithm for that search, and only there. [`Evaluator::evaluate_for`]: max^n sees the
//! opponents' entries as the evaluation models them, at every thread count, as its
//! definition does.

use plyforge_search::synthetic::{Spec, Synthetic, SyntheticEval};
use plyforge_search::{
    reference, Algorithm, Config, DrawKind, Evaluator, Game, Limits, MoveList, Outcome, Player,
    Report, Scores, Search, MAX_EVAL,
};

/// A synthetic game whose players are in contact or not, as the test says.
#[derive(Clone)]
struct Reach {
    game: Synthetic,
    contact: bool,
    /// The game's table move at the root (`table_move`), as the game says.
    table: bool,
}

impl Game for Reach {
    type Move = <Synthetic as Game>::Move;
    fn players(&self) -> usize {
        self.game.players()
    }
    fn to_move(&self) -> Player {
        self.game.to_move()
    }
    fn legal_moves(&self, out: &mut MoveList<Self::Move>) {
        self.game.legal_moves(out)
    }
    fn play(&mut self, mv: Self::Move) {
        self.game.play(mv)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn key(&self) -> u64 {
        self.game.key()
    }
    fn recompute_key(&self) -> u64 {
        self.game.recompute_key()
    }
    fn repetition_key(&self) -> u64 {
        self.game.repetition_key()
    }
    fn repetition_rule(&self) -> Option<(u32, Outcome)> {
        self.game.repetition_rule()
    }
    fn noisy_moves(&self, out: &mut MoveList<Self::Move>) {
        self.game.noisy_moves(out)
    }
    fn skip_turn(&mut self) -> bool {
        self.game.skip_turn()
    }
    fn in_contact(&self, _player: Player) -> bool {
        self.contact
    }
    fn table_move(&self) -> Option<Self::Move> {
        // The last legal move, where the search would rarely pick it.
        self.table.then(|| *self.moves().last().expect("a move"))
    }
}

struct ReachEval;

impl Evaluator<Reach> for ReachEval {
    fn evaluate(&self, g: &Reach) -> Scores {
        SyntheticEval.evaluate(&g.game)
    }
    fn draw_scores(&self, g: &Reach, kind: DrawKind) -> Scores {
        SyntheticEval.draw_scores(&g.game, kind)
    }
}

/// The synthetic evaluation for the root player; the others judge by their entry doubled
/// less the root's (an opponent model unlike the evaluation itself).
struct Modelled;

impl Evaluator<Synthetic> for Modelled {
    fn evaluate(&self, g: &Synthetic) -> Scores {
        SyntheticEval.evaluate(g)
    }
    fn evaluate_for(&self, g: &Synthetic, root: Player) -> Scores {
        let mut s = SyntheticEval.evaluate(g);
        let mine = s[root];
        for (p, v) in s.iter_mut().enumerate().take(g.players()) {
            if p != root {
                *v = (2 * *v - mine).clamp(-MAX_EVAL, MAX_EVAL);
            }
        }
        s
    }
}

#[test]
fn max_n_sees_the_opponents_as_the_evaluation_models_them() {
    let mut differ = 0;
    for seed in 0..40 {
        let game = Synthetic::new(Spec {
            seed,
            players: 3,
            length: 12,
            ..Spec::default()
        });
        for depth in 1..=4 {
            let want = reference::maxn(&game, &Modelled, depth, &[], true);
            differ += usize::from(want != reference::maxn(&game, &SyntheticEval, depth, &[], true));
            for threads in [1, 3] {
                let config = Config::default()
                    .with_algorithm(Algorithm::MaxN)
                    .with_threads(threads);
                let got = Search::new(config, Modelled).analyse(&game, Limits::depth(depth));
                assert_eq!(
                    got.scores, want,
                    "seed {seed} depth {depth} threads {threads}"
                );
            }
        }
    }
    assert!(
        differ > 40,
        "the model must change the values to test: {differ}"
    );
}

fn search(game: &Reach, config: &Config) -> Report<<Reach as Game>::Move> {
    Search::new(config.clone().with_tt_mib(4), ReachEval).run(game, &[], Limits::depth(4), |_| {})
}

#[test]
fn apart_searches_with_its_model_only_where_the_player_is_out_of_reach() {
    let paranoid = Config::default().with_algorithm(Algorithm::Paranoid);
    let maxn = Config::default().with_algorithm(Algorithm::MaxN);
    let mixed = paranoid.clone().with_apart(Some(Algorithm::MaxN));
    let mut differ = 0;
    for seed in 0..60 {
        let game = Synthetic::new(Spec {
            seed,
            players: 3,
            length: 12,
            ..Spec::default()
        });
        let near = Reach {
            game,
            contact: true,
            table: false,
        };
        let apart = Reach {
            game,
            contact: false,
            table: false,
        };
        let (p, m) = (search(&near, &paranoid), search(&near, &maxn));
        let (in_reach, out_of_reach) = (search(&near, &mixed), search(&apart, &mixed));
        assert_eq!(
            (in_reach.best, in_reach.score, in_reach.nodes),
            (p.best, p.score, p.nodes),
            "seed {seed}: in contact, the configured algorithm"
        );
        assert_eq!(
            (out_of_reach.best, out_of_reach.scores, out_of_reach.nodes),
            (m.best, m.scores, m.nodes),
            "seed {seed}: out of reach, the apart model"
        );
        differ += usize::from(p.best != m.best || p.nodes != m.nodes);
        // The engine's own algorithm is unchanged by a search apart.
        let mut engine = Search::new(mixed.clone().with_tt_mib(4), ReachEval);
        engine.run(&apart, &[], Limits::depth(2), |_| {});
        assert_eq!(engine.config().algorithm, Algorithm::Paranoid);
    }
    assert!(differ > 20, "the two models must differ to test: {differ}");
}

#[test]
fn games_are_in_contact_and_without_tables_unless_they_say_otherwise() {
    let game = Synthetic::new(Spec::default());
    assert!((0..game.players()).all(|p| game.in_contact(p)));
    assert_eq!(game.table_move(), None);
}

/// [`Config::table_moves`]: where the game knows its move, the search plays it unsearched
/// (depth 0, no nodes, the evaluation's scores); switched off, it searches as ever.
#[test]
fn a_table_move_is_played_without_a_search() {
    let mut differ = 0;
    for seed in 0..30 {
        let game = Synthetic::new(Spec {
            seed,
            players: 3,
            length: 12,
            ..Spec::default()
        });
        if game.outcome().is_some() {
            continue;
        }
        let known = Reach {
            game,
            contact: true,
            table: true,
        };
        let plain = Reach {
            table: false,
            ..known.clone()
        };
        let config = Config::default().with_algorithm(Algorithm::Paranoid);
        let mut seen = Vec::new();
        let r = Search::new(config.clone(), ReachEval)
            .run(&known, &[], Limits::depth(4), |r| seen.push(r.depth));
        assert_eq!(r.best, known.table_move(), "seed {seed}");
        assert_eq!((r.depth, r.nodes, seen), (0, 0, vec![0]));
        assert_eq!(r.scores, ReachEval.evaluate(&known));
        let off = search(&known, &config.clone().with_table_moves(false));
        let searched = search(&plain, &config);
        assert_eq!(
            (off.best, off.score, off.nodes),
            (searched.best, searched.score, searched.nodes)
        );
        differ += usize::from(searched.best != r.best);
    }
    assert!(
        differ > 10,
        "the search must mostly choose otherwise to test: {differ}"
    );
}
