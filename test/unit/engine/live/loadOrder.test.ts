/**
 * The load order found from Pi's command list (extension commands in load order, as Pi 1.6.0's
 * getCommands lists them) and the pi-condense behind /pruner.
 */
import assert from 'node:assert/strict';
import { BRIDGE_COMMAND, findLoadOrder, type CommandSource } from '../../../../src/engine/live/loadOrder';

const ext = (name: string, path: string): CommandSource => ({ name, source: 'extension', path });
const bridge = ext(BRIDGE_COMMAND, '/agent/pi-condense-vscode/bridge');
const pruner = ext('pruner', '/agent/npm/node_modules/pi-condense');
const builtins = [ext('llama', 'builtin:llama.cpp'), ext('mcp', 'builtin:mcp')];

describe('findLoadOrder', () => {
	it('after pi-condense when the bridge\'s command comes after /pruner', () => {
		assert.deepEqual(findLoadOrder([pruner, bridge, ...builtins]), { order: 'after-pi-condense', pruner: { command: 'pruner', path: pruner.path } });
	});

	it('before pi-condense when it comes first, or before any copy of it', () => {
		assert.equal(findLoadOrder([bridge, pruner, ...builtins]).order, 'before-pi-condense');
		const first = ext('pruner:1', '/a'); const second = ext('pruner:2', '/b');
		const found = findLoadOrder([first, bridge, second]);
		assert.equal(found.order, 'before-pi-condense');
		assert.deepEqual(found.pruner, { command: 'pruner:1', path: '/a' });
	});

	it('no pi-condense without /pruner; unknown without a command list or without the bridge in it', () => {
		assert.deepEqual(findLoadOrder([bridge, ...builtins]), { order: 'no-pi-condense', pruner: undefined });
		assert.equal(findLoadOrder(undefined).order, 'unknown');
		assert.equal(findLoadOrder([pruner]).order, 'unknown');
		// A prompt template or skill named pruner is not pi-condense's command.
		assert.equal(findLoadOrder([{ name: 'pruner', source: 'prompt', path: '/p.md' }, bridge]).order, 'no-pi-condense');
	});
});
