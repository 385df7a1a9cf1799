// Types of referenceFolders.mjs (plain ESM shared with the harness scripts).
export function realSessionsFolder(root: string): string;
export function assembleReferenceFolders(root: string): string;
export function referenceRelease(root: string, folder: string): string;
export function sessionFolderName(cwd: string): string;
export interface CopiedSession {
	readonly path: string;
	readonly id: string;
	readonly cwd: string;
}
export function copySession(source: string, sessionsDir: string, options?: { cwd?: string; mtime?: Date; withBlobs?: boolean }): CopiedSession;
export function writeUserInstall(agentDir: string, install: { release: string; contextPrune: unknown; other?: Record<string, unknown> }): void;
