/**
 * The command list in src/host/commandIds.ts is the one source: package.json contributes
 * exactly its commands (category Pi Condense, internal ones hidden from the palette, the others with
 * their `when`) and the command table of docs/commands.md lists every palette command with its
 * /pruner equivalent.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, CommandId } from '../../../src/host/commandIds';
import { repoRoot } from '../../support/paths';

interface Manifest {
	readonly contributes: {
		readonly commands: readonly { command: string; title: string; category: string; icon?: string }[];
		readonly menus: { readonly commandPalette: readonly { command: string; when: string }[] };
	};
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

describe('command catalog', () => {
	it('package.json contributes exactly the catalog\'s commands, with its titles and icons', () => {
		assert.deepEqual(manifest.contributes.commands, COMMANDS.map((command) => ({
			command: command.id, title: command.title, category: 'Pi Condense', ...(command.icon ? { icon: command.icon } : {}),
		})));
		assert.deepEqual(
			manifest.contributes.menus.commandPalette,
			COMMANDS.filter((command) => !command.palette || command.when !== undefined).map((command) => ({ command: command.id, when: command.palette ? command.when : 'false' })),
		);
	});

	it('every id is piCondense.<verb> and listed in CommandId', () => {
		const ids = Object.values(CommandId) as string[];
		for (const command of COMMANDS) {
			assert.match(command.id, /^piCondense\.[a-z][A-Za-z]+$/);
			assert.ok(ids.includes(command.id));
		}
	});

	it('the command table of docs/commands.md names every palette command and its /pruner equivalent', () => {
		const doc = readFileSync(join(repoRoot, 'docs', 'commands.md'), 'utf8');
		for (const command of COMMANDS.filter((candidate) => candidate.palette)) {
			const row = doc.split('\n').find((line) => line.startsWith(`| Pi Condense: ${command.title} |`));
			assert.ok(row, `docs/commands.md lists "Pi Condense: ${command.title}"`);
			assert.ok(row.includes(command.pruner ? `\`/pruner ${command.pruner}\`` : '| – |'), row);
		}
	});
});
