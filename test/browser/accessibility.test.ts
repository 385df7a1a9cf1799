/**
 * axe-core (the accessibility engine of Deque, from npm) over the real preview page in Chromium, in
 * VS Code's dark and light themes: on a session written by real pi-condense (stubs, refs, chains,
 * summaries, the what-if panel), on one written by Pi 1.6.0 (the system prompt row, edited and
 * folded badges, the note of what Pi leaves out) and on one with pending work (the actions bar), with a message
 * expanded: no serious or critical violation. axe is evaluated in the page by the browser's
 * debugging protocol, which the page's CSP does not apply to; the page itself is served as VS Code
 * serves it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pendingAgentDir } from '../support/pendingSession';
import { repoRoot } from '../support/paths';
import { referenceAgentDir } from '../support/referenceAgentDir';
import { LATEST, R200 } from '../support/releases';
import { releaseRules } from '../../src/engine/release/releases';
import { SessionFileSource } from '../support/sessionFileSource';
import type { ThemeName } from '../support/webviewThemes';
import { WebviewPage } from '../support/webviewPage';

interface AxeViolation {
	readonly id: string;
	readonly impact: string | null;
	readonly help: string;
	readonly nodes: readonly { readonly target: readonly unknown[]; readonly failureSummary?: string }[];
}

const AXE = readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

async function violations(page: WebviewPage): Promise<AxeViolation[]> {
	await page.page.evaluate(`${AXE};0`);
	return page.page.evaluate(async () => {
		const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
		const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
		return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
	});
}

function describeViolations(found: readonly AxeViolation[]): string {
	return found.map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.slice(0, 3).map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join(' | ')}`).join('\n');
}

const SESSIONS = {
	'a session written by real pi-condense': () => {
		const dir = referenceAgentDir('basic');
		return { dir, source: new SessionFileSource(dir.sessionFile, dir.agentDir, R200) };
	},
	'a Pi 1.6.0 session with context edits and its system prompt': () => {
		const dir = referenceAgentDir('context-edits-pi-1.6.0');
		return { dir, source: new SessionFileSource(dir.sessionFile, dir.agentDir, releaseRules('2.9.1')) };
	},
	'a session with pending work': () => {
		const dir = pendingAgentDir(2);
		return { dir, source: new SessionFileSource(dir.sessionFile, dir.agentDir, LATEST, undefined, true) };
	},
};

describe('accessibility of the preview page (axe-core)', function () {
	this.timeout(120_000);

	for (const theme of ['dark', 'light'] as const satisfies readonly ThemeName[]) {
		for (const [name, open] of Object.entries(SESSIONS)) {
			it(`has no serious or critical violation: ${name}, ${theme} theme`, async () => {
				const { dir, source } = open();
				let page: WebviewPage | undefined;
				try {
					await source.reload();
					page = await WebviewPage.open(source, { theme });
					await page.waitForReport((r) => r.cause === 'snapshot');
					const expand = page.page.locator('.row [data-action="expand"]').first();
					if (await expand.count() > 0) {
						const expanded = page.nextReport((r) => r.cause === 'expand');
						await expand.click();
						await expanded;
					}
					const found = await violations(page);
					const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
					console.log(`      ${theme}, ${name}: ${found.length} violation(s) in all${found.length > 0 ? `: ${found.map((v) => `${v.impact} ${v.id}`).join(', ')}` : ''}`);
					assert.equal(serious.length, 0, describeViolations(serious));
					assert.equal(await page.page.locator('.ref[tabindex="0"]').count(), 0, 'no ref is a tab stop of its own');
				} finally {
					await page?.close();
					dir.cleanup();
				}
			});
		}
	}
});
