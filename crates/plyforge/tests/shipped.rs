//! A network a game ships (`GameAdapter::network`): the evaluation of the alpha-beta
//! family's engines whose specification names none, not of MCTS, the greedy player or a
//! spec that names an evaluation or sets its parameters; its searches are the network's
//! (the same as `eval=net:FILE` with the same bytes); a run's identity names it by its
//! bytes; bytes that are not the game's network are refused with the reason.

use std::sync::OnceLock;

use plyforge::agent::{Agent, Spec};
use plyforge::encoding::{Encoded, Encoding, FeatureChanges};
use plyforge::games::{Jumpy3, Throne};
use plyforge::learn::sparse::{SparseNet, SparseShape};
use plyforge::learned::{self, SHIPPED};
use plyforge::search::{Limits, Player, Record};
use plyforge::GameAdapter;

type Pos = <Jumpy3 as GameAdapter>::Pos;
type Move = <Jumpy3 as GameAdapter>::Move;

/// The bytes of an untrained sparse network of game `name` with Jumpy3's features.
fn network_bytes(name: &str, seed: u64) -> Vec<u8> {
    let shape = SparseShape {
        features: <Jumpy3 as Encoding>::FEATURES,
        width: 32,
        perspectives: 1,
        l2: None,
        outputs: 2,
    };
    SparseNet::new(name, shape, seed)
        .expect("a shape")
        .to_bytes()
}

/// Jumpy3's rules under another name, shipping a network of its own (or, with
/// `FOREIGN`, one of another game).
struct Shipping<const FOREIGN: bool>;

impl<const FOREIGN: bool> GameAdapter for Shipping<FOREIGN> {
    type Pos = Pos;
    type Move = Move;
    type Eval = <Jumpy3 as GameAdapter>::Eval;
    const NAME: &'static str = "shipping";
    const TITLE: &'static str = "Jumpy3 with a network";
    const PLAYERS: usize = 2;
    fn start() -> Pos {
        Jumpy3::start()
    }
    fn player_letter(p: Player) -> &'static str {
        Jumpy3::player_letter(p)
    }
    fn player_name(p: Player) -> &'static str {
        Jumpy3::player_name(p)
    }
    fn default_eval() -> Self::Eval {
        Jumpy3::default_eval()
    }
    fn encoding() -> Option<Encoded<Self>> {
        Some(Encoded::new())
    }
    fn network() -> Option<&'static [u8]> {
        static OWN: OnceLock<Vec<u8>> = OnceLock::new();
        static FOREIGN_NET: OnceLock<Vec<u8>> = OnceLock::new();
        Some(if FOREIGN {
            FOREIGN_NET.get_or_init(|| network_bytes("jumpy3", 5))
        } else {
            OWN.get_or_init(|| network_bytes("shipping", 5))
        })
    }
}

impl<const FOREIGN: bool> Encoding for Shipping<FOREIGN> {
    const ACTIONS: usize = <Jumpy3 as Encoding>::ACTIONS;
    const SHAPE: &'static [usize] = <Jumpy3 as Encoding>::SHAPE;
    const FEATURES: usize = <Jumpy3 as Encoding>::FEATURES;
    const OBSERVED_FEATURES: bool = <Jumpy3 as Encoding>::OBSERVED_FEATURES;
    fn action(mv: Move) -> Option<usize> {
        Jumpy3::action(mv)
    }
    fn decode(action: usize) -> Option<Move> {
        Jumpy3::decode(action)
    }
    fn observe(pos: &Pos, player: Player, out: &mut [f32]) {
        Jumpy3::observe(pos, player, out)
    }
    fn features(pos: &Pos, player: Player, out: &mut Vec<u32>) {
        Jumpy3::features(pos, player, out)
    }
    fn feature_changes(
        before: &Pos,
        after: &Pos,
        player: Player,
        changes: &mut FeatureChanges,
    ) -> bool {
        Jumpy3::feature_changes(before, after, player, changes)
    }
}

type Own = Shipping<false>;

#[test]
fn the_alpha_beta_family_evaluates_with_the_shipped_network_unless_told_otherwise() {
    for text in [
        "engine",
        "alphabeta,depth=3",
        "engine,threads=2",
        "paranoid",
    ] {
        let spec = Spec::parse::<Own>(text).unwrap();
        let net = spec
            .net
            .as_ref()
            .unwrap_or_else(|| panic!("{text}: no net"));
        assert_eq!(net.path, SHIPPED, "{text}");
        assert!(
            spec.identity().contains("eval=net#"),
            "{text}: {}",
            spec.identity()
        );
    }
    for text in [
        "engine,eval=default",
        "mcts",
        "greedy",
        "random",
        "engine,eval=zero",
    ] {
        let spec = Spec::parse::<Own>(text).unwrap();
        assert!(spec.net.is_none(), "{text}: a network");
        assert_eq!(spec.identity(), text);
    }
    // What front ends play with when nobody names an engine.
    let recommended = Spec::recommended::<Own>().unwrap();
    assert_eq!(recommended.net.map(|n| n.path), Some(SHIPPED.to_string()));
    // A game that ships none keeps its hand-made evaluation.
    assert!(Spec::parse::<Throne>("engine").unwrap().net.is_none());
    assert!(learned::shipped::<Throne>().is_none());
}

#[test]
fn the_shipped_network_searches_as_the_same_bytes_from_a_file() {
    let dir = std::env::temp_dir().join(format!("plyforge-shipped-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("net.safetensors");
    std::fs::write(&file, Own::network().unwrap()).unwrap();
    let shipped = Spec::parse::<Own>("engine,depth=6").unwrap();
    let named = Spec::parse::<Own>(&format!("engine,depth=6,eval=net:{}", file.display())).unwrap();
    let own = Spec::parse::<Own>("engine,depth=6,eval=default").unwrap();
    let record = Record::new(Own::start());
    let search = |spec: &Spec| {
        let mut agent = Agent::<Own>::new(spec, Limits::depth(6), Some(1), 1);
        let (best, report) = agent.choose(&record, |_| {});
        let report = report.expect("a search");
        (best, report.score, report.nodes)
    };
    assert_eq!(search(&shipped), search(&named));
    // Both name the network by its bytes.
    assert_eq!(shipped.identity(), named.identity());
    assert_ne!(
        search(&shipped),
        search(&own),
        "the hand-made evaluation's search"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shipped_network_of_another_game_is_refused_with_the_reason() {
    let err = Spec::parse::<Shipping<true>>("engine")
        .unwrap_err()
        .to_string();
    assert!(err.contains("the game's shipped network"), "{err}");
    assert!(err.contains("jumpy3"), "{err}");
    // Asking for the hand-made evaluation does not read it.
    assert!(Spec::parse::<Shipping<true>>("engine,eval=default").is_ok());
    assert!(learned::shipped::<Shipping<true>>().unwrap().is_err());
}

#[test]
fn our_games_that_ship_a_network_load_it_and_search_with_it() {
    use plyforge::games::ChaosClock;
    use plyforge::search::Game;
    // Chaos Clock ships one: it loads against its game and is what `engine` and `maxn`
    // search with; `eval=default` keeps the hand-made evaluation.
    let loaded = learned::shipped::<ChaosClock>().expect("Chaos Clock ships a network");
    assert!(loaded.is_ok(), "{:?}", loaded.err());
    for text in ["engine", "maxn"] {
        let spec = Spec::parse::<ChaosClock>(text).unwrap();
        assert_eq!(
            spec.net.map(|n| n.path),
            Some(SHIPPED.to_string()),
            "{text}"
        );
    }
    assert!(Spec::parse::<ChaosClock>("engine,eval=default")
        .unwrap()
        .net
        .is_none());
    // Its search from the start gives a legal move, and other values than the hand-made
    // evaluation's (max^n's tree does not depend on the values: the same nodes).
    let record = Record::new(ChaosClock::start());
    let search = |text: &str| {
        let spec = Spec::parse::<ChaosClock>(text).unwrap();
        let mut agent = Agent::<ChaosClock>::new(&spec, Limits::depth(6), Some(1), 1);
        let (best, report) = agent.choose(&record, |_| {});
        (best, report.expect("a search").score)
    };
    let (best, score) = search("engine");
    assert!(ChaosClock::start().moves().contains(&best.expect("a move")));
    assert_ne!(score, search("engine,eval=default").1);
}
