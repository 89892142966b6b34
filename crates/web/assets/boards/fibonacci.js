// Board kind `fibonacci`: one heap and the most the next move may take
// (Fibonacci Nim).

import { h } from '../dom.js';
import { numbersIn, plural } from '../text.js';
import { ghosts, lineLabel, navButton, randomInt } from './common.js';

export default {
  kind: 'fibonacci',
  label: 'The heap',
  parts: 'heap',
  help: 'Each token you may take is a button. Arrow keys move along the heap, Enter or Space chooses, choosing the same token again confirms, and Escape cancels.',

  random: (limits) => [randomInt(5, Math.min(30, limits.largest_number))],

  limitsText: (limits, position) => `Custom start: ${position}, up to ${limits.largest_number} tokens.`,

  fromNumbers(numbers) {
    if (!numbers.length) return null;
    const heap = numbers[0];
    const limit = numbers.length > 1 ? numbers[1] : Math.max(0, heap - 1);
    return { kind: 'fibonacci', heap, max_take: Math.min(limit, heap) };
  },

  title: (board) => String(board.heap),

  render(ctx) {
    const { view } = ctx;
    const { heap, max_take: most } = view.board;
    const was = ctx.before ? ctx.before.heap : heap;
    const items = [];
    for (let t = 1; t <= heap; t += 1) {
      const take = heap - t + 1;
      const out = take > most;
      const label = out
        ? `Token ${t} of ${heap}: taking ${take} is not allowed (at most ${most})`
        : `Token ${t} of ${heap}: take ${take}`;
      items.push(navButton(ctx, `token${out ? ' out-of-reach' : ''}`, `f:${t}`, label, { act: 'fib', index: t }, out));
    }
    items.push(...ghosts(ctx, Math.max(0, was - heap)));
    if (heap === 0) items.push(h('span', { class: 'empty-heap' }, 'empty'));
    const limit = heap ? `you may take 1 to ${most}` : 'nothing left';
    return [
      h(
        'div',
        { class: `heap fib line${was > heap ? ' last-move' : ''}`, role: 'group', 'aria-label': `The heap: ${plural(heap, 'token')}, ${limit}`, 'data-line': 'f' },
        lineLabel('Heap', plural(heap, 'token')),
        h('div', { class: 'tokens' }, items),
      ),
      h('p', { class: 'fib-limit' }, view.over ? 'The heap is empty.' : `${ctx.interactive ? 'You may' : 'The next move may'} take 1 to ${most} (at most twice the last take, and not the whole heap at first).`),
    ];
  },

  pickAfter: (view, pick, d) => ({ take: view.board.heap - Number(d.index) + 1 }),

  describe: (view, pick) => ({ move: String(pick.take), question: `Take ${pick.take} from the heap?`, confirm: `Confirm: take ${pick.take}` }),

  pickOfMove(view, text) {
    const n = numbersIn(text);
    return n.length === 1 ? { take: n[0] } : null;
  },

  chosen: (view, pick, d) => Number(d.index) >= view.board.heap - pick.take + 1,

  prompt: (view) => `Choose a token: it and every token to its right are taken (1 to ${view.board.max_take}).`,
};
