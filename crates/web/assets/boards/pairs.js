// Board kind `pairs`: pairs of piles (Wythoff's game). A move takes from
// one pile of a pair, or the same number from both.

import { h } from '../dom.js';
import { chunks, numbersIn, plural } from '../text.js';
import { ghosts, lineLabel, navButton, randomInt } from './common.js';

export default {
  kind: 'pairs',
  label: 'Pairs of piles',
  parts: 'pairs',
  help: 'Each token is a button. Tab moves between piles, arrow keys move along a pile, Enter or Space chooses, choosing the same token again confirms, and Escape cancels. Choose the same number in both piles of a pair to take from both.',

  random(limits) {
    const count = randomInt(1, Math.min(2, limits.most_parts));
    return Array.from({ length: 2 * count }, () => randomInt(1, Math.min(12, limits.largest_number)));
  },

  limitsText(limits, position) {
    return `Custom start: ${position}; 1 to ${limits.most_parts} pairs, piles of up to ${limits.largest_number} tokens.`;
  },

  fromNumbers(numbers) {
    return numbers.length % 2 ? null : { kind: 'pairs', pairs: chunks(numbers, 2) };
  },

  title: (board) => board.pairs.map(([a, b]) => `${a} ${b}`).join(' '),

  render(ctx) {
    const pairs = ctx.view.board.pairs;
    const before = ctx.before && ctx.before.pairs;
    return pairs.map(([a, b], i) => {
      const p = i + 1;
      const piles = [a, b].map((size, q) => {
        const was = before && before[i] ? before[i][q] : size;
        const items = [];
        for (let t = 1; t <= size; t += 1) {
          items.push(
            navButton(ctx, 'token', `p${p}:${q}:${t}`, `Pair ${p}, pile ${q + 1}, token ${t} of ${size}: take ${size - t + 1}`, {
              act: 'pile',
              pair: p,
              pile: q,
              index: t,
            }),
          );
        }
        items.push(...ghosts(ctx, Math.max(0, was - size)));
        if (size === 0) items.push(h('span', { class: 'empty-heap' }, 'empty'));
        return h(
          'div',
          {
            class: `pile line${was > size ? ' last-move' : ''}`,
            role: 'group',
            'aria-label': `Pair ${p}, pile ${q + 1}: ${plural(size, 'token')}`,
            'data-line': `p${p}:${q}`,
          },
          lineLabel(`Pile ${q + 1}`, plural(size, 'token')),
          h('div', { class: 'tokens' }, items),
        );
      });
      return h(
        'div',
        { class: 'pair', role: 'group', 'aria-label': `Pair ${p}: piles of ${a} and ${b}` },
        h('div', { class: 'pair-name', 'aria-hidden': 'true' }, `Pair ${p}`),
        piles,
      );
    });
  },

  pickAfter(view, pick, d) {
    const pair = Number(d.pair);
    const q = Number(d.pile);
    const size = view.board.pairs[pair - 1][q];
    const x = size - Number(d.index) + 1;
    const amounts = [0, 0];
    amounts[q] = x;
    if (pick && pick.pair === pair && pick.amounts[1 - q] === x) amounts[1 - q] = x;
    return { pair, amounts };
  },

  describe(view, pick) {
    const [x, y] = pick.amounts;
    const of = view.board.pairs.length > 1 ? ` of pair ${pick.pair}` : '';
    let question;
    if (x && y) question = `Take ${x} from both piles${of}?`;
    else if (x) question = `Take ${x} from the first pile${of}?`;
    else question = `Take ${y} from the second pile${of}?`;
    return { move: `${pick.pair} ${x} ${y}`, question, confirm: `Confirm: take ${x && y ? x + y : x || y}` };
  },

  pickOfMove(view, text) {
    const n = numbersIn(text);
    return n.length === 3 ? { pair: n[0], amounts: [n[1], n[2]] } : null;
  },

  chosen(view, pick, d) {
    if (pick.pair !== Number(d.pair)) return false;
    const q = Number(d.pile);
    const size = view.board.pairs[pick.pair - 1][q];
    return pick.amounts[q] > 0 && Number(d.index) >= size - pick.amounts[q] + 1;
  },

  prompt: () =>
    'Choose a token in a pile: it and every token after it are taken. Choose the same number in both piles of a pair to take from both.',
};
