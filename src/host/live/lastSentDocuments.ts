/**
 * A live Pi's requests as read-only documents (a content provider of their own scheme: nothing to
 * save, nothing to edit): Open request shows the last one, its system messages, messages and provider
 * payload written for reading (`requestDocument`: JSONC that VS Code flags nothing in); Compare with
 * Previous Request opens VS Code's diff editor on the last two requests kept for the session
 * (`RequestHistory`), without the payload (it holds the same messages again), its title saying where
 * they first differ: where the provider's prompt cache breaks. A request can be megabytes: only the
 * last few documents opened are held here.
 */
import * as vscode from 'vscode';
import {
	differenceTitle, type PayloadPart, type RequestDifference, type RequestDocument, requestDifference, requestDocument, writtenPartSteps,
} from '../../engine/live';
import type { LivePi } from '../../node/bridge/liveBridges';
import type { KeptRequest, RequestHistory } from '../../node/bridge/requestHistory';
import type { WorkScope } from '../../work';
import { errorMessage } from '../../base/errorMessage';

export const SENT_SCHEME = 'pi-condense-sent';
/** Documents held: an open request and both sides of a comparison, and one more. */
const KEPT_DOCUMENTS = 4;
const NOT_COMPARED = 'not in comparisons: it holds the same messages again, in the provider\'s format';

export class LastSentDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly texts = new Map<string, string>();
	private readonly changes = new vscode.EventEmitter<vscode.Uri>();
	/** A document held anew (VS Code reads an open one again). */
	readonly onDidChange = this.changes.event;
	private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SENT_SCHEME, this);

	/** `work` is its own scope (formatting a payload runs in its slices). */
	constructor(private readonly work: WorkScope, private readonly history: RequestHistory) {}

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this.texts.get(uri.toString()) ?? '// This request is no longer held: open it again.\n';
	}

	/** Fetches the Pi's last request (unless kept) and its payload, and opens them; throws with what went wrong. */
	async open(pi: LivePi): Promise<vscode.TextEditor> {
		const sent = pi.last;
		if (!sent) {
			throw new Error(`Pi ${pi.state.pid} has made no model request since VS Code connected to it.`);
		}
		const request = await this.history.request(pi, sent.seq);
		let payload: PayloadPart;
		try {
			payload = { written: await this.work.sliced(writtenPartSteps(await pi.client.requestText(sent.seq, 'payload'), 'payload')) };
		} catch (error) {
			payload = { missing: `not available: ${errorMessage(error)}` };
		}
		const document = requestDocument(request.head, request, payload);
		const uri = this.hold(`/pi-${pi.state.pid}/request-${sent.seq}.jsonc`, document);
		return vscode.window.showTextDocument(await this.jsonc(uri), { preview: true });
	}

	/**
	 * The diff editor between the last two requests kept for the Pi's session, the first difference
	 * selected on the right; throws with why when fewer than two are kept. Returns the title.
	 */
	async compare(pi: LivePi): Promise<string> {
		const kept = this.history.requests(pi.state.sessionFile);
		const newer = kept.at(-1);
		const older = kept.at(-2);
		if (!newer || !older) {
			throw new Error(kept.length === 0
				? `VS Code has kept no request of Pi ${pi.state.pid} for this session yet: it keeps each one Pi makes from now on (piCondense.liveSessions.keptRequests).`
				: `VS Code has kept one request of Pi ${pi.state.pid} for this session: compare once Pi has made another.`);
		}
		const difference = requestDifference(older, newer);
		const title = differenceTitle(pi.state.pid, older.head.seq, newer.head.seq, difference);
		const left = this.hold(`/pi-${pi.state.pid}/compared/request-${older.head.seq}.jsonc`, requestDocument(older.head, older, { missing: NOT_COMPARED }));
		const rightDocument = requestDocument(newer.head, newer, { missing: NOT_COMPARED });
		const right = this.hold(`/pi-${pi.state.pid}/compared/request-${newer.head.seq}.jsonc`, rightDocument);
		await this.jsonc(left);
		await this.jsonc(right);
		const line = firstDifferenceLine(rightDocument, difference, newer);
		await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, selection: new vscode.Range(line, 0, line, 0) } satisfies vscode.TextDocumentShowOptions);
		return title;
	}

	private hold(path: string, document: RequestDocument): vscode.Uri {
		const uri = vscode.Uri.from({ scheme: SENT_SCHEME, path });
		const before = this.texts.get(uri.toString());
		this.texts.delete(uri.toString());
		this.texts.set(uri.toString(), document.text);
		if (before !== undefined && before !== document.text) {
			this.changes.fire(uri);
		}
		for (const old of [...this.texts.keys()].slice(0, -KEPT_DOCUMENTS)) {
			this.texts.delete(old);
		}
		return uri;
	}

	private async jsonc(uri: vscode.Uri): Promise<vscode.TextDocument> {
		const document = await vscode.workspace.openTextDocument(uri);
		return document.languageId === 'jsonc' ? document : vscode.languages.setTextDocumentLanguage(document, 'jsonc');
	}

	dispose(): void {
		this.registration.dispose();
		this.changes.dispose();
		this.texts.clear();
	}
}

/** The line where the newer request first differs (its label line), or its first line. */
function firstDifferenceLine(document: RequestDocument, difference: RequestDifference, newer: KeptRequest): number {
	switch (difference.kind) {
		case 'system':
			return document.systemLine;
		case 'message':
			return document.messageLines[Math.min(difference.index, newer.messages.length - 1)] ?? document.systemLine;
		case 'appended':
			return document.messageLines[difference.kept] ?? 0;
		case 'same':
			return 0;
	}
}
