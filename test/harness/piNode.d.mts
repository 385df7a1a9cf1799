export const PI_NODE_MAJOR: string;
export function piNodePath(root: string): string;
export function ensurePiNode(root: string, say?: (message: string) => void): string;
