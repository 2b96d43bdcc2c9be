//! The parameters a run tunes or a fit fits: chosen by name from those the game's
//! evaluation declares (and the search's own for an MCTS engine), and engine specifications
//! with values set.

use plyforge::agent::{Kind, Spec};
use plyforge::params::{search_params, Param};
use plyforge::GameAdapter;

use crate::error::Error;

/// The parameters a run can tune with this base spec: the evaluation's, and the search's
/// own for its algorithm.
pub fn available<A: GameAdapter>(base: &Spec) -> Vec<Param> {
    let mut all = A::params();
    all.extend(search_params(&base.config::<A>(None)));
    all
}

/// The value a base spec gives a parameter, if it sets it.
fn base_value(base: &Spec, p: &Param) -> Option<f64> {
    match p.name {
        "c" => base.exploration,
        "bias" => base.bias,
        "scale" => base.scale,
        "playout" => base.playout.map(f64::from),
        name => base
            .params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v),
    }
}

/// The spec text without the keys of `names` (so that the tuned values are the only ones).
pub fn without_keys(text: &str, names: &[&str]) -> String {
    text.split(',')
        .map(str::trim)
        .filter(|part| {
            let key = part.split_once('=').map_or(*part, |(k, _)| k.trim());
            !names.contains(&key)
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The spec text of `base` with the parameters set to `values` (rounded as played).
pub fn spec_text(base: &str, params: &[Param], values: &[f64]) -> String {
    let mut s = base.to_string();
    for (p, &v) in params.iter().zip(values) {
        s.push_str(&format!(",{}={}", p.name, p.show(p.used(v))));
    }
    s
}

/// The parameters chosen by `--param` (all by default) with their start values.
pub fn choose_params<A: GameAdapter>(
    base: &Spec,
    wanted: &[String],
) -> Result<Vec<(Param, f64)>, Error> {
    let all = available::<A>(base);
    if all.is_empty() {
        return Err(Error::settings(format!(
            "{} has no tunable parameters{}",
            A::TITLE,
            if base.kind == Kind::Search(Some(plyforge::search::Algorithm::Mcts)) {
                String::new()
            } else {
                " (its evaluation declares none; an mcts engine has the search's own: c, bias, scale, playout)".to_string()
            }
        )));
    }
    let names = || all.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
    let mut chosen: Vec<(Param, f64)> = Vec::new();
    if wanted.is_empty() {
        for p in &all {
            let start = base_value(base, p).unwrap_or(p.default);
            chosen.push((p.clone(), start));
        }
        return Ok(chosen);
    }
    for w in wanted {
        for item in w.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = match item.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim())),
                None => (item, None),
            };
            let Some(p) = all.iter().find(|p| p.name == name) else {
                return Err(Error::settings(format!(
                    "--param {item}: {} has no parameter {name:?} (its parameters: {})",
                    A::TITLE,
                    names()
                )));
            };
            if chosen.iter().any(|(q, _)| q.name == name) {
                return Err(Error::settings(format!("--param {name}: given twice")));
            }
            let start = match value {
                Some(v) => p
                    .parse(v)
                    .map_err(|e| Error::settings(format!("--param {e}")))?,
                None => base_value(base, p).unwrap_or(p.default),
            };
            chosen.push((p.clone(), start));
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_chosen_by_name_with_their_start_values() {
        use crate::tune::testgame::{Plain, TwoGame};
        let engine = Spec::parse::<TwoGame>("engine,depth=2,wb=30").unwrap();
        let all = choose_params::<TwoGame>(&engine, &[]).unwrap();
        let starts: Vec<(&str, f64)> = all.iter().map(|(p, v)| (p.name, *v)).collect();
        assert_eq!(
            starts,
            [("wa", 10.0), ("wb", 30.0)],
            "the spec's value is the start"
        );
        let one = choose_params::<TwoGame>(&engine, &["wa=12".to_string()]).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].1, 12.0);
        let msg = |r: Result<Vec<(Param, f64)>, Error>| r.expect_err("refused").to_string();
        let e = msg(choose_params::<TwoGame>(&engine, &["wc".to_string()]));
        assert!(
            e.contains("no parameter \"wc\"") && e.contains("wa, wb"),
            "{e}"
        );
        let e = msg(choose_params::<TwoGame>(&engine, &["wa=500".to_string()]));
        assert!(e.contains("between 0 and 100"), "{e}");
        let e = msg(choose_params::<TwoGame>(&engine, &["wa,wa".to_string()]));
        assert!(e.contains("given twice"), "{e}");
        let plain = Spec::parse::<Plain>("engine").unwrap();
        let e = msg(choose_params::<Plain>(&plain, &[]));
        assert!(e.contains("Plain has no tunable parameters"), "{e}");
        // An mcts engine has the search's own parameters, whatever the game.
        let mcts = Spec::parse::<Plain>("mcts,c=0.8").unwrap();
        let m = choose_params::<Plain>(&mcts, &[]).unwrap();
        assert_eq!(m[0].0.name, "c");
        assert_eq!(m[0].1, 0.8);
    }

    #[test]
    fn spec_texts_drop_the_tuned_keys_and_set_them() {
        assert_eq!(
            without_keys("engine, depth=3 ,material=300,eval=default", &["material"]),
            "engine,depth=3,eval=default"
        );
        let p = [
            Param::int("material", 300, 0, 1000, 40, ""),
            Param::real("c", 0.4, 0.0, 4.0, 0.1, ""),
        ];
        assert_eq!(
            spec_text("mcts,nodes=100", &p, &[312.6, 0.45]),
            "mcts,nodes=100,material=313,c=0.45"
        );
    }
}
