/**
 * Recoveries of raw outputs asked of the host (hovering a ref), each waiting for its answer: the
 * text, or why there is none (the tooltip then says so instead of waiting for ever).
 */
import type { ToWebview } from '../src/shared/protocol';
import type { HostChannel } from './hostChannel';

export class Recoveries {
	private readonly waiting = new Map<number, { resolve: (text: string) => void; reject: (reason: Error) => void }>();

	constructor(private readonly host: HostChannel) {}

	recover(ref: string): Promise<string> {
		return new Promise((resolve, reject) => {
			const requestId = this.host.nextRequestId();
			this.waiting.set(requestId, { resolve, reject });
			this.host.post({ type: 'recover', requestId, ref });
		});
	}

	answered(message: Extract<ToWebview, { type: 'recovered' | 'recoveryFailed' }>): void {
		const waiting = this.waiting.get(message.requestId);
		this.waiting.delete(message.requestId);
		if (message.type === 'recovered') {
			waiting?.resolve(message.text);
		} else {
			waiting?.reject(new Error(message.reason));
		}
	}
}
