// Reading the server's offer (GET /api/rules): its rule sets, the limits of
// a start and the computer's levels. Pure functions of that answer.

import { capital } from './text.js';

/** The offer's entry for rule set `id` ("subtraction:1,2,5" finds "subtraction"). */
export function entryOf(offer, id) {
  const family = String(id).split(':')[0];
  return (offer && offer.rules.find((e) => e.family === family)) || null;
}

/** A text of the offer (made for the example parameter) for the parameter `param`. */
export function withParameter(text, entry, param) {
  if (!text || !entry.parameter || !param || param === entry.parameter) return text;
  const typed = param.split(',').map((p) => p.trim()).filter(Boolean);
  const forms = [entry.parameter.split(',').join(', '), entry.parameter];
  for (const form of forms) {
    if (text.includes(form)) return text.split(form).join(form.includes(', ') ? typed.join(', ') : typed.join(','));
  }
  return text;
}

/** The name of rule set `id` ("subtraction:1,2,5"), for people. */
export function rulesName(offer, id) {
  const entry = entryOf(offer, id);
  if (!entry) return String(id);
  const param = String(id).includes(':') ? String(id).split(/:(.*)/)[1] : null;
  return capital(withParameter(entry.name, entry, param));
}

/** The order of the levels, weakest first. */
export const levelOrder = (offer) => (offer ? offer.levels.map((l) => l.id) : []);
