/**
 * The order the bridge runs in, in a real Pi 1.6.0, and that it notices when it is wrong: Pi loads
 * its auto-discovered extensions folder before packages, so a bridge put there runs before a
 * pi-condense installed with `pi install` (and reports it); a package after the bridge that changes
 * the context is seen changing it, request by request.
 */
import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LiveBridges } from '../../src/node/bridge/liveBridges';
import { BRIDGE_DIST, closeLiveHome, eventually, followBridges, type LiveHome, makeLiveHome, PI_EXTENSIONS, stopFollowing } from './liveHarness';

describe('the bridge\'s load order in a real Pi 1.6.0', function () {
	this.timeout(120_000);
	let home: LiveHome | undefined;
	let bridges: LiveBridges | undefined;
	afterEach(async () => {
		await stopFollowing(bridges);
		bridges = undefined;
		await closeLiveHome(home);
		home = undefined;
	});
	const follow = (): LiveBridges => {
		const quiet = (): void => undefined;
		bridges = followBridges({ folders: () => [home?.bridgeFolder ?? ''], cleanStale: () => true, log: { info: quiet, warn: quiet, debug: quiet }, pollMs: 200 });
		bridges.start();
		return bridges;
	};

	it('in Pi\'s extensions folder it runs before a pi-condense package, and says so', async () => {
		home = await makeLiveHome();
		// Undo the package entry and put the bridge where Pi auto-discovers extensions instead.
		writeFileSync(join(home.agentDir, 'settings.json'), JSON.stringify({ packages: [join(PI_EXTENSIONS, 'context-changer')] }));
		cpSync(BRIDGE_DIST, join(home.agentDir, 'extensions', 'pi-condense-vscode-bridge'), { recursive: true });
		const pi = home.startPi();
		const found = follow();
		const live = await eventually(() => found.pis[0], 'the bridge');
		assert.equal(live.state.pid, pi.pid);
		assert.equal(live.state.order, 'before-pi-condense');
		await pi.prompt('hello');
		const sent = await eventually(() => found.pis[0]?.last, 'the request');
		assert.equal(sent.changedAfterBridge, 1, 'the user message the bridge saw was changed by the package loaded after it');
		assert.match(JSON.stringify(home.server.requests[0]?.body), /changed by context-changer/);
	});

	it('as the last package it runs after the pi-condense package and sees what was sent', async () => {
		home = await makeLiveHome([join(PI_EXTENSIONS, 'context-changer')]);
		const pi = home.startPi();
		const found = follow();
		const live = await eventually(() => found.pis[0], 'the bridge');
		assert.equal(live.state.pid, pi.pid);
		assert.equal(live.state.order, 'after-pi-condense');
		await pi.prompt('hello');
		const sent = await eventually(() => found.pis[0]?.last, 'the request');
		assert.equal(sent.changedAfterBridge, 0);
		const messages = await live.client.requestText(sent.seq, 'messages');
		assert.match(messages, /changed by context-changer/);
	});
});
