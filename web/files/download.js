// Saving files from the browser: a Blob through a temporary object URL and <a download>.
export function download(filename, blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCanvas(canvas, filename) {
  canvas.toBlob((blob) => download(filename, blob), 'image/png');
}
