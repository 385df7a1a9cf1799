/**
 * Set by esbuild (`define` in scripts/build.mjs) in every Node bundle: the version of the pi-ai bundled in
 * `dist/pi-ai.js`, so Show Status can name it without loading it; and this extension's own version.
 */
declare const PI_CONDENSE_BUNDLED_PI_AI_VERSION: string;

/** Set by esbuild the same way: this extension's version, from package.json (the CLI's `--version`). */
declare const PI_CONDENSE_VERSION: string;
