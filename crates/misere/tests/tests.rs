//! The misère quotient engine's tests, in one binary: the quotients against
//! an exhaustive search written separately, against the published
//! quotients, and against the reference data in `../shared/cgt-data`.

mod common;

mod genus;
mod kept;
mod oracle;
mod published;
mod reference;
