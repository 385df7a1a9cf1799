/**
 * pi-condense keeps spilled outputs in `<sessionId>-blobs/` next to the session file. The id comes
 * from the session header, which anyone who can put text in a session can write: an id such as
 * `../../../tmp/evil` would send reads and writes anywhere. So the folder is used only when the id
 * has Pi's form (a UUID: v7 in current Pi, v4 in older ones) and the folder, links resolved, is in
 * the session file's own folder. Otherwise nothing is read or written there, and the refusal says
 * why, naming the session file.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A UUID as Pi writes session ids (`crypto.randomUUID()` / `uuid` v7: lower-case hex). */
const PI_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isPiSessionId(id: string): boolean {
	return PI_SESSION_ID.test(id);
}

/** `<session folder>/<id>-blobs`, as pi-condense names it (whatever the id: check it first). */
export function blobDirectory(sessionFile: string, sessionId: string): string {
	return join(dirname(sessionFile), `${sessionId}-blobs`);
}

export type BlobFolder =
	| { readonly kind: 'ok'; readonly directory: string }
	/** The folder does not exist (nothing was spilled, or it was removed). */
	| { readonly kind: 'missing' }
	| { readonly kind: 'refused'; readonly reason: string };

/** Why the header id alone rules the blob folder out, or undefined when it has Pi's form. */
export function blobIdRefusal(sessionFile: string, sessionId: string): string | undefined {
	if (isPiSessionId(sessionId)) {
		return undefined;
	}
	const shown = sessionId.length > 80 ? `${sessionId.slice(0, 80)}…` : sessionId;
	return `${sessionFile}: its header id ${JSON.stringify(shown)} is not a Pi session id (a UUID), so its spilled outputs are neither read nor written.`;
}

/**
 * The blob folder of a session, links resolved, once it is known to sit beside the session file.
 * With `create`, a missing folder is made first (a flush is about to spill into it).
 */
export async function resolveBlobFolder(sessionFile: string, sessionId: string, options: { readonly create?: boolean } = {}): Promise<BlobFolder> {
	const refusal = blobIdRefusal(sessionFile, sessionId);
	if (refusal !== undefined) {
		return { kind: 'refused', reason: refusal };
	}
	const wanted = blobDirectory(sessionFile, sessionId);
	if (options.create) {
		await mkdir(wanted, { recursive: true });
	}
	let actual: string;
	let home: string;
	try {
		[actual, home] = await Promise.all([realpath(wanted), realpath(dirname(sessionFile))]);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return { kind: 'missing' };
		}
		throw error;
	}
	if (dirname(actual) !== home || basename(actual) !== basename(wanted)) {
		return { kind: 'refused', reason: `${sessionFile}: its blobs folder ${wanted} leads to ${actual}, outside the session's folder, so its spilled outputs are neither read nor written.` };
	}
	return { kind: 'ok', directory: actual };
}

/** `name` inside the folder, or undefined when it (links resolved) is elsewhere or missing. */
export async function blobFileInside(directory: string, name: string): Promise<string | undefined> {
	try {
		const file = await realpath(join(directory, name));
		return dirname(file) === directory ? file : undefined;
	} catch {
		return undefined;
	}
}
