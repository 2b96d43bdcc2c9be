//! The COMP30024 course-referee agent (integrations/comp30024) plays through this crate's
//! `arena engine chexers`: its Python test plays 10 turns with three agents and checks every
//! action with `arena moves`, per move and on the game clock (`go time MS`, falling, never
//! overstepped), and an engine spec with weight settings plays while a refused one is
//! reported with the engine's reason. `test_standins.py` checks the Python stand-ins for the
//! student agents and the referee-style match runner against the same engine, and
//! `test_referee_match.py` the strength harness. Needs `python3` (standard library only).

use std::path::Path;
use std::process::Command;

/// Runs `integrations/comp30024/<script> -v` with this crate's `arena` (as `ARENA`); the
/// script must pass and report every test in `names` as run (none skipped) and `count` tests
/// in all. unittest reports on stderr.
fn run_python_tests(script: &str, names: &[&str], count: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("integrations/comp30024").join(script);
    assert!(script.exists(), "missing {}", script.display());
    let out = Command::new("python3")
        .arg(&script)
        .arg("-v")
        .env("ARENA", env!("CARGO_BIN_EXE_arena"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(&root)
        .output()
        .expect("python3 must be installed to run this test");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{} failed:\n{}\n{stderr}",
        script.display(),
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!stderr.contains("skipped"), "{stderr}");
    for name in names {
        assert!(stderr.contains(name), "{name} did not run:\n{stderr}");
    }
    assert!(stderr.contains(&format!("Ran {count} tests")), "{stderr}");
}

/// The course Player: legal actions through the engine, the clock shared out; and never
/// the cause of an early ending: a stalled, late, dying or wrong engine still gives a legal
/// action in time (a move of its own in Python), and the referee's CPU clock and memory
/// measure see almost nothing of it.
#[test]
fn course_referee_agent_plays_legal_actions_through_the_engine() {
    run_python_tests(
        "test_player.py",
        &[
            "test_three_players_play_legal_actions",
            "test_the_game_clock_is_shared_out_and_never_overstepped",
            "test_an_engine_spec_with_weights_plays_and_a_bad_one_says_why",
            "test_a_node_budget_plays_the_same_game_twice",
            "test_a_stalled_engine_is_killed_and_the_action_comes_in_time",
            "test_a_dead_engine_is_replaced",
            "test_an_engine_that_keeps_dying_is_given_up",
            "test_refused_positions_unreadable_illegal_and_no_moves_give_a_legal_action",
            "test_the_board_and_the_fallback_follow_the_referees_rules",
            "test_the_referees_cpu_clock_and_space_measure_see_almost_nothing",
        ],
        15,
    );
}

/// The Python stand-ins for the course's student agents (integrations/comp30024/standins)
/// and the referee-style match runner: their rules agree with `arena moves` / `arena apply`
/// position by position (random games, exit wins, repetition and turn-limit draws, forced
/// passes), the stand-ins answer with legal actions, and the runner plays a game to its end
/// with our Player through this `arena`, reporting an illegal action as a loss.
#[test]
fn course_standins_and_match_runner_agree_with_the_engine() {
    run_python_tests(
        "test_standins.py",
        &[
            "test_random_games_from_the_start",
            "test_repetition_draw_on_the_fourth_occurrence",
            "test_turn_limit_draw_overrides_a_fourth_exit",
            "test_each_standin_returns_legal_actions",
            "test_plays_a_game_to_its_end_with_our_player",
            "test_an_illegal_action_loses_and_is_reported",
        ],
        10,
    );
}

/// The strength harness `referee_match.py`: every pair of opponents in
/// every seating with the same seeded openings, the same games at any concurrency, forfeits
/// (illegal action, exception, CPU time) counted apart, wall time over the clock reported,
/// the course referee's command line and output; the pool's pairs and seeded sample, shards
/// that play each game once, a run resumed after a kill, shards merged into the unsharded
/// report, a run extended by another merged into the longer run's report, a mixed merge
/// refused, the report per agent and per game not won.
#[test]
fn strength_harness_rotates_seats_counts_forfeits_apart_and_reads_the_referee() {
    run_python_tests(
        "test_referee_match.py",
        &[
            "test_every_pair_every_seating_the_same_openings_and_concurrency_changes_nothing",
            "test_forfeits_are_counted_apart_and_wall_time_over_the_clock_is_reported",
            "test_the_course_referees_command_line_through_referee",
            "test_bad_options_are_refused",
            "test_results",
            "test_log",
            "test_a_repetition_draw_while_ahead_in_exits_is_counted",
            "test_pairs_are_chosen_and_the_sample_is_seeded",
            "test_shards_play_each_game_exactly_once_in_whole_cycles",
            "test_a_run_resumes_after_a_kill",
            "test_a_merge_of_different_runs_is_refused",
            "test_a_run_extended_by_another_merges_into_one_report",
            "test_the_report_of_a_real_run",
            "test_the_report_per_agent_and_the_standing_of_each_non_win",
            "test_every_early_ending_is_attributed_to_its_player",
            "test_every_early_ending_names_its_player_and_call",
        ],
        16,
    );
}
