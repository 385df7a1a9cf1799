/** Stylesheets imported for their side effect: esbuild bundles them into dist/webview/main.css. */
declare module '*.css';
