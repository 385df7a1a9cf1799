/**
 * Every call site that shows text VS Code renders as linked text or markdown is known and goes
 * through src/host/ui/safeUi.ts (the one escaping rule). The sites are listed in
 * renderedTextSites.json with the session-derived text each shows; this test reads that list and
 * the sources: a raw VS Code call outside safeUi, or a call site missing from the list (or listed
 * but gone), fails it. (Lint forbids the raw calls too; this also covers code lint does not see.)
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../../support/paths';

interface SitesFile {
	readonly sites: Record<string, { readonly calls: Record<string, number>; readonly sessionText: string }>;
}

const SAFE_UI = 'src/host/ui/safeUi.ts';
const SAFE_CALLS = ['showInfo', 'showWarning', 'showError', 'withProgress', 'showQuickPick', 'pickOne', 'searchPick', 'showInputBox', 'markdownString'];
const RAW = /\bcommands\s*\.\s*registerCommand\b|\bwindow\s*\.\s*(showInformationMessage|showWarningMessage|showErrorMessage|withProgress|showQuickPick|createQuickPick|showInputBox|createInputBox)\b|\bMarkdownString\s*\(|\.appendMarkdown\s*\(|\.appendText\s*\(|\.isTrusted\s*=(?!=)/g;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The source without comments, so that a comment naming a call is not a call. */
function code(path: string): string {
	return readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('text VS Code renders as links or markdown goes through safeUi', () => {
	const files = [...sourceFiles(join(repoRoot, 'src', 'host')), join(repoRoot, 'src', 'extension.ts')]
		.map((path) => ({ path: relative(repoRoot, path).split('\\').join('/'), text: code(path) }));
	const listed = (JSON.parse(readFileSync(join(repoRoot, 'test', 'unit', 'host', 'renderedTextSites.json'), 'utf8')) as SitesFile).sites;

	it('calls VS Code\'s rendering functions only inside safeUi.ts', () => {
		const raw = files.filter((file) => file.path !== SAFE_UI).flatMap((file) => [...file.text.matchAll(RAW)].map((match) => `${file.path}: ${match[0]}`));
		assert.deepEqual(raw, []);
	});

	it('lists every call site of safeUi, and nothing that is gone', () => {
		const found: Record<string, Record<string, number>> = {};
		for (const file of files.filter((candidate) => candidate.path !== SAFE_UI)) {
			for (const name of SAFE_CALLS) {
				const count = [...file.text.matchAll(new RegExp(`(?<![.\\w])${name}\\(`, 'g'))].length;
				if (count > 0) {
					(found[file.path] ??= {})[name] = count;
				}
			}
		}
		const expected = Object.fromEntries(Object.entries(listed).map(([path, site]) => [path, site.calls]));
		assert.deepEqual(found, expected, 'update test/unit/host/renderedTextSites.json: name what session text each new site shows');
		for (const [path, site] of Object.entries(listed)) {
			assert.ok(site.sessionText.length > 0, path);
		}
	});
});
