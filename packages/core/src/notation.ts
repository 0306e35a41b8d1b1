/**
 * `@riffscribe/core/notation`: the lesson as an alphaTab score model and as a Guitar Pro 7 file.
 * A separate entry so that importing `@riffscribe/core` never brings alphaTab (about 1 MB of
 * minified code) into a bundle; the web app's notation view imports this entry on its own.
 */
export { alphaTabString, toAlphaTab } from './music/alphatab.js';
export { toGuitarPro } from './music/guitarpro.js';
