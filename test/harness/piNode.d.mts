// Types of piNode.mjs (plain ESM shared with the harness scripts and the test support).
export const PI_NODE_MAJOR: string;
export function piNodePath(root: string): string;
export function ensurePiNode(root: string, say?: (message: string) => void): string;
