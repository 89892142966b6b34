// Board kind `grid`: a chocolate bar of squares standing in columns
// (Chomp). `columns` holds the height of each column, column 1 first; its
// bottom square is poisoned. A bite (`COLUMN ROW`, both from 1, row 1 at
// the bottom) eats the square and every square above it and to its right.

import { h } from '../dom.js';
import { numbersIn, plural } from '../text.js';
import { navButton, randomInt } from './common.js';

/** How many squares a bite at (`column`, `row`) eats from `columns`. */
function eaten(columns, column, row) {
  let n = 0;
  for (let c = column; c <= columns.length; c += 1) n += Math.max(0, columns[c - 1] - row + 1);
  return n;
}

const isPoisoned = (column, row) => column === 1 && row === 1;

export default {
  kind: 'grid',
  label: 'The chocolate bar',
  parts: 'columns',
  help: 'Each square is a button. Tab moves between rows, arrow keys move along a row and up and down, Enter or Space chooses, choosing the same square again confirms, and Escape cancels.',

  random(limits) {
    const width = randomInt(3, Math.min(7, limits.most_parts));
    const tallest = randomInt(2, Math.min(5, limits.largest_number));
    const heights = Array.from({ length: width }, () => randomInt(1, tallest));
    heights.sort((a, b) => b - a);
    heights[0] = tallest;
    return heights;
  },

  limitsText(limits, position) {
    return `Custom start: ${position}; 1 to ${limits.most_parts} columns of up to ${limits.largest_number} squares.`;
  },

  fromNumbers(numbers) {
    return numbers.length ? { kind: 'grid', columns: numbers.slice() } : null;
  },

  title: (board) => board.columns.join(' '),

  render(ctx) {
    const columns = ctx.view.board.columns;
    const before = ctx.before && ctx.before.columns && ctx.before.columns.length === columns.length ? ctx.before.columns : null;
    const width = columns.length;
    const tallest = Math.max(0, ...columns, ...(before || []));
    const lines = [];
    for (let row = tallest; row >= 1; row -= 1) {
      const cells = [h('span', { class: 'grid-number', 'aria-hidden': 'true' }, String(row))];
      let count = 0;
      for (let column = 1; column <= width; column += 1) {
        if (columns[column - 1] >= row) {
          count += 1;
          if (isPoisoned(column, row)) {
            cells.push(
              navButton(ctx, 'bite poisoned', `c${column}:${row}`, 'Column 1, row 1: the poisoned square, which is never eaten', {
                act: 'bite',
                col: column,
                row,
              }, true),
            );
          } else {
            const n = eaten(columns, column, row);
            cells.push(
              navButton(ctx, 'bite', `c${column}:${row}`, `Column ${column}, row ${row}: eat ${plural(n, 'square')}`, {
                act: 'bite',
                col: column,
                row,
              }),
            );
          }
        } else if (before && before[column - 1] >= row) {
          cells.push(h('span', { class: `bite ghost${ctx.animate ? ' leaving' : ''}`, 'aria-hidden': 'true' }));
        } else {
          cells.push(h('span', { class: 'bite gone', 'aria-hidden': 'true' }));
        }
      }
      lines.push(
        h(
          'div',
          {
            class: 'grid-row line',
            role: 'group',
            'aria-label': `Row ${row}: ${plural(count, 'square')}${row === 1 ? ', the bottom row' : ''}`,
            'data-line': `r${row}`,
          },
          cells,
        ),
      );
    }
    const numbers = [h('span', { class: 'grid-number' }, '')];
    for (let column = 1; column <= width; column += 1) numbers.push(h('span', { class: 'grid-number' }, String(column)));
    lines.push(h('div', { class: 'grid-row grid-columns', 'aria-hidden': 'true' }, numbers));
    const was = before ? before.reduce((a, b) => a + b, 0) - columns.reduce((a, b) => a + b, 0) : 0;
    return [
      h('div', { class: 'grid', style: `--columns: ${width}` }, lines),
      h('p', { class: 'grid-note' }, was > 0 ? `${plural(was, 'square')} just eaten. ` : '', h('span', { class: 'poison-key', 'aria-hidden': 'true' }), ' The poisoned square, bottom left, is never eaten.'),
    ];
  },

  pickAfter: (view, pick, d) => ({ column: Number(d.col), row: Number(d.row) }),

  describe(view, pick) {
    const n = eaten(view.board.columns, pick.column, pick.row);
    return {
      move: `${pick.column} ${pick.row}`,
      question: `Bite column ${pick.column}, row ${pick.row}, eating ${plural(n, 'square')}?`,
      confirm: `Confirm: eat ${n}`,
    };
  },

  pickOfMove(view, text) {
    const n = numbersIn(text);
    return n.length === 2 ? { column: n[0], row: n[1] } : null;
  },

  chosen: (view, pick, d) => Number(d.col) >= pick.column && Number(d.row) >= pick.row && !isPoisoned(Number(d.col), Number(d.row)),

  prompt: () => 'Choose a square: it and every square above it and to its right are eaten.',
};
