//! `bouton play`: the terminal game.

mod board;
mod input;
mod save;
mod seat;
mod session;
mod terminal;

use std::io::{self, BufRead, Write};
use std::time::Duration;

use anyhow::Result;
use bouton_rules::{Convention, Game, Heaps, Nim};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::UsageError;
use crate::cli::{First, Mode, PlayArgs};
use crate::start::{choose_seed, make_rng, starting_heaps};
use crate::theme::Theme;
use crate::wording::tokens;
use seat::Seat;
use session::{Ending, Session};
use terminal::Terminal;

/// The most heaps interactive play accepts: each heap is a row on screen.
pub const MAX_INTERACTIVE_HEAPS: usize = 32;

/// Runs the terminal game on standard input and output.
pub fn run(args: &PlayArgs) -> Result<()> {
    let theme = Theme::new(args.plain);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = anstream::AutoStream::new(io::stdout(), theme.color_choice());
    play(args, &mut input, &mut out)
}

/// Runs the terminal game over any input and output (used by tests).
pub fn play(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    let theme = Theme::new(args.plain);
    let mut rng = make_rng(choose_seed(args.start.seed));
    let mut term = Terminal::new(input, out, theme);

    let (game, seats, who_first) = match &args.load {
        Some(path) => {
            let loaded = save::load(path, MAX_INTERACTIVE_HEAPS)?;
            term.say(&format!("Resuming the game saved in {}.", path.display()))?;
            introduce_rules(&mut term, &loaded.game)?;
            (loaded.game, loaded.seats, None)
        }
        None => {
            let heaps = starting_heaps(&args.start, &mut rng)?;
            if heaps.len() > MAX_INTERACTIVE_HEAPS {
                return Err(UsageError(format!(
                    "{} heaps is more than interactive play supports (at most {MAX_INTERACTIVE_HEAPS}); \
                     `bouton analyze` takes any number",
                    heaps.len()
                ))
                .into());
            }
            let convention = if args.start.misere { Convention::Misere } else { Convention::Normal };
            let game = Game::new(Nim::new(convention), heaps).map_err(|e| UsageError(e.to_string()))?;
            introduce_rules(&mut term, &game)?;
            let who_first = match (args.mode, args.first) {
                (Some(_), _) => None,
                (None, Some(first)) => Some(first),
                (None, None) => match ask_first(&mut term)? {
                    Some(first) => Some(first),
                    None => return Ok(()),
                },
            };
            let seats = seats_for(args, who_first, &mut rng);
            (game, seats, who_first)
        }
    };

    introduce_seats(&mut term, &seats)?;
    let delay = Duration::from_millis(args.delay);
    let mut session = Session { term: &mut term, game, seats, rng, delay };
    loop {
        if session.play()? == Ending::Quit {
            return Ok(());
        }
        if !session.seats.iter().any(Seat::is_human) {
            return Ok(());
        }
        match session.term.ask("Play again from the same start? [y/n]: ")? {
            Some(answer) if answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes") => {}
            _ => {
                session.term.say("Thanks for playing.")?;
                return Ok(());
            }
        }
        let start: Heaps = session.game.start().clone();
        session.game = Game::new(*session.game.rules(), start).expect("the start was playable before");
        if who_first == Some(First::Random) {
            toss(&mut session.seats, &mut session.rng);
        }
        introduce_rules(session.term, &session.game)?;
        introduce_seats(session.term, &session.seats)?;
    }
}

/// Asks who moves first; `None` at end of input.
fn ask_first(term: &mut Terminal<'_>) -> Result<Option<First>> {
    loop {
        let Some(answer) = term.ask("Who moves first? [1] you, [2] the computer, [r] random (default 1): ")? else {
            return Ok(None);
        };
        match answer.to_ascii_lowercase().as_str() {
            "" | "1" | "you" | "me" => return Ok(Some(First::Human)),
            "2" | "computer" => return Ok(Some(First::Computer)),
            "r" | "random" => return Ok(Some(First::Random)),
            _ => term.complain(&format!("{answer:?} is not a choice: type 1, 2 or r"))?,
        }
    }
}

fn seats_for(args: &PlayArgs, first: Option<First>, rng: &mut ChaCha8Rng) -> [Seat; 2] {
    let level = args.level;
    let you = || Seat::human("You");
    let computer = || Seat::computer(level, "");
    let seats = match (args.mode, first) {
        (Some(Mode::HumanComputer), _) | (None, Some(First::Human) | None) => [you(), computer()],
        (Some(Mode::ComputerHuman), _) | (None, Some(First::Computer)) => [computer(), you()],
        (None, Some(First::Random)) => {
            let mut seats = [you(), computer()];
            toss(&mut seats, rng);
            seats
        }
        (Some(Mode::HumanHuman), _) => [Seat::human("Player 1"), Seat::human("Player 2")],
        (Some(Mode::ComputerComputer), _) => {
            [computer(), Seat::computer(args.second_level.unwrap_or(level), "")]
        }
    };
    save::name_computers(seats)
}

/// Decides at random who moves first.
fn toss(seats: &mut [Seat; 2], rng: &mut ChaCha8Rng) {
    if rng.random_bool(0.5) {
        seats.swap(0, 1);
    }
}

/// Names the rules and the start.
fn introduce_rules(term: &mut Terminal<'_>, game: &Game<Nim>) -> io::Result<()> {
    let convention = game.rules().convention;
    let theme = term.theme;
    let title = match convention {
        Convention::Normal => "Nim, normal play",
        Convention::Misere => "Nim, misère play",
    };
    term.say(&format!("{}: {}.", theme.strong(title), convention.rule()))?;
    let heaps = game.position();
    term.say(&format!("Heaps: {heaps} ({} in all).", tokens_u128(heaps.total())))
}

/// Names the players and how to move.
fn introduce_seats(term: &mut Terminal<'_>, seats: &[Seat; 2]) -> io::Result<()> {
    let describe_seat = |seat: &Seat| match seat {
        Seat::Human { name } if name == "You" => "you".to_owned(),
        Seat::Human { name } => name.clone(),
        Seat::Computer { level, name, .. } if name == "I" => format!("the computer ({level})"),
        Seat::Computer { level, name, .. } => format!("{name} ({level})"),
    };
    term.say(&format!(
        "Moving first: {}; second: {}.",
        describe_seat(&seats[0]),
        describe_seat(&seats[1])
    ))?;
    if seats.iter().any(Seat::is_human) {
        term.say("Type a move as `heap amount`: `3 2` takes 2 tokens from heap 3. `help` lists the commands.")?;
    }
    Ok(())
}

fn tokens_u128(count: u128) -> String {
    match u64::try_from(count) {
        Ok(count) => tokens(count),
        Err(_) => format!("{count} tokens"),
    }
}
