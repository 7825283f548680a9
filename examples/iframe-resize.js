// Resizes relpos iframes to their content: the iframe view (relpos.html?embed=1 or
// index.html?embed=1) posts { type: 'relpos:height', height, href } to its parent after each
// draw; with fit=width its height follows from the frame's width. A message counts only if it
// comes from one of this page's iframes and from the origin that frame's src names (a frame
// sandboxed without allow-same-origin posts from the origin "null"), and the height is clamped
// to 0…10000 px: a page navigated into the frame can neither resize another frame nor make one
// taller than that. Copy this into your page.
const MAX_FRAME_HEIGHT = 10000;
addEventListener('message', (event) => {
  const { data } = event;
  if (data?.type !== 'relpos:height' || typeof data.height !== 'number' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow !== event.source) continue;
    const opaque = frame.hasAttribute('sandbox') && !frame.sandbox.contains('allow-same-origin');
    if (event.origin !== (opaque ? 'null' : new URL(frame.src, location.href).origin)) return;
    frame.style.height = `${Math.min(Math.max(Math.ceil(data.height), 0), MAX_FRAME_HEIGHT)}px`;
  }
});
