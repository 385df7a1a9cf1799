/**
 * VS Code's cancellation token as the `AbortSignal` the node layer and pi-ai take.
 */
import type * as vscode from 'vscode';

export function toAbortSignal(token: vscode.CancellationToken): { readonly signal: AbortSignal; dispose(): void } {
	const controller = new AbortController();
	if (token.isCancellationRequested) {
		controller.abort();
	}
	const listener = token.onCancellationRequested(() => {
		controller.abort();
	});
	return {
		signal: controller.signal,
		dispose: () => {
			listener.dispose();
		},
	};
}
