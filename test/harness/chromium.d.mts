// Types of chromium.mjs (plain ESM shared with the TypeScript page tests).
export function chromiumPath(): string;
export function chromiumPathIsCustom(): boolean;
export const chromiumFlags: readonly string[];
export function noChromiumMessage(path: string, custom: boolean): string;
export function missingChromium(): string | undefined;
export function assertChromium(): void;
