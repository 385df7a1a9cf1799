/**
 * No two modules of src/, webview/ or bridge/ import each other, directly or around a loop, type imports
 * included: a loop makes a newcomer read both files to understand either, and hides which one is
 * the lower layer. Reads the relative imports (and re-exports) of every source file.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../../support/paths';

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
	});
}

const SPECIFIER = /^\s*(?:import|export)\b[^'";]*?\bfrom\s*'(\.[^']+)'/gm;

/** The files of the tree that `file` imports. */
function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	return [...text.matchAll(SPECIFIER)].flatMap((match) => {
		const target = resolve(dirname(file), match[1] as string);
		const candidates = [`${target}.ts`, join(target, 'index.ts')];
		return candidates.filter((candidate) => existsSync(candidate)).slice(0, 1);
	});
}

/** Strongly connected components of more than one file (Tarjan). */
function loops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
	let next = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (node: string): void => {
		index.set(node, next);
		low.set(node, next++);
		stack.push(node);
		onStack.add(node);
		for (const target of graph.get(node) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
			} else if (onStack.has(target)) {
				low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
			}
		}
		if (low.get(node) === index.get(node)) {
			const component: string[] = [];
			let member: string | undefined;
			do {
				member = stack.pop() ?? node;
				onStack.delete(member);
				component.push(member);
			} while (member !== node);
			if (component.length > 1) {
				found.push(component);
			}
		}
	};
	for (const node of graph.keys()) {
		if (!index.has(node)) {
			visit(node);
		}
	}
	return found;
}

describe('imports', () => {
	it('form no loop in src/, webview/ and bridge/', () => {
		const files = ['src', 'webview', 'bridge'].flatMap((folder) => sourceFiles(join(repoRoot, folder)));
		assert.ok(files.some((file) => file.includes(`${join(repoRoot, 'bridge')}`)), 'the bridge\'s files were read');
		const graph = new Map(files.map((file) => [file, importsOf(file)]));
		assert.ok([...graph.values()].flat().length > 500, 'the imports were read');
		const named = loops(graph).map((component) => component.map((file) => relative(repoRoot, file)).sort().join(' <-> '));
		assert.deepEqual(named, []);
	});
});
