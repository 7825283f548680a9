// Resizes every relpos iframe to its content: the iframe view (index.html?embed=1 or
// relpos.html?embed=1) posts { type: 'relpos:height', height, href } to its parent after each
// draw; with fit=width its height follows from the frame's width. Copy this into your page.
addEventListener('message', (event) => {
  if (event.data?.type !== 'relpos:height' || !Number.isFinite(event.data.height)) return;
  for (const frame of document.querySelectorAll('iframe'))
    if (frame.contentWindow === event.source) frame.style.height = `${event.data.height}px`;
});
