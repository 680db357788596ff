'use strict';
// Preloaded (`node -r`) into a shipbook run by bench/run.mjs: on exit, writes to the file named by
// SHIPBOOK_BENCH_LOADED the program files of dist/ the run read (its bundle, the chunks and vendor
// files it loaded) and their sizes, one `bytes path` a line: the JavaScript the run parsed.
const fs = require('node:fs');
const { join, resolve } = require('node:path');

const dist = join(resolve(__dirname, '..'), 'dist') + '/';
const seen = new Map();
const note = (file) => {
  const path = typeof file === 'string' ? resolve(file) : undefined;
  if (path !== undefined && path.startsWith(dist) && path.endsWith('.cjs') && !seen.has(path)) seen.set(path, fs.statSync(path).size);
};
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  note(file);
  return readFileSync.call(this, file, ...rest);
};
// bin/code-cache.js opens the bundle and its chunks and reads them into one buffer.
const openSync = fs.openSync;
fs.openSync = function (file, ...rest) {
  note(file);
  return openSync.call(this, file, ...rest);
};
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, parent, ...rest) {
  const exports = load.call(this, request, parent, ...rest);
  try {
    note(Module._resolveFilename(request, parent));
  } catch {
    // a built-in
  }
  return exports;
};
process.on('exit', () => {
  fs.writeFileSync(process.env.SHIPBOOK_BENCH_LOADED, [...seen].map(([p, n]) => `${n} ${p.slice(dist.length)}`).join('\n'));
});
