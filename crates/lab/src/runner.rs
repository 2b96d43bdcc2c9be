//! Games played several at once: the worker threads of a match and of a tuning iteration.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use plyforge::GameAdapter;

use crate::error::Error;
use crate::game::Engines;
use crate::matchfile::GameLine;

/// One game by its index, on a thread's engines.
pub(crate) type PlayOne<'a, A> =
    dyn Fn(&mut Engines<A>, u64) -> Result<GameLine, Error> + Sync + 'a;

/// Plays the games `jobs` (in this order, `concurrency` at a time, each thread with engines
/// of its own for `engines` specifications) and hands each finished game to `handle` on this
/// thread, in the order they finish; no new game starts once `stop` is set.
pub(crate) fn play_jobs<A: GameAdapter>(
    concurrency: usize,
    jobs: &[u64],
    engines: usize,
    stop: &AtomicBool,
    play_one: &PlayOne<'_, A>,
    handle: &mut dyn FnMut(Result<GameLine, Error>),
) {
    if concurrency == 1 {
        // One at a time, on this thread: nothing is played after the test stops.
        let mut seats = Engines::new(engines);
        for &g in jobs {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            handle(play_one(&mut seats, g));
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<GameLine, Error>>();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.min(jobs.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut seats = Engines::new(engines);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&g) = jobs.get(i) else {
                        break;
                    };
                    if tx.send(play_one(&mut seats, g)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            handle(result);
        }
    });
}
