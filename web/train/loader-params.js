// The training loader's own parameters of the page's address (train-loader.js, in the first
// load): ?train-workers=1 trains in one worker (the numbers are the same with two);
// ?longer-steps=N trains each model of "Longer than trained" N steps. Kept in the address as the
// link gave them; the training section (train-link.js) takes every other train… parameter for
// its own. Nothing else here: the first load imports this file.
export const TRAIN_WORKERS = 'train-workers';
export const LONGER_STEPS = 'longer-steps';
/** Both, in that order. */
export const LOADER_PARAMS = Object.freeze([TRAIN_WORKERS, LONGER_STEPS]);
