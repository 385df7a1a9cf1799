/**
 * Composition root: builds the services and hands them to the host layer. Nothing else lives here.
 */
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
	// The host layer is wired here as it lands.
}

export function deactivate(): void {
	// Nothing to release yet.
}
