// Types of piPrefix.mjs (plain ESM shared with the harness scripts).
export const INSTALLABLE_PIS: { readonly '1.6.0': '@earendil-works/pi-coding-agent'; readonly '0.73.1': '@mariozechner/pi-coding-agent' };
export function installPiInPrefix(root: string, prefix: string, version: keyof typeof INSTALLABLE_PIS): { binDir: string; packageDir: string; source: string };
