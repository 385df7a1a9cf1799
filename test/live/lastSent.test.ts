/**
 * Real Pi 1.6.0 in RPC mode with the bridge installed as "Connect Pi to VS Code" installs it,
 * against the fake model server on 127.0.0.1, and VS Code's side of the bridge (discovery and
 * client): the session is seen live, Last sent is exactly what the server received and matches our
 * prediction from the session file, "Prune now" puts nothing into the editor of a Pi in RPC mode
 * (where Pi cannot see a draft) and says what to type instead, and the bridge keeps to what it may do.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseDefaults } from '../../src/engine/config/defaults';
import { compareSent } from '../../src/engine/live/sentComparison';
import { predictAtLeafSteps } from '../../src/engine/condense/render/predictAtLeaf';
import { releaseRules } from '../../src/engine/release/releases';
import { parseSessionSteps } from '../../src/engine/session';
import { runSteps } from '../../src/engine/steps';
import { messageDigestsSteps } from '../../src/node/bridge/messageDigest';
import type { LiveBridges, LivePi } from '../../src/node/bridge/liveBridges';
import type { RealPi } from '../support/realPi';
import { closeLiveHome, eventually, followBridges, type LiveHome, makeLiveHome, stopFollowing } from './liveHarness';

function discovery(home: LiveHome, lines: string[]): LiveBridges {
	const log = (line: string): void => void lines.push(line);
	return followBridges({ folders: () => [home.bridgeFolder], cleanStale: () => true, log: { info: log, warn: log, debug: log }, pollMs: 200 });
}

describe('the bridge in a real Pi 1.6.0 (RPC mode)', function () {
	this.timeout(120_000);
	let home: LiveHome | undefined;
	let bridges: LiveBridges | undefined;
	const logLines: string[] = [];
	let pi: RealPi;
	let live: LivePi;

	before(async () => {
		home = await makeLiveHome();
		pi = home.startPi();
		bridges = discovery(home, logLines);
		bridges.start();
		live = await eventually(() => bridges?.pis.find((candidate) => candidate.state.pid === pi.pid), 'the bridge of the Pi started');
	});
	after(async () => {
		await stopFollowing(bridges);
		await closeLiveHome(home);
	});

	it('is seen live, with Pi\'s version, mode, session, model and the pi-condense it loaded before it', () => {
		const { state } = live;
		assert.equal(state.piVersion, '1.6.0');
		assert.equal(state.mode, 'rpc');
		assert.equal(state.cwd, home?.project);
		assert.ok(state.sessionFile?.startsWith(join(home?.agentDir ?? '', 'sessions')), state.sessionFile);
		assert.deepEqual(state.model, { provider: 'fake', id: 'fake-1', contextWindow: 128000 });
		assert.equal(state.order, 'after-pi-condense');
		assert.equal(state.piCondense?.command, 'pruner');
		assert.match(state.piCondense?.path ?? '', /pruner-stand-in\/index\.js$/);
		assert.equal(bridges?.forSession(state.sessionFile ?? '')?.state.pid, pi.pid);
	});

	it('Last sent is exactly what the model server received, and matches our prediction from the session file', async () => {
		// A tool call Pi really runs, so the context holds a tool call and its result too.
		home?.server.enqueue({ text: 'Listing.', toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'echo hello from the tool' } }] });
		await pi.prompt('List the files, please.');
		await pi.prompt('And now the tests.');
		const sent = await eventually(() => {
			const last = bridges?.pis.find((candidate) => candidate.state.pid === pi.pid)?.last;
			return last && last.seq >= 3 ? last : undefined;
		}, 'the digest of the third request');
		assert.equal(home?.server.requests.length, 3);
		const received = home?.server.requests.at(-1);
		assert.ok(received);
		const payload = await live.client.requestText(sent.seq, 'payload');
		assert.deepEqual(JSON.parse(payload), received.body);
		assert.equal(payload, received.rawBody, 'byte for byte what the server received');
		assert.equal(sent.payload?.chars, payload.length);
		// The messages as the context event had them: the conversation of the payload, before the provider's mapping.
		const messages = JSON.parse(await live.client.requestText(sent.seq, 'messages')) as Array<{ role: string }>;
		const roles = ['user', 'assistant', 'toolResult', 'assistant', 'user'];
		assert.deepEqual(messages.map((message) => message.role), roles);
		assert.deepEqual(sent.messages.map((message) => message.role), roles);
		assert.match(JSON.stringify(messages[2]), /hello from the tool/);
		const system = JSON.parse(await live.client.requestText(sent.seq, 'system')) as Array<{ role: string }>;
		assert.equal(system[0]?.role, 'system');
		// Our prediction for that point of the session, from the file Pi wrote.
		const model = runSteps(parseSessionSteps(readFileSync(sent.sessionFile ?? '', 'utf8')));
		const release = releaseRules('2.9.1');
		const predicted = runSteps(predictAtLeafSteps(model, sent.leafId, { ...releaseDefaults(release), enabled: false }, release));
		assert.ok(predicted, 'the request\'s leaf is in the file');
		const comparison = compareSent(sent, 'after-pi-condense', runSteps(messageDigestsSteps(predicted)));
		assert.deepEqual(comparison, { kind: 'match', messages: 5 });
	});

	it('"Prune now" puts nothing into the editor of a Pi in RPC mode (it cannot tell a draft is there): it says why and what to type, and typing it runs pi-condense\'s command', async () => {
		const from = pi.records.length;
		const requests = home?.server.requests.length;
		await assert.rejects(live.client.putPrunerCommand('now'), /it runs in RPC mode \(.*\), where Pi cannot see whether the editor holds a draft, so nothing was put there/);
		// The front end driving Pi is told what to type.
		const notice = await pi.waitFor((record) => record.type === 'extension_ui_request' && record.method === 'notify', 60_000, 'the notice', from);
		assert.match(String(notice.message), /^VS Code asked for \/pruner now: type it in the editor and press Enter/);
		// Nothing was put into the editor or sent to the model: no set_editor_text, no user message, no run, no request.
		await pi.command({ type: 'get_state' });
		assert.deepEqual(pi.records.slice(from).filter((record) => record.method === 'set_editor_text' || record.type === 'agent_start' || (record.type === 'message_start' && (record.message as { role?: string }).role === 'user')), []);
		assert.equal(home?.server.requests.length, requests);
		// The user types it in Pi: a prompt, which Pi hands to the /pruner command.
		await pi.command({ type: 'prompt', message: '/pruner now' });
		assert.equal(readFileSync(home?.prunerLog ?? '', 'utf8'), 'now\n');
		assert.equal(home?.server.requests.length, requests, '/pruner now never reached the model');
		await assert.rejects(live.client.putPrunerCommand('compact'), /RPC mode/);
	});
});
