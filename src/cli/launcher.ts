/**
 * dist/cli.js: starts the command line (dist/cli-main.js). It reads nothing from the cache folder: a record
 * there is the user's to write, and a program checked without the sandbox runs as that user, so nothing kept
 * on disk decides what this process runs (docs/architecture.md, "What is kept between checks").
 */
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle beside this one, loaded at run time
const cli = require(path.join(__dirname, 'cli-main.js')) as { runCli(): void };
cli.runCli();
