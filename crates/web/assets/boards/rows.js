// Board kind `rows`: rows of squares with a white and a black piece
// (Northcott's game). The player to move slides their own piece along a
// row without jumping over the other; White is the first player.

import { h } from '../dom.js';
import { chunks, numbersIn } from '../text.js';
import { lineLabel, navButton } from './common.js';

const pieceName = (white) => (white ? 'White' : 'Black');

export default {
  kind: 'rows',
  label: 'Rows of the board',
  parts: 'rows',
  help: 'Each square your piece may move to is a button. Tab moves between rows, arrow keys move along a row, Enter or Space chooses, choosing the same square again confirms, and Escape cancels.',

  limitsText(limits, position) {
    return `Custom start: ${position}, separated by spaces; 1 to ${limits.most_parts} rows, each at most ${limits.widest_row} squares wide.`;
  },

  fromNumbers(numbers, ply) {
    if (numbers.length % 3) return null;
    return {
      kind: 'rows',
      white_to_move: ply % 2 === 0,
      rows: chunks(numbers, 3).map(([width, white, black]) => ({ width, white, black })),
    };
  },

  title: (board) => board.rows.map((r) => `${r.width} ${r.white} ${r.black}`).join(' '),

  render(ctx) {
    const { view } = ctx;
    const { rows, white_to_move: whiteMoves } = view.board;
    const before = ctx.before && ctx.before.rows;
    const [first, second] = ctx.names;
    const mover = pieceName(whiteMoves);
    const legend = h(
      'p',
      { class: 'pieces-legend' },
      h('span', { class: 'legend-item' }, h('span', { class: 'piece white small', 'aria-hidden': 'true' }, 'W'), ` White: ${first}`),
      h('span', { class: 'legend-item' }, h('span', { class: 'piece black small', 'aria-hidden': 'true' }, 'B'), ` Black: ${second}`),
      view.over ? null : h('span', { class: 'legend-item to-move' }, `${mover} to move`),
    );
    const lines = rows.map((row, i) => {
      const r = i + 1;
      const mine = whiteMoves ? row.white : row.black;
      const other = whiteMoves ? row.black : row.white;
      const old = before && before[i];
      const movedFrom = old ? (old.white !== row.white ? old.white : old.black !== row.black ? old.black : null) : null;
      const gap = Math.abs(row.white - row.black) - 1;
      const squares = [];
      for (let c = 1; c <= row.width; c += 1) {
        const reachable = c !== mine && (mine < other ? c < other : c > other);
        let content = null;
        if (c === row.white) content = h('span', { class: 'piece white', 'aria-hidden': 'true' }, 'W');
        else if (c === row.black) content = h('span', { class: 'piece black', 'aria-hidden': 'true' }, 'B');
        const cls = `square${c === movedFrom ? ' was-here' : ''}`;
        if (reachable && !view.over) {
          const newGap = Math.abs(c - other) - 1;
          squares.push(
            navButton(ctx, `${cls} target`, `r${r}:${c}`, `Row ${r}, column ${c}: move ${mover} here, leaving a gap of ${newGap}`, {
              act: 'square',
              row: r,
              col: c,
            }),
          );
        } else {
          const what = c === row.white ? 'White' : c === row.black ? 'Black' : 'empty';
          squares.push(h('span', { class: `${cls}${content ? ' occupied' : ''}`, title: `Column ${c}: ${what}` }, content));
        }
      }
      return h(
        'div',
        {
          class: `northcott-row line${movedFrom !== null ? ' last-move' : ''}`,
          role: 'group',
          'aria-label': `Row ${r}: White on column ${row.white}, Black on column ${row.black}, gap ${gap}`,
          'data-line': `r${r}`,
        },
        lineLabel(`Row ${r}`, `gap ${gap}`, movedFrom !== null ? `moved from ${movedFrom}` : null),
        h('div', { class: 'squares', style: `--width: ${row.width}` }, squares),
      );
    });
    return [legend, ...lines];
  },

  pickAfter: (view, pick, d) => ({ row: Number(d.row), col: Number(d.col) }),

  describe(view, pick) {
    const board = view.board;
    const row = board.rows[pick.row - 1];
    const other = board.white_to_move ? row.black : row.white;
    return {
      move: `${pick.row} ${pick.col}`,
      question: `Move ${pieceName(board.white_to_move)} in row ${pick.row} to column ${pick.col}, leaving a gap of ${Math.abs(pick.col - other) - 1}?`,
      confirm: 'Confirm: move',
    };
  },

  pickOfMove(view, text) {
    const n = numbersIn(text);
    return n.length === 2 ? { row: n[0], col: n[1] } : null;
  },

  chosen: (view, pick, d) => pick.row === Number(d.row) && pick.col === Number(d.col),

  prompt: (view) =>
    `You move ${pieceName(view.board.white_to_move)}: choose a square to slide your piece to, without jumping over the other piece.`,

  /** The piece that would move is marked too. */
  mark(view, pick, element) {
    for (const piece of element.querySelectorAll('.piece.moving')) piece.classList.remove('moving');
    if (!pick) return;
    const row = view.board.rows[pick.row - 1];
    const col = view.board.white_to_move ? row.white : row.black;
    const line = element.querySelector(`.line[data-line="r${pick.row}"]`);
    const square = line && line.querySelectorAll('.squares > *')[col - 1];
    const piece = square && square.querySelector('.piece');
    if (piece) piece.classList.add('moving');
  },
};
