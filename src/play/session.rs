//! One game at the terminal: the turn loop and the commands.

use std::io;
use std::thread;
use std::time::Duration;

use bouton_analysis::{Analysis, Explanation, Winner};
use bouton_players::toughest_moves;
use bouton_rules::{Convention, Game, Nim, Rules, Side};
use rand_chacha::ChaCha8Rng;

use crate::play::board::render_board;
use crate::play::input::{COMMANDS, Input, parse_input};
use crate::play::save;
use crate::play::seat::Seat;
use crate::play::terminal::Terminal;
use crate::table::render_table;
use crate::wording::describe;

/// How a game ended for the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Somebody won.
    Finished,
    /// A person quit, or input ended.
    Quit,
}

/// Takes shown per heap by `moves` before the list is shortened.
const LISTED_TAKES: u64 = 12;

/// A game in progress at the terminal.
pub struct Session<'t, 'io> {
    /// Input and output.
    pub term: &'t mut Terminal<'io>,
    /// The game.
    pub game: Game<Nim>,
    /// Who plays first and second.
    pub seats: [Seat; 2],
    /// Every random choice of the computer.
    pub rng: ChaCha8Rng,
    /// The computer's pause before moving.
    pub delay: Duration,
}

impl Session<'_, '_> {
    fn seat(&self, side: Side) -> &Seat {
        &self.seats[side.index()]
    }

    fn convention(&self) -> Convention {
        self.game.rules().convention()
    }

    /// Plays until the game is over or a person quits.
    pub fn play(&mut self) -> io::Result<Ending> {
        loop {
            self.show_board()?;
            if self.game.is_over() {
                self.announce_result()?;
                return Ok(Ending::Finished);
            }
            let side = self.game.to_move();
            if self.seat(side).is_human() {
                if self.human_turn()? == Some(Ending::Quit) {
                    return Ok(Ending::Quit);
                }
            } else {
                self.computer_turn()?;
            }
        }
    }

    fn show_board(&mut self) -> io::Result<()> {
        let theme = self.term.theme;
        self.term.say("")?;
        let board = render_board(self.game.position(), self.game.last_move(), theme);
        self.term.say_all(&board)?;
        let mut status = Vec::new();
        if !self.game.is_over() {
            status.push(match self.seat(self.game.to_move()).name() {
                "You" => "Your turn.".to_owned(),
                "I" => "My turn.".to_owned(),
                name => format!("{name}'s turn."),
            });
        }
        if let Some(mv) = self.game.last_move() {
            let mover = self.seat(self.game.to_move().other());
            status.push(format!("Last move: {} {}.", mover.name_mid_sentence(), past_tense(&describe(mv))));
        }
        self.term.say(&theme.dim(&status.join(" ")))
    }

    /// Reads and carries out commands until the person moves or quits.
    fn human_turn(&mut self) -> io::Result<Option<Ending>> {
        let side = self.game.to_move();
        let prompt = match self.seat(side).name() {
            "You" => "Your move: ".to_owned(),
            name => format!("{name}, your move: "),
        };
        loop {
            let Some(line) = self.term.ask(&self.term.theme.strong(&prompt))? else {
                self.term.say("End of input: leaving the game.")?;
                return Ok(Some(Ending::Quit));
            };
            let input = match parse_input(&line) {
                Ok(input) => input,
                Err(problem) => {
                    self.term.complain(&problem.to_string())?;
                    continue;
                }
            };
            match input {
                Input::Nothing => {}
                Input::Move(mv) => match self.game.play(mv) {
                    Ok(()) => {
                        let line = format!("{} {}.", self.seat(side).takes(), describe(mv).trim_start_matches("take "));
                        self.term.say(&line)?;
                        return Ok(None);
                    }
                    Err(problem) => self.term.complain(&problem.to_string())?,
                },
                Input::Help => self.help()?,
                Input::Hint => self.hint()?,
                Input::Explain => {
                    let table = render_table(
                        &Explanation::new(self.game.position().as_slice(), self.convention()),
                        self.term.theme,
                    );
                    self.term.say_all(&table)?;
                }
                Input::Moves => self.list_moves()?,
                Input::Undo => {
                    if self.undo()? {
                        return Ok(None);
                    }
                }
                Input::Save(path) => match save::save(&path, &self.game, &self.seats) {
                    Ok(()) => self.term.say(&format!(
                        "Saved to {}. Resume with `bouton play --load {}`.",
                        path.display(),
                        path.display()
                    ))?,
                    Err(e) => self.term.complain(&format!("could not save to {}: {e}", path.display()))?,
                },
                Input::Quit => {
                    self.term.say("You left the game.")?;
                    return Ok(Some(Ending::Quit));
                }
            }
        }
    }

    fn computer_turn(&mut self) -> io::Result<()> {
        if !self.delay.is_zero() {
            self.term.flush()?;
            thread::sleep(self.delay);
        }
        let side = self.game.to_move();
        let Seat::Computer { player, .. } = &mut self.seats[side.index()] else {
            unreachable!("computer_turn is called for computer seats only");
        };
        let mv = player.choose(&self.game, &mut self.rng).expect("the game is not over, so a move exists");
        self.game.play(mv).expect("players choose legal moves");
        let line = format!("{} {}.", self.seat(side).takes(), describe(mv).trim_start_matches("take "));
        self.term.say(&self.term.theme.fresh(&line))
    }

    fn help(&mut self) -> io::Result<()> {
        self.term.say(&format!("Rules: {} Nim, {}.", self.convention(), self.convention().rule()))?;
        for (command, meaning) in COMMANDS {
            self.term.say(&format!("  {:<12} {meaning}", self.term.theme.strong(command)))?;
        }
        Ok(())
    }

    fn hint(&mut self) -> io::Result<()> {
        let heaps = self.game.position().as_slice();
        let analysis = Analysis::new(heaps, self.convention());
        let theme = self.term.theme;
        let endgame = analysis.in_misere_endgame();
        let line = match analysis.winner() {
            Winner::Mover => {
                let count = analysis.count_winning_moves(heaps);
                let mv = analysis.first_winning_move(heaps).expect("a won position has a winning move");
                let why = if endgame || self.misere_endgame_move(mv) {
                    "it leaves an odd number of heaps of 1 and nothing bigger"
                } else {
                    "it leaves nim-sum 0"
                };
                let others = match count {
                    1 => "It is the only winning move.".to_owned(),
                    n => format!("There are {n} winning moves."),
                };
                format!("You can win: {} ({why}). {others}", theme.good(&describe(mv)))
            }
            Winner::Opponent => {
                let best = toughest_moves(heaps, self.convention());
                let mv = best[0];
                let mut after = heaps.to_vec();
                after[mv.heap] -= mv.take;
                if after.iter().all(|&h| h == 0) {
                    // Misère with a single token left: nothing to hope for.
                    format!(
                        "You must {}, the last token, and in misère play that loses.",
                        theme.strong(&describe(mv))
                    )
                } else {
                    let replies = Analysis::new(&after, self.convention()).count_winning_moves(&after);
                    let why = if endgame { "an odd number of heaps of 1" } else { "nim-sum 0" };
                    format!(
                        "Against perfect play you lose from here ({why}: every move hands your opponent a win). \
                         Best try: {}, which leaves your opponent {} winning repl{}.",
                        theme.strong(&describe(mv)),
                        replies,
                        if replies == 1 { "y" } else { "ies" }
                    )
                }
            }
        };
        self.term.say(&line)
    }

    /// Whether `mv` wins by the misère endgame rule rather than by nim-sum 0.
    fn misere_endgame_move(&self, mv: bouton_rules::NimMove) -> bool {
        if self.convention() != Convention::Misere {
            return false;
        }
        let heaps = self.game.position().as_slice();
        heaps.iter().enumerate().all(|(i, &h)| if i == mv.heap { h - mv.take <= 1 } else { h <= 1 })
    }

    fn list_moves(&mut self) -> io::Result<()> {
        let heaps = self.game.position().as_slice().to_vec();
        let analysis = Analysis::new(&heaps, self.convention());
        let theme = self.term.theme;
        self.term.say(&format!(
            "Each legal move and the nim-sum it leaves (now {}); * marks a winning move:",
            analysis.nim_sum()
        ))?;
        for (heap, &size) in heaps.iter().enumerate() {
            if size == 0 {
                continue;
            }
            let shown = size.min(LISTED_TAKES);
            let winning_take = analysis.winning_target(size).map(|target| size - target);
            let cells: Vec<(String, String)> = (1..=shown)
                .map(|take| {
                    let sum = analysis.nim_sum_after(&heaps, bouton_rules::NimMove::new(heap, take));
                    let mark = if winning_take == Some(take) { "*" } else { "" };
                    (take.to_string(), format!("{sum}{mark}"))
                })
                .collect();
            let width = cells.iter().map(|(t, s)| t.len().max(s.len())).max().unwrap_or(1);
            let takes: Vec<String> = cells.iter().map(|(t, _)| format!("{t:>width$}")).collect();
            let sums: Vec<String> = cells
                .iter()
                .map(|(_, s)| {
                    let cell = format!("{s:>width$}");
                    if s.ends_with('*') { theme.good(&cell) } else { cell }
                })
                .collect();
            self.term.say(&format!("  Heap {} ({size}):", heap + 1))?;
            self.term.say(&format!("    take     {}", takes.join(" ")))?;
            self.term.say(&format!("    nim-sum  {}", sums.join(" ")))?;
            if size > shown {
                let rest = match winning_take {
                    Some(take) if take > shown => format!("; taking {take} wins"),
                    _ => String::new(),
                };
                self.term.say(&format!("    ... and {} more takes, up to {size}{rest}", size - shown))?;
            }
        }
        Ok(())
    }

    /// Takes back moves back to (and including) the last one a person made.
    /// Returns whether anything was undone.
    fn undo(&mut self) -> io::Result<bool> {
        let moves = self.game.moves().len();
        let last_human = (0..moves).rev().find(|&i| self.seat(Side::after_moves(i)).is_human());
        let Some(index) = last_human else {
            self.term.complain("nothing to undo: no move of yours has been played yet")?;
            return Ok(false);
        };
        let mut taken_back = Vec::new();
        while self.game.moves().len() > index {
            let side = Side::after_moves(self.game.moves().len() - 1);
            let mv = self.game.undo().expect("moves remain above the index");
            taken_back.push(format!("{} {}", self.seat(side).name_mid_sentence(), past_tense(&describe(mv))));
        }
        self.term.say(&format!("Taken back: {}.", taken_back.join("; ")))?;
        Ok(true)
    }

    fn announce_result(&mut self) -> io::Result<()> {
        let outcome = self.game.outcome().expect("the game is over");
        let last = self.seat(self.game.to_move().other()).name().to_owned();
        let winner = self.seat(outcome.winner).name().to_owned();
        let took = format!("{last} took the last token");
        let wins = match winner.as_str() {
            "You" => "You win!".to_owned(),
            "I" => "I win.".to_owned(),
            name => format!("{name} wins!"),
        };
        let line = match self.convention() {
            Convention::Normal => format!("{took}. {wins}"),
            Convention::Misere => format!("{took}, and in misère play that loses. {wins}"),
        };
        let styled = self.term.theme.good(&line);
        self.term.say(&styled)
    }
}

/// "took 2 from heap 3" from "take 2 from heap 3".
fn past_tense(phrase: &str) -> String {
    phrase.replacen("take ", "took ", 1)
}
