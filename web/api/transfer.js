// What a worker hands over without copying: the buffers of the typed arrays in a value.

/** Every ArrayBuffer under `value` (its typed arrays, at any depth), for a transfer list. */
export function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object') for (const child of Object.values(value)) buffersOf(child, found);
  return [...found];
}
