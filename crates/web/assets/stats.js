// The statistics of finished games.

import { $, h } from './dom.js';
import { api } from './api.js';
import { MODE_LABELS } from './names.js';
import { rulesLabel } from './rules.js';

export async function loadStats() {
  let data;
  try {
    data = await api('GET', '/api/stats');
  } catch (e) {
    $('stats-body').replaceChildren(h('p', {}, e.message));
    return;
  }
  const rows = data.rows || [];
  if (rows.length === 0) {
    $('stats-body').replaceChildren(h('p', {}, 'No finished games yet.'));
    return;
  }
  const order = Object.keys(MODE_LABELS);
  const levels = ['random', 'beginner', 'easy', 'medium', 'hard', 'perfect'];
  const withRules = rows.some((r) => r.rules !== undefined && r.rules !== null);
  const rulesOf = (r) => (r.rules === undefined || r.rules === null ? 'nim' : String(r.rules));
  rows.sort(
    (a, b) =>
      (rulesOf(a) === rulesOf(b) ? 0 : rulesOf(a) === 'nim' ? -1 : rulesOf(b) === 'nim' ? 1 : rulesOf(a) < rulesOf(b) ? -1 : 1) ||
      order.indexOf(a.mode) - order.indexOf(b.mode) || levels.indexOf(a.level) - levels.indexOf(b.level),
  );
  $('stats-body').replaceChildren(
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'stats-table' },
        h('caption', { class: 'visually-hidden' }, 'Finished games per mode and level'),
        h(
          'thead',
          {},
          h('tr', {}, [...(withRules ? ['Game'] : []), 'Mode', 'Level', 'Games', 'Wins', 'Losses'].map((t) => h('th', { scope: 'col' }, t))),
        ),
        h(
          'tbody',
          {},
          rows.map((r) =>
            h(
              'tr',
              {},
              withRules ? h('td', { class: 'stats-rules' }, rulesLabel(rulesOf(r))) : null,
              h('th', { scope: 'row' }, MODE_LABELS[r.mode] || r.mode),
              h('td', {}, r.level || '—'),
              h('td', {}, String(r.games)),
              h('td', {}, String(r.wins)),
              h('td', {}, String(r.losses)),
            ),
          ),
        ),
      ),
    ),
  );
}
