/**
 * Which pi-condense Pi loaded and whether the bridge runs after it, from Pi's command list
 * (`pi.getCommands()`, extension commands in extension load order, each with the file it came
 * from). pi-condense registers `/pruner`; the bridge registers its own command, so the two
 * positions give the order Pi runs their `context` handlers in. Pure.
 */
import type { LoadOrder } from './liveTypes';

export const PRUNER_COMMAND = 'pruner';
/** The bridge's own command in Pi: shows what it shares and with whom. */
export const BRIDGE_COMMAND = 'pi-condense-vscode';

export interface CommandSource {
	/** The name as it is typed (Pi appends `:N` when two extensions register one name). */
	readonly name: string;
	readonly source: string;
	readonly path: string | undefined;
}

export interface FoundOrder {
	readonly order: LoadOrder;
	/** The first `/pruner` registered, with where it came from (the one a user's `/pruner` reaches, or `/pruner:1`). */
	readonly pruner: { readonly command: string; readonly path: string } | undefined;
}

const isPruner = (command: CommandSource): boolean => command.source === 'extension' && (command.name === PRUNER_COMMAND || command.name.startsWith(`${PRUNER_COMMAND}:`));

export function findLoadOrder(commands: readonly CommandSource[] | undefined): FoundOrder {
	if (commands === undefined) {
		return { order: 'unknown', pruner: undefined };
	}
	const prunerAt = commands.findIndex(isPruner);
	const bridgeAt = commands.findIndex((command) => command.source === 'extension' && (command.name === BRIDGE_COMMAND || command.name.startsWith(`${BRIDGE_COMMAND}:`)));
	const found = commands[prunerAt];
	const pruner = found?.path === undefined ? undefined : { command: found.name, path: found.path };
	if (prunerAt < 0) {
		return { order: 'no-pi-condense', pruner: undefined };
	}
	if (bridgeAt < 0) {
		return { order: 'unknown', pruner };
	}
	// Every copy's handler must have run before the bridge's: compare with the last one.
	const lastPrunerAt = commands.reduce((last, command, index) => (isPruner(command) ? index : last), -1);
	return { order: bridgeAt > lastPrunerAt ? 'after-pi-condense' : 'before-pi-condense', pruner };
}

/** The package names pi-condense was published under. */
export const PI_CONDENSE_PACKAGES: readonly string[] = ['pi-condense', 'pi-context-prune'];
