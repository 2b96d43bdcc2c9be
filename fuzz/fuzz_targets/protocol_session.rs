//! A protocol session: random lines into the state machine of `arena engine` (the first byte picks the game).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plyforge_fuzz::protocol_session(data);
});
