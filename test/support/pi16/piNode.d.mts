// Types of piNode.mjs.
import type { NodeAccept, NodeRuntime } from '../../harness/nodeRuntime.mjs';
export const PI1_NODE: { readonly version: string; readonly accept: NodeAccept };
export function ensurePi1Node(root: string, say: (message: string) => void): NodeRuntime;
