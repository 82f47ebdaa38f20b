#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled by esbuild into dist/cli.js (npm run build).
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(bundle)) {
  process.stderr.write(
    'lesson-companion: dist/cli.js is missing. Run `npm run build` in ' + path.dirname(__dirname) + ' first.\n',
  );
  process.exit(2);
}
// dist/cli.js starts the CLI itself (from V8's code cache when it can).
require(bundle);
