//! The rule sets' tests, in one binary: each module checks one part of the
//! model against an independent oracle (a search written here, or the
//! reference data in `../shared/cgt-data`).

mod common;
mod oracle;

mod budgets;
mod chomp;
mod closed_forms;
mod hexadecimal_moves;
mod hexadecimal_play;
mod misere_data;
mod misere_quotient;
mod rulesets;
