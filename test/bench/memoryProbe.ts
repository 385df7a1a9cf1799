/**
 * Child process of the benchmark: opens one session (read, parse, tree, context) and prints the
 * peak resident memory it added, in bytes. Run alone so nothing else inflates the figure.
 */
import { readFileSync } from 'node:fs';
import { buildSessionContextSteps, getTree, parseSessionSteps } from '../../src/engine/session';
import { runSteps } from '../../src/engine/steps';

const file = process.argv[2] ?? '';
globalThis.gc?.();
const baseline = process.memoryUsage().rss;
const model = runSteps(parseSessionSteps(readFileSync(file, 'utf8')));
const context = runSteps(buildSessionContextSteps(model));
const tree = getTree(model);
globalThis.gc?.();
const retained = process.memoryUsage().rss - baseline;
const peak = process.resourceUsage().maxRSS * 1024 - baseline;
process.stdout.write(JSON.stringify({ peak, retained, entries: model.entries.length, messages: context.messages.length, roots: tree.roots.length }) + '\n');
