//! Move sequences: the first byte picks the game, the next the start, each next a legal move by index; the rules' invariants hold after every move (see `plyforge_fuzz::play`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plyforge_fuzz::play(data);
});
