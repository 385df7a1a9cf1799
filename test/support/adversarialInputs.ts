/**
 * Long, pathological strings for every regular expression and glob the extension applies to text a
 * session or a model wrote (tool outputs and arguments, summaries, header fields), each run through
 * the production function that applies it. Each input is the worst case found for that pattern:
 * the shapes that make a backtracking regex rescan the rest of the text from every position.
 * Read by the linear-time unit tests and by `npm run stress adversarial`.
 */
import { compileGlob } from '../../src/engine/condense';
import type { LinearityCase } from './linearity';

export type AdversarialArea = 'glob';

export interface AdversarialCase extends LinearityCase {
	readonly area: AdversarialArea;
}

const repeatTo = (unit: string, chars: number): string => unit.repeat(Math.max(1, Math.floor(chars / unit.length)));

function glob(pattern: string, path: (chars: number) => string): AdversarialCase {
	const matcher = compileGlob(pattern);
	return { area: 'glob', name: `protectedPaths ${pattern} on ${JSON.stringify(path(30).slice(0, 30))}…`, input: path, run: matcher };
}

export const ADVERSARIAL_CASES: readonly AdversarialCase[] = [
	glob('**/skills/**/*.md', (n) => `${repeatTo('skills/', n)}x`),
	glob('**/skills/**/*.md', (n) => `${repeatTo('skills/a.md/', n)}x`),
	glob('*a*b', (n) => repeatTo('a', n)),
	glob('**a**b', (n) => repeatTo('a', n)),
];
