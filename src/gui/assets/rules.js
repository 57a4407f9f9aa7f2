// The Rules page of a game (`/rules/<game>`): the players' rule book docs/rules/<game>.md,
// or its translation docs/rules/<language>/<game>.md in the page's language, built into
// the binary, turned into HTML by a small Markdown reader (headings, paragraphs, lists,
// tables, code blocks; `code`, **bold**, *emphasis* and links inline).
//
// A code block whose info string is `board` is a diagram, drawn by board.js as on the
// board page, from the position the server computes (`/api/state`), so that a diagram is
// always a position the engine accepts. Its lines:
//   <game> start | <position string>   the position (first line)
//   moves <move> …                    played first, unseen (optional)
//   play <move> …                     the example: the position with the moves as arrows,
//                                     then the position after them, their cells ringed
//   mark <cell> …                     cells ringed in green (optional)
//   rules <Name>=<value> …            rule options other than the defaults (optional)

import { t, translatePage, language, languageSwitch } from './i18n.js';
import { draw } from './board.js';
import { reasonOf, xhr } from './api.js';
import { sitePath } from './site.js';

const escape = text => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// Inline Markdown of one block's text; a link to another rule book opens its Rules page,
// other links (files of the repository) stay text.
function inline(text) {
  const code = [];
  let html = escape(text).replace(/`([^`]+)`/g, (all, c) => { code.push(c); return `\u0000${code.length - 1}\u0000`; });
  html = html
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (all, label, href) => {
      const rules = href.match(/^(akiba|offboard|abraxas)\.md(#[\w-]+)?$/);
      return rules ? `<a href="${sitePath(`rules/${rules[1]}`)}${rules[2] || ''}">${label}</a>` : label;
    })
    .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<i>$2</i>');
  return html.replace(/\u0000(\d+)\u0000/g, (all, i) => `<code>${code[Number(i)]}</code>`);
}

const slug = text => text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s+/g, '-');

// The HTML of `text`; each diagram is an empty `<div data-board=k>`, its lines `boards[k]`.
export function markdown(text, boards = []) {
  const lines = text.split('\n');
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith('```')) {
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      if (line.slice(3).trim() === 'board') {
        boards.push(body);
        out.push(`<div class="rules-board" data-board="${boards.length - 1}"></div>`);
      } else out.push(`<pre><code>${escape(body.join('\n'))}</code></pre>`);
      i++;
    } else if (/^#{1,6} /.test(line)) {
      const level = line.match(/^#+/)[0].length, title = line.slice(level + 1);
      out.push(`<h${level} id="${slug(title)}">${inline(title)}</h${level}>`);
      i++;
    } else if (line.trimStart().startsWith('|')) {
      // A table, also one indented under a list item.
      const rows = [];
      for (; i < lines.length && lines[i].trimStart().startsWith('|'); i++) rows.push(lines[i].trim());
      // Cells split at pipes, not at escaped ones (`pushback\|ko`).
      const cells = row => row.replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map(c => inline(c.trim().replace(/\\\|/g, '|')));
      const body = rows.filter((r, k) => k !== 1 || !/^\|[\s:|-]+\|$/.test(r));
      out.push('<table>' + body.map((r, k) => {
        const tag = k === 0 ? 'th' : 'td';
        return '<tr>' + cells(r).map(c => `<${tag}>${c}</${tag}>`).join('') + '</tr>';
      }).join('') + '</table>');
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      for (; i < lines.length && lines[i].trim() && !/^(#|\||```)/.test(lines[i].trimStart()); i++) {
        if (/^\s*([-*]|\d+\.) /.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.) /, ''));
        else items[items.length - 1] += ' ' + lines[i].trim();
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map(it => `<li>${inline(it)}</li>`).join('')}</${tag}>`);
    } else if (!line.trim()) {
      i++;
    } else {
      const para = [];
      for (; i < lines.length && lines[i].trim() && !/^(#|```|\||([-*]|\d+\.) )/.test(lines[i].trimStart()); i++) para.push(lines[i]);
      out.push(`<p>${inline(para.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}

const GAME = location.pathname.split('/').filter(Boolean).pop();

// A diagram's lines as the line of the game to ask the server for, the example's moves
// and the cells to mark.
function diagram(lines) {
  const [game, ...words] = lines[0].trim().split(/\s+/);
  const start = words.join(' ') === 'start' ? '' : words.join(' ');
  const spec = { line: { game, rules: [], start, moves: [] }, play: [], mark: [] };
  for (const l of lines.slice(1)) {
    const [key, ...words] = l.trim().split(/\s+/);
    if (key === 'moves') spec.line.moves = words;
    else if (key === 'play') spec.play = words;
    else if (key === 'mark') spec.mark = words;
    else if (key === 'rules') spec.line.rules = words.map(w => w.split('='));
  }
  return spec;
}

const cellsOf = moves => new Set(moves.flatMap(m => m.match(/[a-i][1-9]/g) || []));

function board(state, view) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', `board rules-diagram ${state.game}`);
  svg.setAttribute('role', 'img');
  draw(svg, state, {
    flipped: false, selected: null, targets: new Set(), lastMove: new Set(), lastFrom: null,
    sources: new Set(), arrows: [], best: null, ...view,
  });
  return svg;
}

// Draws every diagram of `box`; one the server refuses says why in its place.
async function drawBoards(box, boards) {
  await Promise.all([...box.querySelectorAll('[data-board]')].map(async place => {
    const { line, play, mark } = diagram(boards[Number(place.dataset.board)]);
    try {
      const before = await xhr.state(line);
      const targets = new Set(mark);
      if (!play.length) { place.append(board(before, { targets })); return; }
      const after = await xhr.state({ ...line, moves: [...line.moves, ...play] });
      const then = document.createElement('span');
      then.className = 'rules-then';
      then.setAttribute('aria-hidden', 'true');
      const last = play[play.length - 1].match(/[a-i][1-9]/g) || [];
      place.append(board(before, { targets, arrows: play }), then,
        board(after, { lastMove: cellsOf(play), lastFrom: last.length > 1 ? last[0] : null }));
    } catch (e) {
      place.textContent = t('A diagram could not be drawn: {reason}', { reason: reasonOf(e) });
      place.classList.add('rules-board-error');
    }
  }));
}

// The rule book in the page's language; the heading named in the address shown.
async function show() {
  const box = document.getElementById('rules-text');
  let book;
  try {
    book = await xhr.ruleBook(GAME, language);
  } catch (e) {
    box.textContent = e.status === undefined ? reasonOf(e) : t('The rule book could not be loaded: the server answered {status}', { status: e.status });
    return;
  }
  const boards = [];
  box.innerHTML = markdown(book, boards);
  document.title = `shove — ${t('Rules')}: ${GAME}`;
  box.dataset.language = language;
  await drawBoards(box, boards);
  box.dataset.boards = 'drawn';
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

function main() {
  document.getElementById('learn-link').href = sitePath(`learn#game=${GAME}`);
  languageSwitch(document.getElementById('language'), show);
  translatePage();
  show();
}

main();
