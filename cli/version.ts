// yoke's own version (the reading lives with the other file I/O, so effects can name it too).
export { yokeVersion } from '../effects/fs/yoke-version.js';
