// A game's moves as the page uses them, and the game as it was after some
// of them (to show the computer's moves one at a time and to mark what the
// last move changed). Pure functions of the API's game state.

import { rendererFor } from './boards/index.js';
import { numbersIn } from './text.js';

/**
 * `view` with every move complete: its `text`, `description` and the
 * position `after` it as numbers (`numbers`). The API sends a move either
 * whole or in its short form, a heap and an amount taken (`heap`, `take`);
 * this completes the short form.
 */
export function complete(view) {
  let numbers = view.start.slice();
  const moves = view.moves.map((mv) => {
    let after = null;
    if (mv.after !== undefined && mv.after !== null) after = numbersIn(mv.after);
    else if (mv.heap !== undefined && mv.take !== undefined) {
      after = numbers.slice();
      after[mv.heap - 1] -= mv.take;
    }
    numbers = after || numbers;
    return {
      ...mv,
      text: mv.text ?? `${mv.heap} ${mv.take}`,
      description: mv.description ?? `take ${mv.take} from heap ${mv.heap}`,
      after: mv.after ?? (after ? after.join(' ') : '?'),
      numbers: after,
    };
  });
  return { ...view, moves };
}

/** The position's numbers after the first `n` moves of `view`. */
function numbersAt(view, n) {
  if (n === 0) return view.start.slice();
  const mv = view.moves[n - 1];
  return mv ? mv.numbers : null;
}

/** The board of `view` after its first `n` moves, or null if not known. */
function boardAt(view, n) {
  const numbers = numbersAt(view, n);
  return numbers && rendererFor(view.board.kind).fromNumbers(numbers, n);
}

/** `view` as it was after its first `n` moves (a step towards it). */
export function stepOf(view, n) {
  if (n === view.ply) return view;
  const board = boardAt(view, n);
  if (!board) return view;
  return {
    ...view,
    heaps: numbersAt(view, n),
    board,
    moves: view.moves.slice(0, n),
    ply: n,
    to_move: n % 2 === 0 ? 'first' : 'second',
    over: false,
    winner: null,
    partial: true,
  };
}

/** The board before the last move of `view`, to mark what it changed. */
export function boardBefore(view) {
  if (!view.ply) return null;
  const board = boardAt(view, view.ply - 1);
  return board && board.kind === view.board.kind ? board : null;
}

const sameMove = (a, b) => a.text === b.text && a.side === b.side;
/** Whether the moves `longer` begin with the moves `shorter`. */
export const extendsMoves = (longer, shorter) => shorter.every((mv, i) => longer[i] && sameMove(mv, longer[i]));
