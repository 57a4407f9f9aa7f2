#!/usr/bin/env bash
# The static site: shove's page with its engine in the visitor's browser (docs/web.md).
#
#   web/build.sh OUT_DIR
#
# writes into OUT_DIR the pages (board, puzzles, lessons, rules), their ES modules and styles, the
# rule books, the Web Worker and the engine as WebAssembly (the three networks are built
# into it, as into the native binary). Serve the folder from any static host, at its root
# or under a path, e.g. `python3 -m http.server -d OUT_DIR 8000`.
#
# Needs the wasm32-unknown-unknown target (added here when rustup is there) and
# wasm-bindgen-cli of the version web/Cargo.toml pins:
#   cargo install wasm-bindgen-cli --version 0.2.100 --locked
set -euo pipefail
OUT=${1:?usage: web/build.sh OUT_DIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WASM_BINDGEN=0.2.100
ASSETS=$ROOT/src/gui/assets

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN" ]; then
  echo "web/build.sh needs wasm-bindgen-cli $WASM_BINDGEN:" \
    "cargo install wasm-bindgen-cli --version $WASM_BINDGEN --locked" >&2
  exit 1
fi
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
# SIMD128 (every current browser has it): the network's accumulators in 128-bit lanes.
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
  cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" -p shove-web --target wasm32-unknown-unknown

mkdir -p "$OUT"
wasm-bindgen --target web --no-typescript --out-dir "$OUT" \
  "$ROOT/target/wasm32-unknown-unknown/release/shove_web.wasm"
cp "$ROOT/web/worker.js" "$ASSETS"/*.js "$ASSETS"/*.css "$OUT/"

# Each page as `shove gui` serves it, marked to talk to the workers instead of a server, at
# the path the page's links use (/puzzles, /learn, /rules/<game>).
# Its own links and files are made relative (`../style.css` in puzzles/index.html), so the
# site works wherever it is put, e.g. a GitHub Pages project site under /<project>/.
page() {
  mkdir -p "$(dirname "$2")"
  sed -e 's|^<html lang="en">$|<html lang="en" data-transport="worker">|' \
    -e "s#\\(href\\|src\\)=\"/#\\1=\"$3#g" "$ASSETS/$1" >"$2"
  grep -q 'data-transport="worker"' "$2" || { echo "$1: no <html lang=\"en\"> line to mark" >&2; exit 1; }
}
page index.html "$OUT/index.html" ./
page puzzles.html "$OUT/puzzles/index.html" ../
page learn.html "$OUT/learn/index.html" ../
for game in akiba offboard abraxas; do
  page rules.html "$OUT/rules/$game/index.html" ../../
done
mkdir -p "$OUT/rules/de" "$OUT/rules/fr"
cp "$ROOT"/docs/rules/*.md "$OUT/rules/"
cp "$ROOT"/docs/rules/de/*.md "$OUT/rules/de/"
cp "$ROOT"/docs/rules/fr/*.md "$OUT/rules/fr/"
echo "site written to $OUT ($(du -sh "$OUT" | cut -f1)); serve it with: python3 -m http.server -d $OUT 8000"
