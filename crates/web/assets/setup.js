// The setup form: the rule sets, starts and levels the server offers (GET
// /api/rules), reading the form into a request for POST /api/games, and
// remembering the choices in localStorage.

import { $, h, replace, showError } from './dom.js';
import { api, store } from './api.js';
import { rendererFor } from './boards/index.js';
import { capital } from './text.js';
import { entryOf } from './catalogue.js';

const SAVED = 'bouton.setup';

function setupError(field, message) {
  const error = new Error(message);
  error.field = field;
  return error;
}

/** Whether a 422 answer is about the rule set rather than the start. */
function aboutRules(message, rules) {
  const [family, parameter] = rules.split(/:(.*)/);
  const text = message.toLowerCase();
  return text.includes(rules.toLowerCase()) || (parameter && text.includes(parameter.toLowerCase())) ||
    /rule set|unknown rules|parameter/.test(text) || text.includes(family);
}

const startValue = (numbers) => numbers.join('-');

/** A typed parameter as the server reads it: `1, 2 5` is `1,2,5`. */
const normalParameter = (text) => text.trim().replace(/\s*,\s*/g, ',').replace(/\s+/g, ',');

/** How long the typing pauses before the server names what is typed. */
const NAMING_DELAY_MS = 150;

/**
 * The setup view. `on.submit(request)` starts a game (a promise; a
 * rejection is shown next to the form).
 */
export function createSetupView(on) {
  const form = $('setup-form');
  /** The server's offer, once it is here. */
  let offer = null;
  /** Per rule set family: the parameter and custom start typed last. */
  const memory = { params: {}, customs: {} };
  /**
   * The server's entries for parameters typed (GET /api/rules/{rules}), by
   * id: the entry, or `{ error }` for a rule set that is not one.
   */
  const named = new Map();
  let namingTimer = null;
  /** The choices saved by an earlier visit, applied when the offer arrives. */
  const saved = store.get(SAVED) || {};
  if (saved.params && typeof saved.params === 'object') Object.assign(memory.params, saved.params);
  if (saved.customs && typeof saved.customs === 'object') Object.assign(memory.customs, saved.customs);
  const check = (name, value) => {
    const input = [...form.querySelectorAll(`input[name="${name}"]`)].find((i) => i.value === value);
    if (input) input.checked = true;
  };
  check('rule', saved.rule);
  check('mode', saved.mode);

  const chosenEntry = () => (offer ? offer.rules.find((e) => e.family === $('rules').value) || offer.rules[0] : null);
  const startChoice = () => form.querySelector('input[name=heaps]:checked')?.value || '';

  /** Keeps the fields of the rule set shown, before another is shown. */
  function remember() {
    const shown = $('rules').dataset.shown;
    if (!shown) return;
    memory.customs[shown] = $('custom-heaps').value;
    const entry = offer && offer.rules.find((e) => e.family === shown);
    if (entry && entry.parameter) memory.params[shown] = $('rules-param').value;
  }

  function save() {
    remember();
    store.set(SAVED, {
      heaps: startChoice(),
      rule: form.elements.rule.value,
      mode: form.elements.mode.value,
      level: $('level').value,
      rules: $('rules').value,
      params: memory.params,
      customs: memory.customs,
    });
  }

  function chip(value, label) {
    return h('label', { class: 'chip' }, h('input', { type: 'radio', name: 'heaps', value }), h('span', {}, label));
  }

  /** The start choices of `entry`: its own, other starts, random. */
  function drawStarts(entry) {
    const renderer = rendererFor(entry.kind);
    const own = startValue(entry.start);
    const presets = (renderer.presets || []).filter((p) => startValue(p) !== own);
    replace(
      $('start-chips'),
      chip('standard', `Standard: ${entry.start.join(' ')}`),
      renderer.random ? chip('random', 'Random') : null,
    );
    $('preset-note').textContent = renderer.presetsNote || '';
    $('preset-note').hidden = !presets.length;
    $('preset-chips').hidden = !presets.length;
    replace($('preset-chips'), presets.map((p) => chip(startValue(p), p.join(' '))));
  }

  /**
   * The entry that names and describes `entry` with the parameter typed:
   * the offer's own for its example parameter, else the server's (null
   * while it is asked for; the page writes no name itself).
   */
  function namedEntry(entry, param) {
    if (!entry.parameter || !param || param === entry.parameter) return entry;
    const id = `${entry.family}:${param}`;
    if (named.has(id)) return named.get(id);
    clearTimeout(namingTimer);
    namingTimer = setTimeout(async () => {
      let answer;
      try {
        answer = await api('GET', `/api/rules/${encodeURIComponent(id)}`);
      } catch (e) {
        // Unreachable: asked again at the next change, nothing shown meanwhile.
        if (e.status !== 422) return;
        answer = { error: e.message };
      }
      named.set(id, answer);
      const now = chosenEntry();
      if (now && `${now.family}:${normalParameter($('rules-param').value)}` === id) update(false);
    }, NAMING_DELAY_MS);
    return null;
  }

  /** Shows the fields of the rule set chosen. */
  function update(changed) {
    const entry = chosenEntry();
    if (!entry) return;
    const select = $('rules');
    const renderer = rendererFor(entry.kind);
    if (select.dataset.shown !== entry.family) {
      const before = startChoice();
      const first = !select.dataset.shown;
      remember();
      select.dataset.shown = entry.family;
      drawStarts(entry);
      // Before the offer arrived, the custom start may have been typed already.
      if (!first || !$('custom-heaps').value.trim()) $('custom-heaps').value = memory.customs[entry.family] || '';
      $('rules-param').value = memory.params[entry.family] || entry.parameter || '';
      const custom = $('custom-heaps').value.trim() !== '';
      const wanted = changed ? (custom ? 'custom' : 'standard') : before || 'standard';
      const radio = [...form.querySelectorAll('input[name=heaps]')].find((i) => i.value === wanted);
      (radio || form.querySelector('input[name=heaps][value=standard]')).checked = true;
    }
    const param = $('rules-param').value.trim();
    $('param-row').hidden = !entry.parameter;
    if (entry.parameter) {
      $('param-help').textContent = `Like ${entry.parameter}.`;
      $('rules-param').setAttribute('placeholder', entry.parameter);
    }
    const shown = namedEntry(entry, normalParameter(param));
    if (shown && shown.error) {
      // Not a rule set: the title says what was typed, the field why not.
      $('setup-title').textContent = `Play ${entry.family}:${normalParameter(param)}`;
      $('setup-lead').textContent = '';
      showError('param-error', shown.error);
    } else if (shown) {
      $('setup-title').textContent = `Play ${shown.name}`;
      $('setup-lead').textContent = `${capital(shown.summary)}.`;
    } else if ($('setup-title').dataset.family !== entry.family) {
      // Another rule set's title is not kept while the server names this one.
      $('setup-title').textContent = `Play ${entry.family}:${normalParameter(param)}`;
      $('setup-lead').textContent = '';
    }
    $('setup-title').dataset.family = entry.family;
    $('rules-summary').textContent = entry.position ? `A position is written as ${entry.position}.` : '';
    $('heaps-legend').textContent = 'Start position';
    $('custom-name').textContent = `Custom start: ${entry.position}, separated by spaces`;
    $('custom-help').textContent = renderer.limitsText(offer.limits, entry.position);
    $('custom-heaps').setAttribute('placeholder', `e.g. ${entry.start.join(' ')}`);
    if (!$('setup').hidden && shown && !shown.error) document.title = `bouton: play ${capital(shown.name)}`;
  }

  function updateLevelField() {
    const mode = form.elements.mode.value;
    $('level-field').hidden = mode === 'local' || mode === 'online';
    $('help-field').hidden = mode !== 'online';
  }

  function readRequest() {
    const entry = chosenEntry();
    if (!entry) throw setupError('setup', 'The games are still loading.');
    let rules = entry.family;
    if (entry.parameter) {
      const param = normalParameter($('rules-param').value);
      if (!param) throw setupError('param', `Type the parameter, like ${entry.parameter}.`);
      rules = `${entry.family}:${param}`;
    }
    const choice = startChoice();
    const renderer = rendererFor(entry.kind);
    const largest = Math.max(offer.limits.largest_number, offer.limits.widest_row);
    let position;
    if (choice === 'custom') {
      const parts = $('custom-heaps').value.trim().split(/[\s,;]+/).filter(Boolean);
      if (!parts.length) throw setupError('custom', `Type the start, like ${entry.start.join(' ')}.`);
      position = parts.map((part) => {
        if (!/^\d+$/.test(part)) throw setupError('custom', `“${part}” is not a whole number.`);
        const n = Number(part);
        if (n > largest) throw setupError('custom', `Numbers go up to ${largest}, not ${n}.`);
        return n;
      });
    } else if (choice === 'random' && renderer.random) {
      position = renderer.random(offer.limits);
    } else if (choice && choice !== 'standard') {
      position = choice.split('-').map(Number);
    } else {
      position = entry.start.slice();
    }
    const mode = form.elements.mode.value;
    const request = { rules, position, misere: form.elements.rule.value === 'misere', mode };
    if (['computer', 'computer-first', 'demo'].includes(mode)) request.level = $('level').value;
    if (mode === 'online' && $('allow-help').checked) request.help = true;
    return request;
  }

  async function submit(event) {
    event.preventDefault();
    showError('setup-error', '');
    showError('param-error', '');
    let request;
    try {
      request = readRequest();
    } catch (e) {
      showError(e.field === 'param' ? 'param-error' : 'setup-error', e.message);
      if (e.field === 'param' || e.field === 'custom') $(e.field === 'param' ? 'rules-param' : 'custom-heaps').focus();
      return;
    }
    save();
    const button = $('start');
    button.setAttribute('aria-busy', 'true');
    try {
      await on.submit(request);
    } catch (e) {
      showError('setup-error', e.message);
      if (request.rules.includes(':') && e.status === 422 && aboutRules(e.message, request.rules)) showError('param-error', e.message);
    } finally {
      button.removeAttribute('aria-busy');
    }
  }

  $('rules').addEventListener('change', () => {
    showError('param-error', '');
    update(true);
  });
  $('rules-param').addEventListener('input', () => {
    showError('param-error', '');
    update(false);
  });
  form.addEventListener('submit', submit);
  form.addEventListener('change', (event) => {
    if (event.target.name === 'mode') updateLevelField();
  });
  $('custom-heaps').addEventListener('input', () => {
    $('heaps-custom-radio').checked = true;
  });
  $('custom-heaps').addEventListener('focus', () => {
    if ($('custom-heaps').value.trim()) $('heaps-custom-radio').checked = true;
  });

  return {
    /** Fills the form with the server's offer. */
    showOffer(data) {
      offer = data;
      const select = $('rules');
      const wanted = select.value && select.dataset.shown ? select.value : saved.rules;
      select.replaceChildren(...offer.rules.map((e) => h('option', { value: e.family }, capital(e.family_name))));
      select.value = entryOf(offer, wanted || '') ? entryOf(offer, wanted).family : offer.rules[0].family;
      const level = $('level');
      const levelWanted = level.value || saved.level;
      level.replaceChildren(...offer.levels.map((l) => h('option', { value: l.id }, `${capital(l.id)}: ${l.description}`)));
      level.value = offer.levels.some((l) => l.id === levelWanted) ? levelWanted : offer.default_level;
      delete select.dataset.shown;
      update(false);
      if (saved.heaps === 'custom' && $('custom-heaps').value.trim()) $('heaps-custom-radio').checked = true;
      else if (saved.heaps && startChoice() === 'standard') {
        const radio = [...form.querySelectorAll('input[name=heaps]')].find((i) => i.value === saved.heaps);
        if (radio) radio.checked = true;
      }
      saved.heaps = null;
    },

    /** The offer could not be had. */
    showOfferError(message) {
      showError('setup-error', `The games cannot be loaded: ${message}`);
    },

    /** Shows the form. */
    show() {
      updateLevelField();
      update(false);
    },
  };
}
