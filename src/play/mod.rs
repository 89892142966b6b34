//! `bouton play`: the terminal game, for Nim and every other rule set.

mod any;
mod any_board;
mod board;
mod input;
mod move_list;
mod nim;
mod quotient;
pub(crate) mod save;
mod seat;
mod session;
mod terminal;
mod type_ahead;
mod variant;

use std::io::{self, IsTerminal};
use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use bouton_games::AnyRules;
use bouton_rules::{Convention, Game};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::UsageError;
use crate::cli::{First, Mode, PlayArgs};
use crate::start::{choose_seed, make_rng};
use crate::theme::Theme;
use seat::{Person, Seat};
use session::{Ending, Session};
use terminal::{Terminal, quoted};
use variant::Variant;

/// The most heaps interactive play accepts: each heap is a row on screen.
pub const MAX_INTERACTIVE_HEAPS: usize = 32;

/// Runs the terminal game on standard input and output.
pub fn run(args: &PlayArgs) -> Result<()> {
    let theme = Theme::new(args.plain);
    let stdin = io::stdin();
    let at_terminal = stdin.is_terminal();
    if at_terminal {
        // Ctrl-C ends the game with exit code 130, leaving the terminal as
        // it was found even while the computer holds input back.
        let _ = ctrlc::set_handler(|| {
            type_ahead::release();
            println!();
            std::process::exit(130);
        });
    }
    let mut input = stdin.lock();
    let mut out = anstream::AutoStream::new(io::stdout(), theme.color_choice());
    let mut term = Terminal::new(&mut input, &mut out, theme);
    term.holds_type_ahead = at_terminal;
    play_on_terminal(args, &mut term)
}

/// Runs the terminal game on `term`.
fn play_on_terminal(args: &PlayArgs, term: &mut Terminal<'_>) -> Result<()> {
    let mut rng = make_rng(choose_seed(args.start.seed));
    if let Some(path) = &args.load {
        let opened = save::open(path)?;
        let loaded = save::load::<AnyRules>(opened, MAX_INTERACTIVE_HEAPS)?;
        return resume(args, term, rng, path, loaded);
    }
    let convention = if args.start.misere { Convention::Misere } else { Convention::Normal };
    let set = crate::start::rule_set(args.rules.as_deref())?;
    let numbers = crate::start::start_numbers(&set, &args.start, MAX_INTERACTIVE_HEAPS as u64 + 1, &mut rng)?;
    let rules = AnyRules::new(set, convention);
    let position = rules.position(&numbers).map_err(|e| UsageError(e.to_string()))?;
    check_rows(rules.rows(&position), rules.board_kind().parts())?;
    let game = Game::new(rules, position).map_err(|e| UsageError(e.to_string()))?;
    start(args, term, rng, game)
}

/// Reads a save file's contents as `--load` does and writes the game back.
pub fn reload(name: &str, bytes: &[u8]) -> Result<String, save::LoadError> {
    let opened = save::open_bytes(bytes, name.to_owned())?;
    let loaded = save::load::<AnyRules>(opened, MAX_INTERACTIVE_HEAPS)?;
    let text = save::to_text(&loaded.game, &loaded.seats);
    text.map_err(|e| save::LoadError::Invalid { path: name.to_owned(), reason: e.to_string() })
}

/// Refuses more rows than fit the screen.
fn check_rows(rows: usize, what: &str) -> Result<(), UsageError> {
    if rows > MAX_INTERACTIVE_HEAPS {
        return Err(UsageError(format!(
            "{rows} {what} is more than interactive play supports (at most {MAX_INTERACTIVE_HEAPS}); \
             `bouton analyze` takes any number"
        )));
    }
    Ok(())
}

/// A new game: rules, who moves first, then play.
fn start<V: Variant>(args: &PlayArgs, term: &mut Terminal<'_>, mut rng: ChaCha8Rng, game: Game<V>) -> Result<()> {
    introduce_rules(term, &game)?;
    let who_first = match (args.mode, args.first) {
        (Some(_), _) => None,
        (None, Some(first)) => Some(first),
        (None, None) => match ask_first(term)? {
            Some(first) => Some(first),
            None => return Ok(()),
        },
    };
    let seats = seats_for(args, game.rules(), who_first, &mut rng);
    play_on(args, term, game, seats, rng, who_first)
}

/// A loaded game: say so, then play.
fn resume<V: Variant>(
    args: &PlayArgs,
    term: &mut Terminal<'_>,
    rng: ChaCha8Rng,
    path: &Path,
    loaded: save::Loaded<V>,
) -> Result<()> {
    term.say(&format!("Resuming the game saved in {}.", path.display()))?;
    introduce_rules(term, &loaded.game)?;
    let seats = relevel(args, loaded.game.rules(), loaded.seats);
    play_on(args, term, loaded.game, seats, rng, None)
}

/// Plays games until the people stop.
fn play_on<V: Variant>(
    args: &PlayArgs,
    term: &mut Terminal<'_>,
    game: Game<V>,
    seats: [Seat<V>; 2],
    rng: ChaCha8Rng,
    who_first: Option<First>,
) -> Result<()> {
    introduce_seats(term, game.rules(), game.start(), &seats)?;
    let delay = Duration::from_millis(args.delay);
    let mut session = Session { term, game, seats, rng, delay };
    loop {
        if session.play()? == Ending::Quit {
            return Ok(());
        }
        if !session.seats.iter().any(Seat::is_human) {
            return Ok(());
        }
        if !session.term.confirm("Play again from the same start? [y/n]: ")? {
            session.term.say("Thanks for playing.")?;
            return Ok(());
        }
        let start = session.game.start().clone();
        session.game = Game::new(session.game.rules().clone(), start).expect("the start was playable before");
        if who_first == Some(First::Random) {
            toss(&mut session.seats, &mut session.rng);
        }
        introduce_rules(session.term, &session.game)?;
        introduce_seats(session.term, session.game.rules(), session.game.start(), &session.seats)?;
    }
}

/// Asks who moves first; `None` at end of input or on `quit`.
fn ask_first(term: &mut Terminal<'_>) -> Result<Option<First>> {
    loop {
        let Some(answer) = term.ask("Who moves first? [1] you, [2] the computer, [r] random (default 1): ")? else {
            return Ok(None);
        };
        match answer.to_ascii_lowercase().as_str() {
            "" | "1" | "you" | "me" => return Ok(Some(First::Human)),
            "2" | "computer" => return Ok(Some(First::Computer)),
            "r" | "random" => return Ok(Some(First::Random)),
            "q" | "quit" | "exit" => {
                term.say("You left the game.")?;
                return Ok(None);
            }
            _ => term.complain(&format!("{} is not a choice: type 1, 2 or r (or quit)", quoted(&answer)))?,
        }
    }
}

fn seats_for<V: Variant>(args: &PlayArgs, rules: &V, first: Option<First>, rng: &mut ChaCha8Rng) -> [Seat<V>; 2] {
    let level = args.level();
    let you = || Seat::human(Person::You);
    let computer = || Seat::computer(rules, level);
    let seats = match (args.mode, first) {
        (Some(Mode::HumanComputer), _) | (None, Some(First::Human) | None) => [you(), computer()],
        (Some(Mode::ComputerHuman), _) | (None, Some(First::Computer)) => [computer(), you()],
        (None, Some(First::Random)) => {
            let mut seats = [you(), computer()];
            toss(&mut seats, rng);
            seats
        }
        (Some(Mode::HumanHuman), _) => [Seat::human(Person::Player(1)), Seat::human(Person::Player(2))],
        (Some(Mode::ComputerComputer), _) => [computer(), Seat::computer(rules, args.second_level())],
    };
    save::name_computers(seats)
}

/// The saved seats, the computers at the levels given on the command line
/// (`--level` for the first computer, `--second-level` for a second one),
/// where given.
fn relevel<V: Variant>(args: &PlayArgs, rules: &V, seats: [Seat<V>; 2]) -> [Seat<V>; 2] {
    if args.level.is_none() && args.second_level.is_none() {
        return seats;
    }
    let mut computers = 0;
    let seats = seats.map(|seat| match seat {
        Seat::Computer { level, .. } => {
            computers += 1;
            let given = if computers == 1 { args.level } else { args.second_level.or(args.level) };
            Seat::computer(rules, given.unwrap_or(level))
        }
        human => human,
    });
    save::name_computers(seats)
}

/// Decides at random who moves first.
fn toss<V: Variant>(seats: &mut [Seat<V>; 2], rng: &mut ChaCha8Rng) {
    if rng.random_bool(0.5) {
        seats.swap(0, 1);
    }
}

/// Names the rules and the start.
fn introduce_rules<V: Variant>(term: &mut Terminal<'_>, game: &Game<V>) -> io::Result<()> {
    let theme = term.theme;
    let rules = game.rules();
    term.say(&format!("{}: {}.", theme.strong(&rules.title()), rules.rule_sentence()))?;
    term.say(&rules.describe_start(game.position()))?;
    if let Some(wait) = rules.preparing() {
        term.say(&wait)?;
    }
    match rules.prepare() {
        Some(note) => term.say(&note),
        None => Ok(()),
    }
}

/// Names the players and how to move.
fn introduce_seats<V: Variant>(
    term: &mut Terminal<'_>,
    rules: &V,
    start: &V::Position,
    seats: &[Seat<V>; 2],
) -> io::Result<()> {
    term.say(&format!("Moving first: {}; second: {}.", seats[0].introduce(), seats[1].introduce()))?;
    if !seats.iter().all(Seat::is_human)
        && let Some(problem) = rules.computer_unavailable(start)
    {
        term.say(&format!("Note: {problem}. The computer will play at random."))?;
    }
    if seats.iter().any(Seat::is_human) {
        term.say(&format!("{} `help` lists the commands.", rules.how_to_move()))?;
    }
    Ok(())
}
