//! Texel's method (`arena tune GAME --records FILES…`). The evaluation's declared
//! parameters are fitted to the results of recorded games: each position of a game (from
//! ply `skip` on) is labelled with the game's result, the evaluation's scores of the
//! players make a prediction by the softmax over players (`P(p wins) = e^{s_p/T} /
//! Σ_q e^{s_q/T}`: for two players with scores `v` and `−v` the logistic of `2v/T`, the
//! classic Texel fit; for three the multinomial fit), and the parameters move to lower the
//! mean log loss. A draw (or both winning or losing) is labelled ½ each (⅓ with three).
//!
//! The temperature `T` is fitted first to the start values and then held (Texel's `K`),
//! so that the fit changes what the evaluation says, not its scale. The fit is Texel's
//! local search: each parameter in turn tries a step up and a step down and keeps what
//! lowers the loss; a pass without a gain halves the steps, down to a whole unit (a tenth
//! of the declared step for real numbers). Cross-validation (`--folds K`): the games are
//! split into K folds; each fold's held-out loss is measured with the values fitted to the
//! others, beside the start values' — a fit that only learns its own games shows there.
//! Records that do not tell the parameters apart (the fitted temperature runs off, the loss
//! stays at chance) make a fit without information ([`TexelFit::informative`]).
//!
//! Move prediction (`--predict NAME…`): the parameters are fitted to the moves that the
//! named players chose instead (an opponent model learned from their games): at each of
//! their turns the legal moves' resulting positions are scored for the mover, and the
//! softmax of those scores (`P(m) = e^{s(m)/T} / Σ e^{s(m')/T}`) predicts the move played.
//! The records must name each game's seats: text records, whose header holds
//! `LETTER: NAME, …` (`arena match --record`) or `LETTER=NAME …` (the course referee
//! harness's `--record`), one entry per seat with the player's letter.
//!
//! Records: match files (`arena match --out`), tune files (`arena tune --out`), and text
//! records (`arena match --record`, the course referee harness's `--record`: a `# …` line per
//! game with `result: …` and optionally `start: POSITION`, then one move per line).

use std::path::PathBuf;

use plyforge::params::Param;
use plyforge::search::{Evaluator, Game};
use plyforge::GameAdapter;

use super::params::{choose_params, spec_text, without_keys};
use crate::error::Error;
use crate::records::{read_file, replay, target, RecordGame};

/// The settings of a fit; each is `arena tune --records`'s option of the same name
/// (`skip` is `--skip-plies`).
#[derive(Clone, Debug)]
pub struct TexelSettings {
    /// The record files.
    pub files: Vec<PathBuf>,
    /// `--param` (empty: every evaluation parameter).
    pub params: Vec<String>,
    /// The engine spec: the evaluation and the start values.
    pub engine: Option<String>,
    /// Folds of cross-validation (0: none).
    pub folds: usize,
    /// The first ply of a game that counts.
    pub skip: usize,
    /// The most passes of the local search.
    pub rounds: usize,
    /// Fit to the moves of the players with these names (empty: to the results).
    pub predict: Vec<String>,
}

/// One labelled position.
struct Sample<P> {
    pos: P,
    /// The chance of each player's win that the result gives.
    target: [f64; 3],
    game: usize,
}

/// The labelled positions of the games.
fn samples<A: GameAdapter>(
    games: &[RecordGame],
    skip: usize,
) -> Result<Vec<Sample<A::Pos>>, Error> {
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let target = target::<A>(&g.result).ok_or_else(|| {
            g.fault(format!(
                "the result {:?} is not one of {}'s",
                g.result,
                A::TITLE
            ))
        })?;
        replay::<A>(g, |ply, pos, _| {
            if ply >= skip {
                out.push(Sample {
                    pos: pos.clone(),
                    target,
                    game: i,
                });
            }
        })?;
    }
    Ok(out)
}

/// One move chosen by a predicted player: the positions its legal moves lead to are
/// `children[first..first + len]`, the one played is `first + chosen`.
#[derive(Clone, Copy, Debug)]
struct Choice {
    first: usize,
    len: usize,
    chosen: usize,
    mover: usize,
    game: usize,
}

/// The moves of the players named `who` (from ply `skip` on), with the positions each of
/// their legal moves leads to.
fn choices<A: GameAdapter>(
    games: &[RecordGame],
    who: &[String],
    skip: usize,
) -> Result<(Vec<A::Pos>, Vec<Choice>), Error> {
    let (mut children, mut out) = (Vec::new(), Vec::new());
    for (i, g) in games.iter().enumerate() {
        replay::<A>(g, |ply, pos, mv| {
            let mover = pos.to_move();
            if ply < skip || !g.seats.get(mover).is_some_and(|n| who.contains(n)) {
                return;
            }
            let moves = pos.moves();
            if moves.len() < 2 {
                return;
            }
            let first = children.len();
            for &m in moves.iter() {
                let mut child = pos.clone();
                child.play(m);
                children.push(child);
            }
            out.push(Choice {
                first,
                len: moves.len(),
                chosen: moves.iter().position(|&m| m == mv).expect("a legal move"),
                mover,
                game: i,
            });
        })?;
    }
    Ok((children, out))
}

/// The mean log loss of the moves' softmax at temperature `t` (`scores[i]` the scores of
/// child `i`, each choice's entries for its mover).
fn move_loss(scores: &[[i32; 3]], choices: &[Choice], t: f64) -> f64 {
    let mut total = 0.0;
    for c in choices {
        let z = |i: usize| f64::from(scores[c.first + i][c.mover]) / t;
        let m = (0..c.len).map(z).fold(f64::NEG_INFINITY, f64::max);
        let lse = m + (0..c.len).map(|i| (z(i) - m).exp()).sum::<f64>().ln();
        total -= z(c.chosen) - lse;
    }
    total / choices.len().max(1) as f64
}

/// The share of the choices where the played move scored highest (ties shared).
fn hit_rate(scores: &[[i32; 3]], choices: &[Choice]) -> f64 {
    let mut hits = 0.0;
    for c in choices {
        let s = |i: usize| scores[c.first + i][c.mover];
        let best = (0..c.len).map(s).max().unwrap_or(0);
        if s(c.chosen) == best {
            hits += 1.0 / (0..c.len).filter(|&i| s(i) == best).count() as f64;
        }
    }
    hits / choices.len().max(1) as f64
}

/// The mean log loss of an evaluation's softmax at temperature `t` over the samples
/// (`scores[i]` the scores of sample `i`).
fn loss(scores: &[[i32; 3]], samples: &[&[f64; 3]], players: usize, t: f64) -> f64 {
    let mut total = 0.0;
    for (s, target) in scores.iter().zip(samples) {
        let z: Vec<f64> = (0..players).map(|p| f64::from(s[p]) / t).collect();
        let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lse = m + z.iter().map(|x| (x - m).exp()).sum::<f64>().ln();
        for p in 0..players {
            if target[p] > 0.0 {
                total -= target[p] * (z[p] - lse);
            }
        }
    }
    total / scores.len().max(1) as f64
}

/// The evaluation's scores of the samples, on every core.
fn score_all<A: GameAdapter>(eval: &A::Eval, positions: &[&A::Pos]) -> Vec<[i32; 3]> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = positions.len().div_ceil(cores).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|c| scope.spawn(move || c.iter().map(|p| eval.evaluate(p)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a scoring thread"))
            .collect()
    })
}

/// What a fit predicts: each position's result, or the moves chosen (the positions are
/// then the moves' children, `Choice::first` indexing them).
enum Targets<'a> {
    Results(Vec<&'a [f64; 3]>),
    Moves(Vec<Choice>),
}

/// A fit: the evaluation's name, its parameters and the samples it learns from.
struct Fit<'a, A: GameAdapter> {
    eval: &'a str,
    params: &'a [Param],
    positions: Vec<&'a A::Pos>,
    targets: Targets<'a>,
}

impl<'a, A: GameAdapter> Fit<'a, A> {
    fn new(eval: &'a str, params: &'a [Param], samples: &[&'a Sample<A::Pos>]) -> Self {
        Fit {
            eval,
            params,
            positions: samples.iter().map(|s| &s.pos).collect(),
            targets: Targets::Results(samples.iter().map(|s| &s.target).collect()),
        }
    }

    /// A fit to the moves `choices` (whose children are in `children`).
    fn moves(
        eval: &'a str,
        params: &'a [Param],
        children: &'a [A::Pos],
        choices: &[&Choice],
    ) -> Self {
        let mut positions = Vec::new();
        let mut own = Vec::new();
        for c in choices {
            own.push(Choice {
                first: positions.len(),
                ..**c
            });
            positions.extend(&children[c.first..c.first + c.len]);
        }
        Fit {
            eval,
            params,
            positions,
            targets: Targets::Moves(own),
        }
    }

    /// How many samples the fit has (positions, or moves chosen).
    fn len(&self) -> usize {
        match &self.targets {
            Targets::Results(t) => t.len(),
            Targets::Moves(c) => c.len(),
        }
    }

    /// The loss of `scores` (of the fit's positions) at temperature `t`.
    fn loss_of(&self, scores: &[[i32; 3]], t: f64) -> f64 {
        match &self.targets {
            Targets::Results(targets) => loss(scores, targets, A::PLAYERS, t),
            Targets::Moves(choices) => move_loss(scores, choices, t),
        }
    }

    /// The share of the moves that the values' scores put first (`None` for results).
    fn hits(&self, values: &[f64]) -> Result<Option<f64>, Error> {
        match &self.targets {
            Targets::Results(_) => Ok(None),
            Targets::Moves(choices) => Ok(Some(hit_rate(&self.scores(values)?, choices))),
        }
    }

    fn scores(&self, values: &[f64]) -> Result<Vec<[i32; 3]>, Error> {
        let set: Vec<(&'static str, f64)> = self
            .params
            .iter()
            .zip(values)
            .map(|(p, &v)| (p.name, p.used(v)))
            .collect();
        let eval = A::evaluator_with(self.eval, &set)
            .map_err(|e| Error::settings(format!("eval={}: {e}", self.eval)))?;
        Ok(score_all::<A>(&eval, &self.positions))
    }

    fn loss(&self, values: &[f64], t: f64) -> Result<f64, Error> {
        Ok(self.loss_of(&self.scores(values)?, t))
    }

    /// The temperature that fits `values` best: a scan over powers of 2^(1/4), then a
    /// golden-section refinement.
    fn temperature(&self, values: &[f64]) -> Result<f64, Error> {
        let scores = self.scores(values)?;
        let f = |t: f64| self.loss_of(&scores, t);
        let (mut best, mut best_l) = (1.0, f64::INFINITY);
        let mut t = 0.5;
        while t < 1e7 {
            let l = f(t);
            if l < best_l {
                (best, best_l) = (t, l);
            }
            t *= 2f64.powf(0.25);
        }
        let (mut a, mut b) = (best / 2f64.powf(0.25), best * 2f64.powf(0.25));
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let c = b - g * (b - a);
            let d = a + g * (b - a);
            if f(c) < f(d) {
                b = d;
            } else {
                a = c;
            }
        }
        Ok((a + b) / 2.0)
    }

    /// Texel's local search from `start` at temperature `t`.
    fn local_search(&self, start: &[f64], t: f64, rounds: usize) -> Result<(Vec<f64>, f64), Error> {
        let mut values: Vec<f64> = start.to_vec();
        let mut best = self.loss(&values, t)?;
        let mut steps: Vec<f64> = self.params.iter().map(|p| p.step).collect();
        let floor: Vec<f64> = self
            .params
            .iter()
            .map(|p| if p.integer { 1.0 } else { p.step / 10.0 })
            .collect();
        for _ in 0..rounds {
            let mut gained = false;
            for i in 0..values.len() {
                let p = &self.params[i];
                for dir in [1.0, -1.0] {
                    let v = p.used(values[i] + dir * steps[i]);
                    if v == values[i] {
                        continue;
                    }
                    let mut trial = values.clone();
                    trial[i] = v;
                    let l = self.loss(&trial, t)?;
                    if l < best - 1e-12 {
                        best = l;
                        values = trial;
                        gained = true;
                        break;
                    }
                }
            }
            if !gained {
                let mut smaller = false;
                for (s, f) in steps.iter_mut().zip(&floor) {
                    if *s > *f {
                        *s = (*s / 2.0).max(*f);
                        smaller = true;
                    }
                }
                if !smaller {
                    break;
                }
            }
        }
        Ok((values, best))
    }
}

/// What the fit learned from: the games' results, or the moves of named players.
#[derive(Clone, Debug, PartialEq)]
pub enum Learned {
    /// The results of the games.
    Results {
        /// Games read.
        games: usize,
        /// Of them, games with a winner.
        decided: usize,
        /// Positions labelled (from ply `skip` on).
        positions: usize,
    },
    /// The moves that the named players chose.
    Moves {
        /// Games read.
        games: usize,
        /// How many of the names sat in some game.
        seated: usize,
        /// Their moves with a choice (from ply `skip` on).
        moves: usize,
    },
}

/// A finished fit: the values, and how well the start and the fitted values predict.
#[derive(Clone, Debug)]
pub struct TexelFit {
    /// What it learned from.
    pub learned: Learned,
    /// The temperature (points per logit), fitted to the start values.
    pub temperature: f64,
    /// The parameters fitted.
    pub params: Vec<Param>,
    /// Their start values.
    pub start: Vec<f64>,
    /// The fitted values (as played: rounded to the parameters' units).
    pub values: Vec<f64>,
    /// The mean log loss of the start values and of the fitted values, on every game.
    pub loss: (f64, f64),
    /// Cross-validation: the folds, and the held-out loss of the start values and of the
    /// values fitted to the other folds.
    pub cross: Option<(usize, f64, f64)>,
    /// For a fit to moves: the share of the moves scored first with the start values and
    /// with the fitted values.
    pub hits: Option<(f64, f64)>,
    /// The engine specification with the fitted values.
    pub spec: String,
    /// The mean log loss of a prediction that knows nothing (every outcome, or every legal
    /// move, alike).
    pub chance: f64,
}

impl TexelFit {
    /// False when the records do not tell the parameters apart: the start values' loss is
    /// that of knowing nothing, or the temperature ran off to the end of its scale (the
    /// scores say nothing of the results). The fitted values then mean nothing.
    pub fn informative(&self) -> bool {
        self.temperature < 1e6 && self.loss.0 < self.chance - 1e-3
    }
}

/// The parameters a fit fits (the evaluation's only) and the base spec.
fn fit_params<A: GameAdapter>(
    o: &TexelSettings,
) -> Result<(plyforge::agent::Spec, Vec<Param>, Vec<f64>), Error> {
    let base_text = o.engine.clone().unwrap_or_else(|| "engine".to_string());
    let base = plyforge::agent::Spec::parse::<A>(&base_text)
        .map_err(|e| Error::settings(format!("--engine {base_text:?}: {}", e.reason())))?;
    let chosen = choose_params::<A>(&base, &o.params)?;
    let eval_names: Vec<&str> = A::params().iter().map(|p| p.name).collect();
    if let Some((p, _)) = chosen.iter().find(|(p, _)| !eval_names.contains(&p.name)) {
        return Err(Error::settings(format!(
            "--param {}: a setting of the search; --records fits the evaluation's parameters ({})",
            p.name,
            if eval_names.is_empty() {
                format!("{} declares none", A::TITLE)
            } else {
                eval_names.join(", ")
            }
        )));
    }
    if o.folds == 1 || o.folds > 20 {
        return Err(Error::settings("--folds: 0 (none) or between 2 and 20"));
    }
    let params = chosen.iter().map(|(p, _)| p.clone()).collect();
    let start = chosen.iter().map(|(_, v)| *v).collect();
    Ok((base, params, start))
}

/// How a text record names the seats of game `A`: `r: NAME, g: NAME, b: NAME` and
/// `r=NAME g=NAME b=NAME` with its players' letters.
fn seats_forms<A: GameAdapter>() -> (String, String) {
    let letters: Vec<&str> = (0..A::PLAYERS).map(A::player_letter).collect();
    let colon: Vec<String> = letters.iter().map(|l| format!("{l}: NAME")).collect();
    let equals: Vec<String> = letters.iter().map(|l| format!("{l}=NAME")).collect();
    (colon.join(", "), equals.join(" "))
}

/// What a fit learns from: the labelled positions, or the predicted players' moves with
/// the positions each of their legal moves leads to.
struct Data<P> {
    samples: Vec<Sample<P>>,
    children: Vec<P>,
    picks: Vec<Choice>,
    learned: Learned,
}

/// Reads the records and makes the fit's data, refusing too little of it.
fn data<A: GameAdapter>(o: &TexelSettings) -> Result<Data<A::Pos>, Error> {
    let mut games = Vec::new();
    for f in &o.files {
        read_file(f, A::NAME, &mut games)?;
    }
    if o.predict.is_empty() {
        let samples = samples::<A>(&games, o.skip)?;
        let decided = games
            .iter()
            .filter(|g| g.result.starts_with("winner"))
            .count();
        if games.len() < 2 || samples.is_empty() {
            return Err(Error::settings(format!(
                "{} games with {} positions: too few to fit",
                games.len(),
                samples.len()
            )));
        }
        let learned = Learned::Results {
            games: games.len(),
            decided,
            positions: samples.len(),
        };
        return Ok(Data {
            samples,
            children: Vec::new(),
            picks: Vec::new(),
            learned,
        });
    }
    if !games.iter().any(|g| !g.seats.is_empty()) {
        let (colon, equals) = seats_forms::<A>();
        return Err(Error::settings(format!(
            "--predict: no game of the records names its seats (a text record's header field `{colon}` as `arena match --record` writes it, or `{equals}` as the course referee harness's --record does)",
        )));
    }
    let (children, picks) = choices::<A>(&games, &o.predict, o.skip)?;
    if picks.is_empty() {
        return Err(Error::settings(format!(
            "--predict {}: no move of theirs with a choice in the records",
            o.predict.join(" ")
        )));
    }
    let seated = o
        .predict
        .iter()
        .filter(|n| games.iter().any(|g| g.seats.contains(n)))
        .count();
    let learned = Learned::Moves {
        games: games.len(),
        seated,
        moves: picks.len(),
    };
    Ok(Data {
        samples: Vec::new(),
        children,
        picks,
        learned,
    })
}

impl<P> Data<P> {
    /// The mean log loss of knowing nothing: ln(players) per result, ln(moves) per choice.
    fn chance(&self, players: usize) -> f64 {
        if self.picks.is_empty() {
            return (players as f64).ln();
        }
        let total: f64 = self.picks.iter().map(|c| (c.len as f64).ln()).sum();
        total / self.picks.len() as f64
    }
}

/// The fit to the games that a filter keeps (by their index).
type Subset<'s, 'a, A> = &'s dyn Fn(&dyn Fn(usize) -> bool) -> Fit<'a, A>;

/// Cross-validation over `folds` folds of games: the held-out loss of the start values and
/// of the values fitted to the other folds.
fn cross_validate<'a, A: GameAdapter>(
    subset: Subset<'_, 'a, A>,
    start: &[f64],
    folds: usize,
    rounds: usize,
) -> Result<Option<(usize, f64, f64)>, Error> {
    let (mut held_start, mut held_fit) = (0.0, 0.0);
    let mut counted = 0.0;
    for k in 0..folds {
        let fit_k = subset(&|g| g % folds != k);
        let test_fit = subset(&|g| g % folds == k);
        if fit_k.positions.is_empty() || test_fit.positions.is_empty() {
            continue;
        }
        let t_k = fit_k.temperature(start)?;
        let (values, _) = fit_k.local_search(start, t_k, rounds)?;
        let w = test_fit.len() as f64;
        held_start += test_fit.loss(start, t_k)? * w;
        held_fit += test_fit.loss(&values, t_k)? * w;
        counted += w;
    }
    Ok((counted > 0.0).then(|| (folds, held_start / counted, held_fit / counted)))
}

/// Fits the evaluation's parameters to the records (Texel's method): the results of their
/// games, or the moves of the players `o.predict` names.
pub fn fit<A: GameAdapter>(o: &TexelSettings) -> Result<TexelFit, Error> {
    let (base, params, start) = fit_params::<A>(o)?;
    let eval = base
        .eval
        .clone()
        .unwrap_or_else(|| A::evaluator_names()[0].to_string());
    let data = data::<A>(o)?;
    // The fit to the games that `keep` keeps (by their index).
    let subset = |keep: &dyn Fn(usize) -> bool| -> Fit<'_, A> {
        if o.predict.is_empty() {
            let chosen: Vec<&Sample<A::Pos>> =
                data.samples.iter().filter(|s| keep(s.game)).collect();
            Fit::<A>::new(&eval, &params, &chosen)
        } else {
            let chosen: Vec<&Choice> = data.picks.iter().filter(|c| keep(c.game)).collect();
            Fit::<A>::moves(&eval, &params, &data.children, &chosen)
        }
    };
    let all = subset(&|_| true);
    let t = all.temperature(&start)?;
    let start_loss = all.loss(&start, t)?;
    let cross = if o.folds >= 2 {
        cross_validate::<A>(&subset, &start, o.folds, o.rounds)?
    } else {
        None
    };
    let (values, fitted_loss) = all.local_search(&start, t, o.rounds)?;
    let hits = match (all.hits(&start)?, all.hits(&values)?) {
        (Some(before), Some(after)) => Some((before, after)),
        _ => None,
    };
    let names: Vec<&str> = params.iter().map(|p| p.name).collect();
    let base_clean = without_keys(base.text.trim(), &names);
    let values: Vec<f64> = params
        .iter()
        .zip(&values)
        .map(|(p, &v)| p.used(v))
        .collect();
    Ok(TexelFit {
        learned: data.learned.clone(),
        temperature: t,
        spec: spec_text(&base_clean, &params, &values),
        chance: data.chance(A::PLAYERS),
        params: params.clone(),
        start,
        values,
        loss: (start_loss, fitted_loss),
        cross,
        hits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::testgame::{Two, TwoGame};
    use plyforge::search::rng::XorShift64Star as Rng;

    #[test]
    fn the_fit_finds_the_weights_that_made_the_results() {
        // Who won was drawn from the logistic of 0.3·a + 0.1·b: the right weights are three
        // to one, and the start (ten and ten) says one to one.
        let mut rng = Rng::seeded(3);
        let mut data = Vec::new();
        for i in 0..6000 {
            let pos = Two {
                a: rng.below(21) as i32 - 10,
                b: rng.below(21) as i32 - 10,
            };
            let p = 1.0 / (1.0 + (-(0.3 * f64::from(pos.a) + 0.1 * f64::from(pos.b))).exp());
            let won = (rng.below(1_000_000) as f64) < p * 1e6;
            let target = if won {
                [1.0, 0.0, 0.0]
            } else {
                [0.0, 1.0, 0.0]
            };
            data.push(Sample {
                pos,
                target,
                game: i,
            });
        }
        let params = TwoGame::params();
        let all: Vec<&Sample<Two>> = data.iter().collect();
        fits_three_to_one(&Fit::<TwoGame>::new("default", &params, &all));
    }

    /// Fits from ten and ten (one to one), checks that the loss falls and that the fit
    /// finds three to one; the fitted values.
    fn fits_three_to_one(fit: &Fit<'_, TwoGame>) -> Vec<f64> {
        let start = [10.0, 10.0];
        let t = fit.temperature(&start).unwrap();
        let before = fit.loss(&start, t).unwrap();
        let (values, after) = fit.local_search(&start, t, 60).unwrap();
        assert!(after < before - 0.01, "{before} -> {after}");
        let ratio = values[0] / values[1];
        assert!(
            (2.4..=3.8).contains(&ratio),
            "fitted {values:?}: ratio {ratio}"
        );
        values
    }

    #[test]
    fn the_move_fit_finds_the_weights_that_chose_the_moves() {
        // Each move chosen among five children by the softmax of 0.3·a + 0.1·b: three to one.
        let mut rng = Rng::seeded(5);
        let (mut children, mut choices) = (Vec::new(), Vec::new());
        for game in 0..4000 {
            let first = children.len();
            let mut weights = Vec::new();
            for _ in 0..5 {
                let c = Two {
                    a: rng.below(21) as i32 - 10,
                    b: rng.below(21) as i32 - 10,
                };
                weights.push((0.3 * f64::from(c.a) + 0.1 * f64::from(c.b)).exp());
                children.push(c);
            }
            let mut x = rng.below(1_000_000) as f64 / 1e6 * weights.iter().sum::<f64>();
            let mut chosen = 4;
            for (i, w) in weights.iter().enumerate() {
                if x < *w {
                    chosen = i;
                    break;
                }
                x -= w;
            }
            choices.push(Choice {
                first,
                len: 5,
                chosen,
                mover: 0,
                game,
            });
        }
        let params = TwoGame::params();
        let refs: Vec<&Choice> = choices.iter().collect();
        let fit = Fit::<TwoGame>::moves("default", &params, &children, &refs);
        let values = fits_three_to_one(&fit);
        // The fitted weights put the chosen move first more often than the start's.
        let (h0, h1) = (fit.hits(&[10.0, 10.0]).unwrap(), fit.hits(&values).unwrap());
        assert!(h1.unwrap() > h0.unwrap(), "{h0:?} -> {h1:?}");
    }

    #[test]
    fn a_move_s_loss_and_hit_are_those_of_the_softmax_over_its_children() {
        // Two children scored 0 and 100 for the mover (player 1) at T = 100: the second
        // played has P = e / (1 + e); the first, a miss.
        let scores = [[0, 0, 0], [0, 100, 0]];
        let c = |chosen| Choice {
            first: 0,
            len: 2,
            chosen,
            mover: 1,
            game: 0,
        };
        let p = 1f64.exp() / (1.0 + 1f64.exp());
        assert!((move_loss(&scores, &[c(1)], 100.0) + p.ln()).abs() < 1e-12);
        assert!((move_loss(&scores, &[c(0)], 100.0) + (1.0 - p).ln()).abs() < 1e-12);
        assert_eq!(hit_rate(&scores, &[c(1)]), 1.0);
        assert_eq!(hit_rate(&scores, &[c(0)]), 0.0);
        // A tie for first shares the hit.
        assert_eq!(hit_rate(&[[0; 3], [0; 3]], &[c(0)]), 0.5);
    }

    #[test]
    fn seats_are_read_from_either_header() {
        let names = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            crate::records::seats_field(" r=arena_player g=flying_solo b=max "),
            names(&["arena_player", "flying_solo", "max"])
        );
        assert_eq!(
            crate::records::seats_field(" r: greedy, g: random, b: engine,depth=1 "),
            names(&["greedy", "random", "engine,depth=1"])
        );
        for other in [
            " result: winner b ",
            " seed 33 opening 0 ",
            " start: start ",
            " x=1 ",
        ] {
            assert_eq!(crate::records::seats_field(other), None, "{other}");
        }
    }

    #[test]
    fn the_loss_of_a_sure_prediction_is_small_and_of_a_wrong_one_large() {
        let win0 = [1.0, 0.0, 0.0];
        let draw = [0.5, 0.5, 0.0];
        // Two players, v = 400 for player 0 at T = 100: P0 = logistic(8).
        let l = loss(&[[400, -400, 0]], &[&win0], 2, 100.0);
        assert!((l - (1.0 + (-8f64).exp()).ln()).abs() < 1e-12, "{l}");
        let wrong = loss(&[[-400, 400, 0]], &[&win0], 2, 100.0);
        assert!(wrong > 7.9, "{wrong}");
        // A draw at equal scores: ln 2.
        let d = loss(&[[0, 0, 0]], &[&draw], 2, 100.0);
        assert!((d - 2f64.ln()).abs() < 1e-12);
        // Three players at equal scores: ln 3 whoever won.
        let three = loss(&[[5, 5, 5]], &[&[0.0, 0.0, 1.0]], 3, 50.0);
        assert!((three - 3f64.ln()).abs() < 1e-12);
    }
}
