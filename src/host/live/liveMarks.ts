/**
 * What the views need to mark live sessions: which running Pi holds a session (from its bridge),
 * and when that changes. `LiveSessions` provides it; views take this narrow interface.
 */
import type * as vscode from 'vscode';
import type { BridgeState } from '../../engine/live';

export interface LiveMarks {
	forSession(path: string | undefined): { readonly state: BridgeState } | undefined;
	readonly onDidChange: vscode.Event<void>;
}
