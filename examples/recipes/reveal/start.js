// reveal.js, as its README starts it; the slide links (#/1) make each slide reachable.
Reveal.initialize({ hash: true });
