/** Hands `href` (a blob: URL or a signed link) to the browser as a download named `fileName`. */
export function download(href: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
}
