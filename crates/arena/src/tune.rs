//! `arena tune`: the lab's tuning ([`lab::tune`]) with what the program says: SPSA by game
//! pairs with a bar (then the verification match and the picture, if asked for), or
//! Texel's fit to recorded games.

use std::path::PathBuf;

use lab::jsonl::Opened;
use lab::tune::texel::{Learned, TexelFit};
use lab::tune::{plot, verify, TexelSettings, TuneOutcome, TuneSettings, Tuning, VerifySettings};
use plyforge::duration::show_duration;
use plyforge::params::show_number;
use plyforge::GameAdapter;

use crate::bars::Bars;
use crate::fail::{outln, Fail};
use crate::matchup::{bold, run_match};

/// An SPSA run with what follows it.
#[derive(Clone, Debug)]
pub(crate) struct Spsa {
    /// The run.
    pub settings: TuneSettings,
    /// Only the final table (no hint line).
    pub quiet: bool,
    /// Then verify the result by a match.
    pub verify: Option<VerifySettings>,
    /// Draw the run here.
    pub svg: Option<PathBuf>,
}

/// What `arena tune` was asked to do.
#[derive(Clone, Debug)]
pub(crate) enum TuneCommand {
    /// SPSA by game pairs (then a verification and a picture, if asked for).
    Spsa(Box<Spsa>),
    /// Texel's method from records.
    Texel(TexelSettings),
}

/// Runs `arena tune` for game `A`.
pub(crate) fn tune<A: GameAdapter>(c: &TuneCommand) -> Result<(), Fail> {
    let o = match c {
        TuneCommand::Texel(t) => return texel::<A>(t),
        TuneCommand::Spsa(o) => o,
    };
    let t = Tuning::<A>::new(&o.settings)?;
    announce(&t);
    let params = t.plan().params.clone();
    let outcome = t.run(&mut Bars::<A>::for_tuning(&params))?;
    report::<A>(o, &outcome);
    let verified = match &o.verify {
        Some(v) => verify_run::<A>(&o.settings, v, &outcome)?,
        None => None,
    };
    let svg = o
        .svg
        .clone()
        .or_else(|| o.settings.out.as_deref().map(|p| p.with_extension("svg")));
    if let Some(path) = svg {
        let verified = match verified {
            Some(file) => Some(verify::read(&file)?),
            None => None,
        };
        let picture = plot::Picture {
            title: format!(
                "{} tune: {} iterations (SPSA), {}",
                A::TITLE,
                outcome.spsa.done,
                outcome.base
            ),
            names: outcome.params.iter().map(|p| p.name).collect(),
            start: outcome.spsa.params.iter().map(|p| p.start).collect(),
            path: &outcome.spsa.path,
            tuned: outcome.tuned_spec(),
            verified,
        };
        std::fs::write(&path, plot::render(&picture))
            .map_err(|e| Fail::runtime(format!("--svg {}: {e}", path.display())))?;
        outln!("picture: {}", path.display());
    }
    Ok(())
}

/// Says what is about to happen: the run, and the schedule's values per parameter.
fn announce<A: GameAdapter>(t: &Tuning<A>) {
    let (o, plan) = (t.settings(), t.plan());
    let h = &plan.header;
    let s = &h.schedule;
    let games = plan.per_iteration();
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    outln!(
        "{} tune (SPSA): {} iterations of {} game{} ({} pair{} x {} seat orders), {}",
        bold(A::TITLE),
        s.iterations,
        games,
        plural(games),
        h.pairs,
        plural(h.pairs),
        plan.cycle.len(),
        match &plan.opponent {
            Some(opp) => format!("theta+ and theta- each against {}", opp.text),
            None => "theta+ against theta-".to_string(),
        }
    );
    outln!(
        "  engine: {} (time {} per move unless it says)",
        plan.base,
        show_duration(o.time)
    );
    outln!(
        "  schedule: alpha {} gamma {} A {} ({} of the iterations); a_k = a/(A+k+1)^alpha, c_k = c/(k+1)^gamma",
        show_number(s.alpha),
        show_number(s.gamma),
        show_number(s.big_a()),
        show_number(s.a_ratio)
    );
    outln!(
        "  {:<20} {:>9} {:>19} {:>8} {:>7} {:>9} {:>10}",
        "parameter",
        "start",
        "range",
        "c_end",
        "r_end",
        "c",
        "a"
    );
    for (p, plan_p) in plan.params.iter().zip(&h.params) {
        outln!(
            "  {:<20} {:>9} {:>19} {:>8} {:>7} {:>9} {:>10}",
            p.name,
            show_number(plan_p.start),
            format!("{}..{}", p.show(p.min), p.show(p.max)),
            show_number(plan_p.c_end),
            show_number(plan_p.r_end),
            show_number(s.c(plan_p)),
            show_number(s.a(plan_p)),
        );
    }
    if let Some(shard) = h.shard {
        outln!("  worker {shard}: the pairs of each iteration whose opening is its own");
    }
    if let Some(path) = &o.out {
        let id = &h.tune_id;
        match t.opened() {
            Some(Opened::Resumed(n)) if n > 0 => outln!(
                "  games to {} (run {id}; {n} games there already)",
                path.display()
            ),
            Some(Opened::NothingToResume) => outln!(
                "  games to {} (run {id}; no such file to resume: a new one)",
                path.display()
            ),
            _ => outln!("  games to {} (run {id})", path.display()),
        }
    }
}

/// The final values: a table and the engine specification.
fn report<A: GameAdapter>(o: &Spsa, r: &TuneOutcome) {
    let s = &r.spsa;
    outln!();
    outln!(
        "{} iterations done ({} games played now, in {})",
        s.done,
        r.played,
        show_duration(r.elapsed)
    );
    outln!(
        "  {:<20} {:>10} {:>12} {:>10}",
        "parameter",
        "start",
        "theta",
        "tuned"
    );
    for (i, p) in r.params.iter().enumerate() {
        outln!(
            "  {:<20} {:>10} {:>12} {:>10}",
            p.name,
            p.show(s.params[i].start),
            show_number(s.theta[i]),
            p.show(p.used(s.theta[i]))
        );
    }
    outln!("tuned: {}", bold(&r.tuned_spec()));
    if !o.quiet {
        outln!(
            "(as an engine: arena match {} --engine '{}' --engine '{}')",
            A::NAME,
            r.tuned_spec(),
            r.start_spec()
        );
    }
}

/// Plays the verification of a finished run and prints its table; its match file.
fn verify_run<A: GameAdapter>(
    o: &TuneSettings,
    v: &VerifySettings,
    r: &TuneOutcome,
) -> Result<Option<PathBuf>, Fail> {
    outln!();
    let Some(m) = verify::verification(o, v, r, A::PLAYERS) else {
        outln!("verify: the tuned values are the start values; nothing to verify");
        return Ok(None);
    };
    outln!(
        "verify: {} against {} on new openings{}",
        m.engines[0],
        m.engines[1],
        match m.sprt {
            Some((e0, e1)) => format!(", SPRT [{e0}, {e1}]"),
            None => " (three players: the table, no test)".to_string(),
        }
    );
    run_match::<A>(&m, true)?;
    Ok(m.out)
}

/// Runs a Texel fit and prints it.
fn texel<A: GameAdapter>(o: &TexelSettings) -> Result<(), Fail> {
    let f = lab::tune::texel::fit::<A>(o)?;
    match &f.learned {
        Learned::Results {
            games,
            decided,
            positions,
        } => outln!(
            "{} Texel fit: {games} games ({decided} won, {} not), {positions} positions from ply {}",
            A::TITLE,
            games - decided,
            o.skip
        ),
        Learned::Moves {
            games,
            seated,
            moves,
        } => outln!(
            "{} move prediction: the moves of {} ({seated} of them seated in the records): {moves} moves of {games} games from ply {}",
            A::TITLE,
            o.predict.join(", "),
            o.skip
        ),
    }
    print_fit(&f);
    Ok(())
}

/// The figures of a fit, and its values (or why there are none).
fn print_fit(f: &TexelFit) {
    let (start_loss, fitted_loss) = f.loss;
    outln!(
        "  temperature {} points per logit (fitted to the start values); log loss {:.4}",
        show_number(f.temperature),
        start_loss
    );
    if let Some((folds, start, fitted)) = f.cross {
        outln!(
            "  cross-validated log loss ({folds} folds of games, each measured with the fit to the others): start {start:.4}, fitted {fitted:.4}",
        );
    }
    outln!("  log loss on all games: start {start_loss:.4}, fitted {fitted_loss:.4}");
    if let Some((before, after)) = f.hits {
        outln!(
            "  moves scored first: start {:.1}%, fitted {:.1}%",
            100.0 * before,
            100.0 * after
        );
    }
    outln!("  {:<20} {:>10} {:>10}", "parameter", "start", "fitted");
    for (i, p) in f.params.iter().enumerate() {
        outln!(
            "  {:<20} {:>10} {:>10}",
            p.name,
            p.show(f.start[i]),
            p.show(f.values[i])
        );
    }
    if !f.informative() {
        outln!(
            "no fit: these records do not tell the parameters apart (the start values' loss {:.4} is chance's, {:.4}, or the temperature ran off): more games, or games of engines that differ, are needed",
            start_loss,
            f.chance
        );
        return;
    }
    outln!("fitted: {}", f.spec);
    outln!(
        "(a fit measures association, not cause: test it with arena match … --sprt, or arena tune … --verify)"
    );
}
