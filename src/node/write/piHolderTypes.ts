/**
 * What a Pi holder check asks and answers (`piHolders.ts` picks the platform's check; the Linux and
 * macOS halves fill it in). Types only.
 */

export interface PiHolderQuery {
	readonly sessionPath: string;
	/** The session header's `cwd`. */
	readonly cwd: string | undefined;
}

export interface PiHolder {
	readonly pid: number;
	/** The command line, for messages. */
	readonly command: string;
	/** `bridge`: Pi's own bridge says this process has the session open (src/node/bridge/bridgeHolders.ts). */
	readonly why: 'same-cwd' | 'file-open' | 'bridge';
}

export type PiHolderReport =
	| { readonly checked: true; readonly holders: readonly PiHolder[]; readonly note?: string }
	| { readonly checked: false; readonly holders: readonly []; readonly note: string };

export type PiHolderCheck = (query: PiHolderQuery) => Promise<PiHolderReport>;

/** The paths a process's cwd or open file may show for `path` (as given, and with symlinks resolved). */
export interface PathForms {
	readonly sessionFile: ReadonlySet<string>;
	readonly cwd: ReadonlySet<string>;
}
