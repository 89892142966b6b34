//! The integration tests of the `bouton` binary, in one test binary (each
//! separate file under tests/ would be its own binary, linked and run
//! separately). They run the real executable with arguments and standard
//! input, or in a pseudo-terminal, and check what a user sees.

mod util;

mod analyze;
mod browser;
mod chomp;
mod cli;
mod ggp;
mod grundy;
mod misere;
mod play;
mod pty;
mod save;
mod serve;
mod simulate;
mod survey;
