//! One line of the engine protocol (`arena engine`), read by every game's parser.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plyforge_fuzz::protocol_line(data);
});
