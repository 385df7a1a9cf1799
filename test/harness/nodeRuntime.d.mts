// Types of nodeRuntime.mjs (plain ESM shared by the harness scripts and the TypeScript tests).
export interface NodeAccept {
	readonly minimum?: string;
	readonly major?: number;
}
export interface NodeRuntime {
	readonly nodeBin: string;
	readonly version: string;
	/** PATH with that Node first, and npm_config_nodedir (its headers); empty for this process's own Node. */
	readonly env: Readonly<Record<string, string>>;
	readonly fromNpm: boolean;
}
export function parseVersion(text: string): [number, number, number];
export function versionAccepted(version: string, accept: NodeAccept): boolean;
export function nodePackageName(): string;
export function nodeRuntimeDir(root: string, version: string): string;
export function ensureNodeRuntime(root: string, options: { version: string; accept: NodeAccept; say?: (message: string) => void; purpose?: string }): NodeRuntime;
