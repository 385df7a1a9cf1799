// Pi 1.6.0's own all-sessions list (`SessionManager.listAll`, what /resume shows) over an agent dir, for the
// parity tests of what is listed: run on a Node Pi 1.x accepts (>= 22.19) by `test/support/pi16.ts`.
// usage: node listAllRunner.mjs <agent dir>    stdout: {"pi":"1.6.0","paths":["<session file>", …]}
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

process.env.PI_CODING_AGENT_DIR = process.argv[2];
const { SessionManager } = await import('@earendil-works/pi-coding-agent');
const piRoot = dirname(dirname(fileURLToPath(import.meta.resolve('@earendil-works/pi-coding-agent'))));
const pi = JSON.parse(readFileSync(join(piRoot, 'package.json'), 'utf8')).version;
const sessions = await SessionManager.listAll();
process.stdout.write(`${JSON.stringify({ pi, paths: sessions.map((session) => session.path) })}\n`);
