#!/usr/bin/env node
// Saves media/screenshots/preview-{dark,light}.png: runs the integration tests in real VS Code
// (code-server) with PI_CONDENSE_SCREENSHOTS set, which adds the screenshot step to the preview's test.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, PI_CONDENSE_SCREENSHOTS: '1' } }).status ?? 1;
const status = run([join(root, 'scripts', 'build.mjs'), '--tests']) || run([join(root, 'test', 'harness', 'run-integration.mjs')]);
process.exit(status);
