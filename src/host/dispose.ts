/**
 * The disposable base of host classes: everything a class creates (emitters, registrations,
 * listeners) goes through `_register` and is released with it, in reverse order.
 */
import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
	private readonly disposables: vscode.Disposable[] = [];
	private disposed = false;

	dispose(): void {
		if (this.disposed) {
			return;
		}
		this.disposed = true;
		for (const disposable of this.disposables.splice(0).reverse()) {
			disposable.dispose();
		}
	}

	protected get isDisposed(): boolean {
		return this.disposed;
	}

	protected _register<T extends vscode.Disposable>(value: T): T {
		if (this.disposed) {
			value.dispose();
		} else {
			this.disposables.push(value);
		}
		return value;
	}
}
