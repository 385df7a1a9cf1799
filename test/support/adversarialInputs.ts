/**
 * Long, pathological strings for every regular expression and glob the extension applies to text a
 * session or a model wrote (tool outputs and arguments, summaries, header fields), each run through
 * the production function that applies it. Each input is the worst case found for that pattern:
 * the shapes that make a backtracking regex rescan the rest of the text from every position.
 * Read by the linear-time unit tests and by `npm run stress adversarial`.
 */
import { compileGlob, substituteBlockRefs, syntheticBlockId } from '../../src/engine/condense';
import { normalizeForHash } from '../../src/engine/flush/contentHash';
import { exitCode, keyArguments, salientLines } from '../../src/engine/flush/offline/salientLines';
import { rewriteLabels } from '../../src/engine/flush/prompt/labelRewrite';
import { messageBlocks, searchMessagesSteps } from '../../src/engine/preview';
import { normalizeFolder } from '../../src/engine/views/sessionList';
import type { LinearityCase } from './linearity';
import { runSteps } from '../../src/engine/steps';

export type AdversarialArea = 'glob' | 'labels' | 'text';

export interface AdversarialCase extends LinearityCase {
	readonly area: AdversarialArea;
}

const repeatTo = (unit: string, chars: number): string => unit.repeat(Math.max(1, Math.floor(chars / unit.length)));

function glob(pattern: string, path: (chars: number) => string): AdversarialCase {
	const matcher = compileGlob(pattern);
	return { area: 'glob', name: `protectedPaths ${pattern} on ${JSON.stringify(path(30).slice(0, 30))}…`, input: path, run: matcher };
}

function labels(name: string, reply: (chars: number) => string): AdversarialCase {
	return { area: 'labels', name: `label rewrite: ${name}`, input: reply, run: (text) => rewriteLabels(text, ['read', 'bash'], ['t1', 't2']) };
}

function text(name: string, input: (chars: number) => string, run: (input: string) => unknown): AdversarialCase {
	return { area: 'text', name, input, run };
}

export const ADVERSARIAL_CASES: readonly AdversarialCase[] = [
	glob('**/skills/**/*.md', (n) => `${repeatTo('skills/', n)}x`),
	glob('**/skills/**/*.md', (n) => `${repeatTo('skills/a.md/', n)}x`),
	glob('*a*b', (n) => repeatTo('a', n)),
	glob('**a**b', (n) => repeatTo('a', n)),
	glob('**/a/**/b/**/c/**/*.md', (n) => `${repeatTo('a/b/c/', n)}x`),
	glob('*a*a*a*a*a*b', (n) => repeatTo('a', n)),
	glob('**/*.md', (n) => `${repeatTo('d/', n)}x.mdx`),
	labels('repeated [[1:', (n) => repeatTo('[[1:', n)),
	labels('[[ and a long number', (n) => `[[${repeatTo('1', n)}`),
	labels('an unclosed long name', (n) => `[[1:${repeatTo('a', n)}`),
	labels('names closed by one ]', (n) => repeatTo('[[1:a]', n)),
	labels('a label on every line', (n) => repeatTo('- [[1:read]] x\n', n)),
	labels('long fence-like lines', (n) => `[[1:read]]\n${repeatTo(' ', n / 2)}x\n${repeatTo('`', n / 2)}`),
	text('content hash: spaces not ending the line', (n) => `${repeatTo(' ', n)}x`, normalizeForHash),
	text('content hash: CR and tabs', (n) => `${repeatTo('\r\t', n)}x`, normalizeForHash),
	text('session list: a header cwd of slashes', (n) => `${repeatTo('/', n)}x`, normalizeFolder),
	text('offline summary: path-like line', (n) => ` a/${repeatTo('a.', n)}!`, (line) => salientLines('bash', line, false, 6)),
	text('offline summary: slashes and dots', (n) => ` ${repeatTo('../', n)}`, (line) => salientLines('bash', line, false, 6)),
	text('offline summary: error words glued', (n) => repeatTo('errorx', n), (line) => salientLines('bash', line, false, 6)),
	text('offline summary: exit and spaces', (n) => `exit${repeatTo(' ', n)}x`, exitCode),
	text('offline summary: exit repeated', (n) => repeatTo('exit 1', n), exitCode),
	text('offline summary: whitespace in arguments', (n) => repeatTo(' x', n), (value) => keyArguments({ command: value })),
	text('chain bodies: {b with a long number', (n) => `{b${repeatTo('1', n)}`, (body) => substituteBlockRefs(body, () => undefined, 'b0')),
	text('chain bodies: repeated {b1', (n) => repeatTo('{b1', n), (body) => substituteBlockRefs(body, () => undefined, 'b0')),
	text('preview: unclosed chain tag', (n) => `<compressed-chain id="${repeatTo('a', n)}`, (body) => syntheticBlockId({ role: 'user', content: body, timestamp: 0 })),
	text('preview: purge marker with a long size', (n) => `<purged-errored-args size="${repeatTo('1', n)}`, (argsText) => messageBlocks({
		role: 'assistant', content: [{ type: 'toolCall', id: 'c', name: 'bash', arguments: { _purged: argsText } }],
		api: 'x', provider: 'x', model: 'x', stopReason: 'toolUse', timestamp: 0,
		usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
	}, Number.MAX_SAFE_INTEGER)),
	text('preview search: a query in a long output', (n) => repeatTo('erro', n), (output) => runSteps(searchMessagesSteps([{ role: 'toolResult', toolCallId: 'c', toolName: 'bash', content: [{ type: 'text', text: output }], isError: false, timestamp: 0 }], 'error'))),
];
