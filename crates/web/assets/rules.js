// Rule sets other than Nim (view.rules.id !== 'nim'): the server sends the
// board (view.board), each move's text, description and the position after
// it; the page builds move texts such as "1 2 3" from clicks and sends
// {"move": text, "ply": n}. This module holds their names and texts and
// rebuilds their boards from the numbers of a position.

import { h } from './dom.js';

export const rulesLabel = (id) => {
  const [family, parameter] = String(id).split(/:(.*)/);
  const label = FAMILY_LABELS[family] || capital(family);
  return parameter ? `${label} ${parameter}` : label;
};

export const FAMILY_LABELS = {
  nim: 'Nim',
  subtraction: 'Subtraction game',
  'all-but': 'All-but subtraction game',
  'take-limit': 'Nim with a take limit',
  moore: 'Moore’s Nim (from k heaps at once)',
  wythoff: 'Wythoff’s game',
  kayles: 'Kayles',
  'dawsons-kayles': 'Dawson’s Kayles',
  octal: 'Octal game',
  grundy: 'Grundy’s game',
  lasker: 'Lasker’s Nim',
  staircase: 'Staircase Nim',
  northcott: 'Northcott’s game',
  fibonacci: 'Fibonacci Nim',
};
export const PARAM_TEXT = {
  subtraction: ['The amounts one may take', 'Numbers separated by commas, like 1,2,5.'],
  'all-but': ['The amounts one may not take', 'Numbers separated by commas, like 1,2.'],
  'take-limit': ['The most one may take at once', 'A number, like 3.'],
  moore: ['k: from how many heaps at once', 'A number from 1 to 8, like 2.'],
  octal: ['The octal code', 'A code such as 0.137, 0.07 or 4.07.'],
};
export const UNITS = { heaps: 'heaps', pairs: 'pairs', stairs: 'steps', rows: 'rows', fibonacci: 'heap' };
export const BOARD_LABELS = { heaps: 'Heaps', pairs: 'Pairs of piles', stairs: 'Staircase', rows: 'Rows of the board', fibonacci: 'The heap' };

export const isNim = (view) => !view || !view.rules || view.rules.id === 'nim';
export const capital = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : '');
export const rulesName = (view) => capital(view.rules.name);
export const numbersIn = (text) => (String(text).match(/\d+/g) || []).map(Number);
export const chunks = (list, n) => Array.from({ length: Math.floor(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));
const PAST = { take: 'took', move: 'moved', split: 'split', knock: 'knocked' };

/** "You took 2 from heap 1, leaving 3 and 3." from a move's description. */
export function playedText(name, description) {
  const m = /^(\w+)(.*)$/.exec(description || '');
  if (m && PAST[m[1]]) return `${name} ${PAST[m[1]]}${m[2]}`;
  return `${name}: ${description}`;
}

/** The board of `numbers` (the rule set's number form) after `ply` moves. */
function boardOf(kind, numbers, ply) {
  switch (kind) {
    case 'heaps':
      return { kind, heaps: numbers.slice() };
    case 'pairs':
      return numbers.length % 2 ? null : { kind, pairs: chunks(numbers, 2) };
    case 'stairs':
      return { kind, steps: numbers.slice() };
    case 'rows':
      return numbers.length % 3
        ? null
        : { kind, white_to_move: ply % 2 === 0, rows: chunks(numbers, 3).map(([width, white, black]) => ({ width, white, black })) };
    case 'fibonacci': {
      if (!numbers.length) return null;
      const heap = numbers[0];
      const limit = numbers.length > 1 ? numbers[1] : Math.max(0, heap - 1);
      return { kind, heap, max_take: Math.min(limit, heap) };
    }
    default:
      return null;
  }
}

/** The position's numbers after the first `n` moves of `view`. */
function numbersAt(view, n) {
  if (n === 0) return view.start.slice();
  const mv = view.moves[n - 1];
  return mv && mv.after !== undefined ? numbersIn(mv.after) : null;
}

/** `view` as it was after `n` moves, with `changes` (the position then). */
export function partialState(view, n, changes) {
  return {
    ...view,
    ...changes,
    moves: view.moves.slice(0, n),
    ply: n,
    to_move: n % 2 === 0 ? 'first' : 'second',
    over: false,
    winner: null,
    partial: true,
  };
}

/** stepOf for the other rule sets: the board rebuilt from the move's "after". */
export function otherStepOf(view, n) {
  const numbers = numbersAt(view, n);
  const board = numbers && boardOf(view.board.kind, numbers, n);
  if (!board) return null;
  return partialState(view, n, { heaps: numbers, board });
}

/** The board before the last move of `view`, to mark what it changed. */
export function boardBefore(view) {
  if (!view.ply) return null;
  const numbers = numbersAt(view, view.ply - 1);
  const board = numbers && boardOf(view.board.kind, numbers, view.ply - 1);
  return board && board.kind === view.board.kind ? board : null;
}

/** Whose piece is whose in Northcott's game: White is the first player. */
export const pieceName = (white) => (white ? 'White' : 'Black');

/** The typed-move help of a rule set: `3 2` examples become keys. */
export function moveHelpNodes(help) {
  return String(help || '')
    .split(/`([^`]*)`/)
    .map((part, i) => (i % 2 ? h('kbd', {}, part) : part));
}
