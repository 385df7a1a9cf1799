/**
 * The bridge in a real Pi 1.6.0 running in a terminal (its TUI, under a pseudo-terminal), where Pi
 * can say what its editor holds: "Prune now" leaves a draft the user typed as it is (Enter then
 * sends the draft, unchanged), and puts `/pruner now` into an empty editor, where Enter runs
 * pi-condense's command. (In RPC mode it puts nothing: lastSent.test.ts.)
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import type { LiveBridges } from '../../src/node/bridge/liveBridges';
import { hasScript, TerminalPi } from '../support/terminalPi';
import { closeLiveHome, eventually, followBridges, makeLiveHome, stopFollowing, type LiveHome } from './liveHarness';

describe('the bridge in a real Pi 1.6.0 in a terminal', function () {
	this.timeout(120_000);
	let home: LiveHome | undefined;
	let pi: TerminalPi | undefined;
	let bridges: LiveBridges | undefined;
	let piPid: number | undefined;

	before(function () {
		if (!hasScript()) {
			this.skip(); // no util-linux `script` to give Pi a terminal (macOS's takes other options)
		}
	});
	after(async () => {
		await stopFollowing(bridges);
		await pi?.stop(piPid);
		await closeLiveHome(home);
	});

	it('leaves a draft in Pi\'s editor as it is, and puts /pruner now into an empty one, where Enter runs it', async () => {
		home = await makeLiveHome();
		const { prunerLog, server } = home;
		pi = TerminalPi.start({ agentDir: home.agentDir, cwd: home.project, env: { XDG_RUNTIME_DIR: home.runtimeDir, XDG_CACHE_HOME: home.cacheDir, PRUNER_STAND_IN_LOG: prunerLog } });
		const log = (): void => undefined;
		const folder = home.bridgeFolder;
		bridges = followBridges({ folders: () => [folder], cleanStale: () => true, log: { info: log, warn: log, debug: log }, pollMs: 200 });
		bridges.start();
		const live = await eventually(() => bridges?.pis[0], 'the bridge of the Pi in the terminal');
		piPid = live.state.pid;
		assert.equal(live.state.mode, 'tui');

		const terminal = pi;
		terminal.type('my draft, half written');
		await eventually(() => (terminal.text.includes('my draft, half written') ? true : undefined), 'the draft in Pi\'s editor');
		await assert.rejects(live.client.putPrunerCommand('now'), /Pi's editor holds text the user typed; it was left as it is/);
		// Enter sends the draft as the user wrote it: nothing replaced it.
		terminal.type('\r');
		const sent = await eventually(() => server.requests.find((request) => JSON.stringify(request.body).includes('my draft, half written')), 'the draft sent to the model');
		assert.ok(!JSON.stringify(sent.body).includes('/pruner'));
		await eventually(() => (bridges?.pis[0]?.state.busy === false ? true : undefined), 'Pi idle again');

		// The editor is empty now: the command goes in, and Enter runs pi-condense's command, not a prompt.
		assert.equal(await live.client.putPrunerCommand('now'), '/pruner now');
		const requests = server.requests.length;
		terminal.type('\r');
		await eventually(() => (existsSync(prunerLog) && readFileSync(prunerLog, 'utf8') === 'now\n' ? true : undefined), '/pruner now run by Enter');
		assert.equal(server.requests.length, requests, '/pruner now never reached the model');
	});
});
