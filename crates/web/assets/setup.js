// Setting up a game: the form, the rule set choice and its fields, and
// starting the game.

import { $, h, showError } from './dom.js';
import { api, seatKey, store } from './api.js';
import { capital, FAMILY_LABELS, PARAM_TEXT, UNITS } from './rules.js';
import { openGame } from './game.js';

const PRESETS = {
  '3-5-7': [3, 5, 7],
  '1-3-5-7': [1, 3, 5, 7],
  '1-5-4-2': [1, 5, 4, 2],
  '2-2-10-10': [2, 2, 10, 10],
  '11-12-15-25': [11, 12, 15, 25],
  '12-12-20-20': [12, 12, 20, 20],
};
const MAX_HEAPS = 12;
const MAX_HEAP_SIZE = 50;

function readSetup() {
  const form = $('setup-form');
  const choice = form.elements.heaps.value;
  const entry = chosenEntry();
  if (entry.family !== 'nim') return readOtherSetup(form, choice, entry);
  let heaps;
  if (choice === 'custom') {
    heaps = parseHeaps($('custom-heaps').value);
  } else if (choice === 'random') {
    const count = 3 + Math.floor(Math.random() * 3);
    heaps = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * 10));
  } else {
    heaps = PRESETS[choice];
  }
  const mode = form.elements.mode.value;
  const request = { heaps, misere: form.elements.rule.value === 'misere', mode };
  if (['computer', 'computer-first', 'demo'].includes(mode)) request.level = $('level').value;
  if (mode === 'online' && $('allow-help').checked) request.help = true;
  return request;
}

function parseHeaps(text) {
  const parts = text.trim().split(/[\s,;:+-]+/).filter(Boolean);
  if (parts.length === 0) throw new Error('Type the custom heaps, like 4 6 9.');
  if (parts.length > MAX_HEAPS) throw new Error(`A game has at most ${MAX_HEAPS} heaps.`);
  const heaps = parts.map((part) => {
    if (!/^\d+$/.test(part)) throw new Error(`“${part}” is not a number of tokens.`);
    const n = Number(part);
    if (n > MAX_HEAP_SIZE) throw new Error(`A heap holds at most ${MAX_HEAP_SIZE} tokens, not ${n}.`);
    return n;
  });
  if (heaps.every((n) => n === 0)) throw new Error('At least one heap needs a token.');
  return heaps;
}

function saveSetup() {
  const form = $('setup-form');
  rememberRulesFields();
  store.set('bouton.setup', {
    heaps: form.elements.heaps.value,
    custom: setupMemory.customs.nim || '',
    rule: form.elements.rule.value,
    mode: form.elements.mode.value,
    level: $('level').value,
    rules: $('rules').value,
    params: setupMemory.params,
    customs: setupMemory.customs,
  });
}

export function restoreSetup() {
  const saved = store.get('bouton.setup');
  if (!saved) return;
  const form = $('setup-form');
  const pick = (name, value) => {
    const input = [...form.elements[name]].find((i) => i.value === value);
    if (input) input.checked = true;
  };
  pick('heaps', saved.heaps);
  pick('rule', saved.rule);
  pick('mode', saved.mode);
  if (typeof saved.custom === 'string') $('custom-heaps').value = saved.custom;
  if ([...$('level').options].some((o) => o.value === saved.level)) $('level').value = saved.level;
  if (saved.params && typeof saved.params === 'object') Object.assign(setupMemory.params, saved.params);
  if (saved.customs && typeof saved.customs === 'object') Object.assign(setupMemory.customs, saved.customs);
  if (typeof saved.custom === 'string') setupMemory.customs.nim = saved.custom;
  if (typeof saved.rules === 'string') {
    $('rules').dataset.wanted = saved.rules;
    if (saved.heaps) $('rules').dataset.wantedHeaps = saved.heaps;
  }
}

export function updateLevelField() {
  const mode = $('setup-form').elements.mode.value;
  $('level-field').hidden = mode === 'local' || mode === 'online';
  $('help-field').hidden = mode !== 'online';
}

export async function createGame(request) {
  const grant = await api('POST', '/api/games', request);
  store.set(seatKey(grant.game.id), { token: grant.token, seat: grant.seat });
  history.pushState({ game: grant.game.id }, '', grant.link);
  openGame(grant.game.id, { view: grant.game, token: grant.token, seat: grant.seat, focus: true });
}

export async function onSetupSubmit(event) {
  event.preventDefault();
  showError('setup-error', '');
  let request;
  showError('param-error', '');
  try {
    request = readSetup();
  } catch (e) {
    showError(e.field === 'param' ? 'param-error' : 'setup-error', e.message);
    $(e.field === 'param' ? 'rules-param' : 'custom-heaps').focus();
    return;
  }
  saveSetup();
  const button = $('start');
  button.setAttribute('aria-busy', 'true');
  try {
    await createGame(request);
  } catch (e) {
    showError('setup-error', e.message);
    if (request.rules && request.rules.includes(':') && e.status === 422 && aboutRules(e.message, request.rules)) {
      showError('param-error', e.message);
    }
  } finally {
    button.removeAttribute('aria-busy');
  }
}

/** The rule sets from GET /api/rules; Nim alone until they arrive. */
let catalogue = [
  { id: 'nim', family: 'nim', parameter: null, name: 'Nim', summary: '', position: 'heap sizes', start: [3, 5, 7], kind: 'heaps' },
];
/** Per rule set family: the parameter and custom start typed last. */
const setupMemory = { params: {}, customs: {} };

/** The texts of the Nim page, read from the HTML, to put back. */
export const NIM_TEXTS = {
  read() {
    this.title = $('setup-title').textContent;
    this.lead = $('setup').querySelector('.lead').innerHTML;
    this.customName = $('custom-name').textContent;
    this.customHelp = $('custom-help').textContent;
    this.placeholder = $('custom-heaps').getAttribute('placeholder');
    this.normal = $('setup-form').querySelector('input[name=rule][value=normal] + span').innerHTML;
    this.misere = $('setup-form').querySelector('input[name=rule][value=misere] + span').innerHTML;
    this.moveHelp = $('move-help').innerHTML;
    this.movePlaceholder = $('move-input').getAttribute('placeholder');
    this.explain = $('explain-summary').textContent;
    this.moves = $('moves-summary').textContent;
    this.boardHelp = $('board-help').textContent;
  },
};

function chosenEntry() {
  const family = $('rules').value;
  return catalogue.find((e) => e.family === family) || catalogue[0];
}

export async function loadCatalogue() {
  let data;
  try {
    data = await api('GET', '/api/rules');
  } catch {
    return; // Nim alone
  }
  if (!data || !Array.isArray(data.rules) || !data.rules.some((e) => e.family === 'nim')) return;
  catalogue = data.rules;
  const select = $('rules');
  const wanted = select.dataset.wanted || select.value;
  select.replaceChildren(...catalogue.map((e) => h('option', { value: e.family }, FAMILY_LABELS[e.family] || capital(e.name))));
  select.value = catalogue.some((e) => e.family === wanted) ? wanted : 'nim';
  delete select.dataset.wanted;
  updateRulesFields(false);
  const heaps = select.dataset.wantedHeaps;
  delete select.dataset.wantedHeaps;
  if (heaps === 'custom' && $('custom-heaps').value.trim()) $('heaps-custom-radio').checked = true;
}

/** Keeps the fields of the rule set shown, before another is shown. */
function rememberRulesFields() {
  const shown = $('rules').dataset.shown || 'nim';
  setupMemory.customs[shown] = $('custom-heaps').value;
  const entry = catalogue.find((e) => e.family === shown);
  if (entry && entry.parameter !== null && entry.parameter !== undefined) setupMemory.params[shown] = $('rules-param').value;
}

/** A text of the catalogue (made for the example parameter) for the parameter typed. */
function withParameter(text, entry, param) {
  if (!text || !entry.parameter || !param || param === entry.parameter) return text;
  const typed = param.split(',').map((p) => p.trim()).filter(Boolean);
  const forms = [entry.parameter.split(',').join(', '), entry.parameter];
  for (const form of forms) {
    if (text.includes(form)) return text.split(form).join(form.includes(', ') ? typed.join(', ') : typed.join(','));
  }
  return text;
}

/** Shows the setup fields of the rule set chosen. */
export function updateRulesFields(changed) {
  const select = $('rules');
  const entry = chosenEntry();
  const nim = entry.family === 'nim';
  const form = $('setup-form');
  if (select.dataset.shown !== entry.family) {
    if (select.dataset.shown) rememberRulesFields();
    select.dataset.shown = entry.family;
    $('custom-heaps').value = setupMemory.customs[entry.family] || '';
    $('rules-param').value = setupMemory.params[entry.family] || entry.parameter || '';
    if (changed || !form.elements.heaps.value) {
      const custom = $('custom-heaps').value.trim() !== '';
      const fallback = nim ? '3-5-7' : 'standard';
      const value = custom ? 'custom' : fallback;
      const radio = [...form.elements.heaps].find((i) => i.value === value);
      if (radio) radio.checked = true;
    }
  }
  const choice = form.elements.heaps.value;
  if (nim && choice === 'standard') $('setup-form').querySelector('input[name=heaps][value="3-5-7"]').checked = true;
  if (!nim && choice !== 'custom' && choice !== 'standard') $('heaps-standard-radio').checked = true;

  const hasParam = entry.parameter !== null && entry.parameter !== undefined;
  const param = $('rules-param').value.trim();
  $('param-row').hidden = !hasParam;
  if (hasParam) {
    const [label, help] = PARAM_TEXT[entry.family] || ['Parameter', `Like ${entry.parameter}.`];
    $('param-label').textContent = label;
    $('param-help').textContent = help;
    $('rules-param').setAttribute('placeholder', entry.parameter);
  }
  for (const id of ['nim-presets', 'ggp-note', 'ggp-presets']) $(id).hidden = !nim;
  $('standard-chips').hidden = nim;
  $('heaps-legend').textContent = nim ? 'Heaps' : 'Start position';
  $('standard-text').textContent = `Standard: ${entry.start.join(' ')}`;
  const name = withParameter(entry.name, entry, param);
  const summary = withParameter(entry.summary, entry, param);
  $('rules-summary').textContent = nim || !entry.position ? '' : `A position is written as ${entry.position}.`;
  const normal = form.querySelector('input[name=rule][value=normal] + span');
  const misere = form.querySelector('input[name=rule][value=misere] + span');
  const lead = $('setup').querySelector('.lead');
  if (nim) {
    $('setup-title').textContent = NIM_TEXTS.title;
    lead.innerHTML = NIM_TEXTS.lead;
    $('custom-name').textContent = NIM_TEXTS.customName;
    $('custom-help').textContent = NIM_TEXTS.customHelp;
    $('custom-heaps').setAttribute('placeholder', NIM_TEXTS.placeholder);
    normal.innerHTML = NIM_TEXTS.normal;
    misere.innerHTML = NIM_TEXTS.misere;
  } else {
    $('setup-title').textContent = `Play ${name}`;
    lead.textContent = summary ? `${capital(summary)}.` : '';
    const unit = UNITS[entry.kind] || 'parts';
    const position = entry.position || 'numbers';
    $('custom-name').textContent = `Custom start: ${position}, separated by spaces`;
    $('custom-help').textContent = entry.kind === 'fibonacci'
      ? `Custom start: ${position}, up to 50 tokens.`
      : `Custom start: ${position}, separated by spaces; at most 12 ${unit}, numbers up to 50${entry.kind === 'rows' ? ', widths up to 20' : ''}.`;
    $('custom-heaps').setAttribute('placeholder', `e.g. ${entry.start.join(' ')}`);
    normal.replaceChildren(h('strong', {}, 'Normal:'), ' whoever makes the last move wins');
    misere.replaceChildren(h('strong', {}, 'Misère:'), ' whoever makes the last move loses');
  }
  if (!$('setup').hidden) document.title = nim ? 'bouton: play Nim' : `bouton: play ${FAMILY_LABELS[entry.family] || capital(name)}`;
}

function setupError(field, message) {
  const error = new Error(message);
  error.field = field;
  return error;
}

function readOtherSetup(form, choice, entry) {
  let rules = entry.family;
  if (entry.parameter !== null && entry.parameter !== undefined) {
    const param = $('rules-param').value.trim().replace(/\s*,\s*/g, ',').replace(/\s+/g, ',');
    if (!param) throw setupError('param', `Type the parameter, like ${entry.parameter}.`);
    rules = `${entry.family}:${param}`;
  }
  let position;
  if (choice === 'custom') {
    const parts = $('custom-heaps').value.trim().split(/[\s,;]+/).filter(Boolean);
    if (!parts.length) throw setupError('custom', `Type the start, like ${entry.start.join(' ')}.`);
    position = parts.map((part) => {
      if (!/^\d+$/.test(part)) throw setupError('custom', `“${part}” is not a whole number.`);
      const n = Number(part);
      if (n > MAX_HEAP_SIZE) throw setupError('custom', `Numbers go up to ${MAX_HEAP_SIZE}, not ${n}.`);
      return n;
    });
  } else {
    position = entry.start.slice();
  }
  const mode = form.elements.mode.value;
  const request = { rules, position, misere: form.elements.rule.value === 'misere', mode };
  if (['computer', 'computer-first', 'demo'].includes(mode)) request.level = $('level').value;
  if (mode === 'online' && $('allow-help').checked) request.help = true;
  return request;
}

/** Whether a 400 answer is about the rule set rather than the start. */
function aboutRules(message, rules) {
  const [family, parameter] = rules.split(/:(.*)/);
  const text = message.toLowerCase();
  return text.includes(rules.toLowerCase()) || (parameter && text.includes(parameter.toLowerCase())) ||
    /rule set|unknown rules|parameter|octal|code/.test(text) || text.includes(family);
}
