/**
 * dist/cli.js: starts the command line, from the code cache the build wrote beside it where that holds
 * (codeCache.ts). `lessons` starts dist/cli-lessons.js, which has that command alone (lessonsMain.ts); every
 * other command dist/cli-main.js. It reads nothing from the cache folder: a record there is the user's to write,
 * and a program checked without the sandbox runs as that user, so nothing kept on disk at run time decides what
 * this process runs (docs/architecture.md, "What is kept between checks").
 */
import * as path from 'node:path';
import { loadBundle } from './codeCache';

const bundle = process.argv[2] === 'lessons' ? 'cli-lessons.js' : 'cli-main.js';
const cli = loadBundle(path.join(__dirname, bundle)).exports as { runCli(): void };
cli.runCli();
