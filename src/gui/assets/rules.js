// The Rules page of a game (`/rules/<game>`): the rule book docs/rules/<game>.md, or its
// translation docs/rules/<language>/<game>.md in the page's language, built into the
// binary, turned into HTML by a small Markdown reader (headings, paragraphs, lists,
// tables, code blocks; `code`, **bold**, *emphasis* and links inline).

import { t, translatePage, language, languageSwitch } from './i18n.js';

const escape = text => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// Inline Markdown of one block's text; a link to another rule book opens its Rules page,
// other links (files of the repository) stay text.
function inline(text) {
  const code = [];
  let html = escape(text).replace(/`([^`]+)`/g, (all, c) => { code.push(c); return `\u0000${code.length - 1}\u0000`; });
  html = html
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (all, label, href) => {
      const rules = href.match(/^(akiba|offboard|abraxas)\.md(#[\w-]+)?$/);
      return rules ? `<a href="/rules/${rules[1]}${rules[2] || ''}">${label}</a>` : label;
    })
    .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<i>$2</i>');
  return html.replace(/\u0000(\d+)\u0000/g, (all, i) => `<code>${code[Number(i)]}</code>`);
}

const slug = text => text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s+/g, '-');

export function markdown(text) {
  const lines = text.split('\n');
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith('```')) {
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      out.push(`<pre><code>${escape(body.join('\n'))}</code></pre>`);
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

// The rule book in the page's language; the heading named in the address shown.
async function show() {
  const path = language === 'en' ? `/rules/${GAME}.md` : `/rules/${language}/${GAME}.md`;
  const box = document.getElementById('rules-text');
  const res = await fetch(path);
  if (!res.ok) { box.textContent = t('The rule book could not be loaded: the server answered {status}', { status: res.status }); return; }
  box.innerHTML = markdown(await res.text());
  document.title = `shove — ${t('Rules')}: ${GAME}`;
  box.dataset.language = language;
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

function main() {
  document.getElementById('learn-link').href = `/learn#game=${GAME}`;
  languageSwitch(document.getElementById('language'), show);
  translatePage();
  show();
}

main();
