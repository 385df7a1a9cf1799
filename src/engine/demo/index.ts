/** Public API of src/engine/demo/ for the layers above the engine. */
export { type DemoWriterContext, headerLine, openingLines, promptLines } from './demoEntries';
export { csvExportSession, type DemoSessionScript, flakyDateSession } from './demoScript';
export { demoSummarizer } from './demoSummarizer';
