/**
 * dist/cli.js: starts the command line (dist/cli-main.js), from the code cache the build wrote beside it where
 * that holds (codeCache.ts). It reads nothing from the cache folder: a record there is the user's to write, and
 * a program checked without the sandbox runs as that user, so nothing kept on disk at run time decides what this
 * process runs (docs/architecture.md, "What is kept between checks").
 */
import * as path from 'node:path';
import { loadBundle } from './codeCache';

const cli = loadBundle(path.join(__dirname, 'cli-main.js')).exports as { runCli(): void };
cli.runCli();
