// The browser game of bouton: setting up, playing, learning and watching
// the impartial games the server offers, over its JSON API. Plain
// JavaScript modules, no build step. This entry point starts the
// controller (controller.js), which owns the page's state and hands data
// and callbacks to the views.

import { start } from './controller.js';

start();
