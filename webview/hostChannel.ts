/**
 * The page's end of the protocol: typed posting, request/answer pairing by `requestId`, and the
 * state VS Code keeps for the page across reloads.
 */
import type { FromWebview, PageState, ToWebview } from '../src/shared/protocol';

export class HostChannel {
	private readonly api = acquireVsCodeApi<PageState>();
	private lastRequest = 0;

	post(message: FromWebview): void {
		this.api.postMessage(message);
	}

	nextRequestId(): number {
		return ++this.lastRequest;
	}

	/** Messages from the host arrive as window `message` events. */
	listen(handler: (message: ToWebview) => void): void {
		window.addEventListener('message', (event: MessageEvent<ToWebview>) => handler(event.data));
	}

	savedState(): PageState | undefined {
		return this.api.getState();
	}

	saveState(state: PageState): void {
		this.api.setState(state);
	}
}
