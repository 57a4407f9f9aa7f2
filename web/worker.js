// A Web Worker of the static site (docs/web.md): shove's Rust, built for WebAssembly
// (web/src/lib.rs), answering the page's API calls and searching for its engine. The page
// (src/gui/assets/inbrowser.js) sends one message at a time and waits for its answer; a
// call that fails (a panic in the engine) is reported as `crash`, and the page replaces
// this worker with a new one.

import init, { answer, review, bench, Engine, engines_event, ready_event, panic_for_test } from './shove_web.js';

let engine = null;

self.onmessage = async ({ data }) => {
  try {
    switch (data.kind) {
      case 'init':
        // The page compiles the module once and hands it to each of its workers.
        await init({ module_or_path: data.module });
        engine = new Engine();
        self.postMessage({ kind: 'ready', events: [engines_event(), ready_event(0)] });
        break;
      case 'api':
        self.postMessage({ kind: 'answer', id: data.id, answer: answer(data.path, data.body) ?? null });
        break;
      case 'review': {
        const progress = (done, all) => self.postMessage({ kind: 'progress', id: data.id, done, all });
        self.postMessage({ kind: 'answer', id: data.id, answer: review(data.body, progress) });
        break;
      }
      case 'go': {
        const start = performance.now();
        engine.go(data.message, event => self.postMessage({ kind: 'event', event }));
        // The search's time, for the benchmark (examples/web_bench.rs).
        self.postMessage({ kind: 'idle', ms: performance.now() - start });
        break;
      }
      case 'bench':
        // `shove bench --game G` in the browser (examples/web_bench.rs).
        self.postMessage({ kind: 'bench', report: bench(data.game) });
        break;
      case 'panic':
        panic_for_test();
        break;
      default:
        break;
    }
  } catch (e) {
    self.postMessage({ kind: 'crash', message: String((e && e.message) || e) });
  }
};
