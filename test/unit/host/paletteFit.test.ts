/**
 * The Command Palette fits the moment: with package.json's own `when` clauses evaluated for the states
 * a user is in, ten or fewer Pi Condense commands are offered (eleven with Connect Pi to VS Code…, offered
 * on top until Pi is connected: a one-time setup, as Install is), and never two that contradict each
 * other (On with Off, Install with pi-condense installed, Clear Filter with no filter, Connect with Pi
 * connected). Live sessions: Connect while Pi is not connected (or its bridge is no longer its last
 * package), Open the Last Request only on a session a live Pi holds, Compare with Previous Request in its place
 * once two of its requests are kept, Disconnect only with showAll (it is
 * in Pi Sessions' title menu). Remove the Key Set up by Pi Condense only while there is one, in a trusted
 * workspace.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths';
import { evaluateWhen, type WhenContext } from '../../support/whenClause';

interface Manifest {
	readonly contributes: {
		readonly commands: readonly { command: string; title: string }[];
		readonly menus: { readonly commandPalette: readonly { command: string; when: string }[] };
	};
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

function offered(context: WhenContext): string[] {
	const when = new Map(manifest.contributes.menus.commandPalette.map((entry) => [entry.command, entry.when]));
	return manifest.contributes.commands.filter((command) => evaluateWhen(when.get(command.command) ?? 'true', context)).map((command) => command.title);
}

const TYPICAL: WhenContext = {
	'piCondense.stateKnown': true, 'piCondense.sessionSelected': true, 'piCondense.installed': true, 'piCondense.pruningEnabled': true,
	'piCondense.hasPending': true, 'piCondense.hasSessions': true, 'piCondense.discoveryDone': true, isWorkspaceTrusted: true,
	// Pi not connected to VS Code yet (the bridge's install read, none found).
	'piCondense.bridgeChecked': true,
};
const CONNECTED: WhenContext = { ...TYPICAL, 'piCondense.bridgeInstalled': true, 'piCondense.bridgeReady': true };

describe('the Command Palette fits the moment', () => {
	const states: Record<string, WhenContext> = {
		'a session with batches pending': TYPICAL,
		'right after a prune (nothing pending, Undo possible)': { ...TYPICAL, 'piCondense.hasPending': false, 'piCondense.canUndoPrune': true },
		'pruning off': { ...TYPICAL, 'piCondense.pruningEnabled': false },
		'pi-condense not installed': { ...TYPICAL, 'piCondense.installed': false },
		'no session selected': { ...TYPICAL, 'piCondense.sessionSelected': false, 'piCondense.hasPending': false },
		'no session found at all': { ...TYPICAL, 'piCondense.sessionSelected': false, 'piCondense.hasPending': false, 'piCondense.hasSessions': false },
		'the session list filtered': { ...TYPICAL, 'piCondense.sessionsFiltered': true },
		'Pi connected, the session not live': CONNECTED,
		'Pi connected, the selected session live': { ...CONNECTED, 'piCondense.liveSession': true },
		'Pi connected, the session live, right after a prune': { ...CONNECTED, 'piCondense.liveSession': true, 'piCondense.hasPending': false, 'piCondense.canUndoPrune': true },
		'Pi connected, the session live, two of its requests kept': { ...CONNECTED, 'piCondense.liveSession': true, 'piCondense.canCompareRequests': true },
		'the same, right after a prune': { ...CONNECTED, 'piCondense.liveSession': true, 'piCondense.canCompareRequests': true, 'piCondense.hasPending': false, 'piCondense.canUndoPrune': true },
		'right after a prune that set up a key': { ...CONNECTED, 'piCondense.hasPending': false, 'piCondense.canUndoPrune': true, 'piCondense.keySetUp': true },
		'a key set up, in a workspace not trusted': { ...CONNECTED, 'piCondense.keySetUp': true, isWorkspaceTrusted: false },
	};

	for (const [name, context] of Object.entries(states)) {
		it(`offers ten or fewer commands (and Connect until Pi is connected): ${name}`, () => {
			const titles = offered(context);
			assert.ok(titles.length <= (titles.includes('Connect Pi to VS Code…') ? 11 : 10), `${titles.length}: ${titles.join(', ')}`);
			assert.ok(titles.includes('Settings…') && titles.includes('Help'));
			assert.ok(!(titles.includes('Turn Pruning On') && titles.includes('Turn Pruning Off')));
			assert.equal(titles.includes('Install pi-condense in Pi…'), context['piCondense.installed'] === false);
			assert.equal(titles.includes('Clear Session Filter'), context['piCondense.sessionsFiltered'] === true);
			assert.equal(titles.includes('Summarize Pending Batches Now'), context['piCondense.hasPending'] === true && context['piCondense.installed'] === true && context['piCondense.pruningEnabled'] === true);
			assert.equal(titles.includes('Undo Last Prune'), context['piCondense.canUndoPrune'] === true);
			assert.equal(titles.includes('Remove the Key Set up by Pi Condense'), context['piCondense.keySetUp'] === true && context.isWorkspaceTrusted === true);
			assert.equal(titles.includes('Connect Pi to VS Code…'), context['piCondense.bridgeReady'] !== true);
			assert.equal(titles.includes('Open the Last Request Pi Sent'), context['piCondense.liveSession'] === true && context['piCondense.canCompareRequests'] !== true);
			assert.equal(titles.includes('Compare with Previous Request'), context['piCondense.liveSession'] === true && context['piCondense.canCompareRequests'] === true);
			assert.ok(!titles.includes('Disconnect Pi from VS Code…'));
		});
	}

	it('offers every command with piCondense.commandPalette.showAll, and none that needs a session without one', () => {
		const all = offered({ ...TYPICAL, 'config.piCondense.commandPalette.showAll': true });
		assert.ok(all.includes('Choose Summarizer Model…') && all.includes('Refresh Sessions') && all.includes('Show Summarizer Stats'), all.join(', '));
		const none = offered({ ...TYPICAL, 'piCondense.sessionSelected': false, 'config.piCondense.commandPalette.showAll': true });
		for (const title of ['Show Summarizer Stats', 'Open Session File (.jsonl)', 'Recover Raw Output…', 'Summarize Pending Batches Now', 'Compact Closed Chains Now']) {
			assert.ok(!none.includes(title), title);
		}
	});

	it('offers Connect and Disconnect only in a trusted workspace, Disconnect with showAll and the bridge installed', () => {
		const all = { 'config.piCondense.commandPalette.showAll': true };
		assert.ok(offered({ ...CONNECTED, ...all }).includes('Disconnect Pi from VS Code…'));
		assert.ok(!offered({ ...TYPICAL, ...all }).includes('Disconnect Pi from VS Code…'));
		const restricted = offered({ ...CONNECTED, 'piCondense.bridgeReady': false, ...all, isWorkspaceTrusted: false });
		assert.deepEqual(restricted.filter((title) => /Connect|Disconnect/.test(title)), []);
		// Not read yet (the agent dir not located): no Connect that may be wrong.
		assert.ok(!offered({ ...TYPICAL, 'piCondense.bridgeChecked': false }).includes('Connect Pi to VS Code…'));
	});

	it('offers neither On nor Off nor Install before the state is known (a moment after activation)', () => {
		const titles = offered({ ...TYPICAL, 'piCondense.stateKnown': false, 'piCondense.installed': false, 'piCondense.pruningEnabled': false });
		assert.deepEqual(titles.filter((title) => /Turn Pruning|Install/.test(title)), []);
	});
});
