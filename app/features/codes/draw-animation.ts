/**
 * Whether the next draw result plays the slot machine: set by the draw form when the visitor draws,
 * read once by the result. A module of its own so that neither half imports the other's code.
 */
export const drawAnimation = { next: false };
