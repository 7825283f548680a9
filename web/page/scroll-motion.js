// How the page scrolls to what a button shows: smoothly, or at once for a reader who asked for
// reduced motion (the system's setting, read at each scroll).

/** scrollIntoView's `behavior`. */
export const scrollBehavior = () => (matchMedia('(prefers-reduced-motion: reduce)').matches ? 'instant' : 'smooth');
