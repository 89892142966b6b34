// Who is who, and the texts of a game's state: names, turns, results.

import { st } from './state.js';
import { isNim, otherStepOf, partialState, playedText } from './rules.js';

export const MODE_LABELS = {
  computer: 'Against the computer',
  'computer-first': 'The computer first',
  local: 'Two players on this device',
  online: 'Online with a friend',
  demo: 'Computer vs computer',
};

/** The names of the first and second player as this viewer sees them. */
export function names(view) {
  const mine = st.seat === 'first' || st.seat === 'second';
  switch (view.mode) {
    case 'computer':
      return [mine ? 'You' : 'The player', 'The computer'];
    case 'computer-first':
      return ['The computer', mine ? 'You' : 'The player'];
    case 'online':
      if (st.seat === 'first') return ['You', 'Your friend'];
      if (st.seat === 'second') return ['Your friend', 'You'];
      return ['Player 1', 'Player 2'];
    case 'demo':
      return ['Computer 1', 'Computer 2'];
    default:
      return ['Player 1', 'Player 2'];
  }
}
const sideIndex = (side) => (side === 'first' ? 0 : 1);
export const nameOf = (view, side) => names(view)[sideIndex(side)];
/** "You", "The computer" in the middle of a sentence. */
export const midName = (name) => (name === 'You' || /^(Player|Computer) /.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1));
export const possessive = (name) => (name === 'You' ? 'Your' : `${name}’s`);
const winsText = (name) => (name === 'You' ? 'You win!' : `${name} wins!`);
export const moveText = (view, mv) =>
  isNim(view) || !mv.description
    ? `${nameOf(view, mv.side)} took ${mv.take} from heap ${mv.heap}.`
    : `${playedText(nameOf(view, mv.side), mv.description)}.`;
export const heapsText = (heaps) => heaps.join(' ');
const ruleSentence = (misere) =>
  misere ? 'Misère: whoever takes the last token loses.' : 'Normal: whoever takes the last token wins.';

function seatKind(view, side) {
  return view.seats[sideIndex(side)].kind;
}

export function waitingForFriend(view) {
  return view.mode === 'online' && !view.seats[1].taken;
}

/** Whether this viewer may move in `view` now. */
export function canMove(view) {
  if (!view || view.over || !view.to_move || view.partial) return false;
  if (!(st.seat === 'both' || st.seat === view.to_move)) return false;
  if (seatKind(view, view.to_move) !== 'human') return false;
  return !waitingForFriend(view);
}

/** The state after the first `n` moves of `view`. */
export function stepOf(view, n) {
  if (n === view.ply) return view;
  if (!isNim(view)) return otherStepOf(view, n) || view;
  const heaps = view.start.slice();
  for (const mv of view.moves.slice(0, n)) heaps[mv.heap - 1] -= mv.take;
  return partialState(view, n, { heaps });
}

const sameMove = (a, b) => a.heap === b.heap && a.take === b.take && a.side === b.side && a.text === b.text;
export const extends_ = (longer, shorter) => shorter.every((mv, i) => longer[i] && sameMove(mv, longer[i]));

export function statusText(view) {
  if (view.over) return resultText(view)[0];
  const mover = nameOf(view, view.to_move);
  if (waitingForFriend(view)) {
    return st.seat === 'first' ? 'Waiting for your friend to join.' : 'Waiting for a second player to join.';
  }
  if (canMove(view)) return mover === 'You' ? 'Your turn.' : `${mover}: your turn.`;
  if (seatKind(view, view.to_move) === 'computer') {
    return view.mode === 'demo' ? `${mover} to move.` : 'The computer is thinking…';
  }
  if (!st.seat) return `${mover} to move.`;
  return mover === 'Your friend' ? 'Your friend’s turn: waiting for their move.' : `${mover} to move.`;
}

/** [headline, explanation] of a finished game. */
export function resultText(view) {
  const winner = nameOf(view, view.winner);
  const last = view.moves[view.moves.length - 1];
  const taker = last ? nameOf(view, last.side) : winner;
  const detail = isNim(view)
    ? `${taker} took the last token. ${ruleSentence(view.misere)}`
    : `${taker} made the last move. ${view.misere ? 'Misère' : 'Normal'}: ${view.rule}.`;
  return [winsText(winner), detail];
}
