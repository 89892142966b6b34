// The board renderers, by board kind (the `kind` of a game's `board` and
// of a rule set in GET /api/rules). Each module exports the same
// interface:
//
//   kind, label, parts, help    its name, the board's accessible name, what
//                               a part of a position is called, and how to
//                               play it with the keyboard
//   fromNumbers(numbers, ply)   the board of a position given as numbers
//   title(board)                the position in a few characters
//   render(ctx)                 the board's elements; ctx holds the game's
//                               state `view`, the board `before` the last
//                               move, `interactive`, `readOnly`, `animate`
//                               and the players' `names`
//   pickAfter(view, pick, data) the choice after a click on a button with
//                               `data` (its dataset), given the choice so far
//   describe(view, pick)        { move, question, confirm }: the move text
//                               sent to the API and the words around it
//   pickOfMove(view, text)      the choice a move text stands for
//   chosen(view, pick, data)    whether a button is part of the choice
//   same(a, b)                  optional: whether two choices are the same
//   prompt(view)                what to do, before a choice
//   limitsText(limits, format)  the limits of a custom start
//   random(limits), presets     optional: random starts, more starts
//   mark(view, pick, element)   optional: more marks of the choice
//
// Adding a board kind is one module and one line here.

import heaps from './heaps.js';
import pairs from './pairs.js';
import stairs from './stairs.js';
import rows from './rows.js';
import fibonacci from './fibonacci.js';
import grid from './grid.js';

import { h } from '../dom.js';

const RENDERERS = new Map([heaps, pairs, stairs, rows, fibonacci, grid].map((r) => [r.kind, r]));

/** A board kind this page does not know: the position in numbers, moves typed. */
const unknown = {
  kind: 'unknown',
  label: 'Board',
  parts: 'parts',
  help: 'Type your moves below.',
  limitsText: (limits, position) => `Custom start: ${position}, separated by spaces.`,
  fromNumbers: () => null,
  title: () => '',
  render: (ctx) => [h('p', {}, `The position: ${ctx.view.heaps.join(' ')}. Type your move below.`)],
  pickAfter: () => null,
  describe: () => null,
  pickOfMove: () => null,
  chosen: () => false,
  prompt: () => '',
};

/** The renderer of board kind `kind`. */
export function rendererFor(kind) {
  return RENDERERS.get(kind) || unknown;
}
