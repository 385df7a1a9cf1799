/** Public API of src/engine/paths/ for the layers above the engine. */
export { lastPathSegment } from './pathName';
