// Where the site's pages are. The page's modules sit at the site's root, so their folder is
// it: `/` under `shove gui`, and wherever the static site is put (web/build.sh; a GitHub
// Pages project site is served under `/<project>/`).
const ROOT = new URL('./', import.meta.url).pathname;

// The address of `path`, relative to the site's root (e.g. `puzzles#game=akiba`).
export const sitePath = path => ROOT + path;
