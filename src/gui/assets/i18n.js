// The page's words in the reader's language: English, German or French (the languages of
// the rulebooks), chosen from the browser's languages, or by the switch (kept in
// localStorage). English is the key; each other language is one dictionary module.

import de from './lang-de.js';
import fr from './lang-fr.js';

export const LANGUAGES = { en: 'English', de: 'Deutsch', fr: 'Français' };
const DICTIONARIES = { en: {}, de, fr };

function chosen() {
  const kept = localStorage.getItem('shove-language');
  if (kept && DICTIONARIES[kept]) return kept;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const short = l.slice(0, 2).toLowerCase();
    if (DICTIONARIES[short]) return short;
  }
  return 'en';
}

export let language = chosen();

export function setLanguage(l) {
  if (!DICTIONARIES[l]) return;
  language = l;
  localStorage.setItem('shove-language', l);
}

// `text` (English, with `{name}` placeholders) in the page's language, the placeholders
// filled from `values`.
// A value's format hint (`<board> <side> …`, from a position string's error) is translated
// field by field; French elides "de" before a value starting with a vowel ("d'Offboard").
export function t(text, values = {}) {
  const said = DICTIONARIES[language][text] ?? text;
  return said.replace(/(\bde )?\{(\w+)\}/g, (all, de = '', name) => {
    if (!(name in values)) return all;
    const value = String(values[name]).replace(/<([a-z][a-z0-9 ]*)>/g, (hint, field) => `<${t(field)}>`);
    return language === 'fr' && de && /^[aeiouyéèAEIOUYÉ]/.test(value) ? `d'${value}` : de + value;
  });
}

// The form of a count `n` in the page's language: `one` (1 in English and German, 0 and 1
// in French) or `many`, both already translated.
export function plural(n, one, many) {
  return (language === 'fr' ? n < 2 : n === 1) ? one : many;
}

// The elements whose text `sayInto` wrote, with what it said.
const sayings = new Map();

// `element`'s text is `say()`, said again in the new language after a switch for as long
// as the element still shows it (a status line, a hint, a record's summary).
export function sayInto(element, say) {
  element.textContent = say();
  sayings.set(element, { say, text: element.textContent });
}

// The static text of the page: elements with `data-i18n` (their text), `data-i18n-title`,
// `data-i18n-placeholder` (those attributes), translated from the English they were
// written in; and what `sayInto` wrote, said again.
export function translatePage(root = document) {
  for (const [element, said] of sayings) {
    if (element.textContent !== said.text) { sayings.delete(element); continue; }
    element.textContent = said.say();
    said.text = element.textContent;
  }
  for (const e of root.querySelectorAll('[data-i18n]')) {
    e.dataset.i18nText ??= e.textContent;
    e.textContent = t(e.dataset.i18nText);
  }
  for (const attr of ['title', 'placeholder', 'aria-label']) {
    for (const e of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      e.setAttribute(attr, t(e.getAttribute(`data-i18n-${attr}`)));
    }
  }
  document.documentElement.lang = language;
}

// The server's words for the decision (src/gui/view), translated; Akiba's barred move
// is a fixed sentence with the move in it.
export function phaseText(phase) {
  const [first, ...rest] = phase.split('; ');
  const barred = rest.map(r => {
    const m = r.match(/^(\S+) is barred \(no push-back\)$/);
    return m ? t('{move} is barred (no push-back)', { move: m[1] }) : t(r);
  });
  return [t(first), ...barred].join('; ');
}

// A language switch (`<select>`): the languages, the page's chosen, and `changed` after a
// change (the page's static words are translated first).
export function languageSwitch(select, changed) {
  for (const [code, name] of Object.entries(LANGUAGES)) select.add(new Option(name, code));
  select.value = language;
  select.onchange = () => { setLanguage(select.value); translatePage(); changed(); };
}
