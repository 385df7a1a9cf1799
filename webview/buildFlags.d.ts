/**
 * Set by esbuild (`define` in scripts/build.mjs): true in development and test builds, false in the
 * production build, which then drops the render-report code altogether (`npm run package` checks).
 */
declare const PI_CONDENSE_RENDER_REPORTS: boolean;
