/**
 * The `pi-condense:` URIs of the extension's read-only documents: a recovered raw output per ref, a
 * summary or compressed chain as markdown, the help page and Show Status's report. The session file travels in the query.
 *
 *   pi-condense:/recovered/t3.md?session=/path/to/session.jsonl
 *   pi-condense:/summary/<entryId>.md?session=…     pi-condense:/chain/b2.md?session=…     pi-condense:/help.md
 *   pi-condense:/status.md
 */
import * as vscode from 'vscode';

export const PRUNE_SCHEME = 'pi-condense';

export type PruneDocument =
	| { readonly kind: 'recovered'; readonly sessionPath: string; readonly ref: string }
	| { readonly kind: 'summary'; readonly sessionPath: string; readonly entryId: string }
	| { readonly kind: 'chain'; readonly sessionPath: string; readonly blockId: string }
	| { readonly kind: 'help' }
	| { readonly kind: 'status' };

export function pruneUri(document: PruneDocument): vscode.Uri {
	switch (document.kind) {
		case 'help':
			return vscode.Uri.from({ scheme: PRUNE_SCHEME, path: '/help.md' });
		case 'status':
			return vscode.Uri.from({ scheme: PRUNE_SCHEME, path: '/status.md' });
		case 'recovered':
			return sessionUri('recovered', document.ref, document.sessionPath);
		case 'summary':
			return sessionUri('summary', document.entryId, document.sessionPath);
		case 'chain':
			return sessionUri('chain', document.blockId, document.sessionPath);
	}
}

export function parsePruneUri(uri: vscode.Uri): PruneDocument | undefined {
	if (uri.scheme !== PRUNE_SCHEME) {
		return undefined;
	}
	if (uri.path === '/help.md') {
		return { kind: 'help' };
	}
	if (uri.path === '/status.md') {
		return { kind: 'status' };
	}
	const match = /^\/(recovered|summary|chain)\/(.+)\.md$/.exec(uri.path);
	const sessionPath = new URLSearchParams(uri.query).get('session');
	if (!match || !sessionPath) {
		return undefined;
	}
	const name = decodeURIComponent(match[2] ?? '');
	switch (match[1]) {
		case 'recovered':
			return { kind: 'recovered', sessionPath, ref: name };
		case 'summary':
			return { kind: 'summary', sessionPath, entryId: name };
		default:
			return { kind: 'chain', sessionPath, blockId: name };
	}
}

/** The session a `pi-condense:` document belongs to, if any. */
export function sessionOfPruneUri(uri: vscode.Uri): string | undefined {
	const parsed = parsePruneUri(uri);
	return parsed && 'sessionPath' in parsed ? parsed.sessionPath : undefined;
}

function sessionUri(kind: string, name: string, sessionPath: string): vscode.Uri {
	// Ids may hold `|` or other characters a path segment should not carry raw.
	return vscode.Uri.from({ scheme: PRUNE_SCHEME, path: `/${kind}/${encodeURIComponent(name)}.md`, query: new URLSearchParams({ session: sessionPath }).toString() });
}
