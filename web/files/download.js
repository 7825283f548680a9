// Saving files from the browser: a Blob through a temporary object URL and <a download>.

/**
 * How long an object URL handed to a download stays valid. The browser reads it after the click
 * returns, when its own process gets to it: on a busy machine that took over a second, and a URL
 * revoked first gives no file at all. A minute, as FileSaver.js does with 40 s.
 */
export const DOWNLOAD_URL_LIFETIME_MS = 60_000;

export function download(filename, blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_LIFETIME_MS);
}
