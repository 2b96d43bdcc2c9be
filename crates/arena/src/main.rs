//! The `arena` program (work in progress).

fn main() {
    eprintln!("arena: not built yet");
    std::process::exit(2);
}
