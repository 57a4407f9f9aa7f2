// The server's API as both pages call it (the board, app.js; the puzzles, puzzles.js), and
// what the server says in the page's language.
//
// The secret token `shove gui` printed (`/?token=…`) is kept for this tab in sessionStorage
// and taken out of the address bar; every API call and the WebSocket carry it. A page
// opened from a copied link has none: the cookie the printed address set stands for it.
// The server's errors come as English with the template it was filled from and its values
// (src/gui/phrase.rs); the dictionaries translate the template, as all the page's English.

import { t } from './i18n.js';
import { IN_BROWSER, localFetch } from './inbrowser.js';
import { sitePath } from './site.js';

export const TOKEN = (() => {
  const params = new URLSearchParams(location.search);
  const fromAddress = params.get('token');
  if (fromAddress !== null) {
    sessionStorage.setItem('shove-token', fromAddress);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  }
  return fromAddress ?? sessionStorage.getItem('shove-token') ?? '';
})();

// A call to the server's API with the token (or the cookie); on the static site, to its
// workers (inbrowser.js).
function api(path, options = {}) {
  if (IN_BROWSER) return localFetch(path, options);
  const auth = TOKEN ? { authorization: `Bearer ${TOKEN}` } : {};
  return fetch(path, { ...options, headers: { ...options.headers, ...auth } });
}

// A server's phrase `{text, values}` in the page's language; a value may be a phrase.
export function say(phrase) {
  const values = {};
  for (const [name, v] of Object.entries(phrase.values || {})) {
    values[name] = v && typeof v === 'object' ? say(v) : v;
  }
  return t(phrase.text, values);
}

// A WebSocket close reason: a phrase as JSON (the server's refusal), else the text itself.
export function closeText(reason) {
  try {
    const phrase = JSON.parse(reason);
    if (phrase && typeof phrase.text === 'string') return say(phrase);
  } catch {
    // Not JSON: said as it came.
  }
  return reason;
}

// An error that can say itself again (`say()`) in the language chosen since: a refusal
// keeps the server's phrase, so that an error on screen follows a language switch.
export class SaidError extends Error {
  constructor(say) {
    super(say());
    this.say = say;
  }
}

// What an error says in the page's language of now.
export const reasonOf = e => (e && typeof e.say === 'function' ? e.say() : String(e && e.message ? e.message : e));

// What a refused request's answer (`{error, phrase}`, or anything else) says.
function errorOf(answer, status) {
  if (answer && answer.phrase) return say(answer.phrase);
  if (answer && answer.error) return answer.error;
  return t('the server answered {status}', { status });
}

// The server's event `{message, phrase}` (an engine's error, an analysis stopped).
export function eventText(event) {
  return event.phrase ? say(event.phrase) : event.message;
}

// A request to `path` (`send`: fetch or api), its answer read as JSON (as text with
// `asText`), or a SaidError saying why not in the page's language (with the answer's
// `status` when there was one).
async function request(send, path, options, asText) {
  let res;
  try {
    res = await send(path, options);
  } catch (e) {
    const reason = e.message;
    throw new SaidError(() => t('the server cannot be reached: {reason}', { reason }));
  }
  const text = await res.text();
  let answer = null;
  try { answer = JSON.parse(text); } catch { /* not JSON */ }
  const status = res.status;
  const refused = say => Object.assign(new SaidError(say), { status });
  if (!res.ok) throw refused(() => errorOf(answer, status));
  if (asText) return text;
  if (answer === null) throw refused(() => t('the server answered {status}', { status }));
  return answer;
}

// POSTs `body` (JSON unless `raw`) to the API.
function post(path, body, { raw = false, asText = false } = {}) {
  const headers = raw ? {} : { 'content-type': 'application/json' };
  return request(api, path, { method: 'POST', headers, body: raw ? body : JSON.stringify(body) }, asText);
}

// The server's API, one function per endpoint (src/gui/api.rs and server.rs), as lila's
// xhr.ts: the pages call these and never a path.
export const xhr = {
  // The games with their rule options, levels and review depth.
  games: () => request(api, '/api/games', {}, false),
  // The state of a game line (`{game, rules, start, moves}`): the position, legal moves, board.
  state: line => post('/api/state', line),
  // A match log's games (docs/matches.md), its text as it is.
  log: text => post('/api/log', text, { raw: true }),
  // A game record's text (docs/records.md) for `{line, variations, players, resigned}`.
  saveRecord: game => post('/api/record/save', game, { asText: true }),
  // A game record read: its game, rules, start, moves, variations, players and result.
  openRecord: text => post('/api/record/open', text, { raw: true }),
  // The review of `{line, depth, id}` (src/review.rs); how far review `id` is; its cancel.
  review: body => post('/api/review', body),
  reviewProgress: id => post('/api/review/progress', { id }),
  reviewCancel: id => post('/api/review/cancel', { id }),
  // Every game's puzzles (src/gui/puzzles.rs).
  puzzleSets: () => request(api, '/puzzles/sets.json', {}, false),
  // Every game's lessons, and the verdict on a move in an exercise (src/lessons/api.rs).
  lessons: () => post('/api/learn/lessons', {}),
  checkMove: body => post('/api/learn/check', body),
  // A rule book's Markdown (docs/rules/), public: a plain fetch, also on the static site.
  ruleBook: (game, language) => request(fetch, sitePath(language === 'en' ? `rules/${game}.md` : `rules/${language}/${game}.md`), {}, true),
};
