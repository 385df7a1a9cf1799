// Types of piNode.mjs (plain ESM shared with the harness scripts and the test support).
import type { NodeAccept, NodeRuntime } from './nodeRuntime.mjs';
export const PI1_NODE: { readonly version: string; readonly accept: NodeAccept };
export function ensurePiNode(root: string, say?: (message: string) => void): NodeRuntime;
export function piNodePath(root: string): string;
