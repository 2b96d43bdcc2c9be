//! The COMP30024 course-referee agent (integrations/comp30024) plays through this crate's
//! `arena engine chexers`: its Python test plays 10 turns with three agents and checks every
//! action with `arena moves`, per move and on the game clock (`go time MS`, falling, never
//! overstepped). Needs `python3` (standard library only).

use std::path::Path;
use std::process::Command;

#[test]
fn course_referee_agent_plays_legal_actions_through_the_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("integrations/comp30024/test_player.py");
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
        "test_player.py failed:\n{}\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    // unittest reports on stderr; the referee loop must have run, not been skipped.
    assert!(!stderr.contains("skipped"), "{stderr}");
    assert!(
        stderr.contains("test_three_players_play_legal_actions"),
        "{stderr}"
    );
    assert!(
        stderr.contains("test_the_game_clock_is_shared_out_and_never_overstepped"),
        "{stderr}"
    );
    assert!(stderr.contains("Ran 3 tests"), "{stderr}");
}
