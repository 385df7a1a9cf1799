/**
 * Set by esbuild (`define` in scripts/build.mjs) in every Node bundle: the version of the pi-ai bundled in
 * `dist/pi-ai.js`, so Show Status can name it without loading it.
 */
declare const PI_CONDENSE_BUNDLED_PI_AI_VERSION: string;
