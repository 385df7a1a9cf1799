/**
 * The last request a live Pi made, opened as a read-only document: the system messages Pi put ahead
 * of the conversation, the messages of its `context` event (what pi-condense returned), and the
 * provider payload, each exactly as JSON, fetched from the bridge on demand (a full context is never
 * sent unasked). One document per request; a newer request needs a new open.
 */
import * as vscode from 'vscode';
import type { SentPart } from '../../engine/live';
import type { LivePi } from '../../node/bridge/liveBridges';
import { errorMessage } from '../../base/errorMessage';

export const SENT_SCHEME = 'pi-condense-sent';
const KEPT_DOCUMENTS = 3;

const PARTS: ReadonlyArray<readonly [SentPart, string]> = [
	['system', 'the system messages Pi put ahead of the conversation'],
	['messages', 'the messages of Pi\'s context event, after every extension loaded before the bridge (pi-condense)'],
	['payload', 'the provider payload, as the model server received it'],
];

export class LastSentDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly texts = new Map<string, string>();
	private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SENT_SCHEME, this);

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this.texts.get(uri.toString()) ?? '// This request is no longer held: open the last request again.';
	}

	/** Fetches the parts of the Pi's last request and opens them; throws with what went wrong. */
	async open(pi: LivePi): Promise<vscode.TextEditor> {
		const sent = pi.last;
		if (!sent) {
			throw new Error(`Pi ${pi.state.pid} has made no model request since VS Code connected to it.`);
		}
		const sections: string[] = [
			`// The last request Pi ${pi.state.piVersion} (pid ${pi.state.pid}) made: request ${sent.seq}, at ${new Date(sent.at).toISOString()}${sent.model ? `, ${sent.model.provider}/${sent.model.id}` : ''}.`,
			`// Session: ${sent.sessionFile ?? '(kept in memory)'}`,
		];
		for (const [part, what] of PARTS) {
			let text: string;
			try {
				text = await pi.client.requestText(sent.seq, part);
			} catch (error) {
				text = `// not available: ${errorMessage(error)}`;
			}
			sections.push('', `// ──── ${part}: ${what} (${text.length} characters)`, text);
		}
		const uri = vscode.Uri.from({ scheme: SENT_SCHEME, path: `/pi-${pi.state.pid}-request-${sent.seq}.jsonc` });
		this.texts.set(uri.toString(), `${sections.join('\n')}\n`);
		// A request can be megabytes: only the few last opened are kept.
		for (const old of [...this.texts.keys()].slice(0, -KEPT_DOCUMENTS)) {
			this.texts.delete(old);
		}
		const document = await vscode.workspace.openTextDocument(uri);
		return vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(document, 'jsonc'), { preview: true });
	}

	dispose(): void {
		this.registration.dispose();
		this.texts.clear();
	}
}
