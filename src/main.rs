//! The `bouton` binary: all behaviour lives in the library; `main` only turns
//! the result into an exit code.

fn main() -> std::process::ExitCode {
    bouton::run()
}
