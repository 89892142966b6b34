// Board kind `stairs`: coins on steps (staircase Nim). A move takes coins
// from one step down to the step below, or off the staircase from step 1.

import { h } from '../dom.js';
import { numbersIn, plural } from '../text.js';
import { ghosts, lineLabel, navButton, randomInt } from './common.js';

export default {
  kind: 'stairs',
  label: 'Staircase',
  parts: 'steps',
  help: 'Each coin is a button. Tab moves between steps, arrow keys move along a step, Enter or Space chooses, choosing the same coin again confirms, and Escape cancels.',

  random(limits) {
    const count = randomInt(3, Math.min(5, limits.most_parts));
    return Array.from({ length: count }, () => randomInt(0, Math.min(6, limits.largest_number)));
  },

  limitsText(limits, position) {
    return `Custom start: ${position}, separated by spaces; 1 to ${limits.most_parts} steps of up to ${limits.largest_number} coins.`;
  },

  fromNumbers(numbers) {
    return { kind: 'stairs', steps: numbers.slice() };
  },

  title: (board) => board.steps.join(' '),

  render(ctx) {
    const steps = ctx.view.board.steps;
    const before = ctx.before && ctx.before.steps;
    const rows = steps.map((count, i) => {
      const s = i + 1;
      const was = before && before[i] !== undefined ? before[i] : count;
      const items = [];
      for (let c = 1; c <= count; c += 1) {
        const n = count - c + 1;
        const where = s === 1 ? 'off the staircase' : `to step ${s - 1}`;
        items.push(navButton(ctx, 'token coin', `s${s}:${c}`, `Step ${s}, coin ${c} of ${count}: move ${plural(n, 'coin')} ${where}`, { act: 'coin', step: s, index: c }));
      }
      items.push(...ghosts(ctx, Math.max(0, was - count)));
      const note = count > was ? `+${count - was}` : null;
      if (count === 0) items.push(h('span', { class: 'empty-heap' }, 'no coins'));
      return h(
        'div',
        {
          class: `heap stair line${was !== count ? ' last-move' : ''}`,
          role: 'group',
          style: `--step: ${s - 1}`,
          'aria-label': `Step ${s}: ${plural(count, 'coin')}${s === 1 ? ', the lowest step' : ''}`,
          'data-line': `s${s}`,
        },
        lineLabel(`Step ${s}`, plural(count, 'coin'), note),
        h('div', { class: 'tokens tread' }, items),
      );
    });
    rows.reverse(); // the top step first, like a staircase seen from the side
    rows.push(h('p', { class: 'stairs-floor', 'aria-hidden': 'true' }, '↓ Coins moved from step 1 leave the staircase.'));
    return rows;
  },

  pickAfter(view, pick, d) {
    const step = Number(d.step);
    return { step, coins: view.board.steps[step - 1] - Number(d.index) + 1 };
  },

  describe(view, pick) {
    const { step, coins } = pick;
    const where = step === 1 ? 'off the staircase' : `to step ${step - 1}`;
    return { move: `${step} ${coins}`, question: `Move ${plural(coins, 'coin')} from step ${step} ${where}?`, confirm: 'Confirm: move' };
  },

  pickOfMove(view, text) {
    const n = numbersIn(text);
    return n.length === 2 ? { step: n[0], coins: n[1] } : null;
  },

  chosen: (view, pick, d) => pick.step === Number(d.step) && Number(d.index) >= view.board.steps[pick.step - 1] - pick.coins + 1,

  prompt: () => 'Choose a coin: it and every coin to its right on that step move down one step.',
};
