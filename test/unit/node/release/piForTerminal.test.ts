/**
 * Install pi-condense in Pi… runs `pi` in a terminal: found on VS Code's PATH, or on the login shell's,
 * which the terminal is then given (VS Code started from a desktop launcher has no user PATH).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { findPiForTerminal } from '../../../../src/node/release/piOnPath';
import { useTempDir } from '../../../support/tempDirs';

describe('pi for a terminal', () => {
	const temp = useTempDir('pi-terminal');

	function folderWithPi(name: string): string {
		const folder = join(temp(), name);
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, 'pi'), '#!/bin/sh\n', { mode: 0o755 });
		return folder;
	}

	it('is the pi on VS Code\'s PATH first, with no PATH to give', async () => {
		const host = folderWithPi('host');
		const login = folderWithPi('login');
		const found = await findPiForTerminal({ kind: 'read', shell: '/bin/sh', folders: [login] }, { PATH: host }, 'linux');
		assert.deepEqual(found, { command: join(host, 'pi') });
	});

	it('is the pi on the login shell\'s PATH when VS Code\'s has none, and the terminal gets that PATH', async () => {
		const empty = join(temp(), 'empty');
		mkdirSync(empty);
		const login = folderWithPi('login');
		const found = await findPiForTerminal({ kind: 'read', shell: '/bin/sh', folders: ['/usr/bin', login] }, { PATH: empty }, 'linux');
		assert.deepEqual(found, { command: join(login, 'pi'), path: ['/usr/bin', login].join(delimiter) });
	});

	it('is none when neither has it, or the login shell was not read', async () => {
		const empty = join(temp(), 'none');
		mkdirSync(empty);
		assert.equal(await findPiForTerminal({ kind: 'read', shell: '/bin/sh', folders: [empty] }, { PATH: empty }, 'linux'), undefined);
		assert.equal(await findPiForTerminal({ kind: 'pending' }, { PATH: empty }, 'linux'), undefined);
		assert.equal(await findPiForTerminal({ kind: 'unavailable', reason: 'the workspace is not trusted' }, { PATH: empty }, 'linux'), undefined);
	});
});
