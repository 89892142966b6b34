// The statistics of finished games.

import { $, h } from './dom.js';
import { api } from './api.js';
import { MODE_LABELS } from './text.js';
import { capital } from './text.js';
import { entryOf, levelOrder, rulesName } from './catalogue.js';

/** The statistics could not be had: why. */
export function renderStatsError(message) {
  $('stats-body').replaceChildren(h('p', {}, message));
}

/**
 * The server's names of the rule sets in `data` whose parameter is not the
 * offer's example (GET /api/rules/{rules}): a Map from id to name. A name
 * that cannot be had is left out (the offer's, its parameter replaced, is
 * shown instead).
 */
export async function statsNames(data, offer) {
  const ids = new Set(
    (data.rows || [])
      .map((r) => r.rules)
      .filter((id) => typeof id === 'string' && id.includes(':') && entryOf(offer, id) && entryOf(offer, id).id !== id),
  );
  const names = new Map();
  await Promise.all(
    [...ids].map(async (id) => {
      try {
        names.set(id, capital((await api('GET', `/api/rules/${encodeURIComponent(id)}`)).name));
      } catch {
        // Named from the offer instead.
      }
    }),
  );
  return names;
}

/**
 * The statistics `data` (GET /api/stats), named with the server's `offer`
 * and `names` (from [statsNames]).
 */
export function renderStats(data, offer, names = new Map()) {
  const rows = (data.rows || []).slice();
  if (rows.length === 0) {
    $('stats-body').replaceChildren(h('p', {}, 'No finished games yet.'));
    return;
  }
  const modes = Object.keys(MODE_LABELS);
  const levels = levelOrder(offer);
  const families = offer ? offer.rules.map((e) => e.family) : [];
  const withRules = rows.some((r) => r.rules !== undefined && r.rules !== null);
  const rulesOf = (r) => (r.rules === undefined || r.rules === null ? families[0] || '' : String(r.rules));
  const familyRank = (r) => {
    const i = families.indexOf(rulesOf(r).split(':')[0]);
    return i < 0 ? families.length : i;
  };
  rows.sort(
    (a, b) =>
      familyRank(a) - familyRank(b) || (rulesOf(a) < rulesOf(b) ? -1 : rulesOf(a) > rulesOf(b) ? 1 : 0) ||
      modes.indexOf(a.mode) - modes.indexOf(b.mode) || levels.indexOf(a.level) - levels.indexOf(b.level),
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
              withRules ? h('td', { class: 'stats-rules' }, names.get(rulesOf(r)) || rulesName(offer, rulesOf(r))) : null,
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
