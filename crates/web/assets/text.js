// The words of a game: who is who for this viewer, whose turn it is, what a
// move did, who won. Pure functions of the game's state (as the API sends
// it) and the viewer's seat; nothing here knows a rule set.

export const MODE_LABELS = {
  computer: 'Against the computer',
  'computer-first': 'The computer first',
  local: 'Two players on this device',
  online: 'Online with a friend',
  demo: 'Computer vs computer',
};

export const capital = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : '');
export const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + 's'}`;
export const numbersIn = (text) => (String(text).match(/\d+/g) || []).map(Number);
export const chunks = (list, n) => Array.from({ length: Math.floor(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

/** The names of the first and second player as the holder of `seat` sees them. */
export function names(view, seat) {
  const mine = seat === 'first' || seat === 'second';
  switch (view.mode) {
    case 'computer':
      return [mine ? 'You' : 'The player', 'The computer'];
    case 'computer-first':
      return ['The computer', mine ? 'You' : 'The player'];
    case 'online':
      if (seat === 'first') return ['You', 'Your friend'];
      if (seat === 'second') return ['Your friend', 'You'];
      return ['Player 1', 'Player 2'];
    case 'demo':
      return ['Computer 1', 'Computer 2'];
    default:
      return ['Player 1', 'Player 2'];
  }
}
const sideIndex = (side) => (side === 'first' ? 0 : 1);
export const nameOf = (view, seat, side) => names(view, seat)[sideIndex(side)];
/** "You", "the computer" in the middle of a sentence. */
export const midName = (name) => (name === 'You' || /^(Player|Computer) /.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1));
export const possessive = (name) => (name === 'You' ? 'Your' : `${name}’s`);
const winsText = (name) => (name === 'You' ? 'You win!' : `${name} wins!`);

const PAST = { take: 'took', move: 'moved', split: 'split', knock: 'knocked', bite: 'bit' };

/** "You took 2 from heap 1, leaving 3 and 3" from a move's description. */
export function playedText(name, description) {
  const m = /^(\w+)(.*)$/.exec(description || '');
  if (m && PAST[m[1]]) return `${name} ${PAST[m[1]]}${m[2]}`;
  return `${name}: ${description}`;
}

/** "You took 2 from heap 3." */
export const moveText = (view, seat, mv) => `${playedText(nameOf(view, seat, mv.side), mv.description)}.`;

export function waitingForFriend(view) {
  return view.mode === 'online' && !view.seats[1].taken;
}

/** Whether the holder of `seat` may move in `view` now. */
export function canMove(view, seat) {
  if (!view || view.over || !view.to_move || view.partial) return false;
  if (!(seat === 'both' || seat === view.to_move)) return false;
  if (view.seats[sideIndex(view.to_move)].kind !== 'human') return false;
  return !waitingForFriend(view);
}

export function statusText(view, seat) {
  if (view.over) return resultText(view, seat)[0];
  const mover = nameOf(view, seat, view.to_move);
  if (waitingForFriend(view)) {
    return seat === 'first' ? 'Waiting for your friend to join.' : 'Waiting for a second player to join.';
  }
  if (canMove(view, seat)) return mover === 'You' ? 'Your turn.' : `${mover}: your turn.`;
  if (view.seats[sideIndex(view.to_move)].kind === 'computer') {
    return view.mode === 'demo' ? `${mover} to move.` : 'The computer is thinking…';
  }
  if (!seat) return `${mover} to move.`;
  return mover === 'Your friend' ? 'Your friend’s turn: waiting for their move.' : `${mover} to move.`;
}

/** [headline, explanation] of a finished game. */
export function resultText(view, seat) {
  const winner = nameOf(view, seat, view.winner);
  const last = view.moves[view.moves.length - 1];
  const mover = last ? nameOf(view, seat, last.side) : winner;
  return [winsText(winner), `${mover} made the last move. ${view.misere ? 'Misère' : 'Normal'}: ${view.rule}.`];
}

/** The typed-move help of a rule set, `3 2` examples as [text, isKey] parts. */
export function helpParts(help) {
  return String(help || '')
    .split(/`([^`]*)`/)
    .map((part, i) => [part, i % 2 === 1]);
}
