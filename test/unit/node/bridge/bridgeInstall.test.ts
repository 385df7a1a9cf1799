/**
 * Connecting Pi to VS Code on a real agent dir: the bridge's files copied to its own folder and its
 * entry written last in `packages` (every other key and entry kept, no duplicate, moved back to the
 * end when something was installed after it); a `packages` that is not a list is refused untouched;
 * disconnecting removes the entry and the folder. What the palette reads of it: Connect until the
 * bridge is there and last, Disconnect while anything of it is there.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BRIDGE_PACKAGE_ENTRY, bridgeInstallFacts, bridgeInstallStatus, installBridge, isBridgeEntry, uninstallBridge } from '../../../../src/node/bridge/bridgeInstall';
import { useTempDir } from '../../../support/tempDirs';

const settingsOf = (agentDir: string): Record<string, unknown> => JSON.parse(readFileSync(join(agentDir, 'settings.json'), 'utf8')) as Record<string, unknown>;

describe('installing the bridge into Pi', () => {
	const temp = useTempDir('pi-condense-install');
	const source = (): string => {
		const dir = join(temp(), 'dist-bridge');
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pi-condense-vscode-bridge', version: '9.9.9', pi: { extensions: ['./index.js'] } }));
		writeFileSync(join(dir, 'index.js'), 'export default function bridge() {}\n');
		return dir;
	};

	it('copies the bridge and makes it the last package, keeping everything else', async () => {
		const agentDir = join(temp(), 'agent');
		mkdirSync(agentDir);
		writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ theme: 'dark', packages: ['npm:pi-condense', { source: 'git:github.com/x/y', extensions: [] }], contextPrune: { enabled: true } }, null, 2));
		const status = await installBridge(agentDir, source());
		assert.deepEqual(status, { folder: join(agentDir, 'pi-condense-vscode-bridge'), version: '9.9.9', inSettings: true, last: true });
		assert.deepEqual(settingsOf(agentDir), { theme: 'dark', packages: ['npm:pi-condense', { source: 'git:github.com/x/y', extensions: [] }, BRIDGE_PACKAGE_ENTRY], contextPrune: { enabled: true } });
		assert.equal(readFileSync(join(status.folder, 'index.js'), 'utf8'), 'export default function bridge() {}\n');
	});

	it('moves itself back to the end when a package was installed after it, without a duplicate', async () => {
		const agentDir = join(temp(), 'agent');
		await installBridge(agentDir, source());
		writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: [BRIDGE_PACKAGE_ENTRY, 'npm:pi-condense', join(agentDir, 'pi-condense-vscode-bridge')] }));
		assert.equal((await bridgeInstallStatus(agentDir)).last, false);
		await installBridge(agentDir, source());
		assert.deepEqual(settingsOf(agentDir).packages, ['npm:pi-condense', BRIDGE_PACKAGE_ENTRY]);
		assert.ok(isBridgeEntry(agentDir, { source: './pi-condense-vscode-bridge/' }));
		assert.ok(!isBridgeEntry(agentDir, 'npm:pi-condense-vscode-bridge'));
	});

	it('refuses a packages value that is not a list, leaving the file as it was', async () => {
		const agentDir = join(temp(), 'agent');
		mkdirSync(agentDir);
		const text = JSON.stringify({ packages: 'npm:pi-condense' });
		writeFileSync(join(agentDir, 'settings.json'), text);
		await assert.rejects(installBridge(agentDir, source()), /"packages" in .*settings\.json is not a list/);
		assert.equal(readFileSync(join(agentDir, 'settings.json'), 'utf8'), text);
	});

	it('disconnecting removes the entry and the folder, and nothing else', async () => {
		const agentDir = join(temp(), 'agent');
		mkdirSync(agentDir);
		writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: ['npm:pi-condense'], theme: 'light' }));
		await installBridge(agentDir, source());
		await uninstallBridge(agentDir);
		assert.deepEqual(settingsOf(agentDir), { packages: ['npm:pi-condense'], theme: 'light' });
		assert.deepEqual(await bridgeInstallStatus(agentDir), { folder: join(agentDir, 'pi-condense-vscode-bridge'), version: undefined, inSettings: false, last: false });
		await uninstallBridge(agentDir); // twice: nothing to do
	});

	it('tells the palette whether Connect has something to fix and Disconnect something to remove', async () => {
		const agentDir = join(temp(), 'agent');
		mkdirSync(agentDir);
		writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: ['npm:pi-condense'] }));
		assert.deepEqual(bridgeInstallFacts(await bridgeInstallStatus(agentDir)), { installed: false, ready: false });
		await installBridge(agentDir, source());
		assert.deepEqual(bridgeInstallFacts(await bridgeInstallStatus(agentDir)), { installed: true, ready: true });
		// `pi install` after Connect puts a package after the bridge: it no longer runs after every pi-condense.
		writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: [BRIDGE_PACKAGE_ENTRY, 'npm:pi-condense'] }));
		assert.deepEqual(bridgeInstallFacts(await bridgeInstallStatus(agentDir)), { installed: true, ready: false });
		// The entry without its files (the folder removed by hand): Pi cannot load it.
		await uninstallBridge(agentDir);
		writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: [BRIDGE_PACKAGE_ENTRY] }));
		assert.deepEqual(bridgeInstallFacts(await bridgeInstallStatus(agentDir)), { installed: true, ready: false });
	});
});
