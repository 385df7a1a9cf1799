/**
 * A minimal typed event emitter for the layers without `vscode.EventEmitter` (the Node layer, the
 * bridge). Its `event` has the shape of `vscode.Event` minus `thisArgs`, so the host can forward it
 * as is. Plain TypeScript: no Node, no DOM.
 */

export interface Subscription {
	dispose(): void;
}

export type Listener<T> = (value: T) => void;

export class Emitter<T> {
	private readonly listeners = new Set<Listener<T>>();

	constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

	readonly event = (listener: Listener<T>): Subscription => {
		this.listeners.add(listener);
		return { dispose: () => this.listeners.delete(listener) };
	};

	/** Calls every listener; one that throws does not keep the others from hearing the event. */
	fire(value: T): void {
		for (const listener of [...this.listeners]) {
			try {
				listener(value);
			} catch (error) {
				this.onListenerError(error);
			}
		}
	}

	dispose(): void {
		this.listeners.clear();
	}
}
