//! The CI step of sharded matches: the tools their tests need, the deploy files'
//! shape, and one real run of the Slurm job array on a one-node cluster on this machine.
//!
//! - Debian's `parallel` (GNU parallel runs the shards of a test in
//!   `crates/arena/tests/matches.rs`), `slurm-wlm` and `munge` are installed with apt-get
//!   where missing (CI runs as root on Debian).
//! - The Slurm scripts (`deploy/slurm/*.sbatch`, `test-local.sh`) must be valid bash, and
//!   `deploy/k8s/match-job.yaml` an Indexed Job whose pods take their shard from
//!   `JOB_COMPLETION_INDEX` and resume their files on a shared volume.
//! - `deploy/slurm/test-local.sh` starts slurmctld, slurmd and munged with private files and
//!   ports, submits the array, and checks that the merged shards are the unsharded match,
//!   game for game, and that a task killed mid-write and run again resumes its file; then
//!   runs `deploy/slurm/tune.sbatch` as two workers of one job and checks that both end with
//!   the values of the same tuning run in one process, their files holding its games once,
//!   and `deploy/slurm/train.sbatch` likewise (both write the one-process run's network,
//!   byte for byte), with the test profile's `arena` that the test suite's build (done
//!   here, just before the suite runs) leaves in `target/debug`.
//! - `deploy/k8s/tune-job.yaml` and `deploy/k8s/train-job.yaml` likewise, with all their
//!   workers at once (they wait for each other).

use std::path::Path;
use std::process::Command;

use crate::{cargo, project_root};

/// Runs the step (before the test suite: its tests need GNU parallel).
pub fn ci() -> Result<(), String> {
    install(&[
        ("parallel", "parallel"),
        ("sbatch", "slurm-wlm"),
        ("munged", "munge"),
    ])?;
    let root = project_root();
    for script in [
        "deploy/slurm/match.sbatch",
        "deploy/slurm/tune.sbatch",
        "deploy/slurm/train.sbatch",
        "deploy/slurm/test-local.sh",
    ] {
        run(
            Command::new("bash").arg("-n").arg(root.join(script)),
            script,
        )?;
    }
    check_job(
        &root.join("deploy/k8s/match-job.yaml"),
        &["--out \"/results/shard-$K.jsonl\"", "persistentVolumeClaim"],
    )?;
    check_job(
        &root.join("deploy/k8s/tune-job.yaml"),
        &[
            "--out \"/results/worker-$K.jsonl\"",
            "parallelism: 8",
            "completions: 8",
            "persistentVolumeClaim",
        ],
    )?;
    check_job(
        &root.join("deploy/k8s/train-job.yaml"),
        &[
            "arena train",
            "--out \"/results/worker-$K.safetensors\"",
            "parallelism: 8",
            "completions: 8",
            "persistentVolumeClaim",
        ],
    )?;
    // The build the test suite needs next (so nothing is built twice); it leaves the test
    // profile's `arena` in target/debug.
    cargo(&["test", "--workspace", "--no-run"], &[])?;
    let arena = root.join("target").join("debug").join("arena");
    run(
        Command::new("bash")
            .arg(root.join("deploy/slurm/test-local.sh"))
            .env("ARENA", &arena),
        "deploy/slurm/test-local.sh",
    )
}

/// Installs the Debian packages of the programs not on PATH.
fn install(tools: &[(&str, &str)]) -> Result<(), String> {
    let missing: Vec<&str> = tools
        .iter()
        .filter(|(program, _)| {
            !Command::new("sh")
                .args(["-c", &format!("command -v {program}")])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .map(|&(_, package)| package)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    eprintln!("$ apt-get install -y {}", missing.join(" "));
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    let mut args = vec!["install", "-y"];
    args.extend(&missing);
    if apt(&args) || (apt(&["update"]) && apt(&args)) {
        Ok(())
    } else {
        Err(format!(
            "cannot install {} with apt-get (the matches' tests need them)",
            missing.join(", ")
        ))
    }
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    eprintln!("$ {what}");
    let status = cmd
        .current_dir(project_root())
        .status()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// The Indexed Job's essentials, by text (no YAML parser in the workspace): those of every
/// job here, and `more`.
fn check_job(path: &Path, more: &[&str]) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let every = [
        "kind: Job",
        "completionMode: Indexed",
        "JOB_COMPLETION_INDEX",
        "--shard",
        "--resume",
        "ReadWriteMany",
    ];
    for needle in every.iter().chain(more) {
        if !text.contains(needle) {
            return Err(format!("{}: no `{needle}` in it", path.display()));
        }
    }
    if text.contains('\t') {
        return Err(format!(
            "{}: a tab (YAML indents with spaces)",
            path.display()
        ));
    }
    Ok(())
}
